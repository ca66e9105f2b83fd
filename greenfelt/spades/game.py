"""One hand of two-player Spades (RULES S1-S5): the state machine.

A hand is a pure function of its rules, dealer, deck order and actions
(DESIGN.md). Its phases follow the rules in order:

``BLIND`` (S2.1, non-dealer then dealer: ``blind nil`` or ``pass``) ->
``DRAW`` (S2.2-S2.3, 26 steps, non-dealer first: ``keep`` or ``reject``) ->
``BID`` (S3, non-dealer then dealer, a blind-nil player is skipped) ->
``PLAY`` (S4, 13 tricks, non-dealer leads first) -> ``OVER`` (S5 scored).

Each draw step takes exactly two cards from the deck: on ``keep`` the drawer
keeps the top card and the next is discarded; on ``reject`` the top card is
discarded and the drawer keeps the next one without a further action
(S2.2). So 26 steps consume the 52 cards and leave 13 in each hand (S2.3),
and discard ``i`` always comes from step ``i``, whose drawer is known.

Cards are :class:`~greenfelt.cards.Card` codes: spades are 0-12, so "is a
spade" is ``card < 13`` and a suit is ``card // 13``. The hot path
(:meth:`SpadesHand.apply_unchecked`, cached legal tuples, interned actions)
keeps random playouts well above 100,000 steps per second.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple, Self

from greenfelt.cards import CARDS, Card, Suit, card_texts, parse_card, shuffle
from greenfelt.errors import IllegalAction, NotationError, NotYourTurn, RecordError, RulesError
from greenfelt.spades.actions import (
    BIDS,
    BLIND_NIL,
    KEEP,
    PASS,
    PLAYS,
    REJECT,
    ActionKind,
    SpadesAction,
    parse_action,
)
from greenfelt.spades.rules import SpadesRules, rules_to_json
from greenfelt.spades.scoring import HandScore, score_hand

__all__ = [
    "RANK_POWER",
    "Phase",
    "SpadesHand",
    "Trick",
    "deck_for_hands",
    "new_hand",
    "random_playout",
    "sort_cards",
    "trick_winner",
]


class Phase(enum.Enum):
    """Where a hand stands; a call in the wrong phase names it (STYLE 9)."""

    BLIND = "blind"  # S2.1
    DRAW = "draw"  # S2.2-S2.3
    BID = "bid"  # S3
    PLAY = "play"  # S4
    OVER = "over"  # S5 scored


class Trick(NamedTuple):
    """A completed trick (public, S4.3)."""

    leader: int
    lead: Card
    follow: Card
    winner: int


RANK_POWER: Final = tuple(14 if c % 13 == 0 else c % 13 + 1 for c in range(52))
"""A card code's rank power for S1.1 (A high): code % 13 is rank - 1, so the ace gets 14."""
_POWER: Final = RANK_POWER
_SORT_KEY: Final = tuple((c // 13) * 16 + (15 - _POWER[c]) for c in range(52))
_ALL_SUITS_BUT_SPADES: Final = 0b1110  # void bits for hearts, diamonds, clubs

_BLIND_CHOICES: Final = (BLIND_NIL, PASS)
_DRAW_CHOICES: Final = (KEEP, REJECT)
_BID_CHOICES: Final = BIDS
_EXPECTED: Final = {
    Phase.BLIND: frozenset({ActionKind.BLIND_NIL, ActionKind.PASS}),
    Phase.DRAW: frozenset({ActionKind.KEEP, ActionKind.REJECT}),
    Phase.BID: frozenset({ActionKind.BID}),
    Phase.PLAY: frozenset({ActionKind.PLAY}),
}
_DOING: Final = {
    Phase.BLIND: "declare blind nil or pass (S2.1)",
    Phase.DRAW: "keep or reject the drawn card (S2.2)",
    Phase.BID: "bid nil or 1 to 13 (S3.1)",
    Phase.PLAY: "play a card (S4)",
}

# Local aliases: the hot path compares with `is` against module globals.
_PLAY: Final = ActionKind.PLAY
_KEEP: Final = ActionKind.KEEP
_REJECT: Final = ActionKind.REJECT
_BID: Final = ActionKind.BID
_BLIND_NIL: Final = ActionKind.BLIND_NIL
_P_BLIND: Final = Phase.BLIND
_P_DRAW: Final = Phase.DRAW
_P_BID: Final = Phase.BID
_P_PLAY: Final = Phase.PLAY
_P_OVER: Final = Phase.OVER


def trick_winner(leader: int, lead: Card, follow: Card) -> int:
    """The seat that wins a two-card trick (S4.3): the highest spade, else the
    highest card of the led suit. ``leader`` played ``lead``; the other seat ``follow``.
    """
    if lead // 13 == follow // 13:
        return leader if _POWER[lead] > _POWER[follow] else 1 - leader
    return 1 - leader if follow < 13 else leader


def sort_cards(cards: Sequence[Card]) -> list[Card]:
    """Cards as a player arranges them: by suit (♠ ♥ ♦ ♣), high to low (S1.1)."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


def _check_deck(deck: Sequence[Card | str]) -> tuple[Card, ...]:
    """The deck as interned cards, or RecordError: it must be the 52 cards once each."""
    cards: list[Card] = []
    for place, item in enumerate(deck):
        try:
            card = parse_card(item) if isinstance(item, str) else CARDS[int(item)]
        except (NotationError, IndexError, TypeError, ValueError):
            raise RecordError(f"deck card {place} ({item!r}) is not a card") from None
        if card >= 52:
            raise RecordError("a Spades deck has no jokers (S1.1)")
        cards.append(card)
    if len(cards) != 52:
        raise RecordError(
            f"a Spades deck is the 52 standard cards (S1.1); this one has {len(cards)}"
        )
    seen = bytearray(52)
    for card in cards:
        if seen[card]:
            missing = [c for c in CARDS[:52] if not seen[c] and c not in cards]
            raise RecordError(
                f"the deck holds {card} twice"
                + (f" and lacks {' '.join(card_texts(missing))}" if missing else "")
                + " (S1.1: one 52-card deck)"
            )
        seen[card] = 1
    return tuple(cards)


class SpadesHand:
    """One hand of two-player Spades, from the blind nil declarations to S5 scoring.

    ``deck`` is the shuffled deck, top card first: 52 cards (or their texts),
    each exactly once; anything else raises :class:`RecordError`, because a
    deck is chance data that comes from a shuffle or a record. ``bags`` and
    ``totals`` are what each seat carries in from earlier hands: bags decide
    the S5.4 penalty of this hand, totals are shown in views.

    >>> from greenfelt.cards import make_deck
    >>> hand = SpadesHand(SpadesRules(), dealer=0, deck=make_deck())
    >>> hand.phase, hand.to_move, hand.legal_actions()
    (<Phase.BLIND: 'blind'>, 1, [blind nil, pass])
    """

    __slots__ = (
        "_bags_before",
        "_bids",
        "_blind",
        "_broken",
        "_dealer",
        "_deck",
        "_discards",
        "_hands",
        "_history",
        "_known",
        "_lead",
        "_leader",
        "_legal",
        "_phase",
        "_pos",
        "_results",
        "_rules",
        "_to_move",
        "_totals_before",
        "_tricks",
        "_void",
        "_won",
    )

    def __init__(
        self,
        rules: SpadesRules,
        dealer: int,
        deck: Sequence[Card | str],
        *,
        bags: Sequence[int] = (0, 0),
        totals: Sequence[int] = (0, 0),
    ) -> None:
        if not isinstance(rules, SpadesRules):
            raise RulesError(f"a spades hand needs SpadesRules, not {type(rules).__name__}")
        if dealer not in (0, 1):
            raise RulesError(f"the dealer is seat 0 or 1 (S1.2), not {dealer!r}")
        if len(bags) != 2 or len(totals) != 2 or any(b < 0 for b in bags):
            raise RulesError(f"bags {list(bags)} and totals {list(totals)} need two values each")
        self._rules = rules
        self._dealer = dealer
        self._deck = _check_deck(deck)
        self._pos = 0  # index of the next deck card to draw
        self._phase = _P_BLIND
        self._to_move: int = 1 - dealer  # S2.1: non-dealer declares first
        self._hands: list[list[Card]] = [[], []]
        self._discards: list[Card] = []  # discard i comes from draw step i
        self._blind: list[bool | None] = [None, None]
        self._bids: list[int | None] = [None, None]
        self._lead: Card | None = None  # the card led to the trick in progress
        self._leader = 1 - dealer  # S4.1: non-dealer leads first
        self._tricks: list[tuple[int, Card, Card, int]] = []
        self._won = [0, 0]
        self._broken = False
        self._void = [0, 0]  # per seat, a bit per suit it has shown it lacks
        # Per seat, a bit per card whose place it knows (its hand, played cards, the
        # discards it saw: S2.4), kept as the hand goes, since bots ask on every move.
        self._known = [0, 0]
        self._history: list[tuple[int, SpadesAction]] = []
        self._legal: tuple[SpadesAction, ...] | None = None
        self._bags_before = (int(bags[0]), int(bags[1]))
        self._totals_before = (int(totals[0]), int(totals[1]))
        self._results: tuple[HandScore, HandScore] | None = None

    # ----------------------------------------------------------------- reading

    @property
    def rules(self) -> SpadesRules:
        return self._rules

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or ``None`` once the hand is over."""
        return None if self._phase is _P_OVER else self._to_move

    @property
    def is_over(self) -> bool:
        return self._phase is _P_OVER

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck, top card first (full knowledge: records, not views)."""
        return self._deck

    @property
    def actions(self) -> list[tuple[int, Any]]:
        """Every action applied so far, as ``(seat, action)``."""
        return list(self._history)

    @property
    def blind_nil(self) -> list[bool | None]:
        """Per seat: declared blind nil, passed, or ``None`` before deciding (S2.1)."""
        return list(self._blind)

    @property
    def bids(self) -> list[int | None]:
        """Per seat: the bid (0 = nil, also for blind nil) or ``None`` before bidding (S3)."""
        return list(self._bids)

    @property
    def tricks_won(self) -> list[int]:
        return list(self._won)

    @property
    def tricks(self) -> list[Trick]:
        """The completed tricks, in order (S4.3)."""
        return [Trick(*t) for t in self._tricks]

    @property
    def current_trick(self) -> list[tuple[int, Card]]:
        """The trick in progress as ``(seat, card)``: empty, or the led card."""
        return [] if self._lead is None else [(self._leader, self._lead)]

    @property
    def spades_broken(self) -> bool:
        """S4.2: a spade was played on another suit's lead, or led from a hand of spades."""
        return self._broken

    @property
    def voids(self) -> tuple[int, int]:
        """Per seat, a bit per suit (bit ``s`` for suit ``s``) it has shown it lacks:
        it did not follow that suit (S4.1), or led a spade before spades were
        broken, so held nothing else (S4.2). Public: everyone saw the plays."""
        void = self._void
        return (void[0], void[1])

    def hand_of(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds (full knowledge: for tests and simulations, not clients)."""
        return list(self._hands[seat])

    @property
    def discard_pile(self) -> list[Card]:
        """Every discard, bottom first (full knowledge; clients use :meth:`view`)."""
        return list(self._discards)

    @property
    def played_cards(self) -> list[Card]:
        """Every card played to a trick, in order."""
        played = [c for t in self._tricks for c in (t[1], t[2])]
        if self._lead is not None:
            played.append(self._lead)
        return played

    @property
    def stock(self) -> list[Card]:
        """The undrawn deck, top first (full knowledge)."""
        return list(self._deck[self._pos :])

    @property
    def draw_steps(self) -> int:
        """Draw steps done so far (S2.3: 26 in all)."""
        return self._pos // 2

    @property
    def bags_before(self) -> tuple[int, int]:
        """Bags each seat carried into this hand (S5.4)."""
        return self._bags_before

    @property
    def totals_before(self) -> tuple[int, int]:
        """Scores each seat had before this hand (shown in views)."""
        return self._totals_before

    @property
    def results(self) -> tuple[HandScore, HandScore] | None:
        """Each seat's S5 result (points, bags, penalty, breakdown) once over, else ``None``."""
        return self._results

    @property
    def scores(self) -> list[int] | None:
        """Points each seat scored this hand (S5, bag penalty included) once over."""
        if self._results is None:
            return None
        return [self._results[0].points, self._results[1].points]

    def _drawer_of_step(self, step: int) -> int:
        # S2.2: players alternate, non-dealer first.
        return 1 - self._dealer if step % 2 == 0 else self._dealer

    # ------------------------------------------------------------------ legal

    def _compute_legal(self) -> tuple[SpadesAction, ...]:
        phase = self._phase
        if phase is _P_PLAY:
            hand = self._hands[self._to_move]
            lead = self._lead
            if lead is None:
                # S4.2: no spade lead before spades are broken, unless only spades are left.
                cards = hand if self._broken else ([c for c in hand if c >= 13] or hand)
            else:
                low = lead - lead % 13
                high = low + 13
                cards = [c for c in hand if low <= c < high] or hand  # S4.1
            legal = tuple([PLAYS[c] for c in cards])
        elif phase is _P_DRAW:
            legal = _DRAW_CHOICES
        elif phase is _P_BID:
            legal = _BID_CHOICES
        elif phase is _P_BLIND:
            legal = _BLIND_CHOICES
        else:
            legal = ()
        self._legal = legal
        return legal

    def legal_tuple(self) -> tuple[SpadesAction, ...]:
        """The legal actions of the seat to move, as a shared cached tuple (fast path)."""
        legal = self._legal
        return self._compute_legal() if legal is None else legal

    def legal_actions(self, seat: int | None = None) -> list[SpadesAction]:
        """Legal actions of the seat to move; for another ``seat``, an empty list."""
        if seat is not None and (seat != self._to_move or self._phase is _P_OVER):
            return []
        return list(self.legal_tuple())

    # ------------------------------------------------------------------ apply

    def apply(self, action: SpadesAction | str, seat: int | None = None) -> None:
        """Apply a checked action (a :class:`SpadesAction` or its text) for ``seat``.

        Raises :class:`NotYourTurn` when ``seat`` is given and not the one to
        move, :class:`IllegalAction` with a reason the player can act on
        otherwise (``you must follow ♥: you hold 7♥``), and ActionTextError
        (an IllegalAction and a NotationError) for text that is no action.
        Nothing changes when it raises.
        """
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, SpadesAction):
            raise IllegalAction(f"{action!r} is not a spades action")
        phase = self._phase
        if phase is _P_OVER:
            raise IllegalAction(f"the hand is over; {action} is not possible")
        mover = self._to_move
        if seat is not None and seat != mover:
            if seat not in (0, 1):
                raise IllegalAction(f"there is no seat {seat!r}: the seats are 0 and 1")
            raise NotYourTurn(f"it is seat {mover}'s turn to {_DOING[phase]}, not seat {seat}'s")
        legal = self.legal_tuple()
        try:
            index = legal.index(action)
        except ValueError:
            raise self._why_illegal(action) from None
        self.apply_unchecked(legal[index])

    def _why_illegal(self, action: SpadesAction) -> IllegalAction:
        """The reason ``action`` is illegal, told as the mover sees the position."""
        phase = self._phase
        mover = self._to_move
        if action.kind not in _EXPECTED[phase]:
            return IllegalAction(
                f"{action} is not possible in the {phase.value} phase: "
                f"seat {mover} must {_DOING[phase]}"
            )
        card = action.card
        if card is None:  # cannot happen: blind, draw and bid choices are all legal
            return IllegalAction(f"{action} is not possible now")
        hand = self._hands[mover]
        if card not in hand:
            return IllegalAction(f"you do not hold {card}")
        lead = self._lead
        if lead is None:
            return IllegalAction(
                f"spades are not broken yet (S4.2): you cannot lead {card} while you hold "
                "another suit"
            )
        suit = Suit(lead // 13)
        follow = sort_cards([c for c in hand if c // 13 == suit])
        return IllegalAction(
            f"you must follow {suit.symbol}: you hold {' '.join(card_texts(follow))} (S4.1)"
        )

    def apply_unchecked(self, action: SpadesAction) -> None:
        """Apply ``action`` WITHOUT checking it: the fast path for bots and simulations.

        ``action`` must be one of :meth:`legal_tuple` (for instance chosen from
        it); anything else corrupts the state silently. Servers, records and
        people's input go through :meth:`apply`.
        """
        seat = self._to_move
        self._history.append((seat, action))
        self._legal = None
        kind = action.kind
        if kind is _PLAY:
            card: Card = action.card  # type: ignore[assignment]
            self._hands[seat].remove(card)
            self._known[1 - seat] |= 1 << card  # played: public
            lead = self._lead
            if lead is None:
                if card < 13 and not self._broken:
                    # S4.2: a spade led before spades are broken comes from a hand of spades.
                    self._broken = True
                    self._void[seat] |= _ALL_SUITS_BUT_SPADES
                self._lead = card
                self._to_move = 1 - seat
                return
            leader = self._leader
            if lead // 13 == card // 13:
                winner = leader if _POWER[lead] > _POWER[card] else seat
            else:
                self._void[seat] |= 1 << (lead // 13)  # S4.1: did not follow, so void
                if card < 13:
                    self._broken = True  # S4.2: spade on another suit's lead
                    winner = seat
                else:
                    winner = leader
            self._tricks.append((leader, lead, card, winner))
            self._won[winner] += 1
            self._lead = None
            if len(self._tricks) == 13:  # S4.3: thirteen tricks make a hand
                self._finish()
            else:
                self._leader = winner  # S4.3: the winner leads next
                self._to_move = winner
            return
        if kind is _KEEP or kind is _REJECT:
            pos = self._pos
            deck = self._deck
            if kind is _KEEP:  # S2.2: keep; the next card is discarded
                kept, discarded = deck[pos], deck[pos + 1]
            else:  # S2.2: reject; the next card must be kept
                discarded, kept = deck[pos], deck[pos + 1]
            self._hands[seat].append(kept)
            self._discards.append(discarded)
            self._known[seat] |= (1 << kept) | (1 << discarded)  # the drawer saw both
            if self._rules.discards == "face_up":  # S2.4: face-up discards are public
                self._known[1 - seat] |= 1 << discarded
            pos += 2
            self._pos = pos
            if pos == 52:  # S2.3: each holds 13
                self._start_bidding()
            else:
                self._to_move = 1 - seat
            return
        if kind is _BID:
            self._bids[seat] = action.bid
            if seat != self._dealer and not self._blind[self._dealer]:
                self._to_move = self._dealer  # S3.1: dealer bids second
            else:
                self._start_play()
            return
        # Blind nil declarations (S2.1), non-dealer then dealer.
        blind = kind is _BLIND_NIL
        self._blind[seat] = blind
        if blind:
            self._bids[seat] = 0  # S3.2: blind nil is a bid of no tricks
        if seat == self._dealer:
            self._phase = _P_DRAW
            self._to_move = 1 - self._dealer  # S2.2: non-dealer draws first
        else:
            self._to_move = self._dealer

    def _start_bidding(self) -> None:
        # S3.1: non-dealer bids first; a player who declared blind nil does not bid.
        self._phase = _P_BID
        non_dealer = 1 - self._dealer
        if not self._blind[non_dealer]:
            self._to_move = non_dealer
        elif not self._blind[self._dealer]:
            self._to_move = self._dealer
        else:
            self._start_play()

    def _start_play(self) -> None:
        self._phase = _P_PLAY
        self._leader = self._to_move = 1 - self._dealer  # S4.1

    def _finish(self) -> None:
        bids = self._bids
        self._results = (
            score_hand(bids[0] or 0, bool(self._blind[0]), self._won[0], self._bags_before[0]),
            score_hand(bids[1] or 0, bool(self._blind[1]), self._won[1], self._bags_before[1]),
        )
        self._phase = _P_OVER

    # ------------------------------------------------------------------ views

    def _sees_discard(self, seat: int | None, index: int) -> bool:
        # S2.4: face_up discards are public; face_down ones are seen by their drawer only.
        if self._rules.discards == "face_up":
            return True
        return seat is not None and self._drawer_of_step(index) == seat

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-able data; ``None`` is a spectator.

        Shows the seat's own hand, the card it is looking at while it draws
        (``drawn``), the discards it may see (S2.4: with ``memory`` on only the
        top one, ``discards`` is then ``None``; a card it may not see is
        ``??``), declarations, bids, tricks, bags and totals carried in, the
        result once over, the public action list and its legal action texts.
        Never another seat's hand, a face-down discard it did not see, or the stock.
        """
        if seat is not None and seat not in (0, 1):
            raise IllegalAction(f"there is no seat {seat!r}: the seats are 0 and 1")
        phase = self._phase
        over = phase is _P_OVER
        discards = self._discards
        top: str | None = None
        if discards:
            top = str(discards[-1]) if self._sees_discard(seat, len(discards) - 1) else "??"
        shown: list[str] | None = None
        if not self._rules.memory:
            shown = [
                str(c) if self._sees_discard(seat, i) else "??" for i, c in enumerate(discards)
            ]
        drawn = None
        if phase is _P_DRAW and seat == self._to_move:
            drawn = str(self._deck[self._pos])  # S2.2: the drawer looks at the top card
        results = self._results
        return {
            "game": "spades",
            "rules": rules_to_json(self._rules),
            "seat": seat,
            "dealer": self._dealer,
            "phase": phase.value,
            "to_move": None if over else self._to_move,
            "hand": None if seat is None else card_texts(sort_cards(self._hands[seat])),
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "drawn": drawn,
            "stock": 52 - self._pos,
            "draw_steps": self._pos // 2,
            "discard_count": len(discards),
            "discard_top": top,
            "discards": shown,
            "blind_nil": list(self._blind),
            "bids": list(self._bids),
            "leader": self._leader if phase is _P_PLAY else None,
            "trick": [[s, str(c)] for s, c in self.current_trick],
            "tricks": [
                {
                    "leader": leader,
                    "cards": [[leader, str(lead)], [1 - leader, str(follow)]],
                    "winner": winner,
                }
                for leader, lead, follow, winner in self._tricks
            ],
            "tricks_won": list(self._won),
            "spades_broken": self._broken,
            "bags": list(self._bags_before),
            "totals": list(self._totals_before),
            "result": None
            if results is None
            else [
                {
                    "points": r.points,
                    "contract": r.contract,
                    "new_bags": r.new_bags,
                    "penalty": r.penalty,
                    "bags": r.bags,
                    "breakdown": r.breakdown,
                }
                for r in results
            ],
            "actions": [[s, str(a)] for s, a in self._history],
            "legal": [str(a) for a in self.legal_actions(seat)] if seat is not None else [],
        }

    # ---------------------------------------------------------- copies, search

    def clone(self) -> Self:
        """An independent copy (cheap: flat lists of interned values)."""
        new = object.__new__(type(self))
        new._rules = self._rules
        new._dealer = self._dealer
        new._deck = self._deck
        new._pos = self._pos
        new._phase = self._phase
        new._to_move = self._to_move
        new._hands = [self._hands[0][:], self._hands[1][:]]
        new._discards = self._discards[:]
        new._blind = self._blind[:]
        new._bids = self._bids[:]
        new._lead = self._lead
        new._leader = self._leader
        new._tricks = self._tricks[:]
        new._won = self._won[:]
        new._broken = self._broken
        new._void = self._void[:]
        new._known = self._known[:]
        new._history = self._history[:]
        new._legal = self._legal
        new._bags_before = self._bags_before
        new._totals_before = self._totals_before
        new._results = self._results
        return new

    def known_cards(self, seat: int) -> list[Card]:
        """Every card whose place ``seat`` knows: its hand, cards played, the
        discards it saw (S2.4), and the card it is looking at while drawing.

        This is the seat's information set, wider than its view when option
        ``memory`` hides old discards: a player is entitled to remember them.
        """
        mask = self.known_mask(seat)
        return [CARDS[c] for c in range(52) if (mask >> c) & 1]

    def known_mask(self, seat: int) -> int:
        """:meth:`known_cards` as a bit per card (bit ``c`` for card ``c``): the
        fast path for bots, which ask on every move of every rollout."""
        mask = self._known[seat]
        if self._phase is _P_DRAW and self._to_move == seat:
            mask |= 1 << self._deck[self._pos]  # S2.2: the drawer looks at it
        return mask

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with everything ``seat`` knows, unknown cards resampled.

        Kept fixed: the seat's hand, played cards, the discards it saw, the
        card it is looking at, and every action. Resampled uniformly: the
        other hand (never with a suit that seat has shown it lacks by not
        following, or with anything but spades after it led a spade before
        they were broken: S4.1, S4.2), face-down discards it did not see and
        the undrawn deck. The result replays from its own deck with the same
        actions, so every legal continuation is sound.
        """
        if seat not in (0, 1):
            raise IllegalAction(f"there is no seat {seat!r}: the seats are 0 and 1")
        other = 1 - seat
        known = self.known_mask(seat)
        other_hand = self._hands[other]
        # In deck order (public: where undrawn and face-down cards lie), never card order:
        # the sample must not depend on which cards are really hidden where.
        in_hand = set(other_hand)
        elsewhere = [c for c in self._deck if not (known >> c) & 1 and c not in in_hand]
        void = self._void[other]
        # Sorted, so the sample depends only on what the seat knows, never on
        # where the unknown cards really are (a bot's decision is a function of its view).
        unknown = sorted((*other_hand, *elsewhere))
        allowed = [c for c in unknown if not (void >> (c // 13)) & 1]
        new_hand = rng.sample(allowed, len(other_hand))
        taken = set(new_hand)
        rest = [c for c in unknown if c not in taken]
        shuffle(rest, rng)
        sigma = list(CARDS[:52])
        for old, new in zip(other_hand, new_hand, strict=True):
            sigma[old] = new
        for old, new in zip(elsewhere, rest, strict=True):
            sigma[old] = new
        state = self.clone()
        state._deck = tuple([sigma[c] for c in self._deck])
        state._hands[other] = [sigma[c] for c in other_hand]
        state._discards = [sigma[c] for c in self._discards]
        other_known = 0  # what the other seat knows moves with its cards
        mask = self._known[other]
        for c in range(52):
            if (mask >> c) & 1:
                other_known |= 1 << sigma[c]
        state._known[other] = other_known
        return state


def new_hand(
    rules: SpadesRules,
    dealer: int,
    deck: Sequence[Card | str],
    *,
    bags: Sequence[int] = (0, 0),
    totals: Sequence[int] = (0, 0),
) -> SpadesHand:
    """Start one hand; see :class:`SpadesHand`."""
    return SpadesHand(rules, dealer, deck, bags=bags, totals=totals)


def deck_for_hands(non_dealer: Sequence[Card | str], dealer: Sequence[Card | str]) -> list[Card]:
    """The deck that deals these 13-card hands when every draw step is ``keep``.

    Step ``2k`` (non-dealer) keeps ``non_dealer[k]``, step ``2k + 1`` (dealer)
    keeps ``dealer[k]``; the other 26 cards are the discards, in card order.
    For pinned scenarios (tests, records, examples); raises RecordError unless
    the hands are 13 distinct cards each.
    """
    first = [parse_card(c) if isinstance(c, str) else c for c in non_dealer]
    second = [parse_card(c) if isinstance(c, str) else c for c in dealer]
    if len(first) != 13 or len(second) != 13 or len(set(first) | set(second)) != 26:
        raise RecordError("each hand needs 13 cards, and no card may be in both")
    rest = [c for c in CARDS[:52] if c not in first and c not in second]
    deck: list[Card] = []
    for k in range(13):
        deck += [first[k], rest[2 * k], second[k], rest[2 * k + 1]]
    return deck


def random_playout(hand: SpadesHand, rng: random.Random) -> int:
    """Play ``hand`` to its end with uniformly random legal actions; returns the steps taken.

    Uses the unchecked fast path: a conformance test plays the same games
    through :meth:`SpadesHand.apply` too.
    """
    steps = 0
    choice = rng.choice
    while hand._phase is not _P_OVER:
        legal = hand._legal
        if legal is None:
            legal = hand._compute_legal()
        hand.apply_unchecked(choice(legal))
        steps += 1
    return steps
