"""The lab's statistics against values computed by hand (and from published tables)."""

from __future__ import annotations

import math

import pytest

from greenfelt.lab.stats import (
    Estimate,
    lead_changes,
    leaders,
    mean,
    mean_abs_difference,
    mean_interval,
    paired_difference,
    pstdev,
    sample_sd,
    t_quantile,
    wilson_interval,
)


def test_mean_and_standard_deviations() -> None:
    xs = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    assert mean(xs) == 5.0
    assert pstdev(xs) == 2.0  # the textbook example: sum of squares 32 over 8
    assert sample_sd(xs) == pytest.approx(math.sqrt(32 / 7))
    assert sample_sd([3.0]) == 0.0
    with pytest.raises(ValueError):
        mean([])


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799)],
)
def test_t_quantile_matches_the_table(df: int, expected: float) -> None:
    """Two-sided 95% critical values of Student's t (any printed t table)."""
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=1e-4)


def test_t_quantile_tends_to_the_normal() -> None:
    assert t_quantile(0.975, 1e7) == pytest.approx(1.959964, abs=1e-5)
    assert t_quantile(0.5, 7) == pytest.approx(0.0, abs=1e-9)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)


def test_mean_interval_by_hand() -> None:
    """1..5: mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776445: half-width 1.963243."""
    est = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    assert est.value == 3.0
    assert est.n == 5
    assert est.low == pytest.approx(3.0 - 1.963243, abs=1e-6)
    assert est.high == pytest.approx(3.0 + 1.963243, abs=1e-6)


def test_mean_interval_edges() -> None:
    one = mean_interval([4.0])
    assert (one.value, one.low, one.high, one.n) == (4.0, None, None, 1)
    none = mean_interval([])
    assert (none.value, none.low, none.high, none.n) == (None, None, None, 0)
    flat = mean_interval([2.0, 2.0, 2.0])
    assert (flat.low, flat.high) == (2.0, 2.0)


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (5, 10, 0.236593, 0.763407),  # p = 1/2, z = 1.959964
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (81, 263, 0.255289, 0.366210),
        (1, 1, 0.206549, 1.0),
    ],
)
def test_wilson_interval_known_values(k: int, n: int, low: float, high: float) -> None:
    est = wilson_interval(k, n)
    assert est.value == k / n
    assert est.low == pytest.approx(low, abs=1e-6)
    assert est.high == pytest.approx(high, abs=1e-6)


def test_wilson_interval_by_formula() -> None:
    """(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n) with p = 0.3, n = 50."""
    z = 1.959963984540054
    p, n = 0.3, 50
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    est = wilson_interval(15, 50)
    assert est.low == pytest.approx(centre - half)
    assert est.high == pytest.approx(centre + half)


def test_wilson_interval_edges() -> None:
    est = wilson_interval(0, 0)
    assert (est.value, est.low, est.high) == (None, None, None)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    assert wilson_interval(3, 4, confidence=0.99).high > wilson_interval(3, 4).high


def test_mean_abs_difference() -> None:
    assert mean_abs_difference([1.0, 4.0]) == 3.0
    assert mean_abs_difference([0.0, 3.0, 9.0]) == pytest.approx((3 + 9 + 6) / 3)
    assert mean_abs_difference([5.0]) == 0.0


def test_leaders_follow_running_totals() -> None:
    rows = [[5, 3], [0, 4], [2, 2], [9, 0]]  # totals 5/3, 5/7, 7/9, 16/9
    assert leaders(rows) == [1, 0, 0, 1]
    assert leaders(rows, lower_wins=False) == [0, 1, 1, 0]
    assert leaders([[2, 2, 5]]) == [None]


@pytest.mark.parametrize(
    ("rows", "changes"),
    [
        ([[5, 3], [0, 4], [2, 2], [9, 0]], 2),  # 1 -> 0 -> 0 -> 1
        ([[1, 2], [1, 0], [0, 1]], 0),  # 0, tie, 0: passing through a tie is no change
        ([[1, 2], [2, 1], [3, 0]], 1),  # 0, tie, 1
        ([[3, 3], [3, 3]], 0),  # never a sole leader
        ([[0, 5, 9], [9, 0, 0], [9, 0, 0]], 1),  # three seats: 0 -> 1
        ([], 0),
    ],
)
def test_lead_changes(rows: list[list[int]], changes: int) -> None:
    assert lead_changes(rows) == changes


def test_paired_difference_of_plain_means_is_the_paired_t_interval() -> None:
    base = {deal: (float(v), 1.0) for deal, v in enumerate([10, 12, 9, 14, 11])}
    other = {deal: (float(v), 1.0) for deal, v in enumerate([11, 14, 9, 16, 12])}
    est = paired_difference(base, other)
    by_hand = mean_interval([1.0, 2.0, 0.0, 2.0, 1.0])
    assert (est.value, est.low, est.high, est.n) == pytest.approx(
        (by_hand.value, by_hand.low, by_hand.high, 5)
    )
    # Far narrower than either side alone: the deals' own spread cancels.
    alone = mean_interval([10.0, 12, 9, 14, 11])
    assert est.high - est.low < (alone.high - alone.low) / 2


def test_paired_difference_of_ratios_by_hand() -> None:
    """base 3/5 = 0.6, other 4/5 = 0.8; each unit's (num - r * den) / (5/3), paired:
    other 0.24, 0.12, -0.36 less base -0.12, 0.48, -0.36 gives 0.36, -0.36, 0;
    sd 0.36, half width t(0.975, 2) * 0.36 / sqrt(3)."""
    base = {"a": (1.0, 2.0), "b": (2.0, 2.0), "c": (0.0, 1.0), "only base": (9.0, 1.0)}
    other = {"a": (2.0, 2.0), "b": (1.0, 1.0), "c": (1.0, 2.0), "only other": (0.0, 5.0)}
    est = paired_difference(base, other)
    half = t_quantile(0.975, 2) * 0.36 / math.sqrt(3)
    assert est.n == 3  # units on one side only are left out
    assert (est.value, est.low, est.high) == pytest.approx((0.2, 0.2 - half, 0.2 + half))


def test_paired_difference_edges() -> None:
    same = {1: (3.0, 1.0), 2: (5.0, 1.0)}
    assert paired_difference(same, same) == Estimate(0.0, 0.0, 0.0, 2)
    assert paired_difference(same, {3: (1.0, 1.0)}) == Estimate(None, None, None, 0)
    assert paired_difference({1: (0.0, 0.0)}, {1: (1.0, 1.0)}) == Estimate(None, None, None, 1)
    assert paired_difference({1: (1.0, 2.0)}, {1: (2.0, 2.0)}) == Estimate(0.5, None, None, 1)
    wider = paired_difference(same, {1: (4.0, 1.0), 2: (5.0, 1.0)}, confidence=0.99)
    narrower = paired_difference(same, {1: (4.0, 1.0), 2: (5.0, 1.0)}, confidence=0.9)
    assert wider.low < narrower.low < 0.5 < narrower.high < wider.high
