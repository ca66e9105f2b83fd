"""Card powers (RULES G7): which card gives which power, the legal power actions, their effects.

A power card drawn from the stock may be discarded to use its power instead of
being kept (G7.1); the action names the power and its targets, e.g.
``power peek 1:3`` (look at seat 1's position 3), ``power swap 0:2 1:3``,
``power shuffle 1``, ``power give 1:4`` (G7.5 cutthroat: your king for a face-up
card of seat 1, which you must then put into your layout).

Knowledge follows the cards (G8): a peek adds the peeking seat to the card's
knowers; a swap moves each card with its knowers and face; a shuffle is a
chance event after which nobody knows the shuffled face-down cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from greenfelt.cards import Card, Rank
from greenfelt.golf.actions import GolfAction, power_action

if TYPE_CHECKING:
    from greenfelt.golf.game import GolfRound

__all__ = ["POWER_SETS", "power_actions", "power_of"]

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


def power_of(round_: GolfRound, card: Card) -> str | None:
    """The power ``card`` gives when drawn from the stock under these rules (G7.1)."""
    return POWER_SETS[round_.rules.powers].get(card.rank)


def _frozen(round_: GolfRound) -> int | None:
    """G4.3: the knocker's layout, which no power may target."""
    return round_.closer if round_.knocked else None


def power_actions(round_: GolfRound, seat: int) -> list[GolfAction]:
    """Every legal power use for ``seat`` holding a card drawn from the stock."""
    card = round_.held
    if card is None or not round_.held_from_stock:
        return []
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
    return f"give your king to seat {targets[0][0]} for card {targets[0][1]}"
