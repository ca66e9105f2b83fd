"""Card powers (RULES G7): which card gives which power, the legal power actions, their effects.

A power card drawn from the stock may be discarded to use its power instead of
being kept (G7.1); the action names the power and its targets, e.g.
``power peek 1:3`` (look at seat 1's position 3), ``power swap 0:2 1:3``,
``power shuffle 1``, ``power give 1:4`` (G7.5 cutthroat: your king for a face-up
card of seat 1, which you must then put into your layout).

Knowledge follows the cards (G8): a peek adds the peeking seat to the card's
knowers; a swap moves each card with its knowers and face; a shuffle is a
chance event after which nobody knows the shuffled face-down cards.

The extended set (``powers=powers``, G7.4) gives every rank but the queen and
the red king a power; :data:`EXTENDED_HELP` lists them with their action texts.
Readings *decided here* (RULES is silent or ambiguous):

- A turn draws the stock's top card; the discard pile cannot be taken (G7.4
  names only the stock). The drawn card is put in (``swap P``: the replaced card
  is discarded face up, unseen by its owner before), discarded (``discard``),
  or discarded to use its power. Using a power is always optional (G7.1).
- "Opponent" targets never include your own layout, nor the knocker's (G4.3).
  The black king is the only card whose power acts from a layout (turned face
  up there by a 4); every other power acts when its card is discarded.
- 9: the 9 takes the opponent's card's place face down, and everyone knows it
  (a used power card is shown); the replaced card is discarded face up.
- 8: ``power draw2`` takes the next two stock cards (reshuffling as G2.5 if the
  stock runs out), seen by the player only; ``power keep K`` keeps card K of
  the offer (0 is the 8, 1 and 2 the drawn cards), which must then be put in
  with ``swap P``; the rest are discarded face up.
- 7: ``power rows S:R S:R2`` / ``power cols S:C S:C2`` exchange two whole rows or
  columns of the grid; every card keeps its face and its knowers.
- 5: ``power shield``: the seat gains a shield token (the 5 goes to the discard
  pile); a shield is spent, automatically, on the next *attack* on the seat: a
  9, 7, 6, 4 ``show``, 3 or ace ``add`` aimed at its layout, which then does
  nothing. A peek is not an attack. Shields stack.
- 4: ``power show S:P`` turns an opponent's face-down card face up (a black
  king turned up this way while a knock stands cancels the knock);
  ``power hide S:P`` turns one of your face-up cards face down (everyone has
  seen it, so everyone still knows it).
- 2: the 2 is discarded and lends two different powers among 3..black king, one
  after the other: the first is any such power action, the second is offered
  in phase ``second`` (or ``pass``). Powers count as different by card: peek
  own (J) and peek other (10) differ, ``show``/``hide`` are both the 4. The 9
  is not on offer through a 2 (it gives its own card away); an 8 through a 2
  offers only the two drawn cards.
- A: ``power add S`` puts the stock's top card face down into an opponent's
  first free position beyond the grid, unknown to everyone (a layout holds at
  most twice its grid); ``power remove S:P`` discards one of your cards face up,
  leaving its place empty (scores 0; a layout keeps at least one card).
- Black K: drawn from the stock while a knock stands, ``power cancel``
  discards it and cancels the knock; the round goes on as if nobody had
  knocked (anyone may knock again).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from greenfelt.cards import Card, Rank
from greenfelt.golf.actions import GolfAction, power_action

if TYPE_CHECKING:
    from greenfelt.golf.game import GolfRound

__all__ = [
    "ATTACKS",
    "EXTENDED_HELP",
    "POWER_SETS",
    "extended_power",
    "power_actions",
    "power_name",
    "power_of",
    "second_actions",
    "why_extended_illegal",
]

# G7.2, G7.3: variant -> rank -> power. "peek_own"/"peek_other" look at a card,
# "swap_own_other" swaps one of yours with an opponent's (cambio K), "swap_any"
# swaps any two table cards (BGA K), "shuffle_other" rearranges a layout (cambio joker).
POWER_SETS: dict[str, dict[int, str]] = {
    "off": {},
    "cambio": {
        Rank.JACK: "peek_own",
        Rank.QUEEN: "peek_other",
        Rank.KING: "swap_own_other",
        Rank.JOKER: "shuffle_other",
    },
    "bga": {Rank.JACK: "peek_own", Rank.QUEEN: "peek_other", Rank.KING: "swap_any"},
}

POWER_HELP = {
    "peek_own": "look at one of your own face-down cards",
    "peek_other": "look at one face-down card of an opponent",
    "swap_own_other": "swap one of your cards with one of an opponent's, unseen",
    "swap_any": "swap any two cards on the table (each keeps its face)",
    "shuffle_other": "rearrange an opponent's cards at random",
    "give": "swap your king for a face-up card of another player, who must keep it",
}


# G7.4: the extended set, by the power's card. The verbs of each power.
EXTENDED_HELP: dict[str, tuple[str, str]] = {
    "K": ("power cancel", "black king drawn while a knock stands: cancel the knock"),
    "J": ("power peek S:P", "look at one of your own face-down cards (S is you)"),
    "10": ("power peek S:P", "look at one face-down card of an opponent"),
    "9": ("power place S:P", "put this 9 in place of an opponent's card, which is discarded"),
    "8": (
        "power draw2, power keep N, swap P",
        "draw the next two stock cards, keep one of them or the 8 (N = 0 is the 8) "
        "and put it in at P; the others are discarded",
    ),
    "7": (
        "power rows S:R S:R2 | power cols S:C S:C2",
        "swap two rows or two columns of an opponent's grid",
    ),
    "6": ("power swap S:P T:Q", "swap one of your cards with one of an opponent's"),
    "5": ("power shield", "a shield that blocks the next attack on your layout"),
    "4": (
        "power show S:P | power hide S:P",
        "turn an opponent's card face up, or one of yours face down",
    ),
    "3": ("power shuffle S", "shuffle an opponent's cards (nobody knows the face-down ones)"),
    "2": (
        "any two of the above (3..K) in turn, then pass or a second one",
        "use two different powers among 3..black king (not the 9)",
    ),
    "A": (
        "power add S | power remove S:P",
        "the stock's top card goes unseen into an opponent's layout, or one of "
        "your cards goes to the discard pile",
    ),
    "Q": ("discard", "no power (a dud)"),
    "red K": ("swap P", "no power; worth -1"),
}
_EXTENDED_RANKS = {
    Rank.ACE: "A",
    Rank.TWO: "2",
    Rank.THREE: "3",
    Rank.FOUR: "4",
    Rank.FIVE: "5",
    Rank.SIX: "6",
    Rank.SEVEN: "7",
    Rank.EIGHT: "8",
    Rank.NINE: "9",
    Rank.TEN: "10",
    Rank.JACK: "J",
}
# G7.4: the powers a 2 lends (3 .. black king, the 9 excepted: see the module docstring).
_TWO_LENDS = ("3", "4", "5", "6", "7", "8", "10", "J", "K")
ATTACKS = frozenset(("place", "rows", "cols", "swap", "show", "shuffle", "add"))
"""G7.4 5: the verbs that act on an opponent's layout, which a shield blocks."""


def extended_power(card: Card) -> str | None:
    """The G7.4 power of ``card`` ("A", "2", ..., "J", "K" for a black king), if any."""
    rank = card.rank
    if rank == Rank.KING:
        suit = card.suit
        return "K" if suit is not None and not suit.is_red else None
    return _EXTENDED_RANKS.get(rank)


def power_name(action: GolfAction, seat: int) -> str:
    """Which G7.4 power ``action`` uses (a peek at your own card is the J's, else the 10's)."""
    verb = action.power
    if verb == "peek":
        return "J" if action.targets[0][0] == seat else "10"
    return _VERB_POWER[verb or ""]


_VERB_POWER = {
    "place": "9",
    "draw2": "8",
    "rows": "7",
    "cols": "7",
    "swap": "6",
    "shield": "5",
    "show": "4",
    "hide": "4",
    "shuffle": "3",
    "add": "A",
    "remove": "A",
    "cancel": "K",
}


def power_of(round_: GolfRound, card: Card) -> str | None:
    """The power ``card`` gives when drawn from the stock under these rules (G7.1)."""
    if round_.rules.powers == "powers":
        return extended_power(card)
    return POWER_SETS[round_.rules.powers].get(card.rank)


def _frozen(round_: GolfRound) -> int | None:
    """G4.3: the knocker's layout, which no power may target."""
    return round_.closer if round_.knocked else None


def power_actions(round_: GolfRound, seat: int) -> list[GolfAction]:
    """Every legal power use for ``seat`` holding a card drawn from the stock."""
    card = round_.held
    if card is None or not round_.held_from_stock:
        return []
    if round_.rules.powers == "powers":
        name = extended_power(card)
        if name is None:
            return []
        if name == "2":
            return [a for lent in _TWO_LENDS for a in _extended(round_, seat, lent, True)]
        return _extended(round_, seat, name, False)
    size, n = round_.size, round_.n
    frozen = _frozen(round_)
    cards, up = round_.cards, round_.up
    out: list[GolfAction] = []

    def places(target: int, face_down_only: bool) -> list[int]:
        base = target * size
        return [
            p
            for p in range(size)
            if cards[base + p] is not None and not (face_down_only and up[base + p])
        ]

    others = [s for s in range(n) if s not in (seat, frozen)]
    power = power_of(round_, card)
    if power == "peek_own":
        bit = 1 << seat
        known = round_.known
        out += [
            power_action("peek", (seat, p))
            for p in places(seat, True)
            if not known[seat * size + p] & bit
        ] or [power_action("peek", (seat, p)) for p in places(seat, True)]
    elif power == "peek_other":
        out += [power_action("peek", (s, p)) for s in others for p in places(s, True)]
    elif power == "swap_own_other":
        mine = places(seat, False)
        out += [
            power_action("swap", (seat, p), (s, q))
            for p in mine
            for s in others
            for q in places(s, False)
        ]
    elif power == "swap_any":
        cells = [(s, p) for s in range(n) if s != frozen for p in places(s, False)]
        out += [power_action("swap", a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]]
    elif power == "shuffle_other":
        out += [power_action("shuffle", (s, None)) for s in others if len(places(s, False)) > 1]
    if round_.rules.cutthroat and card.rank == Rank.KING:
        # G7.5: a king from the stock for any face-up card of another player.
        out += [
            power_action("give", (s, p))
            for s in others
            for p in places(s, False)
            if up[s * size + p]
        ]
    return out


def second_actions(round_: GolfRound, seat: int) -> list[GolfAction]:
    """G7.4 2: the second power on offer, different from the first (``pass`` is added by the round)."""
    used = round_.combo or ()
    return [
        a for lent in _TWO_LENDS if lent not in used for a in _extended(round_, seat, lent, True)
    ]


def _extended(round_: GolfRound, seat: int, name: str, lent: bool) -> list[GolfAction]:
    """Every use of the G7.4 power ``name`` by ``seat`` (``lent``: through a 2)."""
    rules = round_.rules
    size, n, grid = round_.size, round_.n, rules.shape.size
    frozen = _frozen(round_)
    cards, up = round_.cards, round_.up
    others = [s for s in range(n) if s not in (seat, frozen)]

    def places(target: int, face_down: bool | None = None) -> list[int]:
        base = target * size
        return [
            p
            for p in range(size)
            if cards[base + p] is not None and (face_down is None or up[base + p] != face_down)
        ]

    if name == "J":
        bit, known = 1 << seat, round_.known
        mine = places(seat, True)
        return [
            power_action("peek", (seat, p)) for p in mine if not known[seat * size + p] & bit
        ] or [power_action("peek", (seat, p)) for p in mine]
    if name == "10":
        return [power_action("peek", (s, p)) for s in others for p in places(s, True)]
    if name == "9":
        return [power_action("place", (s, p)) for s in others for p in places(s)]
    if name == "8":
        # Through a 2 the offer is the drawn cards alone, so one must come.
        pile = len(round_.discard) + (1 if lent and round_.phase.value == "drawn" else 0)
        return [power_action("draw2")] if round_.stock or pile >= 2 else []
    if name == "7":
        shape = rules.shape
        out = [
            power_action("rows", (s, a), (s, b))
            for s in others
            for a in range(shape.rows)
            for b in range(a + 1, shape.rows)
        ]
        return out + [
            power_action("cols", (s, a), (s, b))
            for s in others
            for a in range(shape.cols)
            for b in range(a + 1, shape.cols)
        ]
    if name == "6":
        return [
            power_action("swap", (seat, p), (s, q))
            for p in places(seat)
            for s in others
            for q in places(s)
        ]
    if name == "5":
        return [power_action("shield")]
    if name == "4":
        out = [power_action("show", (s, p)) for s in others for p in places(s, True)]
        return out + [power_action("hide", (seat, p)) for p in places(seat, False)]
    if name == "3":
        return [power_action("shuffle", (s, None)) for s in others if len(places(s)) > 1]
    if name == "A":
        out = []
        if round_.stock or round_.discard:  # the ace itself will be on the pile
            out = [
                power_action("add", (s, None))
                for s in others
                if any(cards[s * size + p] is None for p in range(grid, size))
            ]
        mine = places(seat)
        return out + [power_action("remove", (seat, p)) for p in mine if len(mine) > 1]
    if name == "K":
        return [power_action("cancel")] if round_.knocked else []
    return []


def why_extended_illegal(round_: GolfRound, seat: int, action: GolfAction) -> str | None:
    """A reason a player can act on for an illegal G7.4 power action, or None."""
    phase = round_.phase.value
    verb = action.power or ""
    if phase == "choose":
        offer = len(round_.choice)
        if verb != "keep":
            return f"choose the card to keep first: power keep 0 .. power keep {offer - 1} (G7.4 8)"
        return f"power keep takes a card number from 0 to {offer - 1} (G7.4 8)"
    if verb == "keep":
        return "power keep chooses among the cards an 8 drew; nothing is on offer now (G7.4 8)"
    if phase == "second":
        used = round_.combo or ()
        name = power_name(action, seat) if verb in _VERB_POWER or verb == "peek" else None
        if name is not None and name in used:
            return f"this 2 already lent the {name}'s power: choose a different one, or pass (G7.4)"
        if name in ("9", "A"):
            return f"a 2 lends the powers of 3 .. black king, not the {name}'s (G7.4)"
    elif phase != "drawn" or not round_.held_from_stock or round_.held is None:
        return "a power is used by discarding a card just drawn from the stock (G7.1)"
    else:
        card = round_.held
        name = extended_power(card)
        wanted = power_name(action, seat) if verb in _VERB_POWER or verb == "peek" else None
        if name is None:
            return f"the {card} has no power in this variant (G7.4); swap it in or discard it"
        if name == "2":
            if wanted in ("9", "A"):
                return f"a 2 lends the powers of 3 .. black king, not the {wanted}'s (G7.4)"
        elif {wanted, name} == {"J", "10"}:
            whose = "one of your own cards" if name == "J" else "an opponent's card"
            return f"the {card} looks at {whose} (G7.4), not {action}"
        elif wanted is not None and wanted != name:
            verbs = EXTENDED_HELP[name][0]
            return f"the {card}'s power is: {verbs} (G7.4), not {action}"
    n, size = round_.n, round_.size
    for target, pos in action.targets:
        if not 0 <= target < n:
            return f"seat {target} is not at this table (seats 0-{n - 1})"
        if target == _frozen(round_):
            return f"seat {target} knocked: its layout is frozen (G4.3)"
        if pos is not None and verb not in ("rows", "cols"):
            if not 0 <= pos < size:
                return f"position {pos} is outside seat {target}'s layout (positions 0-{size - 1})"
            if round_.cards[target * size + pos] is None:
                return f"seat {target}'s position {pos} is empty"
    mine = [t for t, _ in action.targets]
    if verb in ("place", "rows", "cols", "show", "shuffle", "add") and seat in mine:
        return (
            f"power {verb} acts on an opponent's layout, not yours "
            "(G7.4: only the black king acts in its owner's layout)"
        )
    if verb in ("hide", "remove") and mine and mine[0] != seat:
        return f"power {verb} acts on your own layout (seat {seat})"
    if verb == "swap" and len(mine) == 2 and (mine[0] == mine[1] or seat not in mine):
        return "the 6 swaps one of your cards with one of an opponent's (G7.4)"
    if verb == "cancel" and not round_.knocked:
        return "nobody has knocked: there is no knock to cancel (G7.4)"
    if verb == "add":
        return "that layout is full (a layout holds at most twice its grid), or the stock is empty"
    if verb == "remove":
        return "a layout keeps at least one card (G7.4 A)"
    if verb == "show":
        return "power show turns a face-down card face up; that card is already face up"
    if verb == "hide":
        return "power hide turns one of your face-up cards face down; that card is face down"
    if verb == "peek":
        return "a peek looks at a face-down card"
    if verb in ("rows", "cols"):
        return f"power {verb} names two different {verb} of one opponent's grid, as in 1:0 1:1"
    return None


def describe(action: GolfAction) -> str:
    """A sentence for a power action (interfaces, logs)."""
    targets = action.targets
    if action.power == "peek":
        return f"look at seat {targets[0][0]}'s card {targets[0][1]}"
    if action.power == "swap":
        (a, p), (b, q) = targets
        return f"swap seat {a}'s card {p} with seat {b}'s card {q}"
    if action.power == "shuffle":
        return f"shuffle seat {targets[0][0]}'s cards"
    if action.power == "give":
        return f"give your king to seat {targets[0][0]} for card {targets[0][1]}"
    extended = {
        "place": "put the 9 in place of seat {0}'s card {1}",
        "draw2": "draw two more cards and keep one",
        "keep": "keep card {0} of the offer",
        "rows": "swap rows {1} and {3} of seat {0}",
        "cols": "swap columns {1} and {3} of seat {0}",
        "shield": "raise a shield",
        "show": "turn seat {0}'s card {1} face up",
        "hide": "turn seat {0}'s card {1} face down",
        "add": "add the stock's top card to seat {0}'s layout",
        "remove": "discard your card {1}",
        "cancel": "cancel the knock",
    }
    flat = [x for t in targets for x in t]
    return extended[action.power or ""].format(*flat)
