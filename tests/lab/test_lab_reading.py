"""`greenfelt sim compare`'s reading of its table: extremes named, and their paired
difference on the same deals, only where that difference is clear (G9.2: a sole lowest
score wins the hole)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from greenfelt.lab.report import compare_measures, compare_reading
from greenfelt.lab.runner import Spec
from greenfelt.lab.stats import mean_interval

Scores = Callable[[int, int], tuple[float, float]]
"""A hole's scores by (deal, rotation), seat by seat."""


def even(deal: int, rotation: int) -> tuple[float, float]:
    """Seat 0 wins deals 0, 3, 6...; deals 1, 4, 7... are tied; the seats swap each rotation."""
    mine, theirs = [(2.0, 6.0), (5.0, 5.0), (7.0, 3.0)][deal % 3]
    return (mine, theirs) if rotation == 0 else (theirs, mine)


def holes(lengths: Sequence[float], scores: Scores = even, bots: Sequence[str] = ("a", "a")) -> list[dict[str, Any]]:  # fmt: skip
    """Each deal played twice, the entries swapping seats (mirrored, as the lab plays them)."""
    out = []
    for deal, length in enumerate(lengths):
        for rotation in (0, 1):
            points = list(scores(deal, rotation))
            low = min(points)
            entries = [0, 1] if rotation == 0 else [1, 0]
            out.append({
                "deal": deal, "rotation": rotation, "first": (deal + rotation + 1) % 2,
                "scores": points, "winners": [s for s, p in enumerate(points) if p == low],
                "length": length, "entries": entries, "bots": [bots[e] for e in entries],
            })  # fmt: skip
    return out


def rule_set(name: str, games: list[dict[str, Any]], bots: Sequence[str] = ("a", "a")) -> dict[str, Any]:  # fmt: skip
    spec = Spec("golf", {"preset": "six-card"}, 2, tuple(bots), 1)
    return {"name": name, "measures": compare_measures(spec, games, 2), "games": games}


LENGTHS = [10.0, 20.0, 12.0, 18.0, 15.0, 11.0, 19.0, 14.0]
LONGER = [1.0, 1.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0]


def test_pairing_finds_what_two_separate_intervals_miss() -> None:
    a = rule_set("a", holes(LENGTHS))
    b = rule_set("b", holes([x + d for x, d in zip(LENGTHS, LONGER, strict=True)]))
    turns_a, turns_b = a["measures"]["turns_per_hole"], b["measures"]["turns_per_hole"]
    assert turns_b["low"] < turns_a["high"]  # the two intervals overlap
    lines = compare_reading([a, b])
    assert lines[1] == (
        "In short (clear: the paired difference on the same deals excludes 0, 95%):"
    )
    by = mean_interval(LONGER)  # the same deals: the difference deal by deal
    assert lines[2] == (
        f"  turns per hole: longest in b (16.1), shortest in a (14.9); "
        f"by {by.value:.2f} [{by.low:.2f}, {by.high:.2f}]"
    )
    assert lines[3:] == [  # the same scores: nothing else differs
        "  score spread in a hole: no clear difference",
        "  lead changes: no clear difference",
        "  first-seat edge: no clear difference",
        "  points per hole: no clear difference",
    ]


def test_many_rule_sets_widen_the_test_and_ties_are_all_named() -> None:
    """Three rule sets make three pairs: each pair is tested at 1 - 0.05/3 (Bonferroni)."""
    b_more = [4.0, 4.0, 3.0, 5.0, 4.0, 4.0, 3.0, 5.0]
    c_more = [*b_more[:-1], 5.32]
    sets = [
        rule_set("a", holes([12.0] * 8)),
        rule_set("b", holes([12.0 + d for d in b_more])),
        rule_set("c", holes([12.0 + d for d in c_more])),
    ]
    lines = compare_reading(sets)
    assert lines[1].endswith("excludes 0, 95% over all 3 pairs):")
    by = mean_interval(c_more, confidence=1 - 0.05 / 3)  # the highest, c, less the lowest, a
    assert lines[2] == (
        "  turns per hole: longest in b and c (16.0), shortest in a (12.0); "
        f"by {by.value:.2f} [{by.low:.2f}, {by.high:.2f}]"
    )


def test_a_difference_whose_interval_holds_0_is_no_clear_difference() -> None:
    mixed = [1.0, -1.0, 2.0, -1.0, 1.0, -1.0, 1.0, -1.0]  # +0.125 a hole, but either way
    a = rule_set("a", holes(LENGTHS))
    b = rule_set("b", holes([x + d for x, d in zip(LENGTHS, mixed, strict=True)]))
    assert compare_reading([a, b])[2] == "  turns per hole: no clear difference"


def test_one_rule_set_or_one_deal_reads_nothing() -> None:
    assert compare_reading([rule_set("a", holes(LENGTHS))]) == []
    lines = compare_reading([rule_set("a", holes([12.0])), rule_set("b", holes([14.0]))])
    assert lines[2:] == []  # one deal gives no interval: nothing is called


def test_the_first_level_share_is_read_where_bots_differ() -> None:
    """expert wins one of each deal's two holes under a; under b, both holes of deals 0-3.
    Per deal the paired terms are (wins - share * 2) / 2: +-0.25 under b, 0 under a, so
    sd 0.2673 over 8 deals, and t(0.975, 7) = 2.3646 gives 25.0 +- 22.3 pp."""

    def scores(expert_wins: Callable[[int, int], bool]) -> Scores:
        def hole(deal: int, rotation: int) -> tuple[float, float]:
            expert, greedy = (1.0, 4.0) if expert_wins(deal, rotation) else (4.0, 1.0)
            return (expert, greedy) if rotation == 0 else (greedy, expert)

        return hole

    bots = ("expert", "greedy")
    a = holes([12.0] * 8, scores(lambda deal, rotation: rotation == 0), bots)
    b = holes([12.0] * 8, scores(lambda deal, rotation: deal < 4 or rotation == 0), bots)
    lines = compare_reading([rule_set("a", a, bots), rule_set("b", b, bots)])
    assert lines[-1] == (
        "  expert's share of decided holes: highest in b (75.0%), lowest in a (50.0%); "
        "by 25.0 pp [2.7, 47.3]"
    )
