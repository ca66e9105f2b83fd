"""`greenfelt sim compare`'s reading of its table: extremes named only where clear."""

from __future__ import annotations

from typing import Any

from greenfelt.lab.report import compare_reading


def estimate(value: float, half: float) -> dict[str, Any]:
    return {"value": value, "low": value - half, "high": value + half, "n": 100}


def rule_set(name: str, turns: float, half: float = 0.5) -> dict[str, Any]:
    flat = estimate(1.0, 0.1)
    return {
        "name": name,
        "measures": {
            "turns_per_hole": estimate(turns, half),
            "score_sd": flat,
            "lead_changes": flat,
            "first_seat_advantage": estimate(0.02, 0.05),
            "points": flat,
        },
    }


def test_clear_extremes_are_named_and_ties_all_named() -> None:
    lines = compare_reading(
        [rule_set("a", 12.0), rule_set("b", 16.0), rule_set("c", 16.04), rule_set("d", 13.0)]
    )
    assert lines[1] == "In short (clear: the 95% intervals of the two do not overlap):"
    assert lines[2] == "  turns per hole: longest in b and c (16.0), shortest in a (12.0)"
    assert lines[3:] == [
        "  score spread in a hole: no clear difference",
        "  lead changes: no clear difference",
        "  first-seat edge: no clear difference",
        "  points per hole: no clear difference",
    ]


def test_overlapping_intervals_are_no_clear_difference() -> None:
    lines = compare_reading([rule_set("a", 12.0, half=2.0), rule_set("b", 15.0, half=2.0)])
    assert lines[2] == "  turns per hole: no clear difference"


def test_one_rule_set_or_no_interval_reads_nothing() -> None:
    assert compare_reading([rule_set("a", 12.0)]) == []
    alone = rule_set("b", 14.0)
    alone["measures"]["turns_per_hole"] = {"value": 14.0, "low": None, "high": None, "n": 1}
    lines = compare_reading([rule_set("a", 12.0), alone])
    assert not any(line.startswith("  turns per hole") for line in lines)


def test_the_first_level_share_is_read_where_bots_differ() -> None:
    sets = [rule_set("a", 12.0), rule_set("b", 12.0)]
    for entry, share in zip(sets, (0.55, 0.72), strict=True):
        entry["measures"]["bots"] = [{"level": "expert", "win_rate_decided": estimate(share, 0.02)}]
    assert compare_reading(sets)[-1] == (
        "  expert's share of decided holes: highest in b (72.0%), lowest in a (55.0%)"
    )
