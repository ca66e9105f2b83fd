"""One Golf round: deal, reveal, turns, closing, final turns, scoring (RULES G1-G8).

A round is a pure function of its rules, deck and actions. State is kept in
flat lists indexed ``seat * size + position`` so that ``clone()`` is a handful
of list copies and the hot path of simulations stays in C.

Knowledge (G8) is tracked per face-down card as a bit mask of the seats that
know it, and every hidden card carries the *pool* it came from (0 for the deal,
``k`` for the k-th reshuffle): both are derived from public actions, which is
what lets :meth:`GolfRound.determinize` resample exactly what a seat cannot know.

Where no seat can know more than the table shows (open layouts without powers),
the round also keeps :attr:`GolfRound.face`, every position as all seats see it,
with the points of its face-up cards and of the discard pile: public tallies a
bot would otherwise recount from the layouts on every decision.

The extended Powers set (G7.4, ``powers=powers``) gives each seat
``rules.extra_slots`` positions beyond its grid (empty, ``None``, until an ace
adds a card there), so ``size`` is ``rules.slots``; every other variant keeps
``size`` equal to its grid and never meets the extra phases ``choose`` (an 8's
offer) and ``second`` (a 2's second power).
"""

from __future__ import annotations

import enum
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any, Final

from greenfelt.cards import (
    Card,
    Rank,
    card_texts,
    make_deck,
    parse_card,
    shuffle,
    shuffled_deck,
)
from greenfelt.errors import IllegalAction, NotationError, NotYourTurn, RecordError, RulesError
from greenfelt.golf.actions import (
    DISCARD,
    DRAW,
    FLIP,
    KNOCK,
    PASS,
    PEEK,
    SWAP,
    TAKE,
    GolfAction,
    Kind,
    parse_action,
    power_action,
)
from greenfelt.golf.powers import (
    ATTACKS,
    power_actions,
    power_name,
    second_actions,
    why_extended_illegal,
)
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import RoundScore, _matching, quick_scores, score_round

__all__ = ["FACE_DOWN", "REMOVED", "GolfRound", "Phase", "new_round"]

FACE_DOWN: Final = 53
"""Code in :attr:`GolfRound.face` of a face-down card (card codes are 0-52)."""
REMOVED: Final = 54
"""Code in :attr:`GolfRound.face` of a position whose line left the table (G3.5)."""


class Phase(enum.Enum):
    """Where a round stands; a call in the wrong phase names it (STYLE 9)."""

    REVEAL = "reveal"
    TURN = "turn"
    DRAWN = "drawn"
    TAKEN = "taken"
    FLIP = "flip"
    OVER = "over"
    CHOOSE = "choose"
    SECOND = "second"


_REVEAL, _TURN, _DRAWN, _TAKEN, _FLIPPING, _OVER, _CHOOSE, _SECOND = Phase
_K_FLIP, _K_PEEK, _K_DRAW, _K_TAKE, _K_SWAP, _K_DISCARD, _K_KNOCK, _K_PASS, _K_POWER = Kind

_SWAPS = [list(SWAP[:size]) for size in range(len(SWAP))]

_PHASE_HELP = {
    _REVEAL: "the reveal step",
    _TURN: "the start of a turn",
    _DRAWN: "holding a card drawn from the stock",
    _TAKEN: "holding a card taken from the discard pile",
    _FLIPPING: "the flip after a discard",
    _OVER: "the end of the round",
    _CHOOSE: "choosing which card an 8 offers to keep",
    _SECOND: "the second power a 2 lends",
}


def new_round(
    rules: GolfRules,
    seats: int,
    dealer: int = 0,
    deck: Sequence[Card] | None = None,
    *,
    rng: random.Random | None = None,
    reshuffles: Sequence[Sequence[Card]] = (),
    shuffles: Sequence[Sequence[int]] = (),
) -> GolfRound:
    """Deal a round (G1.5). ``deck`` is top card first; without one, ``rng`` shuffles.

    ``reshuffles`` replays recorded stock orders of G2.5 and ``shuffles`` the
    recorded layout shuffles of powers (G7.2); when they run out, ``rng`` makes
    new ones.
    """
    if deck is None:
        rules.check_players(seats)
        rng = rng or random.Random()
        deck = shuffled_deck(rng, rules.deck_count(seats), rules.jokers_per_deck)
    return GolfRound(rules, seats, dealer, deck, rng=rng, reshuffles=reshuffles, shuffles=shuffles)


class GolfRound:
    """The state of one round; see the module docstring and DESIGN.md's interface."""

    __slots__ = (
        "_actions",
        "_deck",
        "_end_closer",
        "_pending",
        "_pending_shuffles",
        "_result",
        "_reveal_cols",
        "_rng",
        "_scores",
        "_skip",
        "cards",
        "choice",
        "closer",
        "combo",
        "dealer",
        "discard",
        "down",
        "face",
        "face_points",
        "final_left",
        "held",
        "held_from_stock",
        "held_tag",
        "knocked",
        "known",
        "n",
        "origin",
        "phase",
        "pile_points",
        "reshuffles",
        "reveal_left",
        "rules",
        "shields",
        "shuffles",
        "size",
        "stock",
        "stock_tag",
        "to_move",
        "turns",
        "up",
    )

    def __init__(
        self,
        rules: GolfRules,
        seats: int,
        dealer: int,
        deck: Sequence[Card],
        *,
        rng: random.Random | None = None,
        reshuffles: Sequence[Sequence[Card]] = (),
        shuffles: Sequence[Sequence[int]] = (),
    ) -> None:
        rules.check_players(seats)
        if not 0 <= dealer < seats:
            raise RulesError(f"dealer {dealer} is not a seat of {seats} players")
        deck = [parse_card(c) if isinstance(c, str) else c for c in deck]
        _check_deck(deck, rules, seats)
        size = rules.slots
        dealt = rules.shape.size
        n = seats
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.size = size
        self._deck: tuple[Card, ...] | None = tuple(deck)
        self._rng = rng
        self._pending = [list(order) for order in reshuffles]
        self._pending_shuffles = [list(perm) for perm in shuffles]
        self._actions: list[tuple[int, GolfAction]] = []
        self.reshuffles: list[list[Card]] = []
        self.shuffles: list[list[int]] = []
        self._skip = False

        # G1.5: one card at a time, clockwise from the dealer's left, row-major.
        cards: list[Card | None] = [None] * (n * size)
        top = 0
        for pos in range(dealt):
            for i in range(n):
                seat = (dealer + 1 + i) % n
                cards[seat * size + pos] = deck[top]
                top += 1
        self.cards = cards
        self.discard: list[Card] = [deck[top]]
        values = rules.card_values
        self.pile_points = values[deck[top]]
        """G5.1 points of the cards in the discard pile (public)."""
        self.face: list[int] | None = (
            None
            if rules.closed or rules.shape.is_hand or rules.has_powers
            else [FACE_DOWN] * (n * size)
        )
        """Every position as all seats see it (a card code, FACE_DOWN or REMOVED), where
        no seat can know more (open layouts without powers); None elsewhere."""
        self.face_points = 0
        """G5.1 points of the face-up cards in :attr:`face` (0 where it is None)."""
        self.stock: list[Card] = list(reversed(deck[top + 1 :]))  # top card at the end
        self.stock_tag = 0
        hand = rules.shape.is_hand
        self.up = [False] * (n * size)
        # G1.7: in hand4 each player sees their own four cards at all times.
        self.known = [1 << (i // size) if hand else 0 for i in range(n * size)]
        self.origin = [0] * (n * size)
        self.down = [dealt] * n
        # G7.4: shield tokens per seat, an 8's offer as (card, pool tag; -1: seen by
        # all), and the powers a 2 has lent this turn (None: no 2 in use).
        self.shields: tuple[int, ...] | None = (0,) * n if rules.powers == "powers" else None
        self.choice: tuple[tuple[Card, int], ...] = ()
        self.combo: tuple[str, ...] | None = None
        self.held: Card | None = None
        self.held_from_stock = False
        self.held_tag = 0
        self.closer: int | None = None
        self.knocked = False
        self.final_left = 0
        self.turns = 0
        self._result: RoundScore | None = None
        self._scores: tuple[int, ...] | None = None
        self._end_closer: int | None = None
        self._reveal_cols: list[int] = []
        self.to_move: int | None = (dealer + 1) % n
        reveal = rules.peeks if rules.closed else rules.flips
        if reveal:
            self.phase = _REVEAL
            self.reveal_left = reveal
        else:
            self.phase = _TURN
            self.reveal_left = 0

    # ---- the interface -------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    @property
    def scores(self) -> list[int] | None:
        return list(self._scores) if self._scores is not None else None

    @property
    def result(self) -> RoundScore | None:
        """The scores with every layout's breakdown (G5, G6), once the round is over.

        Built on first use where the rules allow the quick scorer
        (:func:`quick_scores`): simulations read only :attr:`scores`.
        """
        if self._result is None and self._scores is not None:
            self._result = self._score_in_full()
        return self._result

    def _score_in_full(self) -> RoundScore:
        """G5, G6: the finished round's scores with every layout's breakdown."""
        layouts = [self.layout(s) for s in range(self.n)]
        decks = self.rules.deck_count(self.n)
        return score_round(layouts, self.rules, self._end_closer, decks=decks)

    @property
    def actions(self) -> list[tuple[int, GolfAction]]:
        return list(self._actions)

    @property
    def deck(self) -> tuple[Card, ...] | None:
        """The deck this round was dealt from, top first (``None`` once determinized)."""
        return self._deck

    @property
    def closing(self) -> bool:
        """Final turns are running after a close or a knock (G3.1, G4.1)."""
        return self.closer is not None

    def layout(self, seat: int) -> list[Card | None]:
        """The full layout of ``seat`` (all cards, known or not): for scoring and tests."""
        return self.cards[seat * self.size : (seat + 1) * self.size]

    def supply_reshuffle(self, order: Sequence[Card]) -> None:
        """Queue the stock order of the next G2.5 reshuffle (a recorded chance outcome).

        Servers and replays use it so that a reshuffle is decided, and stored,
        before the action that causes it is applied.
        """
        self._pending.append(list(order))

    def supply_shuffle(self, permutation: Sequence[int]) -> None:
        """Queue the outcome of the next power shuffle (G7.2), as a recorded chance event."""
        self._pending_shuffles.append(list(permutation))

    def legal_actions(self, seat: int | None = None) -> list[GolfAction]:
        """Legal actions of the seat to move; empty for any other ``seat``."""
        mover = self.to_move
        if mover is None or (seat is not None and seat != mover):
            return []
        phase = self.phase
        size = self.size
        base = mover * size
        if phase is _DRAWN or phase is _TAKEN:
            if self.rules.has_gaps:
                out = [SWAP[p] for p in range(size) if self.cards[base + p] is not None]
            else:  # no position can be empty: the common, fast case
                out = _SWAPS[size][:]
            if phase is _DRAWN:
                out.append(DISCARD)
                if self.rules.has_powers and self.held_from_stock:
                    out += power_actions(self, mover)  # G7.1
            return out
        up = self.up
        if phase is _TURN:
            rules = self.rules
            out = [DRAW]
            take = rules.take_rule  # G3.2 in final turns; G7.4 never
            if self.discard and (not take or (take == 1 and self.closer is None)):
                out.append(TAKE)
            if rules.knocking and self.closer is None:
                out.append(KNOCK)
            if rules.flip_instead_of_draw:
                out += [FLIP[p] for p in range(size) if not up[base + p]]
            return out
        if phase is _FLIPPING:
            out = [FLIP[p] for p in range(size) if not up[base + p]]
            if self.rules.after_discard == "may":
                out.append(PASS)
            return out
        if phase is _REVEAL:
            return self._reveal_actions(mover)
        if phase is _CHOOSE:  # G7.4 8: which card of the offer to keep
            return [power_action("keep", (k, None)) for k in range(len(self.choice))]
        if phase is _SECOND:  # G7.4 2: a second, different power, or none
            return [*second_actions(self, mover), PASS]
        return []

    def apply(self, action: GolfAction | str, seat: int | None = None) -> None:
        """Apply a checked action; raises IllegalAction (NotYourTurn) saying why not."""
        if isinstance(action, str):
            action = parse_action(action)
        elif not isinstance(action, GolfAction):
            raise IllegalAction(
                f"an action is text such as 'swap 4' or a GolfAction, not {type(action).__name__}"
            )
        if self.phase is _OVER:
            raise IllegalAction(f"the round is over; {action} is not possible")
        mover = self.to_move
        assert mover is not None
        if seat is not None and seat != mover:
            raise NotYourTurn(f"it is seat {mover}'s turn, not seat {seat}'s")
        legal = self.legal_actions()
        if action not in legal:
            if action.kind is _K_POWER and len(action.targets) == 2:
                # A swap names two cards; either order means the same swap (G7).
                flipped = power_action(action.power or "", *action.targets[::-1])
                if flipped in legal:
                    self.apply_unchecked(flipped)
                    return
            raise IllegalAction(self._why_illegal(action, mover))
        self.apply_unchecked(action)

    def apply_unchecked(self, action: GolfAction) -> None:
        """Apply an action known to be legal (bots, simulations). Unchecked: wrong input corrupts."""
        seat = self.to_move
        assert seat is not None
        self._actions.append((seat, action))
        kind = action.kind
        phase = self.phase
        if kind is _K_SWAP:
            self._swap(seat, action.pos)  # type: ignore[arg-type]
        elif kind is _K_DRAW:
            try:
                self._draw(seat)
            except RecordError:  # a recorded reshuffle that does not fit: change nothing
                self._actions.pop()
                raise
        elif kind is _K_TAKE:
            self.held = self.discard.pop()
            self.pile_points -= self.rules.card_values[self.held]
            self.held_from_stock = False
            self.phase = _TAKEN
        elif kind is _K_DISCARD:
            held = self.held
            assert held is not None
            self._to_discard(held)
            self.held = None
            if self.rules.after_discard != "no" and self.down[seat]:
                self.phase = _FLIPPING
            else:
                self._end_turn(seat)
        elif kind is _K_FLIP:
            i = seat * self.size + action.pos  # type: ignore[operator]
            self.up[i] = True
            self.down[seat] -= 1
            face = self.face
            if face is not None:
                card = self.cards[i]
                assert card is not None
                face[i] = card
                self.face_points += self.rules.card_values[card]
            if self.rules.remove_matched_lines:
                self._remove_matched(seat, action.pos)  # type: ignore[arg-type]
            if phase is _REVEAL:
                self._reveal_step(seat, action.pos)  # type: ignore[arg-type]
            else:
                self._end_turn(seat)
        elif kind is _K_PEEK:
            self.known[seat * self.size + action.pos] |= 1 << seat  # type: ignore[operator]
            self._reveal_step(seat, action.pos)  # type: ignore[arg-type]
        elif kind is _K_PASS:
            self.combo = None  # G7.4: a 2's second power declined
            self._end_turn(seat)
        elif kind is _K_POWER:
            self._use_power(seat, action)
        elif kind is _K_KNOCK:
            self.knocked = True
            self.closer = seat
            self.final_left = self.n - 1  # G4.1: each other player has one more turn
            self.turns += 1
            self.to_move = (seat + 1) % self.n
        else:  # pragma: no cover - every Kind is handled above
            raise IllegalAction(f"unknown action {action}")

    # ---- moves -------------------------------------------------------------------

    def _draw(self, seat: int) -> None:
        if not self.stock:
            self._reshuffle()
            if not self.stock:  # G2.5: nothing left to draw: the round ends, no closer
                self._finish(closer=None)
                return
        self.held = self.stock.pop()
        self.held_from_stock = True
        self.held_tag = self.stock_tag
        self.phase = _DRAWN

    def _swap(self, seat: int, pos: int) -> None:
        """G2.2/G2.3: the held card takes the exact position; the old card goes face up."""
        i = seat * self.size + pos
        old = self.cards[i]
        assert old is not None
        held = self.held
        self.cards[i] = held
        self.held = None
        self._to_discard(old)
        rules = self.rules
        if rules.closed:
            # G2.4: face down; the player saw it, and everyone saw a card from the pile.
            self.known[i] = 1 << seat if self.held_from_stock else (1 << self.n) - 1
            self.origin[i] = self.held_tag
            if self.up[i]:  # G7.4: a card put in lies face down, even where a 4 turned one up
                self.up[i] = False
                self.down[seat] += 1
            if self.combo is not None:  # G7.4: an 8 lent by a 2; the 2 may lend another
                self._after_power(seat)
                return
        elif rules.shape.is_hand:
            self.known[i] = 1 << seat if self.held_from_stock else (1 << self.n) - 1
            self.origin[i] = self.held_tag
        else:
            face = self.face
            values = rules.card_values
            if not self.up[i]:
                self.up[i] = True
                self.down[seat] -= 1
            elif face is not None:
                self.face_points -= values[old]
            if face is not None:
                assert held is not None
                face[i] = held
                self.face_points += values[held]
            if rules.remove_matched_lines:
                self._remove_matched(seat, pos)
        self._end_turn(seat)

    def _remove_matched(self, seat: int, pos: int) -> None:
        """G3.5: a line that became a scoring match of face-up cards leaves the table."""
        shape = self.rules.shape
        base = seat * self.size
        lines: list[tuple[tuple[int, ...], bool]] = []
        wild = self.rules.one_eyed_jacks_wild
        matchers = self.rules.matchers
        if "column" in matchers or "lines" in matchers:
            lines += [(line, wild) for line in shape.column_lines if pos in line]
        if "lines" in matchers:
            lines += [(line, False) for line in shape.row_lines if pos in line]
            lines += [(line, False) for line in shape.diagonal_lines if pos in line]
        layout = self.cards[base : base + self.size]
        removed: list[int] = []
        for line, line_wild in lines:
            if all(self.up[base + p] and layout[p] is not None for p in line) and _matching(
                layout, line, line_wild
            ):
                removed += [p for p in line if p not in removed]
        for p in removed:
            card = self.cards[base + p]
            assert card is not None
            self.discard.insert(0, card)
            self.pile_points += self.rules.card_values[card]
            self.cards[base + p] = None
            if self.face is not None:
                self.face[base + p] = REMOVED
                self.face_points -= self.rules.card_values[card]

    def _reshuffle(self) -> None:
        """G2.5: the discard pile but its top card becomes the new stock (a chance event)."""
        if len(self.discard) < 2:
            return
        pile = self.discard[:-1]
        if self._pending:
            order = self._pending[0]
            if sorted(order) != sorted(pile):
                raise RecordError(
                    f"recorded reshuffle {len(self.reshuffles) + 1} is not the discard pile "
                    f"being reshuffled ({len(pile)} cards): {' '.join(card_texts(order))}"
                )
            del self._pending[0]
        else:
            if self._rng is None:
                # No generator was given: derive one from the deal so replays agree.
                self._rng = random.Random(hash(self._deck) if self._deck else 0)
            order = list(pile)
            self._rng.shuffle(order)
        del self.discard[:-1]
        self.pile_points = self.rules.card_values[self.discard[-1]]
        self.reshuffles.append(order)
        self.stock = order[::-1]
        self.stock_tag += 1

    def _reveal_actions(self, seat: int) -> list[GolfAction]:
        rules = self.rules
        base = seat * self.size
        shape = rules.shape
        if rules.closed:
            bit = 1 << seat
            allowed = (
                shape.bottom_row if rules.peek_constraint == "nearest_row" else range(shape.size)
            )
            return [PEEK[p] for p in allowed if not self.known[base + p] & bit]
        constraint = rules.flip_constraint
        cols = self._reveal_cols  # of the flips this seat has made so far
        up = self.up
        width = shape.cols
        if cols and constraint == "same_column":
            return [FLIP[p] for p in range(self.size) if not up[base + p] and p % width == cols[0]]
        if cols and constraint == "different_columns":
            return [FLIP[p] for p in range(self.size) if not up[base + p] and p % width not in cols]
        return [FLIP[p] for p in range(self.size) if not up[base + p]]

    def _reveal_step(self, seat: int, pos: int) -> None:
        self._reveal_cols.append(pos % self.rules.shape.cols)
        self.reveal_left -= 1
        if self.reveal_left:
            return
        self._reveal_cols = []
        following = (seat + 1) % self.n
        if following == (self.dealer + 1) % self.n:  # everyone has revealed
            self.phase = _TURN
        else:
            rules = self.rules
            self.reveal_left = rules.peeks if rules.closed else rules.flips
        self.to_move = following

    def _to_discard(self, card: Card) -> None:
        self.discard.append(card)
        self.pile_points += self.rules.card_values[card]
        if self.rules.jack_skips and card.rank == Rank.JACK:
            self._skip = True  # G7.6

    def _end_turn(self, seat: int) -> None:
        self.turns += 1
        skip, self._skip = self._skip, False
        if self.closer is not None:
            self.final_left -= 2 if skip and self.final_left > 1 else 1  # G7.6
            if self.final_left <= 0:
                self._finish(self.closer)
                return
        elif self.rules.closes_by_layout:
            closer = seat if self.down[seat] == 0 else None  # G3.1
            if closer is None and self.rules.has_powers:  # a swap may close another layout
                closer = next((s for s in range(self.n) if self.down[s] == 0), None)
            if closer is not None:
                self.closer = closer
                if not self.rules.final_turns:
                    self._finish(closer)
                    return
                self.final_left = self.n - 1
        self.phase = _TURN
        self.to_move = (seat + 1 + skip) % self.n

    def _use_power(self, seat: int, action: GolfAction) -> None:
        """G7: discard the drawn card and use its power."""
        if self.shields is not None:
            self._use_extended(seat, action)
            return
        held = self.held
        assert held is not None
        self.held = None
        size = self.size
        targets = action.targets
        verb = action.power
        if verb == "give":  # G7.5: the king goes there; that face-up card comes to you
            (s, p) = targets[0]
            i = s * size + p  # type: ignore[operator]
            taken = self.cards[i]
            self.cards[i] = held
            self.known[i] = (1 << self.n) - 1
            self.held = taken
            self.held_from_stock = False
            self.phase = _TAKEN
            return
        self._to_discard(held)
        if verb == "peek":
            (s, p) = targets[0]
            self.known[s * size + p] |= 1 << seat  # type: ignore[operator]
        elif verb == "swap":
            (a, p), (b, q) = targets
            self._exchange(a * size + p, b * size + q)  # type: ignore[operator]
        elif verb == "shuffle":
            self._shuffle_layout(targets[0][0])
        self._end_turn(seat)

    def _use_extended(self, seat: int, action: GolfAction) -> None:
        """G7.4: the extended Powers set (readings decided here: greenfelt.golf.powers)."""
        assert self.shields is not None
        verb = action.power
        targets = action.targets
        size = self.size
        everyone = (1 << self.n) - 1
        if verb == "keep":  # 8: keep one card of the offer, discard the rest, put it in
            k = targets[0][0]
            on_offer, self.choice = self.choice, ()
            for j, (card, _tag) in enumerate(on_offer):
                if j != k:
                    self._to_discard(card)
            kept, tag = on_offer[k]
            self.held = kept
            self.held_from_stock = tag >= 0  # the 8 itself is seen by all
            self.held_tag = max(tag, 0)
            self.phase = _TAKEN
            return
        held, self.held = self.held, None
        own_card: Card | None = None  # a 9 to put in, an 8 to offer
        if self.phase is _DRAWN:
            assert held is not None
            if held.rank == Rank.TWO:
                self.combo = ()
                self._to_discard(held)
            elif verb in ("place", "draw2"):
                own_card = held
            else:
                self._to_discard(held)
        if self.combo is not None:
            self.combo = (*self.combo, power_name(action, seat))
        if verb in ATTACKS:
            victim = next(t for t, _ in targets if t != seat)
            if self.shields[victim]:  # G7.4 5: the shield is spent, the attack does nothing
                shields = list(self.shields)
                shields[victim] -= 1
                self.shields = tuple(shields)
                if own_card is not None:
                    self._to_discard(own_card)
                self._after_power(seat)
                return
        if verb == "peek":
            s, p = targets[0]
            self.known[s * size + p] |= 1 << seat  # type: ignore[operator]
        elif verb == "place":  # 9: it takes the card's place; that card is discarded
            s, p = targets[0]
            i = s * size + p  # type: ignore[operator]
            old = self.cards[i]
            assert old is not None and own_card is not None
            self.cards[i] = own_card
            if self.up[i]:
                self.up[i] = False
                self.down[s] += 1
            self.known[i] = everyone
            self.origin[i] = 0
            self._to_discard(old)
        elif verb == "draw2":  # 8: the next two stock cards, seen by this seat only
            offer: list[tuple[Card, int]] = [] if own_card is None else [(own_card, -1)]
            for _ in range(2):
                if not self.stock:
                    self._reshuffle()
                    if not self.stock:
                        break
                offer.append((self.stock.pop(), self.stock_tag))
            self.choice = tuple(offer)
            self.phase = _CHOOSE
            return
        elif verb in ("rows", "cols"):  # 7: cards keep faces and knowers
            (s, a), (_, b) = targets
            shape = self.rules.shape
            cols = shape.cols
            assert a is not None and b is not None
            if verb == "rows":
                pairs = [(a * cols + c, b * cols + c) for c in range(cols)]
            else:
                pairs = [(r * cols + a, r * cols + b) for r in range(shape.rows)]
            for x, y in pairs:
                self._exchange(s * size + x, s * size + y)
        elif verb == "swap":  # 6
            (a, p), (b, q) = targets
            self._exchange(a * size + p, b * size + q)  # type: ignore[operator]
        elif verb == "shield":  # 5
            shields = list(self.shields)
            shields[seat] += 1
            self.shields = tuple(shields)
        elif verb == "show":  # 4: face up, public; a black king there cancels a knock
            s, p = targets[0]
            i = s * size + p  # type: ignore[operator]
            self.up[i] = True
            self.down[s] -= 1
            self.known[i] = everyone
            shown = self.cards[i]
            assert shown is not None
            if self.knocked and shown.rank == Rank.KING and not _is_red(shown):
                self._cancel_knock()
        elif verb == "hide":  # 4: face down; everyone saw it, so everyone still knows it
            s, p = targets[0]
            i = s * size + p  # type: ignore[operator]
            self.up[i] = False
            self.down[s] += 1
            self.known[i] = everyone
        elif verb == "shuffle":  # 3
            self._shuffle_layout(targets[0][0])
        elif verb == "add":  # A: the stock's top card, unseen, beyond the grid
            s = targets[0][0]
            if not self.stock:
                self._reshuffle()
            base = s * size
            i = next(
                base + p for p in range(self.rules.shape.size, size) if self.cards[base + p] is None
            )
            self.cards[i] = self.stock.pop()
            self.up[i] = False
            self.known[i] = 0
            self.origin[i] = self.stock_tag
            self.down[s] += 1
        elif verb == "remove":  # A: one of yours goes to the pile face up
            s, p = targets[0]
            i = s * size + p  # type: ignore[operator]
            removed = self.cards[i]
            assert removed is not None
            self.cards[i] = None
            if not self.up[i]:
                self.down[s] -= 1
            self.up[i] = False
            self.known[i] = 0
            self.origin[i] = 0
            self._to_discard(removed)
        elif verb == "cancel":  # black K drawn from the stock
            self._cancel_knock()
        self._after_power(seat)

    def _after_power(self, seat: int) -> None:
        """End the turn, unless a 2 has lent only one power so far (G7.4)."""
        combo = self.combo
        if combo is not None:
            if len(combo) == 1:
                self.phase = _SECOND
                return
            self.combo = None
        self._end_turn(seat)

    def _cancel_knock(self) -> None:
        """G7.4 black K: the round goes on as if nobody had knocked."""
        self.knocked = False
        self.closer = None
        self.final_left = 0

    def _exchange(self, i: int, j: int) -> None:
        """Swap two table cards; each keeps its face and its knowers (G7.2, G7.3)."""
        cards, up, known, origin = self.cards, self.up, self.known, self.origin
        cards[i], cards[j] = cards[j], cards[i]
        up[i], up[j] = up[j], up[i]
        known[i], known[j] = known[j], known[i]
        origin[i], origin[j] = origin[j], origin[i]
        si, sj = i // self.size, j // self.size
        if si != sj and self.up[i] != self.up[j]:
            delta = 1 if self.up[i] else -1  # card now at i was face up at j
            self.down[si] -= delta
            self.down[sj] += delta

    def _shuffle_layout(self, seat: int) -> None:
        """A chance event: the layout's cards change places; nobody knows the face-down ones."""
        base = seat * self.size
        places = [p for p in range(self.size) if self.cards[base + p] is not None]
        if self._pending_shuffles:
            permutation = self._pending_shuffles.pop(0)
            if sorted(permutation) != list(range(len(places))):
                raise RecordError(
                    f"recorded shuffle {len(self.shuffles) + 1} is not a permutation of "
                    f"{len(places)} cards: {permutation}"
                )
        else:
            if self._rng is None:
                self._rng = random.Random(hash(self._deck) if self._deck else 0)
            permutation = list(range(len(places)))
            self._rng.shuffle(permutation)
        self.shuffles.append(permutation)
        old = [(self.cards[base + p], self.up[base + p], self.origin[base + p]) for p in places]
        everyone = (1 << self.n) - 1
        hidden_tags = sorted(tag for _, up, tag in old if not up)
        for k, p in enumerate(places):
            card, up, _tag = old[permutation[k]]
            self.cards[base + p] = card
            self.up[base + p] = up
            self.known[base + p] = everyone if up else 0
        # Pools follow public facts only: which positions hide cards of which pool is
        # unknown after a shuffle, so tags are reassigned in position order.
        for p in places:
            if not self.up[base + p]:
                self.origin[base + p] = hidden_tags.pop(0)

    def _finish(self, closer: int | None) -> None:
        """G3.4: every card turns face up and the round is scored (G5, G6)."""
        self.phase = _OVER
        self.to_move = None
        self.held = None
        for i, card in enumerate(self.cards):
            if card is not None:
                self.up[i] = True
        self.down = [0] * self.n
        if self.face is not None:
            self.face = [REMOVED if c is None else c for c in self.cards]
            self.face_points = sum(self.rules.card_values[c] for c in self.cards if c is not None)
        self._end_closer = closer
        scores = quick_scores([self.layout(s) for s in range(self.n)], self.rules, closer)
        if scores is None:
            self._result = self._score_in_full()
            scores = self._result.scores
        self._scores = scores

    # ---- errors -------------------------------------------------------------------

    def _why_illegal(self, action: GolfAction, seat: int) -> str:
        """A reason a player can act on, naming the phase (never a hidden card)."""
        phase = self.phase
        rules = self.rules
        shape = rules.shape
        where = _PHASE_HELP[phase]
        if self.shields is not None:
            reason = self._why_extended(action, seat)
            if reason is not None:
                return reason
        legal = ", ".join(str(a) for a in self.legal_actions()) or "nothing"
        pos = action.pos
        if pos is not None and pos >= self.size:
            unit = "hand of 4" if shape.is_hand else f"{rules.layout} layout"
            return f"position {pos} is outside a {unit} (positions 0-{self.size - 1})"
        kind = action.kind
        i = seat * self.size + (pos or 0)
        if pos is not None and self.cards[i] is None:
            return f"position {pos} is empty: its matched line left the table (G3.5)"
        if kind is _K_KNOCK:
            if not rules.knocking:
                return "knocking is off in these rules (G4.1)"
            if self.knocked:
                return "someone has already knocked this round (G4.2)"
            if self.closer is not None:
                return "the round is already closing: no knocking in final turns"
        if kind is _K_DISCARD and phase is _TAKEN:
            return "a card taken from the discard pile must be swapped into your layout (G2.3)"
        if kind is _K_TAKE and phase is _TURN and rules.final_turns_stock_only:
            return "during final turns you may only draw from the stock (G3.2)"
        if kind is _K_FLIP and pos is not None and self.up[i]:
            return f"position {pos} is already face up"
        if kind is _K_PEEK and phase is _REVEAL and self.known[i] & (1 << seat):
            return f"you have already peeked at position {pos}"
        if phase is _REVEAL and kind in (_K_FLIP, _K_PEEK):
            if rules.closed and rules.peek_constraint == "nearest_row":
                return "peek only at the row nearest you (peek_constraint=nearest_row, G1.7)"
            return f"flip_constraint={rules.flip_constraint} forbids flipping position {pos} (G1.7)"
        if kind is _K_FLIP and phase is _TURN:
            return "flipping instead of drawing is off in these rules (G2.1)"
        return f"{action} is not possible during {where}; legal: {legal}"

    def _why_extended(self, action: GolfAction, seat: int) -> str | None:
        """Reasons particular to the extended Powers set (G7.4)."""
        kind = action.kind
        if kind is _K_TAKE:
            return "in the Powers variant a turn draws from the stock: no taking the discard (G7.4)"
        if kind is _K_POWER:
            return why_extended_illegal(self, seat, action)
        pos = action.pos
        if pos is not None and pos < self.size and self.cards[seat * self.size + pos] is None:
            return f"your position {pos} is empty"
        if self.phase is _CHOOSE:
            return f"an 8 offers cards to keep: {', '.join(map(str, self.legal_actions()))}"
        return None

    # ---- information -------------------------------------------------------------

    def view(self, seat: int | None, *, recall: bool = True) -> dict[str, Any]:
        """What ``seat`` may know (G8), as JSON-able data; ``None`` is a spectator.

        With ``recall=False`` and option ``memory`` on, a seat's face-down cards
        are shown as unknown even if it has seen them (G8.2): what an interface
        shows a person, while bots keep their perfect recall.
        """
        size = self.size
        over = self.phase is _OVER
        bit = 0 if seat is None else 1 << seat
        # G8.2: shown during the reveal step, hidden after it (until the round ends).
        # Only closed layouts test memory: a hand4 player sees their hand at all times (G1.7).
        hide_seen = (
            not recall
            and self.rules.memory
            and self.rules.closed
            and self.phase not in (_REVEAL, _OVER)
        )
        layouts = []
        for s in range(self.n):
            texts: list[str | None] = []
            face_up: list[bool] = []
            for p in range(size):
                i = s * size + p
                card = self.cards[i]
                if card is None:
                    texts.append(None)
                    face_up.append(True)
                elif self.up[i] or (self.known[i] & bit and not hide_seen):
                    texts.append(str(card))
                    face_up.append(self.up[i])
                else:
                    texts.append("??")
                    face_up.append(False)
            layouts.append({"cards": texts, "face_up": face_up})
        held: str | None = None
        if self.held is not None:
            sees = not self.held_from_stock or seat == self.to_move
            held = str(self.held) if sees else "??"
        view: dict[str, Any] = {
            "game": "golf",
            "seat": seat,
            "players": self.n,
            "dealer": self.dealer,
            "layout": self.rules.layout,
            "phase": self.phase.value,
            "to_move": self.to_move,
            "turn": self.turns,
            "layouts": layouts,
            "stock": len(self.stock),
            "discard": card_texts(self.discard),
            "held": held,
            "held_from": None
            if self.held is None
            else ("stock" if self.held_from_stock else "discard"),
            "reveal_left": self.reveal_left if self.phase is _REVEAL else 0,
            "closer": self.closer,
            "knocked": self.knocked,
            "final_turns_left": self.final_left if self.closer is not None and not over else 0,
            "reshuffles": len(self.reshuffles),
            "legal": [str(a) for a in self.legal_actions(seat)] if seat is not None else [],
            "scores": self.scores,
        }
        if self.shields is not None:  # G7.4
            view["shields"] = list(self.shields)
            view["offer"] = [
                str(card) if tag < 0 or seat == self.to_move else "??" for card, tag in self.choice
            ]
            view["lent"] = list(self.combo) if self.combo is not None else None
        if self.result is not None:
            view["breakdown"] = _breakdown_json(self.result)
        return view

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        """A round pickles (a server bot's copy travels to a worker process) without a
        ``SystemRandom``: that generator has no state to send, and a copy must not draw
        the table's shuffles anyway. A copy that reaches a G2.5 reshuffle then shuffles
        as a round given no generator does, from its deal; a seeded one travels as is."""
        state = {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}
        if isinstance(self._rng, random.SystemRandom):
            state["_rng"] = None
        return None, state

    def clone(self) -> GolfRound:
        """An independent copy, cheap enough for search (a few list copies)."""
        other = object.__new__(GolfRound)
        other.rules = self.rules
        other.n = self.n
        other.dealer = self.dealer
        other.size = self.size
        other._deck = self._deck
        other._rng = self._rng
        other._pending = self._pending[:] if self._pending else []
        other._pending_shuffles = self._pending_shuffles[:] if self._pending_shuffles else []
        other.shuffles = self.shuffles[:]
        other._skip = self._skip
        other._actions = self._actions[:]
        other.reshuffles = self.reshuffles[:]
        other.cards = self.cards[:]
        other.discard = self.discard[:]
        other.stock = self.stock[:]
        other.stock_tag = self.stock_tag
        other.up = self.up[:]
        other.known = self.known[:]
        other.origin = self.origin[:]
        other.down = self.down[:]
        other.face = self.face[:] if self.face is not None else None
        other.face_points = self.face_points
        other.pile_points = self.pile_points
        other.held = self.held
        other.held_from_stock = self.held_from_stock
        other.held_tag = self.held_tag
        other.closer = self.closer
        other.knocked = self.knocked
        other.final_left = self.final_left
        other.turns = self.turns
        other._result = self._result
        other._scores = self._scores
        other._end_closer = self._end_closer
        other._reveal_cols = self._reveal_cols[:]
        other.to_move = self.to_move
        other.phase = self.phase
        other.reveal_left = self.reveal_left
        other.shields = self.shields
        other.choice = self.choice
        other.combo = self.combo
        return other

    def determinize(self, seat: int, rng: random.Random) -> GolfRound:
        """A full state ``seat`` cannot tell apart from this one (its view is identical).

        Every card the seat cannot know is resampled within its pool (the deal,
        or a reshuffle), whose contents are public; future reshuffles use ``rng``.
        """
        other = self.clone()
        other._deck = None
        other._rng = rng
        other._pending = []
        other._pending_shuffles = []
        bit = 1 << seat
        places: dict[int, list[int]] = {}
        for i, card in enumerate(self.cards):
            if card is not None and not self.up[i] and not self.known[i] & bit:
                places.setdefault(self.origin[i], []).append(i)
        held_hidden = self.held is not None and self.held_from_stock and self.to_move != seat
        pools: dict[int, list[Card]] = {}
        for tag, where in places.items():
            pools[tag] = [self.cards[i] for i in where]  # type: ignore[misc]
        if held_hidden:
            assert self.held is not None
            pools.setdefault(self.held_tag, []).append(self.held)
        offer: dict[int, list[int]] = {}  # G7.4 8: the cards on offer only the mover saw
        if self.choice and self.to_move != seat:
            for k, (card, tag) in enumerate(self.choice):
                if tag >= 0:
                    offer.setdefault(tag, []).append(k)
                    pools.setdefault(tag, []).append(card)
        choice = list(self.choice)
        pools.setdefault(self.stock_tag, []).extend(self.stock)
        for tag, pool in pools.items():
            # Sorted first, so the sample depends only on what the seat knows
            # (the pool's contents), never on where the hidden cards really are.
            pool.sort()
            shuffle(pool, rng)
            for i in places.get(tag, ()):
                other.cards[i] = pool.pop()
            if held_hidden and tag == self.held_tag:
                other.held = pool.pop()
            for k in offer.get(tag, ()):
                choice[k] = (pool.pop(), tag)
            if tag == self.stock_tag:
                other.stock = pool
        if offer:
            other.choice = tuple(choice)
        return other

    def __repr__(self) -> str:
        return (
            f"<GolfRound {self.rules.layout} players={self.n} phase={self.phase.value} "
            f"to_move={self.to_move} turn={self.turns}>"
        )


def _is_red(card: Card) -> bool:
    suit = card.suit
    return suit is not None and suit.is_red


def _breakdown_json(result: RoundScore) -> list[dict[str, Any]]:
    return [
        {
            "layout": layout.total,
            "points": list(layout.points),
            "groups": [
                {"rule": g.rule, "kind": g.kind, "positions": list(g.positions), "points": g.points}
                for g in layout.groups
            ],
            "adjustments": [
                {"rule": a.rule, "reason": a.reason, "delta": a.delta}
                for a in result.adjustments[seat]
            ],
            "score": result.scores[seat],
        }
        for seat, layout in enumerate(result.layouts)
    ]


def _check_deck(deck: Sequence[Card], rules: GolfRules, seats: int) -> None:
    """The deck must be exactly the cards of the rules' decks, in any order (G1.3)."""
    expected = _expected_deck(rules.deck_count(seats), rules.jokers_per_deck)
    if sorted(deck) == expected:
        return
    missing = Counter(expected) - Counter(deck)
    extra = Counter(deck) - Counter(expected)
    parts = []
    if missing:
        parts.append("missing " + " ".join(card_texts(sorted(missing.elements()))[:8]))
    if extra:
        parts.append("extra " + " ".join(card_texts(sorted(extra.elements()))[:8]))
    raise NotationError(
        f"the deck has {len(deck)} cards but {seats} players with these rules use "
        f"{len(expected)} ({'; '.join(parts)})"
    )


@cache
def _expected_deck(decks: int, jokers_per_deck: int) -> list[Card]:
    return sorted(make_deck(decks, jokers_per_deck))
