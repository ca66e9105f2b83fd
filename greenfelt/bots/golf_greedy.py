"""The `greedy` Golf bot: the strategy the seed documents teach, as a fast policy.

The seeds' advice (wikiHow TR/SK "Strategy", the BGA summary), and where it lives:

- *Reveal in different columns* (G1.7): :func:`_reveal` spreads flips and peeks
  over columns (then rows), which gives every column a chance to pair.
- *Swap out your highest cards; make pairs* (G2.2, G5.3): every placement is
  judged by the change of an **estimated layout score**, where each card the
  seat cannot see counts at the mean value of the cards it has not seen, and
  matches follow the rules' matchers exactly as ``score_layout`` does
  (:class:`_Eval`).
- *Build columns of three* (3x3 golf, where a column cancels only when all three
  match, G5.3; the seeds: reveal in different columns "for more chances to cancel
  a column", and keep your nines from a neighbour finishing a column of them): a
  pair in a column is credited with part of the column's points while cards of
  its rank are unseen and the round is young (:meth:`_Decision._pair_credit`).
  Where four equal cards in a square score a block on 3x3 (G5.4, nine-card-wiki's
  -25), three of them wait for the fourth and are credited the same way.
- *Take the discard when it pairs or is low, otherwise draw* (G2.1): the best
  placement of the discard is compared with the expected gain of a stock card,
  computed over the unseen cards (:func:`_turn`).
- *Watch your neighbours* (seeds: "the player to your left collects nines, do
  not discard nines"): a card left on the pile is charged what it would give
  the next player beyond their own draw (:meth:`_Decision.denial`); and since
  the unseen-card counts exclude what others hold, pairs whose rank a neighbour
  collects are valued less.
- *Dump high cards when an opponent is close to closing*: the estimate is the
  score at the end, so high known cards are always the first to go; closing
  yourself (G3.1) or knocking (G4) is judged against the closer rule (G6):
  only when the seat expects to be lowest with a margin (:meth:`_Decision.closing_ok`).
- *Flip after a discard* (G2.2 may/must): flip to learn a card, spread over
  columns, never the last one when closing would not be lowest.

``greedy_policy`` is also the rollout policy of the `expert` bot, so it is
written for speed: per-rules tables are built once, the seat's sight is one
list of card codes, and the common column-matching layouts are evaluated one
column at a time.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeVar

from greenfelt.bots.base import PolicyBot
from greenfelt.cards import CARDS, Card
from greenfelt.golf.actions import DISCARD, DRAW, FLIP, KNOCK, PASS, SWAP, TAKE, GolfAction, Kind
from greenfelt.golf.game import FACE_DOWN, REMOVED, GolfRound, Phase
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import score_layout

__all__ = [
    "EMPTY",
    "OWNER_KNOWN",
    "UNKNOWN",
    "GreedyGolfBot",
    "builds_columns",
    "estimated_score",
    "estimated_totals",
    "greedy_policy",
    "seat_sight",
]

UNKNOWN: Final = FACE_DOWN
"""Sight code of a card the seat cannot see (valued at the unseen mean)."""
EMPTY: Final = REMOVED
"""Sight code of a position whose matched line left the table (G3.5): 0 points."""
OWNER_KNOWN: Final = 55
"""Sight code of another seat's hidden card that its owner has seen (closed golf, hand4)."""
_HIDDEN: Final = frozenset((UNKNOWN, OWNER_KNOWN))  # sight codes of cards valued per decision

_CACHE_ENTRIES: Final = 100_000  # the most layouts one evaluator's cache holds
_K = TypeVar("_K")
_V = TypeVar("_V")


def _keep(cache: dict[_K, _V], key: _K, value: _V) -> _V:
    """Store ``value`` in a bounded cache (emptied when full: a search soon refills
    what it meets again) and return it."""
    if len(cache) > _CACHE_ENTRIES:
        cache.clear()
    cache[key] = value
    return value


_NO_MATCH: Final = 100  # match key of the sight codes: they never match anything
# A hidden card its owner has seen is one they chose to keep: its share of the unseen
# mean by round (turns // players), the last for every later round. Closed golf (2x2):
# peeked cards are dealt at random and only those placed later were chosen.
_OWNER_KNOWN_SHARE: Final = (0.9, 0.8, 0.7, 0.6, 0.5)
# hand4: every card was seen and kept by choice from the deal on. Measured in greedy
# self-play (./dev bench owner_known_share), a hand's hidden cards score 0.69, 0.39, 0.20 and
# 0.13 of the unseen mean in rounds 0-3 (pairs among them included); this schedule
# beat the one above in 55.8% of 7,222 decided four-in-hand holes, +0.49 points a hole,
# and in 55.6% of 7,220 on fresh deals (+0.48). Closed golf gained holes but lost points.
_OWNER_KNOWN_SHARE_HAND: Final = (0.7, 0.5, 0.35, 0.25, 0.2)
_CLOSE_MARGIN: Final = 1.0  # expected lead needed to close or knock (closer_rule none)
_PENALTY_MARGIN: Final = 3.0  # extra lead needed when the closer rule punishes (G6)
_KNOCK_MARGIN: Final = 5.0  # extra lead needed to knock: the others then each have a turn (G4.1)
_UNKNOWN_MARGIN: Final = 5.0  # extra lead per own card still unknown when knocking
_LAST_CARD_MARGIN: Final = 1.5  # extra lead to close by turning up an unknown last card
_DENIAL_WEIGHT: Final = 0.6  # share of a card's worth to the next player charged to us
# Columns of three (nine-card, G5.3): a pair in a column is worth part of the column's
# points, its chance to be completed later, and a card that makes one is worth that to
# whoever draws or takes it. Against greedy without the credit over 5,000 mirrored
# nine-card deals (./dev bench greedy_pair_credit): 0.25 won 59.4% of decided holes and
# 0.5 61.5% with pairs credited only where they stood; with a card that makes a pair
# weighed too, 0.7 beat 0.5 by 1.2 points of percentage (+0.25 points a hole) over
# three seeds, and 0.9 fell back.
_PAIR_OPTION: Final = 0.7  # share credited to a pair with two or more of its rank unseen
_PAIR_TEMPO: Final = 4  # full credit while every seat has this many face-down cards
# Blocks on 3x3 layouts (G5.4, nine-card-wiki): three of a key in a square are worth
# part of what the fourth would save. Against greedy without the credit over 2,000
# mirrored nine-card-wiki deals (a trial version that scored the block exactly): 0.3
# won 53.7% of decided holes, 0.5 54.5%, 0.7 55.0%, 1.0 55.2%, and 1.0 against 0.7
# 50.1% on 3,000 more; crediting lines of three one card short gained nothing (0.5:
# 50.9% alone), nor did blocks on 2x3 (bga: 49.9%); bga on 3x3 gained +0.58 points a
# hole. As shipped (./dev bench greedy_pair_credit --preset nine-card-wiki): 54.4%
# and 53.3% of about 5,850 decided holes on two seeds, +1.19 and +0.95 points a hole.
_BLOCK_OPTION: Final = 0.7  # share credited to three of a block with its fourth unseen
_CLOSE_BONUS: Final = 1.0  # added to a move that closes the round when closing is good (G3.1)
_CLOSE_VETO: Final = -30.0  # the same when closing is bad: in effect a veto
# Powers (G7): a look at an own unknown card is worth about as much as the swaps it
# makes right; a rival's score counts in full against the leading rival.
_PEEK_OWN_VALUE: Final = 2.0
_PEEK_RIVAL_VALUE: Final = 1.0
_SHUFFLE_VALUE: Final = 1.5  # per card the victim knew and forgets
_RIVAL_WEIGHT: Final = 1.0
_OTHER_RIVAL_WEIGHT: Final = 0.3
_POWER_MARGIN: Final = 0.25  # a power must beat keeping the card by this much

_P_REVEAL, _P_TURN, _P_DRAWN, _P_TAKEN, _P_FLIP = (
    Phase.REVEAL,
    Phase.TURN,
    Phase.DRAWN,
    Phase.TAKEN,
    Phase.FLIP,
)


# ---- what a seat sees --------------------------------------------------------------


def seat_sight(state: GolfRound, seat: int) -> tuple[list[int], int | None]:
    """Every layout cell as ``seat`` may know it (G8.1), and the held card if it sees it.

    A cell is its card code when face up or known to ``seat`` (peeked, placed
    by it, or taken from the discard pile), :data:`EMPTY` when its line left
    the table (G3.5), :data:`OWNER_KNOWN` for another seat's hidden card that
    its owner has seen (who peeked or placed what is public), and
    :data:`UNKNOWN` otherwise. This, the discard pile, the counts and the
    public round flags are all the policy reads: never the stock order nor a
    hidden card.
    """
    face = state.face
    # Open layouts without powers: every seat sees the table, kept by the round in the
    # same codes (UNKNOWN is FACE_DOWN, EMPTY is REMOVED).
    cells = face[:] if face is not None else _layout_sight(state, seat)
    held = state.held
    if held is not None and state.held_from_stock and state.to_move != seat:
        held = None
    return cells, held


def _layout_sight(state: GolfRound, seat: int) -> list[int]:
    """:func:`seat_sight`'s cells where a seat may know more than the table shows."""
    bit = 1 << seat
    cards, up, known = state.cards, state.up, state.known
    rules = state.rules
    if rules.closed or rules.shape.is_hand:
        size = state.size
        cells = []
        for i, card in enumerate(cards):
            k = known[i]
            if card is None:
                cells.append(EMPTY)
            elif up[i] or k & bit:
                cells.append(card)
            elif k & (1 << (i // size)):
                cells.append(OWNER_KNOWN)
            else:
                cells.append(UNKNOWN)
    else:
        # Open layouts with powers: a face-down card is unknown to everyone, its owner
        # included, unless a power showed it to a seat (G7). (Copy, then mark: about
        # twice as fast as a comprehension over three lists.)
        cells = list(cards)  # type: ignore[arg-type]  # a removed card's None: below
        for i, u in enumerate(up):
            if not u and not known[i] & bit:
                cells[i] = UNKNOWN
        if rules.has_gaps:
            for i, card in enumerate(cards):
                if card is None:
                    cells[i] = EMPTY
    return cells


# ---- per-rules tables and the layout estimate ---------------------------------------


class _Eval:
    """Per-rules (and player count) tables and the estimated layout score.

    ``v`` holds each sight code's points: a card's value (G5.1), the unseen
    mean for :data:`UNKNOWN` (set per decision), 0 for :data:`EMPTY`.
    ``total`` scores one seat's cells as ``score_layout`` would with every
    unknown card at ``v[UNKNOWN]`` and unable to match; ``gain`` is how much
    placing a card at a position lowers that estimate.
    """

    credits_pairs: bool = False
    """Whether a pair that a line still waits on is credited (columns of three,
    :class:`_TripleColumnEval`): :meth:`potential` then also weighs a card that
    makes such a pair."""
    credits_blocks: bool = False
    """Whether three of a block (G5.4) waiting for the fourth are credited (3x3
    layouts, :class:`_UnionEval`): :meth:`potential` then also weighs a card that
    completes a block or leaves one a card short."""
    credits: bool = False
    """Whether a decision credits matches one card short (:attr:`pair_credit`): either
    of the two above."""
    credit_option: float = 0.0
    """The share of what a match one card short would save that a decision credits
    (:meth:`_Decision._pair_credit`), before the round's tempo and the unseen cards."""
    square_trials: bool = False
    """Whether :meth:`_trials` weighs a card that completes a square or leaves it one
    card short (:attr:`square_others`; where blocks one card short are credited)."""
    square_others: Sequence[tuple[tuple[int, ...], ...]] = ()
    """The other three positions of each square through each position (G5.4)."""
    reads_before: bool = True
    """Whether :meth:`gain` reads the layout's total (``before``). The generic one
    does; the column evaluators score the card's column alone and never do, so a
    decision totals a layout for them only where it needs the total itself."""

    def __init__(self, rules: GolfRules, n: int) -> None:
        self.rules = rules
        self.n = n
        shape = rules.shape
        size = self.size = shape.size
        decks = self.decks = rules.deck_count(n)
        values = rules.card_values
        self.v: list[float] = [float(x) for x in values] + [0.0, 0.0, 0.0]
        self.key: list[int] = [c % 13 for c in range(52)] + [13, _NO_MATCH, _NO_MATCH + 1]
        self.key.append(_NO_MATCH + 2)
        # The seen-card bookkeeping: value and count of each sight code. Integers: the sums
        # are exact either way, and a sum of small integers runs in C without a float each.
        self.seen_value: list[int] = [*values, 0, 0, 0]
        self.is_card: list[int] = [1] * 53 + [0, 0, 0]
        deck = list(range(52)) * decks + [52] * (rules.jokers_per_deck * decks)
        self.total_count = len(deck)
        self.total_value = float(sum(values[c] for c in deck))
        # Classes of cards that are alike for the policy: same match key and value.
        classes: dict[tuple[int, int], int] = {}
        self.cls: list[int] = []
        for c in range(53):
            self.cls.append(classes.setdefault((self.key[c], values[c]), len(classes)))
        self.cls += [len(classes)] * 3  # the sight codes: a class never counted
        self.class_value = [float(val) for (_, val) in classes]
        self.class_key = [k for (k, _) in classes]
        base = [0] * (len(classes) + 1)
        for c in deck:
            base[self.cls[c]] += 1
        self.base_count = base
        # A representative card per match key, free of suit specials (clubs).
        self.rep: dict[int, int] = {r: 39 + r for r in range(13)}
        self.rep[13] = 52
        # The expected gain of a stock card worth replacing something of value w,
        # over the full deck (the next player's alternative to a discard).
        deck_values = [values[c] for c in deck]
        self.dg_offset = 40
        self.dg_table = [
            sum(max(0.0, w - x) for x in deck_values) / len(deck_values)
            for w in range(-self.dg_offset, 200)
        ]
        # Lines through each position: the others a card there could match with.
        self.lines = self._lines()
        through: list[list[tuple[int, ...]]] = [[] for _ in range(size)]
        for line in self.lines:
            for p in line:
                through[p].append(tuple(q for q in line if q != p))
        self.through = [tuple(t) for t in through]
        self.columns = shape.column_lines
        # Columns and rows of each position (a hand4 hand has neither: all distinct).
        grid = shape.is_grid
        self.col_of = [shape.col_of(p) if grid else p for p in range(size)]
        self.row_of = [shape.row_of(p) if grid else p for p in range(size)]
        # Only where owners know face-down cards (closed golf, hand4) can a sight be
        # OWNER_KNOWN (seat_sight), so only there is its value set.
        self.owners_peek = rules.closed or shape.is_hand
        self.owner_shares = _OWNER_KNOWN_SHARE_HAND if shape.is_hand else _OWNER_KNOWN_SHARE
        # Sight codes other than UNKNOWN: removed lines (G3.5) and what owners peeked at.
        self.rare_codes = rules.has_gaps or self.owners_peek
        self.punished = rules.closer_rule != "none"
        self.closes = rules.closes_by_layout
        self.keep_negative = rules.negative_pairs_keep_value
        self.joker_pair = rules.joker_pair_value
        # A turn that takes the discard (G2.1) has chosen where it goes: the decision
        # right after (TAKEN) reads the same and is the same (_Decision.keep_taken).
        self.taken: tuple[tuple[object, ...], GolfAction] | None = None
        # Per match key, the share of a match one card short credited to it, its chance
        # to be completed later (_Decision._pair_credit, per decision; always 0 for the
        # sight codes' keys), and whether any key is credited now.
        self.pair_credit: list[float] = [0.0] * (max(self.key) + 1)
        self.crediting = False

    def no_credit(self) -> None:
        """Score matches at their face value (the estimate of a round about to end)."""
        self.pair_credit[:14] = [0.0] * 14
        self.crediting = False

    def _lines(self) -> list[tuple[int, ...]]:
        """Groups of positions whose cards may cancel together (G5.3)."""
        rules = self.rules
        shape = rules.shape
        matchers = rules.matchers
        out: list[tuple[int, ...]] = []
        if matchers[0] in ("pairs_in_line", "any_pairs"):
            for a in range(self.size):
                for b in range(a + 1, self.size):
                    if matchers == ("any_pairs",) or shape.is_hand:
                        out.append((a, b))
                        continue
                    ra, ca, rb, cb = (
                        shape.row_of(a),
                        shape.col_of(a),
                        shape.row_of(b),
                        shape.col_of(b),
                    )
                    diagonal = rules.diagonal_pairs and abs(ra - rb) == abs(ca - cb)
                    if ra == rb or ca == cb or diagonal:
                        out.append((a, b))
            return out
        for matcher in matchers:
            if matcher == "column":
                out += shape.column_lines
            elif matcher == "lines":
                out += [*shape.row_lines, *shape.column_lines, *shape.diagonal_lines]
            elif matcher == "adjacent_pairs":
                out += shape.adjacent_pairs
        return list(dict.fromkeys(out))

    def dg(self, worth: float) -> float:
        """Expected gain of a random card replacing something worth ``worth``."""
        i = int(worth) + self.dg_offset
        table = self.dg_table
        return table[0 if i < 0 else i if i < len(table) else len(table) - 1]

    def total(self, cells: Sequence[int], seat: int) -> float:
        raise NotImplementedError

    def potential(
        self, cells: list[int], seat: int, before: float | None = None
    ) -> tuple[float, dict[int, float]]:
        """(the most a card worth 0 gains in one place, the gain of a matching card by key:
        one that completes a match, or where pairs are credited one that makes a pair).

        ``before`` is the layout's total where the caller already has it.
        """
        gain = self.gain
        before = self._before(cells, seat, before)
        worth = -1e9
        pairs: dict[int, float] = {}
        for p, k, card in self._trials(cells, seat * self.size):
            g = gain(cells, seat, p, card, before)
            if k is None:
                worth = max(worth, g)
            elif g > pairs.get(k, -1e9):
                pairs[k] = g
        return worth, pairs

    def _before(self, cells: Sequence[int], seat: int, before: float | None) -> float:
        """The layout's total for :meth:`gain`: the caller's, else computed where
        :attr:`reads_before` says gain reads it (0 where it never does)."""
        if before is not None:
            return before
        return self.total(cells, seat) if self.reads_before else 0.0

    def _trials(self, cells: Sequence[int], base: int) -> Iterator[tuple[int, int | None, int]]:
        """The placements :meth:`potential` weighs, as ``(position, key, card)``: a card
        worth 0 (:data:`EMPTY`, key None) in every place, and in every place whose
        line the others already match on one key, a card of that key (where matches
        one card short are credited, also one that leaves a match a card short)."""
        key, rep, credits_pairs = self.key, self.rep, self.credits_pairs
        square_others = self.square_others if self.square_trials else None
        for p in range(self.size):
            here = cells[base + p]
            if here == EMPTY:
                continue
            yield p, None, EMPTY
            if square_others is not None:  # a card that completes a block, or leaves one short
                for others in square_others[p]:
                    a, b, c = (cells[base + q] for q in others)
                    ka, kb, kc = key[a], key[b], key[c]
                    k = ka if ka in (kb, kc) else kb if kb == kc else None
                    if k is not None and k < 14 and k != key[here] and EMPTY not in (a, b, c):
                        yield p, k, rep[k]
            for others in self.through[p]:
                first = cells[base + others[0]]
                if first < 53:
                    k = key[first]
                    if k != key[here]:
                        for q in others[1:]:
                            if key[cells[base + q]] != k:
                                break
                        else:
                            yield p, k, rep[k]
                            continue
                if credits_pairs:  # a card that makes a pair with one of them
                    for q in others:
                        o = cells[base + q]
                        if o < 53 and key[o] != key[here]:
                            yield p, key[o], rep[key[o]]

    def gain(self, cells: list[int], seat: int, pos: int, card: int, before: float) -> float:
        """How much the estimate of ``seat`` drops when ``card`` goes to ``pos``."""
        i = seat * self.size + pos
        old = cells[i]
        cells[i] = card
        after = self.total(cells, seat)
        cells[i] = old
        return before - after

    def gains(
        self, cells: list[int], seat: int, card: int, before: float | None = None
    ) -> list[float]:
        """:meth:`gain` of ``card`` at every position, in one call: what a placement
        weighs (a removed position's entry is 0, never read); ``before`` as in
        :meth:`potential`."""
        gain = self.gain
        before = self._before(cells, seat, before)
        base = seat * self.size
        return [
            0.0 if cells[base + p] == EMPTY else gain(cells, seat, p, card, before)
            for p in range(self.size)
        ]


class _ColumnEval(_Eval):
    """Only whole columns cancel (six-, eight-, ten- and nine-card): column by column."""

    reads_before = False

    def _column(self, codes: Sequence[int]) -> float:
        key = self.key
        first = codes[0]
        if first < 53:
            k = key[first]
            for c in codes[1:]:
                if key[c] != k:
                    break
            else:  # a matched column (G5.3)
                v = self.v
                out = 0.0
                if self.keep_negative:
                    out = sum(v[c] for c in codes if v[c] < 0)
                if k == 13:
                    out += self.joker_pair
                return out
        v = self.v
        return sum(v[c] for c in codes)

    def total(self, cells: Sequence[int], seat: int) -> float:
        base = seat * self.size
        col = self._column
        return sum(col([cells[base + p] for p in line]) for line in self.columns)

    def gain(self, cells: list[int], seat: int, pos: int, card: int, before: float) -> float:
        base = seat * self.size
        line = self.columns[self.col_of[pos]]
        old = [cells[base + p] for p in line]
        new = [card if p == pos else cells[base + p] for p in line]
        return self._column(old) - self._column(new)


class _PairColumnEval(_ColumnEval):
    """Two-row layouts with plain column pairs: the hot path of six-card Golf."""

    def __init__(self, rules: GolfRules, n: int) -> None:
        super().__init__(rules, n)
        cols = rules.shape.cols
        self.partner = [p + cols if p < cols else p - cols for p in range(self.size)]
        self.cols = cols

    def total(self, cells: Sequence[int], seat: int) -> float:
        v, key = self.v, self.key
        base = seat * self.size
        cols = self.cols
        s = 0.0
        for a in range(base, base + cols):
            ca = cells[a]
            cb = cells[a + cols]
            if ca < 53 and key[ca] == key[cb]:
                if ca == 52:
                    s += self.joker_pair
                continue
            s += v[ca] + v[cb]
        return s

    def gain(self, cells: list[int], seat: int, pos: int, card: int, before: float) -> float:
        v, key = self.v, self.key
        base = seat * self.size
        old = cells[base + pos]
        other = cells[base + self.partner[pos]]
        if old < 53 and key[old] == key[other]:
            was = self.joker_pair if old == 52 else 0.0
        else:
            was = v[old] + v[other]
        if card < 53 and key[card] == key[other]:
            now = self.joker_pair if card == 52 else 0.0
        else:
            now = v[card] + v[other]
        return was - now

    def gains(
        self, cells: list[int], seat: int, card: int, before: float | None = None
    ) -> list[float]:
        v, key = self.v, self.key
        base = seat * self.size
        cols = self.cols
        kc = key[card] if card < 53 else -1
        vc = v[card]
        paired = self.joker_pair if card == 52 else 0.0
        out = [0.0] * self.size
        for a in range(cols):
            up = cells[base + a]
            down = cells[base + a + cols]
            if up < 53 and key[up] == key[down]:
                was = self.joker_pair if up == 52 else 0.0
            else:
                was = v[up] + v[down]
            # The card over the top one stays with the bottom one, and the other way.
            out[a] = was - (paired if kc == key[down] else vc + v[down])
            out[a + cols] = was - (paired if kc == key[up] else vc + v[up])
        return out

    def potential(
        self, cells: list[int], seat: int, before: float | None = None
    ) -> tuple[float, dict[int, float]]:
        v, key = self.v, self.key
        base = seat * self.size
        cols = self.cols
        joker_pair = self.joker_pair
        worth = -1e9
        pairs: dict[int, float] = {}
        get = pairs.get
        for a in range(base, base + cols):
            up = cells[a]
            down = cells[a + cols]
            if up < 53 and key[up] == key[down]:  # a pair: replacing either card breaks it
                was = joker_pair if up == 52 else 0.0
                g = was - (v[up] if v[up] < v[down] else v[down])
                if g > worth:  # noqa: PLR1730 - the hot path: no call
                    worth = g
                continue
            vu, vd = v[up], v[down]
            if vu > worth and up != EMPTY:
                worth = vu
            if vd > worth and down != EMPTY:
                worth = vd
            was = vu + vd
            if down < 53 and up != EMPTY:  # a card of the bottom card's rank over the top
                k = key[down]
                pg = was - (joker_pair if down == 52 else 0.0)
                if pg > get(k, -1e9):
                    pairs[k] = pg
            if up < 53 and down != EMPTY:
                k = key[up]
                pg = was - (joker_pair if up == 52 else 0.0)
                if pg > get(k, -1e9):
                    pairs[k] = pg
        return worth, pairs


class _TripleColumnEval(_ColumnEval):
    """Three-row layouts with plain columns of three (nine-card): one column at a time."""

    credits_pairs = credits = True
    credit_option = _PAIR_OPTION

    def __init__(self, rules: GolfRules, n: int) -> None:
        super().__init__(rules, n)
        cols = rules.shape.cols
        self.cols = cols
        # The two other positions of each position's column.
        self.others = [
            tuple(q for q in (c, c + cols, c + 2 * cols) if q != p)
            for p in range(self.size)
            for c in (p % cols,)
        ]

    def _three(self, a: int, b: int, c: int) -> float:
        """A column's estimate: 0 when it cancels (G5.3), else its points, less the
        credit of a pair in it (:attr:`pair_credit`) when those points are positive."""
        key, v = self.key, self.v
        ka, kb, kc = key[a], key[b], key[c]
        if ka == kb:
            if ka == kc and a < 53:
                return self.joker_pair if a == 52 else 0.0  # G5.3: the column cancels
            k = ka
        elif kc == ka or kc == kb:  # noqa: PLR1714, SIM109 - the hot path: no tuple
            k = kc
        else:
            return v[a] + v[b] + v[c]  # no pair: the common case
        s = v[a] + v[b] + v[c]
        if s > 0.0:
            s -= self.pair_credit[k] * s
        return s

    def total(self, cells: Sequence[int], seat: int) -> float:
        base = seat * self.size
        cols = self.cols
        three = self._three
        s = 0.0
        for a in range(base, base + cols):
            s += three(cells[a], cells[a + cols], cells[a + 2 * cols])
        return s

    def gain(self, cells: list[int], seat: int, pos: int, card: int, before: float) -> float:
        base = seat * self.size
        q, r = self.others[pos]
        b, c = cells[base + q], cells[base + r]
        return self._three(cells[base + pos], b, c) - self._three(card, b, c)

    def gains(
        self, cells: list[int], seat: int, card: int, before: float | None = None
    ) -> list[float]:
        base = seat * self.size
        cols = self.cols
        three = self._three
        out = [0.0] * self.size
        for a in range(cols):
            b = base + a
            top, mid, low = cells[b], cells[b + cols], cells[b + 2 * cols]
            # As :meth:`gain` adds them (the placed position first): the same floats.
            out[a] = three(top, mid, low) - three(card, mid, low)
            out[a + cols] = three(mid, top, low) - three(card, top, low)
            out[a + 2 * cols] = three(low, top, mid) - three(card, top, mid)
        return out

    def potential(
        self, cells: list[int], seat: int, before: float | None = None
    ) -> tuple[float, dict[int, float]]:
        v, key, credit, rep = self.v, self.key, self.pair_credit, self.rep
        base = seat * self.size
        three = self._three
        others = self.others
        worth = -1e9
        pairs: dict[int, float] = {}
        for p in range(self.size):
            here = cells[base + p]
            if here == EMPTY:
                continue
            q, r = others[p]
            b, c = cells[base + q], cells[base + r]
            was = three(here, b, c)
            # What a card worth 0 that matches nothing saves: the rest of the column
            # stays, a pair in it credited (three(EMPTY, b, c), inlined).
            rest = v[b] + v[c]
            if rest > 0.0 and key[b] == key[c]:
                rest -= credit[key[b]] * rest
            g = was - rest
            if g > worth:  # noqa: PLR1730 - the hot path: no call
                worth = g
            if b < 53 and key[b] == key[c] != key[here]:  # the card that completes it
                k = key[b]
                pg = was - (self.joker_pair if b == 52 else 0.0)
                if pg > pairs.get(k, -1e9):
                    pairs[k] = pg
            else:  # a card that makes a pair with one of them, credited (_pair_credit)
                for o in (b, c):
                    if o < 53 and key[o] != key[here]:
                        k = key[o]
                        # three(rep[k], b, c), inlined: b and c differ, so a pair, no match
                        s = v[rep[k]] + v[b] + v[c]
                        pg = was - (s - credit[k] * s if s > 0.0 else s)
                        if pg > pairs.get(k, -1e9):
                            pairs[k] = pg
        return worth, pairs


_Waits = tuple[tuple[int, float], ...]
"""A layout's blocks one card short (:meth:`_UnionEval._waits`): (key, points saved)."""
_Trial = tuple[int, int | None, float, _Waits]
"""A placement :meth:`_UnionEval.potential` weighs (:meth:`_UnionEval._trial_list`)."""
_ByCode = dict[int, tuple[float, dict[int, float]]]
"""Trials' seen gains by what they replace (:meth:`_UnionEval._by_code`)."""

_Matches = tuple[dict[int, int], int, int, set[int]]
"""A layout's match keys: the positions holding each key (a bit mask), the positions
in filled lines, the number of filled lines of jokers, the keys filling something
``score_layout`` must judge (:meth:`_UnionEval._matches`)."""


class _UnionEval(_Eval):
    """Rows, columns, diagonals and adjacent pairs that cancel (G5.3), blocks (G5.4).

    Up to twenty lines to test per layout (nine-card-wiki), so the score of the
    cards a seat can see is cached by layout, cards that score alike sharing an
    entry: a search meets the same layouts over and over, and the unknown cards'
    mean, which changes with every decision, is added afterwards.
    """

    credit_option = _BLOCK_OPTION

    def __init__(self, rules: GolfRules, n: int) -> None:
        super().__init__(rules, n)

        def mask(line: Sequence[int]) -> int:
            return sum(1 << p for p in line)

        self.line_masks = [mask(line) for line in self.lines]
        # Blocks (G5.4, G5.5) and rows of kings (G5.6) of one key: score_layout decides.
        squares = rules.block_score is not None or rules.four_in_two_columns
        self.square_masks = [mask(sq) for sq in rules.shape.squares] if squares else []
        four_kings = rules.four_kings_side
        self.king_masks = [mask(row) for row in rules.shape.row_lines] if four_kings else []
        self.whole = rules.straight_bonus or rules.shoot_the_moon
        specials = self.square_masks or self.king_masks or self.whole
        self.exact = _ExactEval(rules, n, self) if specials else None
        self.cache: dict[tuple[int, ...], float] = {}
        self.potentials: dict[tuple[int, ...], _ByCode] = {}
        # Blocks one card short (G5.4) are credited on 3x3 layouts (_BLOCK_OPTION): the
        # squares, and by layout what each key's fourth card would save (waits) and
        # the trial placements of potential with the blocks one short after each.
        self.waiting = (
            [mask(sq) for sq in rules.shape.squares]
            if rules.block_score is not None and rules.shape.is_grid and rules.shape.rows == 3
            else []
        )
        self.block_score = rules.block_score or 0
        self.credits_blocks = self.credits = bool(self.waiting)
        self.squares_at = [[sq for sq in self.waiting if sq >> p & 1] for p in range(self.size)]
        # A card that completes a block or leaves one a card short (_trials): where
        # adjacent pairs cancel (nine-card-wiki), one of the three others is beside it,
        # so the adjacent pair's trial is the same placement already.
        self.square_trials = self.credits_blocks and "adjacent_pairs" not in rules.matchers
        self.square_others = [
            tuple(tuple(q for q in sq if q != p) for sq in rules.shape.squares if p in sq)
            for p in range(self.size)
        ]
        self.waits: dict[tuple[int, ...], _Waits] = {}
        self.trial_lists: dict[tuple[int, ...], tuple[_ByCode, list[_Trial]]] = {}
        # One card per class (same match key, same value); the sight codes as they are.
        first: dict[int, int] = {}
        self.canon = [first.setdefault(self.cls[c], c) for c in range(53)]
        self.canon += [UNKNOWN, EMPTY, OWNER_KNOWN]
        self.seen_only = [float(x) for x in self.v[:53]] + [0.0, 0.0, 0.0]
        # By set of positions (a bit mask) holding one key: what it fills (:meth:`_fill`),
        # found once per set; a layout has at most 2**10 sets.
        self.fills: list[tuple[int, int, bool, bool] | None] = [None] * (1 << self.size)
        # By set of matched positions: the others, in order.
        self.outside = [
            tuple(p for p in range(self.size) if not (zero >> p) & 1)
            for zero in range(1 << self.size)
        ]

    def _fill(self, where: int) -> tuple[int, int, bool, bool]:
        """The positions of the lines ``where`` fills whole and their number, whether it
        fills a block (G5.4, G5.5) and whether a row (G5.6, for kings)."""
        zero = count = 0
        for mask in self.line_masks:
            if mask & where == mask:
                zero |= mask
                count += 1
        block = any(mask & where == mask for mask in self.square_masks)
        row = any(mask & where == mask for mask in self.king_masks)
        fill = self.fills[where] = (zero, count, block, row)
        return fill

    def total(self, cells: Sequence[int], seat: int) -> float:
        base = seat * self.size
        lay = tuple(map(self.canon.__getitem__, cells[base : base + self.size]))
        known = self.cache.get(lay)
        if known is None:
            known = self._seen(lay)
        if self.crediting:
            return self._with_hidden(lay, known) - self._credit(lay)
        return self._with_hidden(lay, known)

    def _credit(self, lay: tuple[int, ...]) -> float:
        """What this decision credits ``lay``'s blocks one card short (G5.4)."""
        credit = self.pair_credit
        s = 0.0
        for k, saves in self._waits(lay):
            s += credit[k] * saves
        return s

    def _waits(self, lay: tuple[int, ...]) -> _Waits:
        """Each block of ``lay`` one card short (three of a key in a square, the fourth
        place another card or a hidden one) as (key, what the fourth would save: the
        three cards' points now, whatever else they match, less the block's score),
        where it saves anything; cached by layout."""
        waits = self.waits.get(lay)
        if waits is not None:
            return waits
        held, zero, _, _ = self._matches(lay)
        v = self.seen_only
        block = self.block_score
        keep_negative = self.keep_negative
        found: dict[tuple[int, int], float] = {}
        for k, where in held.items():
            if where.bit_count() < 3:
                continue
            for square in self.waiting:
                have = where & square
                if have.bit_count() != 3:
                    continue
                p = (square & ~have).bit_length() - 1
                if lay[p] == EMPTY or (p, k) in found:
                    continue
                saves = float(-block)
                while have:  # the three's points now (0 where matched, G5.3)
                    low = have & -have
                    value = v[lay[low.bit_length() - 1]]
                    if not zero & low or (keep_negative and value < 0):
                        saves += value
                    have ^= low
                found[p, k] = saves
        out = tuple((k, saves) for (_, k), saves in found.items() if saves > 0.0)
        return _keep(self.waits, lay, out)

    def _waits_after(self, base: _Matches) -> Callable[[tuple[int, ...], int, int, int], _Waits]:
        """:meth:`_waits` of layouts that differ in one place from the layout whose
        matches are ``base``: a function of (the layout after, the place, the code
        replaced, the code put there) that skips the layouts where no square can hold
        three cards of a key."""
        key = self.key
        held = base[0]  # positions by key (a bit mask)
        # The squares holding three or four of a key, with that key's positions.
        threes = [
            (square, where)
            for where in held.values()
            if where.bit_count() >= 3
            for square in self.waiting
            if (where & square).bit_count() >= 3
        ]
        squares_at = self.squares_at
        waits = self._waits

        def after(changed: tuple[int, ...], p: int, old: int, new: int) -> _Waits:
            come = key[new] if new < 53 else -1
            gone = key[old] if old < 53 else -1
            if come != gone:
                where = held.get(come, 0)
                if where & (where - 1):  # two or more: does the card make three in a square?
                    for square in squares_at[p]:
                        if (where & square).bit_count() == 2:
                            return waits(changed)
            bit = 1 << p
            for square, where in threes:  # does a square keep three of a key?
                if (where & square).bit_count() - (
                    come != gone and bool(where & square & bit)
                ) >= 3:
                    return waits(changed)
            return ()

        return after

    def _with_hidden(self, lay: tuple[int, ...], known: float) -> float:
        """``known``, the seen score of ``lay``, plus its hidden cards at this decision's
        values (:meth:`_Decision.estimate`), which no cache can hold."""
        v = self.v
        if UNKNOWN in lay:
            known += lay.count(UNKNOWN) * v[UNKNOWN]
        if OWNER_KNOWN in lay:
            known += lay.count(OWNER_KNOWN) * v[OWNER_KNOWN]
        return known

    def potential(
        self, cells: list[int], seat: int, before: float | None = None
    ) -> tuple[float, dict[int, float]]:
        """As :meth:`_Eval.potential`, from a cache of the seen cards' gains by layout.

        Replacing a visible card gains what the seen cards' score drops; replacing a
        hidden one gains that plus the hidden card's value, known only per decision.
        """
        base = seat * self.size
        canon = self.canon
        lay = tuple([canon[c] for c in cells[base : base + self.size]])
        if self.crediting:
            return self._credited_potential(lay)
        seen = self.potentials.get(lay)
        if seen is None:
            seen = _keep(self.potentials, lay, self._by_code(self._trial_list(lay)))
        return self._with_hidden_gains(seen)

    def _with_hidden_gains(self, seen: _ByCode) -> tuple[float, dict[int, float]]:
        """The potential from the seen cards' gains by what is replaced (:meth:`_by_code`),
        a hidden card replaced adding its value at this decision."""
        v = self.v
        worth = -1e9
        pairs: dict[int, float] = {}
        for code, (best, by_key) in seen.items():
            extra = v[code] if code >= 53 else 0.0
            worth = max(worth, best + extra)
            for k, g in by_key.items():
                g += extra
                if g > pairs.get(k, -1e9):
                    pairs[k] = g
        return worth, pairs

    def gains(
        self, cells: list[int], seat: int, card: int, before: float | None = None
    ) -> list[float]:
        """:meth:`_Eval.gains` from the cache, a missing layout scored from this one's
        matches (:meth:`_moved`) rather than afresh."""
        before = self._before(cells, seat, before)
        size = self.size
        start = seat * size
        canon = self.canon
        lay = list(map(canon.__getitem__, cells[start : start + size]))
        base: _Matches | None = None
        new = canon[card]
        cache = self.cache
        with_hidden = self._with_hidden
        waits = None
        if self.crediting:
            base = self._matches(tuple(lay))
            waits = self._waits_after(base)
        credit = self.pair_credit
        out: list[float] = []
        for p, old in enumerate(lay):
            if old == EMPTY:
                out.append(0.0)
                continue
            lay[p] = new
            after = tuple(lay)
            lay[p] = old
            known = cache.get(after)
            if known is None:
                if base is None:
                    base = self._matches(tuple(lay))
                known = _keep(cache, after, self._moved(after, base, p, old, new))
            if waits is not None:  # the credit of the layout after (_credit, inlined)
                g = before - with_hidden(after, known)
                for k, saves in waits(after, p, old, new):
                    g += credit[k] * saves
                out.append(g)
            else:
                out.append(before - with_hidden(after, known))
        return out

    @staticmethod
    def _by_code(trials: list[_Trial]) -> _ByCode:
        """By what is replaced (a card: -1; a hidden code: the code), the most a card
        worth 0 gains and what a matching card gains by key, the hidden cards at 0."""
        out: _ByCode = {}
        for code, k, g, _ in trials:
            worth, pairs = out.get(code, (-1e9, {}))
            if k is None:
                worth = max(worth, g)
            elif g > pairs.get(k, -1e9):
                pairs[k] = g
            out[code] = (worth, pairs)
        return out

    def _credited_potential(self, lay: tuple[int, ...]) -> tuple[float, dict[int, float]]:
        """:meth:`potential` where this decision credits blocks one card short: each
        trial's seen gain, plus the hidden card it replaces, less the credit it
        changes (per decision, so summed here rather than cached)."""
        entry = self.trial_lists.get(lay)
        if entry is None:  # the trials that leave no block one short: as uncredited
            trials = self._trial_list(lay)
            plain = self._by_code([t for t in trials if not t[3]])
            entry = _keep(self.trial_lists, lay, (plain, [t for t in trials if t[3]]))
        plain, waiting = entry
        worth, pairs = self._with_hidden_gains(plain)
        now = self._credit(lay)
        if now:
            worth -= now
            pairs = {k: g - now for k, g in pairs.items()}
        v = self.v
        credit = self.pair_credit
        for code, k, g, waits in waiting:
            g += (v[code] if code >= 53 else 0.0) - now
            for wk, saves in waits:  # the credit of the layout after (_credit, inlined)
                g += credit[wk] * saves
            if k is None:
                if g > worth:  # noqa: PLR1730 - the hot path: no call
                    worth = g
            elif g > pairs.get(k, -1e9):
                pairs[k] = g
        return worth, pairs

    def _trial_list(self, lay: tuple[int, ...]) -> list[_Trial]:
        """Each placement :meth:`potential` weighs (:meth:`_Eval._trials`) as (what it
        replaces: -1 for a card, else the hidden code; its key; the seen cards' gain,
        the hidden ones at 0; the blocks one card short after it, where credited)."""
        cells = list(lay)
        before = self._seen(lay)
        cache = self.cache
        canon = self.canon
        base: _Matches | None = None
        waits = None
        if self.credits_blocks:
            base = self._matches(lay)
            waits = self._waits_after(base)
        out: list[_Trial] = []
        for p, k, card in self._trials(lay, 0):
            here = lay[p]
            new = canon[card]
            after = self._put(cells, p, card)
            known = cache.get(after)
            if known is None:
                if base is None:
                    base = self._matches(lay)
                known = _keep(cache, after, self._moved(after, base, p, here, new))
            after_waits = waits(after, p, here, new) if waits is not None else ()
            out.append((here if here >= 53 else -1, k, before - known, after_waits))
        return out

    def _put(self, cells: list[int], pos: int, card: int) -> tuple[int, ...]:
        """The canonical layout with ``card`` at ``pos``, hidden cards kept as codes."""
        old = cells[pos]
        cells[pos] = self.canon[card]
        out = tuple(cells)
        cells[pos] = old
        return out

    def _seen(self, lay: tuple[int, ...]) -> float:
        """The score of the canonical ``lay`` with its hidden cards at 0, cached."""
        known = self.cache.get(lay)
        if known is None:
            known = _keep(self.cache, lay, self._seen_total(lay))
        return known

    def _matches(self, lay: tuple[int, ...]) -> _Matches:
        """Which positions of ``lay`` hold each match key, and what those sets fill.

        A line cancels (G5.3) when every position in it holds one match key, so each
        key held more than once looks up the lines its positions fill (:meth:`_fill`,
        by bit mask) instead of testing every line. Lines filled by different keys
        share no position, which lets :meth:`_moved` change one key's share alone.
        """
        key = self.key
        held: dict[int, int] = {}
        for p, c in enumerate(lay):
            if c < 53:
                k = key[c]
                held[k] = held.get(k, 0) | 1 << p
        zero = jokers = 0
        special: set[int] = set()
        fills = self.fills
        for k, where in held.items():
            if not where & (where - 1):
                continue  # one card of this key: it matches nothing
            lines, count, block, row = fills[where] or self._fill(where)
            zero |= lines
            if k == 13:
                jokers = count  # each matched line of jokers (G5.1)
            if block or (row and k == 12):  # G5.4-G5.6: a block of any key, a row of kings
                special.add(k)
        return held, zero, jokers, special

    def _seen_total(self, lay: tuple[int, ...]) -> float:
        """The score of ``lay`` with its hidden cards at 0 (they never match)."""
        _, zero, jokers, special = self._matches(lay)
        return self._score(lay, zero, jokers, bool(special))

    def _moved(self, lay: tuple[int, ...], base: _Matches, pos: int, old: int, new: int) -> float:
        """:meth:`_seen_total` of ``lay``, which is ``base``'s layout with the canonical
        ``old`` at ``pos`` replaced by ``new``: only those two keys' matches change."""
        held, zero, jokers, special = base
        key = self.key
        gone = key[old] if old < 53 else None
        come = key[new] if new < 53 else None
        if gone == come:
            return self._score(lay, zero, jokers, bool(special))
        bit = 1 << pos
        fills = self.fills
        is_special = bool(special) and bool(special.difference((gone, come)))
        changed: list[tuple[int, int]] = []
        if gone is not None:
            changed.append((gone, held[gone] & ~bit))
        if come is not None:
            changed.append((come, held.get(come, 0) | bit))
        for k, where in changed:
            was = held.get(k, 0)
            if was & (was - 1):  # its lines before, found by _matches
                zero &= ~(fills[was] or self._fill(was))[0]
            if k == 13:
                jokers = 0
            if where & (where - 1):
                lines, count, block, row = fills[where] or self._fill(where)
                zero |= lines
                if k == 13:
                    jokers = count
                if block or (row and k == 12):
                    is_special = True
        return self._score(lay, zero, jokers, is_special)

    def _score(self, lay: tuple[int, ...], zero: int, jokers: int, special: bool) -> float:
        """The seen score of ``lay`` whose matched positions are ``zero``, with
        ``jokers`` matched lines of jokers; blocks, kings and whole-layout bonuses
        (``special``, :attr:`whole`) go to ``score_layout`` itself."""
        if self.exact is not None and (
            special or (self.whole and UNKNOWN not in lay and OWNER_KNOWN not in lay)
        ):
            return self.exact.total([EMPTY if c >= 53 else c for c in lay], 0)
        extra: float = self.joker_pair * jokers  # each matched line of jokers (G5.1)
        v = self.seen_only
        if not zero:
            return sum(map(v.__getitem__, lay))
        if not self.keep_negative:  # the cards outside the matched lines, in order, in C
            return sum(map(v.__getitem__, map(lay.__getitem__, self.outside[zero])), extra)
        s = extra
        for p, c in enumerate(lay):
            if not (zero >> p) & 1 or v[c] < 0:
                s += v[c]
        return s


class _ExactEval(_Eval):
    """Anything else (pairings, wild jacks, specials): ``score_layout`` itself, cached."""

    def __init__(self, rules: GolfRules, n: int, tables: _Eval | None = None) -> None:
        if tables is not None:  # share the tables (and ``v``) of the evaluator it serves
            self.__dict__.update(tables.__dict__)
        else:
            super().__init__(rules, n)
        self.cache: dict[tuple[int, ...], int] = {}
        # Cards that score alike share one cache entry: the first card of their class
        # (suits only matter to one-eyed jacks); every sight code is "no card".
        first: dict[int, int] = {}
        wild = rules.one_eyed_jacks_wild
        self.canon = [c if wild else first.setdefault(self.cls[c], c) for c in range(53)]
        self.canon += [UNKNOWN] * 3

    def total(self, cells: Sequence[int], seat: int) -> float:
        base = seat * self.size
        lay = cells[base : base + self.size]
        key = tuple(map(self.canon.__getitem__, lay))
        known = self.cache.get(key)
        if known is None:
            cards: list[Card | None] = [CARDS[c] if c < 53 else None for c in key]
            known = _keep(self.cache, key, score_layout(cards, self.rules, decks=self.decks).total)
        if UNKNOWN not in key:  # every sight code is UNKNOWN in the key
            return float(known)
        # The hidden cards' values in layout order, summed in C.
        return known + sum(map(self.v.__getitem__, filter(_HIDDEN.__contains__, lay)), 0.0)


# Per thread: a decision writes the unseen mean into its evaluator's value table,
# so threads (a server's bot pool) must not share one.
_LOCAL = threading.local()


def _tables(rules: GolfRules, n: int) -> _Eval:
    """The evaluator for ``rules`` and ``n`` players, built once per thread (by identity)."""
    last: _Eval | None = getattr(_LOCAL, "last", None)  # a game asks for the same one
    if last is not None and last.rules is rules and last.n == n:
        return last
    cache: dict[tuple[int, int], tuple[GolfRules, _Eval]] | None = getattr(_LOCAL, "tables", None)
    if cache is None:
        cache = _LOCAL.tables = {}
    entry = cache.get((id(rules), n))
    if entry is not None and entry[0] is rules:
        _LOCAL.last = entry[1]
        return entry[1]
    matchers = rules.matchers
    specials = (
        rules.block_score is not None
        or rules.four_in_two_columns
        or rules.four_kings_side
        or rules.straight_bonus
        or rules.shoot_the_moon
    )
    tables: _Eval
    if rules.one_eyed_jacks_wild or matchers[0] in ("pairs_in_line", "any_pairs"):
        tables = _ExactEval(rules, n)
    elif matchers == ("column",) and not specials:
        rows = rules.shape.rows
        if rows == 2 and not rules.negative_pairs_keep_value:
            tables = _PairColumnEval(rules, n)
        elif rows == 3 and not rules.negative_pairs_keep_value:
            tables = _TripleColumnEval(rules, n)
        else:
            tables = _ColumnEval(rules, n)
    else:  # also match=none: no lines, the plain sum
        tables = _UnionEval(rules, n)
    if len(cache) > 256:
        cache.clear()
    cache[id(rules), n] = (rules, tables)
    _LOCAL.last = tables
    return tables


def builds_columns(rules: GolfRules, players: int) -> bool:
    """Whether greedy credits pairs in columns of three under ``rules`` (G5.3: plain
    3x3 columns, as in nine-card), where it builds columns (:meth:`_Decision._pair_credit`)."""
    return _tables(rules, players).credits_pairs


def estimated_score(
    rules: GolfRules, players: int, layout: Sequence[int], unknown_value: float
) -> float:
    """One layout's score as the policy estimates it (G5): cards at their value and
    matches exactly as :func:`~greenfelt.golf.scoring.score_layout` finds them, each
    :data:`UNKNOWN` card at ``unknown_value``, unable to match; :data:`EMPTY` is 0.

    >>> from greenfelt.cards import parse_cards
    >>> from greenfelt.golf import find_preset
    >>> six = find_preset("six-card")
    >>> estimated_score(six, 2, [*parse_cards("K♠ 6♠ K♥ 4♦ 6♥"), UNKNOWN], 5.0)
    9.0
    """
    t = _tables(rules, players)
    t.v[UNKNOWN] = t.v[OWNER_KNOWN] = unknown_value
    t.no_credit()  # the score as it stands, without a match's prospects
    return t.total(list(layout), 0)


def estimated_totals(state: GolfRound, seat: int) -> list[float]:
    """Every seat's layout score as greedy at ``seat`` would estimate it now, from
    ``seat``'s sight alone: unseen cards at the mean of those it has not seen, and
    a match one card short credited as greedy credits it (G5.3, G5.4).

    What a search reads where it cuts a rollout short (``golf_leaf``).
    """
    d = _Decision(state, seat, _tables(state.rules, state.n)).estimate()
    return [d.total(s) for s in range(state.n)]


# ---- one decision -------------------------------------------------------------------


class _Decision:
    """What one decision works from: the seat's sight and the estimates built on it."""

    __slots__ = (
        "base",
        "cells",
        "final",
        "held",
        "potentials",
        "seat",
        "state",
        "t",
        "totals",
        "unseen_of",
    )

    def __init__(self, state: GolfRound, seat: int, t: _Eval) -> None:
        cells, held = seat_sight(state, seat)
        self.state = state
        self.seat = seat
        self.t = t
        self.cells = cells
        self.held = held
        self.base = seat * t.size
        self.totals: dict[int, float] = {}
        self.potentials: dict[int, tuple[float, dict[int, float]]] = {}
        self.final: float | None = None
        self.unseen_of: list[int] | None = None

    def estimate(self) -> _Decision:
        """Value the cards this seat cannot see (G8.1: the stock and hidden cards are one
        unknown pool): the mean of the cards it has not seen. Needed before any total."""
        t = self.t
        state = self.state
        cells = self.cells
        discard = state.discard
        seen_value = t.seen_value
        # The sight codes are the only cells that are no card (one count each, in C).
        seen_n = len(discard) + len(cells) - cells.count(UNKNOWN)
        if t.rare_codes:
            seen_n -= cells.count(EMPTY) + cells.count(OWNER_KNOWN)
        # The round keeps the pile's points, and the table's where every seat sees the same.
        seen_v = state.pile_points + (
            state.face_points if state.face is not None else sum(map(seen_value.__getitem__, cells))
        )
        held = self.held
        if held is not None:
            seen_n += 1
            seen_v += seen_value[held]
        left = t.total_count - seen_n
        mean = (t.total_value - seen_v) / left if left > 0 else 0.0
        t.v[UNKNOWN] = mean
        if t.credits:
            self._pair_credit(t)
        if t.owners_peek:
            shares = t.owner_shares
            share = shares[min(state.turns // state.n, len(shares) - 1)]
            t.v[OWNER_KNOWN] = mean * share if mean > 0 else mean
        return self

    def _pair_credit(self, t: _Eval) -> None:
        """Set the credit of a match one card short, by rank, for this decision.

        The seeds' advice for 3x3 golf is to build columns of three (G5.3), but a
        pair scores in full until its third card comes (and three of a block until
        the fourth, G5.4). So a pair is credited with :attr:`_Eval.credit_option`
        of its column's points (of what the block's fourth card would save) while two
        cards of its rank are unseen (half with one, none with none), scaled down as
        the round nears its end (the fewest face-down cards of any seat, over
        :data:`_PAIR_TEMPO`), and not at all once a seat has closed (G3.1): no later
        turn can complete it.
        """
        state = self.state
        credit = t.pair_credit
        share = t.credit_option * min(1.0, min(state.down) / _PAIR_TEMPO)
        if state.closer is not None or share <= 0.0:
            t.no_credit()
            return
        left = [0] * 14  # unseen cards by match key (rank, or 13 for jokers)
        for count, key in zip(self.unseen(), t.class_key, strict=False):
            left[key] += count
        half = share / 2
        credit[:14] = [share if u >= 2 else half * u if u > 0 else 0.0 for u in left]
        t.crediting = True

    def total(self, seat: int) -> float:
        totals = self.totals
        out = totals.get(seat)
        if out is None:
            out = totals[seat] = self.t.total(self.cells, seat)
        return out

    def down(self, seat: int) -> int:
        """Face-down cards of ``seat`` (public: G8.1)."""
        return self.state.down[seat]

    def potential(self, seat: int) -> tuple[float, dict[int, float]]:
        """(worth of the best card to replace, gain of a card pairing by match key)."""
        cache = self.potentials
        out = cache.get(seat)
        if out is None:
            # The seat's total where this decision has it already: never computed for
            # the potential alone, which only some evaluators read.
            out = cache[seat] = self.t.potential(self.cells, seat, self.totals.get(seat))
        return out

    def next_player(self) -> int | None:
        """The seat that plays right after this one and may take the discard (G2.1)."""
        state = self.state
        nxt = (self.seat + 1) % state.n
        if state.closer is not None:
            if state.final_left <= 1 or nxt == state.closer:
                return None
            if state.rules.final_turns_stock_only:
                return None  # G3.2: the pile is closed to them
        return nxt

    def denial(self, card: int, their: tuple[float, dict[int, float]]) -> float:
        """What leaving ``card`` on the pile gives the next player (``their`` potential)
        beyond their own draw."""
        t = self.t
        worth, pairs = their
        take = max(worth - t.v[card], pairs.get(t.key[card], -1e9))
        extra = take - t.dg(worth)
        return _DENIAL_WEIGHT * extra if extra > 0 else 0.0

    def others_final(self) -> float:
        """The lowest score another seat is expected to reach with one more turn
        (computed once a decision: placements and the playout's terms ask again)."""
        if self.final is not None:
            return self.final
        best = 1e9
        state = self.state
        for o in range(state.n):
            if o == self.seat:
                continue
            total = self.total(o)  # first: the potential then reuses it
            worth, pairs = self.potential(o)
            best_pair = max(pairs.values(), default=0.0)
            improve = max(self.t.dg(worth), best_pair * 0.5)
            est = total - improve
            best = min(best, est)
        self.final = best
        return best

    def closing_ok(self, mine: float, margin: float = 0.0) -> bool:
        """Whether ending with an estimate of ``mine`` should leave this seat lowest (G6).

        The margin shrinks as a round drags on (and at each reshuffle, G2.5), so
        that players who all wait for a better moment still end the round.
        """
        state = self.state
        rounds = state.turns // state.n
        patience = max(0, rounds - 2 * self.t.size) * 1.5 + 10.0 * len(state.reshuffles)
        margin += _CLOSE_MARGIN + (_PENALTY_MARGIN if self.t.punished else 0.0)
        return mine + margin - patience <= self.others_final()

    def placements(
        self, card: int, may_discard: bool
    ) -> list[tuple[GolfAction, float, float, int]]:
        """Each use of ``card`` in hand as ``(action, gain, cost, old)``.

        ``gain`` is how much the move lowers this seat's estimate; ``cost`` is
        what the card it puts on the pile gives the next player beyond their
        own draw (:meth:`denial`), less a bonus (or plus a veto) when the move
        closes the round (G3.1); ``old`` is the sight code it replaces
        (:data:`EMPTY` for the discard). :meth:`best_place` ranks these, and
        the expert's playout policy re-ranks them (``golf_playout``).
        """
        out: list[tuple[GolfAction, float, float, int]] = []
        self._place(card, may_discard, out)
        return out

    def best_place(self, card: int, may_discard: bool) -> tuple[float, GolfAction]:
        """The best use of ``card`` in hand: swap it in (G2.2, G2.3) or discard it.

        A move is worth its gain less its cost (:meth:`placements`); the
        discard wins a tie.
        """
        return self._place(card, may_discard, None)

    def take_worth(self, card: int) -> tuple[float, GolfAction]:
        """What taking ``card`` from the pile is worth (G2.1), and where it would go:
        :meth:`best_place` without the discard when its value is positive, else 0. The
        turn asks no more, so swaps that cannot gain are never weighed (nor, often,
        the next player)."""
        return self._place(card, False, None, 0.0)

    def _inputs(self, card: int) -> tuple[object, ...]:
        """All a placement of ``card`` reads (after :meth:`estimate`): the seat, the
        sight, the unseen mean, the face-down counts, the round's flags and clocks."""
        state = self.state
        return (
            self.seat,
            card,
            self.t.v[UNKNOWN],
            state.turns,
            state.closer,
            state.final_left,
            len(state.reshuffles),
            state.down[:],
            self.cells,
        )

    def keep_taken(self, card: int, place: GolfAction) -> None:
        """Keep the place a turn chose for ``card``, taken from the pile (G2.1), for
        :meth:`taken_place`, with all the choice read."""
        self.t.taken = (self._inputs(card), place)

    def taken_place(self, card: int) -> GolfAction | None:
        """The place kept by :meth:`keep_taken` when this decision reads the same (the
        TAKEN decision right after the turn: the same choice, not weighed twice)."""
        taken = self.t.taken
        if taken is None:
            return None
        self.t.taken = None
        inputs, place = taken
        return place if inputs == self._inputs(card) else None

    def _place(
        self,
        card: int,
        may_discard: bool,
        out: list[tuple[GolfAction, float, float, int]] | None,
        floor: float = -1e9,
    ) -> tuple[float, GolfAction]:
        """:meth:`best_place`, listing every placement in ``out`` when given: one loop
        for both, and no list where only the best is asked for (the hot path).

        Without ``out``, moves worth no more than ``floor`` may go unweighed (the
        result is then ``floor``). The next player's potential is computed when the
        first denial needs it: a swap over an unknown card charges none.
        """
        state = self.state
        t = self.t
        cells = self.cells
        seat = self.seat
        base = self.base
        nxt = self.next_player()
        their: tuple[float, dict[int, float]] | None = None
        worth = alternative = 0.0
        pairs: dict[int, float] = {}
        v, key = t.v, t.key
        can_close = t.closes and state.closer is None and state.down[seat] == 1
        gains = t.gains(cells, seat, card, self.total(seat) if t.reads_before else None)
        best = floor
        choice: GolfAction = DISCARD
        for p in range(t.size):
            old = cells[base + p]
            if old == EMPTY:
                continue  # G3.5: a removed position cannot be swapped
            g = gains[p]
            cost = 0.0
            if old < 53:
                if out is None and g <= best:
                    continue  # a denial is never negative: this swap cannot beat the best
                if nxt is not None:  # the denial, inlined: the hot path
                    if their is None:
                        worth, pairs = their = self.potential(nxt)
                        alternative = t.dg(worth)
                    take = worth - v[old]
                    pg = pairs.get(key[old])
                    if pg is not None and pg > take:
                        take = pg
                    if take > alternative:
                        cost = _DENIAL_WEIGHT * (take - alternative)
            elif can_close and old == UNKNOWN:
                if out is None and g + _CLOSE_BONUS <= best:
                    continue  # not even with the bonus: no need to judge the close
                cost = -self._closing_bonus(self.total(seat) - g)  # G3.1: this swap closes
            if out is not None:
                out.append((SWAP[p], g, cost, old))
            if g - cost > best:
                best = g - cost
                choice = SWAP[p]
        if may_discard:
            must_close = can_close and state.rules.after_discard == "must"
            if out is None and best > (_CLOSE_BONUS if must_close else 0.0):
                return best, choice  # a discard is worth at most its closing bonus
            cost = 0.0
            if nxt is not None:
                cost = self.denial(card, self.potential(nxt))
            if must_close:
                cost -= self._closing_bonus(self.total(seat))  # the forced flip closes
            if out is not None:
                out.append((DISCARD, 0.0, cost, EMPTY))
            if 0.0 - cost >= best:
                best = 0.0 - cost
                choice = DISCARD
        return best, choice

    def _closing_bonus(self, mine: float) -> float:
        """A bonus for closing (G3.1) when it should leave this seat lowest, else a veto."""
        return _CLOSE_BONUS if self.closing_ok(mine) else _CLOSE_VETO

    def unseen(self) -> list[int]:
        """The cards this seat has not seen, counted by class (:attr:`_Eval.cls`): the
        deck's counts less every card it has seen (the sight codes fall in a last class
        of their own, never read). Counted once a decision: the draw and the credit of
        pairs (:meth:`_pair_credit`) both read it."""
        if self.unseen_of is not None:
            return self.unseen_of
        t = self.t
        left_of = t.base_count[:]
        cls = t.cls
        for c in self.cells:
            left_of[cls[c]] -= 1
        for c in self.state.discard:
            left_of[cls[c]] -= 1
        if self.held is not None:
            left_of[cls[self.held]] -= 1
        self.unseen_of = left_of
        return left_of

    def draw_gain(self) -> float:
        """Expected gain of drawing from the stock, over the cards this seat has not seen."""
        t = self.t
        left_of = self.unseen()
        worth, pairs = self.potential(self.seat)
        get = pairs.get
        total = 0.0
        count = 0
        # left_of has one more entry (the sight codes' class): zip stops before it.
        for left, value, key in zip(left_of, t.class_value, t.class_key, strict=False):
            if left <= 0:
                continue
            g = worth - value
            pg = get(key)
            if pg is not None and pg > g:
                g = pg
            if g > 0:
                total += left * g
            count += left
        return total / count if count else 0.0


# ---- the phases --------------------------------------------------------------------


def _reveal(state: GolfRound, d: _Decision, rng: random.Random) -> GolfAction:
    """G1.7: flip (or peek) where no seen card shares the column, then the row."""
    t = d.t
    cells = d.cells
    base = d.base
    col_of, row_of = t.col_of, t.row_of
    seen = [p for p in range(t.size) if cells[base + p] < 53]
    best: list[GolfAction] = []
    best_score = 1 << 30
    for action in state.legal_actions():
        p = action.pos
        assert p is not None
        score = 0
        for q in seen:
            if col_of[q] == col_of[p]:
                score += 10
            if row_of[q] == row_of[p]:
                score += 1
        if score < best_score:
            best_score = score
            best = [action]
        elif score == best_score:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)


def _flip_choice(state: GolfRound, d: _Decision, rng: random.Random) -> GolfAction:
    """A face-down card to turn: in the column with the most face-down cards."""
    t = d.t
    cells = d.cells
    base = d.base
    best: list[GolfAction] = []
    best_score = 0
    for line in t.columns:
        # Loops, not comprehensions: every decision after a discard passes here.
        hidden = 0
        for p in line:
            if cells[base + p] == UNKNOWN:
                hidden += 1
        if hidden == 0 or hidden < best_score:
            continue
        if hidden > best_score:
            best_score = hidden
            best = []
        for p in line:
            if cells[base + p] == UNKNOWN:
                best.append(FLIP[p])
    if not best:  # every face-down card is one it knows (cannot happen in grid golf)
        best = [a for a in state.legal_actions() if a.kind is Kind.FLIP]
    return best[0] if len(best) == 1 else rng.choice(best)


def _turn(state: GolfRound, d: _Decision, rng: random.Random) -> GolfAction:
    """G2.1: knock when clearly lowest, take a discard worth more than a draw, else draw."""
    legal = state.legal_actions()
    seat = d.seat
    t = d.t
    if t.rules.knocking and KNOCK in legal:  # (the rule first: a cheap test)
        unknown = sum(1 for p in range(t.size) if d.cells[d.base + p] == UNKNOWN)
        if d.closing_ok(d.total(seat), _KNOCK_MARGIN + _UNKNOWN_MARGIN * unknown):
            return KNOCK
    if (
        t.rules.flip_instead_of_draw
        and t.closes
        and state.closer is None
        and d.down(seat) == 1
        and not t.rules.final_turns
        and d.closing_ok(d.total(seat), _LAST_CARD_MARGIN)
    ):
        # G2.1 and G3.1 without final turns: turning the last card ends the round now.
        for action in legal:
            if action.kind is Kind.FLIP:
                return action
    if TAKE in legal:
        card = state.discard[-1]
        take, place = d.take_worth(card)
        # A draw never loses on average (a bad card is discarded): only a discard
        # worth something is compared with the expected draw.
        if take > 0.0 and take > d.draw_gain():
            d.keep_taken(card, place)
            return TAKE
    return DRAW


def _power_weight(d: _Decision, seat: int) -> float:
    """How much a change to ``seat``'s layout counts for the deciding seat: its own in
    full, the leading rival's in full (two players: a zero-sum race), others' less."""
    if seat == d.seat:
        return 1.0
    rivals = [s for s in range(d.state.n) if s != d.seat]
    if len(rivals) == 1 or seat == min(rivals, key=d.total):
        return _RIVAL_WEIGHT
    return _OTHER_RIVAL_WEIGHT


def _power_value(state: GolfRound, d: _Decision, action: GolfAction) -> float:
    """The estimated worth of a power use (G7), in points of the seat's race.

    Swaps and gives move cards in the seat's sight (known cards at their value,
    unknown ones at the unseen mean, as every estimate here) and are worth what
    they lower this seat's score plus what they raise its rivals'. A peek is
    worth a fixed amount of information (an own card more: it decides swaps);
    a shuffle is worth the cards its victim knew and now forgets (G7.2).
    """
    cells, size, seat, t = d.cells, d.t.size, d.seat, d.t
    verb = action.power
    if verb == "peek":
        s, p = action.targets[0]
        if cells[s * size + (p or 0)] < 53:
            return 0.0  # already seen: a look teaches nothing
        return _PEEK_OWN_VALUE if s == seat else _PEEK_RIVAL_VALUE * _power_weight(d, s)
    if verb == "shuffle":
        s = action.targets[0][0]
        base = s * size
        forgotten = sum(1 for p in range(size) if cells[base + p] == OWNER_KNOWN)
        lost = sum(1 for p in range(size) if cells[base + p] < 53 and not state.up[base + p])
        return (forgotten - 0.5 * lost) * _SHUFFLE_VALUE * _power_weight(d, s)
    if verb == "swap":
        (a, p), (b, q) = action.targets
        i, j = a * size + (p or 0), b * size + (q or 0)
        after = list(cells)
        after[i], after[j] = after[j], after[i]
    elif verb == "give":  # G7.5: the king goes there, their face-up card comes to us
        s, p = action.targets[0]
        i = s * size + (p or 0)
        taken = cells[i]
        held = d.held
        assert held is not None
        after = list(cells)
        after[i] = held
        them = (t.total(after, s) - d.total(s)) * _power_weight(d, s)
        return them + d.best_place(taken, may_discard=False)[0]
    else:
        return 0.0  # an unknown verb: never preferred to a plain discard
    value = 0.0
    for s in {a, b}:
        change = d.total(s) - t.total(after, s)
        value += change if s == seat else -change * _power_weight(d, s)
    return value


def _power_choice(state: GolfRound, d: _Decision, keep: float) -> GolfAction | None:
    """G7.1: the power worth more than ``keep`` (the best use of the card as a card)."""
    best: GolfAction | None = None
    best_value = max(keep, 0.0) + _POWER_MARGIN
    for action in state.legal_actions():
        if action.kind is not Kind.POWER:
            continue
        value = _power_value(state, d, action)
        if value > best_value:
            best, best_value = action, value
    return best


def _after_discard(state: GolfRound, d: _Decision, rng: random.Random) -> GolfAction:
    """G2.2 may/must: flip to learn a card, unless it is the last and closing is bad."""
    seat = d.seat
    last = d.t.closes and state.closer is None and d.down(seat) == 1
    if (
        last
        and state.rules.after_discard == "may"
        and not d.estimate().closing_ok(d.total(seat), _LAST_CARD_MARGIN)
    ):
        return PASS
    return _flip_choice(state, d, rng)


def greedy_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """The greedy action for ``state.to_move``, from what that seat may know (G8).

    Deterministic for a given ``rng`` state; always one of ``state.legal_actions()``.
    Raises ValueError when the round is over.
    """
    if state.rules.powers == "powers":  # G7.4 has its own greedy
        from greenfelt.bots.golf_powers_greedy import powers_policy

        return powers_policy(state, rng)
    seat = state.to_move
    if seat is None:
        raise ValueError("the round is over: nobody is to move")
    t = _tables(state.rules, state.n)
    d = _Decision(state, seat, t)
    phase = state.phase
    if phase is _P_DRAWN or phase is _P_TAKEN:
        held = d.held
        assert held is not None
        d.estimate()
        if phase is _P_TAKEN:
            place = d.taken_place(held)
            if place is not None:
                return place
        keep, action = d.best_place(held, may_discard=phase is _P_DRAWN)
        if state.rules.has_powers and state.held_from_stock:
            return _power_choice(state, d, keep) or action
        return action
    if phase is _P_TURN:
        return _turn(state, d.estimate(), rng)
    if phase is _P_FLIP:
        return _after_discard(state, d, rng)
    if phase is _P_REVEAL:
        return _reveal(state, d, rng)
    raise ValueError(f"no decision in phase {phase.value}")


class GreedyGolfBot(PolicyBot):
    """The `greedy` level for Golf: :func:`greedy_policy` on a sample of its seat's view."""

    level = "greedy"
    policy = staticmethod(greedy_policy)
