"""Scoring a Golf round (RULES G5, G6): pure functions of cards and rules.

Each result carries a breakdown (which cards cancelled by which rule, blocks,
specials, closer penalties) so interfaces can show *why* a layout scored what
it did. Where cards could combine in more than one way, the choice with the
lowest score is used (G5.3, G5.4, decided in RULES).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from greenfelt.cards import CARDS, Card, Suit, make_deck
from greenfelt.golf.layout import Shape, format_layout
from greenfelt.golf.rules import GolfRules

__all__ = [
    "Adjustment",
    "Group",
    "LayoutScore",
    "RoundScore",
    "card_kinds",
    "describe_round",
    "max_layout_score",
    "quick_scores",
    "score_layout",
    "score_round",
]


@dataclass(frozen=True, slots=True)
class Group:
    """Cards scored together by one rule: a matched line or pair, a block, a special."""

    rule: str
    kind: str
    positions: tuple[int, ...]
    points: int = 0
    """What the group adds beyond its cards' own points (a block's -20, a joker pair's value)."""

    def describe(self, cards: Sequence[Card | None]) -> str:
        shown = " ".join(str(cards[p]) for p in self.positions)
        where = ",".join(str(p) for p in self.positions)
        extra = f" = {self.points}" if self.points else " = 0"
        return f"{self.kind} [{where}] {shown}{extra} ({self.rule})"


@dataclass(frozen=True, slots=True)
class LayoutScore:
    """One layout's score (G5) with its breakdown."""

    total: int
    points: tuple[int, ...]
    """What each position contributes on its own (0 for a cancelled or removed card)."""
    groups: tuple[Group, ...] = ()
    others_penalty: int = 0
    """Points every other player adds (G5.5 four in two columns)."""
    moon: int = 0
    """Nonzero when this layout shot the moon: what every other player adds (G5.6)."""
    wins_match: bool = False
    """Four of a kind wins the match at once (G5.6)."""


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A change to a seat's round score after its layout was scored."""

    rule: str
    reason: str
    delta: int


@dataclass(frozen=True, slots=True)
class RoundScore:
    """The scores of a round (G5 then G6) with every layout's breakdown."""

    layouts: tuple[LayoutScore, ...]
    adjustments: tuple[tuple[Adjustment, ...], ...]
    scores: tuple[int, ...]
    closer: int | None = None
    match_winner: int | None = None
    notes: tuple[str, ...] = field(default=())


# ---- card matching --------------------------------------------------------------

_KINGS = frozenset((12, 25, 38, 51))
_ONE_EYED = frozenset(
    c for c in range(53) if c != 52 and c % 13 == 10 and c // 13 in (Suit.SPADES, Suit.HEARTS)
)


def _kind(card: Card, values: Sequence[int]) -> tuple[int, int, bool]:
    """All that scoring reads of a card: its value (G5.1), its rank (C4 matches, G5.6
    kings and straights) and whether it is a one-eyed jack (wild, G5.6)."""
    return (values[card], card.rank, card in _ONE_EYED)


@cache
def card_kinds(rules: GolfRules) -> tuple[int, ...]:
    """By card code, the lowest code of a card of the same kind (:func:`_kind`) under
    these rules: layouts whose cards are of the same kinds, place by place, score the
    same, so a memo of scores keyed by kinds serves every such layout."""
    values = rules.card_values
    first: dict[tuple[int, int, bool], int] = {}
    return tuple(first.setdefault(_kind(card, values), int(card)) for card in CARDS)


def _matching(cards: Sequence[Card | None], positions: Sequence[int], wild: bool) -> bool:
    """Whether the cards at ``positions`` all match (C4); one-eyed jacks as wilds if asked."""
    rank = -1
    for p in positions:
        card = cards[p]
        if card is None:
            return False
        if wild and card in _ONE_EYED:
            continue
        r = card % 13 if card != 52 else -2
        if rank == -1:
            rank = r
        elif r != rank:
            return False
    return True


def _all_jokers(cards: Sequence[Card | None], positions: Sequence[int]) -> bool:
    return all(cards[p] == 52 for p in positions)


# ---- union matchers: column, lines, adjacent pairs -----------------------------


@cache
def _union_lines(
    matchers: tuple[str, ...], wild: bool, shape: Shape
) -> tuple[tuple[str, tuple[int, ...], bool], ...]:
    """(kind, positions, one-eyed jacks wild) for every line the matchers score."""
    candidates: list[tuple[str, tuple[int, ...], bool]] = []
    for matcher in matchers:
        if matcher == "column":
            candidates += [("column", line, wild) for line in shape.column_lines]
        elif matcher == "lines":
            candidates += [("row", line, False) for line in shape.row_lines]
            candidates += [("column", line, wild) for line in shape.column_lines]
            candidates += [("diagonal", line, False) for line in shape.diagonal_lines]
        elif matcher == "adjacent_pairs":
            for a, b in shape.adjacent_pairs:
                candidates.append(("adjacent pair", (a, b), wild and b - a == shape.cols))
    unique: dict[tuple[int, ...], tuple[str, tuple[int, ...], bool]] = {}
    for candidate in candidates:
        unique.setdefault(candidate[1], candidate)
    return tuple(unique.values())


def _union_groups(
    cards: Sequence[Card | None], free: Sequence[bool] | None, rules: GolfRules, shape: Shape
) -> list[Group]:
    """Every matched line or adjacent pair among free positions (all when ``free`` is None)."""
    candidates = _union_lines(rules.matchers, rules.one_eyed_jacks_wild, shape)
    groups: list[Group] = []
    for kind, line, line_wild in candidates:
        if free is not None and not all(free[p] for p in line):
            continue
        if _matching(cards, line, line_wild):
            points = rules.joker_pair_value if _all_jokers(cards, line) else 0
            groups.append(Group("G5.3", kind, line, points))
    return groups


# ---- pairing matchers: pairs in a line, any pairs ------------------------------


def _pair_candidates(
    cards: Sequence[Card | None], free: Sequence[bool], rules: GolfRules, shape: Shape
) -> list[tuple[int, int, bool]]:
    """(a, b, is_column_pair) for every pair of free positions allowed to pair off."""
    anywhere = rules.matchers == ("any_pairs",)
    diagonal = rules.diagonal_pairs
    out: list[tuple[int, int, bool]] = []
    positions = [p for p in range(len(cards)) if free[p]]
    for a, b in itertools.combinations(positions, 2):
        same_col = not shape.is_hand and shape.col_of(a) == shape.col_of(b)
        if not anywhere:
            same_row = shape.row_of(a) == shape.row_of(b)
            diag = diagonal and abs(shape.row_of(a) - shape.row_of(b)) == abs(
                shape.col_of(a) - shape.col_of(b)
            )
            if not (same_row or same_col or diag):
                continue
        if _matching(cards, (a, b), rules.one_eyed_jacks_wild and same_col):
            out.append((a, b, same_col))
    return out


def _best_pairing(
    cards: Sequence[Card | None],
    free: Sequence[bool],
    rules: GolfRules,
    shape: Shape,
    values: Sequence[int],
) -> list[tuple[int, int]]:
    """The pairing with the most pairs, and among those the lowest score (G5.3)."""
    candidates = _pair_candidates(cards, free, rules, shape)
    if not candidates:
        return []
    keep_negative = rules.negative_pairs_keep_value

    def saving(a: int, b: int) -> int:
        va, vb = values[a], values[b]
        if keep_negative:
            va, vb = max(va, 0), max(vb, 0)
        pair_points = rules.joker_pair_value if cards[a] == cards[b] == 52 else 0
        return va + vb - pair_points

    best: tuple[int, int, list[tuple[int, int]]] = (0, 0, [])

    def search(start: int, used: int, chosen: list[tuple[int, int]], gain: int) -> None:
        nonlocal best
        if (len(chosen), gain) > best[:2]:
            best = (len(chosen), gain, list(chosen))
        for i in range(start, len(candidates)):
            a, b, _ = candidates[i]
            if used & (1 << a) or used & (1 << b):
                continue
            chosen.append((a, b))
            search(i + 1, used | (1 << a) | (1 << b), chosen, gain + saving(a, b))
            chosen.pop()

    search(0, 0, [], 0)
    return best[2]


# ---- one layout -------------------------------------------------------------------


def _specials(cards: Sequence[Card | None], rules: GolfRules, shape: Shape) -> list[Group]:
    """Candidate blocks and rows that score as a whole (G5.4, G5.5, G5.6)."""
    out: list[Group] = []
    if rules.block_score is not None or rules.four_in_two_columns:
        for square in shape.squares:
            if _matching(cards, square, False):
                if rules.block_score is not None:
                    out.append(Group("G5.4", "block", square, rules.block_score))
                else:
                    out.append(Group("G5.5", "four in two columns", square, 0))
    if rules.four_kings_side:
        for row in shape.row_lines:
            if all(cards[p] in _KINGS for p in row):
                out.append(Group("G5.6", "four kings on a side", row, -16))
    return out


def _disjoint_choices(groups: list[Group]) -> list[list[Group]]:
    """Every set of non-overlapping groups, largest first (G5.4: blocks may not overlap)."""
    choices: list[list[Group]] = [[]]
    for group in groups:
        occupied = set(group.positions)
        choices += [[*c, group] for c in choices if not any(occupied & set(g.positions) for g in c)]
    return sorted(choices, key=len, reverse=True)


def _score_free(
    cards: Sequence[Card | None],
    values: Sequence[int],
    free: list[bool],
    rules: GolfRules,
    shape: Shape,
) -> tuple[int, list[int], list[Group]]:
    """Apply the matcher to the positions not taken by a special (G5.2, G5.3)."""
    points = [values[p] if free[p] else 0 for p in range(len(cards))]
    keep_negative = rules.negative_pairs_keep_value
    groups: list[Group]
    if rules.matchers[0] in ("pairs_in_line", "any_pairs"):
        groups = []
        for a, b in _best_pairing(cards, free, rules, shape, values):
            both_jokers = cards[a] == cards[b] == 52
            groups.append(
                Group("G5.3", "pair", (a, b), rules.joker_pair_value if both_jokers else 0)
            )
    elif rules.matchers == ("none",):
        groups = []
    else:
        groups = _union_groups(cards, None if all(free) else free, rules, shape)
    for group in groups:
        for p in group.positions:
            if not (keep_negative and values[p] < 0):
                points[p] = 0
    total = sum(points) + sum(g.points for g in groups)
    return total, points, groups


def _is_straight(cards: Sequence[Card | None]) -> bool:
    ranks = sorted(c % 13 + 1 for c in cards if c is not None and c != 52)
    return len(ranks) == 9 and all(b == a + 1 for a, b in itertools.pairwise(ranks))


def max_layout_score(rules: GolfRules, decks: int = 1) -> int:
    """The highest total any layout can score under these rules (G5.6 shoot the moon).

    Matches make the naive bound (the deck's highest values) unreachable: with
    kings at 13, a fourth king shares a column with another and cancels. So
    this searches layouts, highest cards first, with a branch-and-bound.
    """
    return _max_layout_score(rules, decks)


@cache
def _max_layout_score(rules: GolfRules, decks: int) -> int:
    values = rules.card_values
    kinds: dict[tuple[int, int, bool], list[Card]] = {}
    for card in make_deck(decks, rules.jokers_per_deck):
        kinds.setdefault(_kind(card, values), []).append(card)
    order = sorted(kinds, reverse=True)
    counts = [len(kinds[k]) for k in order]
    size = rules.shape.size
    best = -(1 << 30)
    layout: list[Card | None] = [None] * size
    budget = [200_000]  # nodes to visit; the bound prunes nearly all of them

    def top(count: int) -> int:
        """The most ``count`` cards still in the deck can add."""
        total = 0
        for i, key in enumerate(order):
            take = min(count, counts[i])
            total += take * key[0]
            count -= take
            if not count:
                break
        return total

    # Where positions do not matter (any pairs, no matches), layouts are multisets:
    # choosing kinds in a fixed order visits each once instead of every arrangement.
    unordered = rules.matchers in (("any_pairs",), ("none",)) and not (
        rules.block_score is not None or rules.four_in_two_columns or rules.four_kings_side
    )

    def search(pos: int, first: int = 0) -> None:
        nonlocal best
        if budget[0] <= 0:
            return
        budget[0] -= 1
        # Bound: the partial layout's score plus the best the other cards could add
        # (matches only ever cancel; exact while card values are not negative).
        partial = score_layout(layout, rules, decks=decks, _moon=False).total
        if pos == size:
            best = max(best, partial)
            return
        if partial + top(size - pos) <= best:
            return
        for i in range(first if unordered else 0, len(order)):
            if counts[i]:
                counts[i] -= 1
                layout[pos] = kinds[order[i]][counts[i]]
                search(pos + 1, i)
                counts[i] += 1
        layout[pos] = None

    search(0)
    return best


def score_layout(
    cards: Sequence[Card | None], rules: GolfRules, *, decks: int = 1, _moon: bool = True
) -> LayoutScore:
    """Score one layout with every card face up (G5); ``None`` is a removed card (G3.5).

    ``decks`` is how many decks were shuffled together, for shoot the moon.
    Cards beyond the grid (an ace's additions, G7.4) score alone: *decided here*,
    they are outside every line, pair, block and special.
    """
    shape = rules.shape
    if len(cards) > shape.size:
        return _with_extras(cards, rules, decks, _moon)
    values = [0 if c is None else rules.card_values[c] for c in cards]
    present = [c is not None for c in cards]

    best: tuple[int, list[int], list[Group]] | None = None
    # Largest sets of specials first, so that a tie keeps the special (G5.4-G5.6).
    for choice in _disjoint_choices(_specials(cards, rules, shape)):
        free = list(present)
        for group in choice:
            for p in group.positions:
                free[p] = False
        total, points, groups = _score_free(cards, values, free, rules, shape)
        total += sum(g.points for g in choice)
        if best is None or total < best[0]:
            best = (total, points, [*choice, *groups])
    assert best is not None
    best_total, best_points, best_groups = best
    if rules.straight_bonus and _is_straight(cards) and best_total > -12:
        best_total, best_points = -12, [0] * len(cards)
        best_groups = [Group("G5.6", "straight (hole in one)", tuple(range(len(cards))), -12)]

    others = 0
    if rules.four_in_two_columns:  # G5.5, also when the square scores as a block
        others = 10 * sum(1 for g in best_groups if g.rule in ("G5.4", "G5.5"))
    moon = 0
    if _moon and rules.shoot_the_moon and all(present):
        top = max_layout_score(rules, decks)
        if best_total >= top:
            moon = top
    wins = False
    if rules.four_of_a_kind_wins and len(cards) == 4:
        wins = _matching(cards, range(4), False)
    return LayoutScore(best_total, tuple(best_points), tuple(best_groups), others, moon, wins)


def _with_extras(
    cards: Sequence[Card | None], rules: GolfRules, decks: int, moon: bool
) -> LayoutScore:
    """G7.4: the grid scores as usual; each card beyond it adds its own value."""
    size = rules.shape.size
    grid = score_layout(cards[:size], rules, decks=decks, _moon=moon)
    extra = [0 if c is None else rules.card_values[c] for c in cards[size:]]
    return LayoutScore(
        grid.total + sum(extra),
        grid.points + tuple(extra),
        grid.groups,
        grid.others_penalty,
        grid.moon,
        grid.wins_match,
    )


# ---- a round ------------------------------------------------------------------------


def _is_lowest(scores: Sequence[int], seat: int, rules: GolfRules) -> bool:
    mine = scores[seat]
    others = [s for i, s in enumerate(scores) if i != seat]
    if rules.closer_tie_counts_as_lowest:
        return all(mine <= s for s in others)
    return all(mine < s for s in others)


def _closer_adjustment(scores: Sequence[int], closer: int, rules: GolfRules) -> Adjustment | None:
    """G6: the closer's (or knocker's) penalty or bonus, as a change to their score."""
    n = len(scores)
    mine = scores[closer]
    if _is_lowest(scores, closer, rules):
        if rules.closer_bonus == "zero" and mine > 0:
            return Adjustment("G6", "closer is lowest: a positive score becomes 0", -mine)
        if rules.closer_bonus == "minus_players":
            return Adjustment("G6", f"closer is lowest: minus {n} players", -n)
        return None
    rule = rules.closer_rule
    delta = 0
    if rule == "penalty_10":
        delta = 10
    elif rule == "penalty_20":
        delta = 20
    elif rule == "add_lowest":
        delta = max(min(scores), 0)  # a penalty never lowers a score
    elif rule == "double_plus_5":
        delta = max(mine + 5, 0)  # 2x + 5, never lower than x
    elif rule == "take_highest":
        delta = max(scores) - mine
    elif rule == "add_twice_players":
        delta = 2 * n
    if not delta:
        return None
    return Adjustment("G6", f"closer is not lowest: {rule.replace('_', ' ')}", delta)


def score_round(
    layouts: Sequence[Sequence[Card | None]],
    rules: GolfRules,
    closer: int | None = None,
    *,
    decks: int | None = None,
) -> RoundScore:
    """Score a round: every layout (G5), effects on other players (G5.5, G5.6), then G6."""
    if decks is None:
        decks = rules.deck_count(len(layouts))
    scored = [score_layout(cards, rules, decks=decks) for cards in layouts]
    n = len(layouts)
    scores = [s.total for s in scored]
    adjustments: list[list[Adjustment]] = [[] for _ in range(n)]
    for seat, result in enumerate(scored):
        for other in range(n):
            if other == seat:
                continue
            if result.others_penalty:
                adjustments[other].append(
                    Adjustment(
                        "G5.5", f"seat {seat} has four in two columns", result.others_penalty
                    )
                )
                scores[other] += result.others_penalty
            if result.moon:
                adjustments[other].append(
                    Adjustment("G5.6", f"seat {seat} shot the moon", result.moon)
                )
                scores[other] += result.moon
        if result.moon:
            adjustments[seat].append(Adjustment("G5.6", "shot the moon: scores 0", -result.total))
            scores[seat] -= result.total
    if closer is not None:
        adjustment = _closer_adjustment(scores, closer, rules)
        if adjustment is not None:
            adjustments[closer].append(adjustment)
            scores[closer] += adjustment.delta
    winners = [seat for seat, s in enumerate(scored) if s.wins_match]
    return RoundScore(
        layouts=tuple(scored),
        adjustments=tuple(tuple(a) for a in adjustments),
        scores=tuple(scores),
        closer=closer,
        match_winner=winners[0] if len(winners) == 1 else None,
    )


def quick_scores(
    layouts: Sequence[Sequence[Card | None]], rules: GolfRules, closer: int | None = None
) -> tuple[int, ...] | None:
    """The scores :func:`score_round` gives, without its breakdown, where the rules score
    columns alone (``rules.plain_columns``); None where the full scorer is needed.

    Simulations and searches read only the scores, and building every group and
    adjustment took about a twelfth of a greedy six-card hole.
    """
    if not rules.plain_columns:
        return None
    shape = rules.shape
    values = rules.card_values
    keep_negative = rules.negative_pairs_keep_value
    scores: list[int] = []
    for cards in layouts:
        if len(cards) != shape.size:
            return None  # G7.4: cards beyond the grid
        total = 0
        for line in shape.column_lines:
            matched = _matching(cards, line, False)  # G5.3: a matched column cancels
            for p in line:
                card = cards[p]
                if card is None:
                    continue  # G3.5: a removed card scores 0
                value = values[card]
                if not matched or (keep_negative and value < 0):
                    total += value
            if matched and _all_jokers(cards, line):  # G5.1: a pair of jokers
                total += rules.joker_pair_value
        scores.append(total)
    if closer is not None:  # G6
        adjustment = _closer_adjustment(scores, closer, rules)
        if adjustment is not None:
            scores[closer] += adjustment.delta
    return tuple(scores)


def describe_round(
    result: RoundScore,
    layouts: Sequence[Sequence[Card | None]],
    rules: GolfRules,
    names: Sequence[str] | None = None,
) -> list[str]:
    """A readable breakdown, one or more lines per seat."""

    lines: list[str] = []
    for seat, (score, cards) in enumerate(zip(result.layouts, layouts, strict=True)):
        name = names[seat] if names else f"seat {seat}"
        shown = format_layout(cards, rules.shape, missing="--")
        lines.append(f"{name}: {shown}")
        counted = [
            f"{cards[p]}={score.points[p]}"
            for p in range(len(cards))
            if cards[p] is not None and not any(p in g.positions for g in score.groups)
        ]
        if counted:
            lines.append("  cards: " + " ".join(counted))
        for group in score.groups:
            lines.append("  " + group.describe(cards))
        if score.wins_match:
            lines.append("  four of a kind wins the match (G5.6)")
        lines.append(f"  layout: {score.total}")
        for adjustment in result.adjustments[seat]:
            sign = "+" if adjustment.delta >= 0 else ""
            lines.append(f"  {sign}{adjustment.delta}: {adjustment.reason} ({adjustment.rule})")
        lines.append(f"  round score: {result.scores[seat]}")
    return lines
