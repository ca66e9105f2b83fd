"""The estimated layout score greedy Golf decides by (G5), built once per rules.

Greedy judges every placement by how it changes this estimate: each card the
seat cannot see counts at the mean value of the cards it has not seen, and
matches follow the rules' matchers exactly as ``score_layout`` finds them.
:func:`layout_tables` builds the evaluator for a rule set and player count once
per thread: column evaluators for the common column-matching layouts (a column
at a time, since greedy is the rollout policy of every search and this is its
hot path), a union of lines for rows, diagonals and blocks, and ``score_layout``
itself, cached, for the rest. A decision (:class:`~greenfelt.bots.golf_greedy.Decision`)
writes the unseen mean and the credit of matches one card short into the
evaluator before it reads a total.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Final, TypeVar

from greenfelt.bots.golf_sight import EMPTY, OWNER_KNOWN, UNKNOWN
from greenfelt.cards import CARDS, Card
from greenfelt.golf.actions import GolfAction
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import score_layout

__all__ = [
    "ColumnEval",
    "ExactEval",
    "LayoutEval",
    "PairColumnEval",
    "TripleColumnEval",
    "UnionEval",
    "builds_columns",
    "estimated_score",
    "layout_tables",
]

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
# Columns of three (nine-card, G5.3): a pair in a column is worth part of the column's
# points, its chance to be completed later, and a card that makes one is worth that to
# whoever draws or takes it. Against greedy without the credit over 5,000 mirrored
# nine-card deals (./dev bench greedy_pair_credit): 0.25 won 59.4% of decided holes and
# 0.5 61.5% with pairs credited only where they stood; with a card that makes a pair
# weighed too, 0.7 beat 0.5 by 1.2 points of percentage (+0.25 points a hole) over
# three seeds, and 0.9 fell back.
_PAIR_OPTION: Final = 0.7  # share credited to a pair with two or more of its rank unseen
# Blocks on 3x3 layouts (G5.4, nine-card-wiki): three of a key in a square are worth
# part of what the fourth would save. Against greedy without the credit over 2,000
# mirrored nine-card-wiki deals (a trial version that scored the block exactly): 0.3
# won 53.7% of decided holes, 0.5 54.5%, 0.7 55.0%, 1.0 55.2%, and 1.0 against 0.7
# 50.1% on 3,000 more; crediting lines of three one card short gained nothing (0.5:
# 50.9% alone), nor did blocks on 2x3 (bga: 49.9%); bga on 3x3 gained +0.58 points a
# hole. As shipped (./dev bench greedy_pair_credit --preset nine-card-wiki): 54.4%
# and 53.3% of about 5,850 decided holes on two seeds, +1.19 and +0.95 points a hole.
_BLOCK_OPTION: Final = 0.7  # share credited to three of a block with its fourth unseen


class LayoutEval:
    """Per-rules (and player count) tables and the estimated layout score.

    ``v`` holds each sight code's points: a card's value (G5.1), the unseen
    mean for :data:`UNKNOWN` (set per decision), 0 for :data:`EMPTY`.
    ``total`` scores one seat's cells as ``score_layout`` would with every
    unknown card at ``v[UNKNOWN]`` and unable to match; ``gain`` is how much
    placing a card at a position lowers that estimate.
    """

    credits_pairs: bool = False
    """Whether a pair that a line still waits on is credited (columns of three,
    :class:`TripleColumnEval`): :meth:`potential` then also weighs a card that
    makes such a pair."""
    credits_blocks: bool = False
    """Whether three of a block (G5.4) waiting for the fourth are credited (3x3
    layouts, :class:`UnionEval`): :meth:`potential` then also weighs a card that
    completes a block or leaves one a card short."""
    credits: bool = False
    """Whether a decision credits matches one card short (:attr:`pair_credit`): either
    of the two above."""
    credit_option: float = 0.0
    """The share of what a match one card short would save that a decision credits
    (:meth:`~greenfelt.bots.golf_greedy.Decision._pair_credit`), before the round's
    tempo and the unseen cards."""
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
        # right after (TAKEN) reads the same and is the same (golf_greedy's
        # Decision.keep_taken).
        self.taken: tuple[tuple[object, ...], GolfAction] | None = None
        # Per match key, the share of a match one card short credited to it, its chance
        # to be completed later (golf_greedy's Decision._pair_credit, per decision;
        # always 0 for the sight codes' keys), and whether any key is credited now.
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


class ColumnEval(LayoutEval):
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


class PairColumnEval(ColumnEval):
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


class TripleColumnEval(ColumnEval):
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
"""A layout's blocks one card short (:meth:`UnionEval._waits`): (key, points saved)."""
_Trial = tuple[int, int | None, float, _Waits]
"""A placement :meth:`UnionEval.potential` weighs (:meth:`UnionEval._trial_list`)."""
_ByCode = dict[int, tuple[float, dict[int, float]]]
"""Trials' seen gains by what they replace (:meth:`UnionEval._by_code`)."""

_Matches = tuple[dict[int, int], int, int, set[int]]
"""A layout's match keys: the positions holding each key (a bit mask), the positions
in filled lines, the number of filled lines of jokers, the keys filling something
``score_layout`` must judge (:meth:`UnionEval._matches`)."""


class UnionEval(LayoutEval):
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
        self.exact = ExactEval(rules, n, self) if specials else None
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
        values (:meth:`~greenfelt.bots.golf_greedy.Decision.estimate`), which no cache can hold."""
        v = self.v
        if UNKNOWN in lay:
            known += lay.count(UNKNOWN) * v[UNKNOWN]
        if OWNER_KNOWN in lay:
            known += lay.count(OWNER_KNOWN) * v[OWNER_KNOWN]
        return known

    def potential(
        self, cells: list[int], seat: int, before: float | None = None
    ) -> tuple[float, dict[int, float]]:
        """As :meth:`LayoutEval.potential`, from a cache of the seen cards' gains by layout.

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
        """:meth:`LayoutEval.gains` from the cache, a missing layout scored from this one's
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
        """Each placement :meth:`potential` weighs (:meth:`LayoutEval._trials`) as (what it
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


class ExactEval(LayoutEval):
    """Anything else (pairings, wild jacks, specials): ``score_layout`` itself, cached."""

    def __init__(self, rules: GolfRules, n: int, tables: LayoutEval | None = None) -> None:
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


def layout_tables(rules: GolfRules, n: int) -> LayoutEval:
    """The evaluator for ``rules`` and ``n`` players, built once per thread (by identity)."""
    last: LayoutEval | None = getattr(_LOCAL, "last", None)  # a game asks for the same one
    if last is not None and last.rules is rules and last.n == n:
        return last
    cache: dict[tuple[int, int], tuple[GolfRules, LayoutEval]] | None = getattr(
        _LOCAL, "tables", None
    )
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
    tables: LayoutEval
    if rules.one_eyed_jacks_wild or matchers[0] in ("pairs_in_line", "any_pairs"):
        tables = ExactEval(rules, n)
    elif matchers == ("column",) and not specials:
        rows = rules.shape.rows
        if rows == 2 and not rules.negative_pairs_keep_value:
            tables = PairColumnEval(rules, n)
        elif rows == 3 and not rules.negative_pairs_keep_value:
            tables = TripleColumnEval(rules, n)
        else:
            tables = ColumnEval(rules, n)
    else:  # also match=none: no lines, the plain sum
        tables = UnionEval(rules, n)
    if len(cache) > 256:
        cache.clear()
    cache[id(rules), n] = (rules, tables)
    _LOCAL.last = tables
    return tables


def builds_columns(rules: GolfRules, players: int) -> bool:
    """Whether greedy credits pairs in columns of three under ``rules`` (G5.3: plain
    3x3 columns, as in nine-card), where it builds columns
    (:meth:`~greenfelt.bots.golf_greedy.Decision._pair_credit`)."""
    return layout_tables(rules, players).credits_pairs


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
    t = layout_tables(rules, players)
    t.v[UNKNOWN] = t.v[OWNER_KNOWN] = unknown_value
    t.no_credit()  # the score as it stands, without a match's prospects
    return t.total(list(layout), 0)
