"""Pure statistics for the lab: means with t intervals, Wilson intervals, paired differences,
spreads, lead changes.

Standard library only, no I/O. Every function takes plain numbers and returns
plain numbers, so each is checked against hand-computed values in
``tests/lab/test_stats.py``.

>>> round(t_quantile(0.975, 10), 3)
2.228
>>> est = wilson_interval(5, 10)
>>> (est.value, round(est.low, 4), round(est.high, 4))
(0.5, 0.2366, 0.7634)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from statistics import NormalDist
from typing import Any

__all__ = [
    "Estimate",
    "lead_changes",
    "leaders",
    "mean",
    "mean_abs_difference",
    "mean_interval",
    "paired_difference",
    "pstdev",
    "sample_sd",
    "t_quantile",
    "wilson_interval",
]


@dataclass(frozen=True)
class Estimate:
    """A point estimate with a confidence interval (``low``/``high`` are None when undefined)."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def mean(xs: Sequence[float]) -> float:
    """The arithmetic mean; raises ValueError on no data."""
    if not xs:
        raise ValueError("mean of no data")
    return math.fsum(xs) / len(xs)


def sample_sd(xs: Sequence[float]) -> float:
    """The sample standard deviation (n - 1 in the denominator); 0.0 for one value."""
    if len(xs) < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def pstdev(xs: Sequence[float]) -> float:
    """The population standard deviation (n in the denominator): the spread of these values."""
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / len(xs))


def mean_abs_difference(xs: Sequence[float]) -> float:
    """The mean of ``|a - b|`` over every pair of values (0.0 for fewer than two)."""
    pairs = [abs(a - b) for a, b in combinations(xs, 2)]
    return math.fsum(pairs) / len(pairs) if pairs else 0.0


# ---- Student's t ---------------------------------------------------------------


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (``0 < p < 1``, ``df > 0``).

    >>> round(t_quantile(0.975, 1), 3), round(t_quantile(0.975, 30), 3)
    (12.706, 2.042)
    """
    if not 0.0 < p < 1.0 or df <= 0:
        raise ValueError(f"t_quantile needs 0 < p < 1 and df > 0, not p={p}, df={df}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        high *= 2.0
    for _ in range(200):  # bisection: the cdf is monotone, 200 halvings reach float precision
        mid = (low + high) / 2.0
        if _t_cdf(mid, df) < p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * max(1.0, high):
            break
    return (low + high) / 2.0


def mean_interval(xs: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean with its two-sided Student-t interval (``mean ± t * s / sqrt(n)``).

    With one value the interval is undefined (``low``/``high`` None); with no
    values everything is None.
    """
    n = len(xs)
    if n == 0:
        return Estimate(None, None, None, 0)
    m = mean(xs)
    if n == 1:
        return Estimate(m, None, None, 1)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sample_sd(xs) / math.sqrt(n)
    return Estimate(m, m - half, m + half, n)


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> Estimate:
    """A proportion with its Wilson score interval (Wilson 1927); all None for no trials.

    >>> est = wilson_interval(0, 10)
    >>> (est.value, est.low, round(est.high, 4))
    (0.0, 0.0, 0.2775)
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    if trials == 0:
        return Estimate(None, None, None, 0)
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(p * (1.0 - p) / trials + z2n / (4.0 * trials)) / (1.0 + z2n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact ends, no rounding dust
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Estimate(p, low, high, trials)


def paired_difference(
    base: Mapping[Hashable, tuple[float, float]],
    other: Mapping[Hashable, tuple[float, float]],
    confidence: float = 0.95,
) -> Estimate:
    """How far ``other``'s ratio of sums lies above ``base``'s, paired unit by unit.

    Each side maps a unit (a deal, a match) to ``(numerator, denominator)`` and
    estimates ``sum(numerators) / sum(denominators)`` over the units both sides
    have. Two rule sets dealt the same cards share what the cards alone decide;
    pairing takes that out, so a paired interval finds differences that two
    separate intervals cannot. A ratio is linearized (the delta method): unit
    ``k`` contributes ``(num_k - r * den_k) / mean(den)`` to its side, and the
    t interval is taken over the units' paired contributions. With every
    denominator 1 this is the paired t interval of the mean difference. ``n``
    is the number of units paired.

    >>> est = paired_difference({1: (3, 1), 2: (5, 1)}, {1: (4, 1), 2: (7, 1)})
    >>> (est.value, round(est.low, 3), round(est.high, 3))
    (1.5, -4.853, 7.853)
    """
    units = [unit for unit in base if unit in other]
    n = len(units)
    base_den = math.fsum(base[u][1] for u in units)
    other_den = math.fsum(other[u][1] for u in units)
    if n == 0 or base_den == 0 or other_den == 0:
        return Estimate(None, None, None, n)
    base_ratio = math.fsum(base[u][0] for u in units) / base_den
    other_ratio = math.fsum(other[u][0] for u in units) / other_den
    difference = other_ratio - base_ratio
    if n == 1:
        return Estimate(difference, None, None, 1)
    base_scale, other_scale = base_den / n, other_den / n
    terms = [
        (other[u][0] - other_ratio * other[u][1]) / other_scale
        - (base[u][0] - base_ratio * base[u][1]) / base_scale
        for u in units
    ]
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * sample_sd(terms) / math.sqrt(n)
    return Estimate(difference, difference - half, difference + half, n)


# ---- leads ------------------------------------------------------------------------


def leaders(round_scores: Sequence[Sequence[float]], lower_wins: bool = True) -> list[int | None]:
    """The leading seat after each round from running totals; None while the lead is shared.

    >>> leaders([[5, 3], [0, 4], [2, 2]])
    [1, 0, 0]
    """
    out: list[int | None] = []
    totals: list[float] = []
    for row in round_scores:
        totals = [t + s for t, s in zip(totals, row, strict=True)] if totals else list(row)
        best = min(totals) if lower_wins else max(totals)
        top = [seat for seat, t in enumerate(totals) if t == best]
        out.append(top[0] if len(top) == 1 else None)
    return out


def lead_changes(round_scores: Sequence[Sequence[float]], lower_wins: bool = True) -> int:
    """How often the sole lead passes to another seat over a match's rounds.

    The leader after a round is the seat with the strictly best running total
    (lowest in Golf). A change is counted each time a seat takes the sole lead
    from a *different* seat that last held it alone; passing through a shared
    lead is not a change by itself (A leads, tie, A leads: 0; A, tie, B: 1).

    >>> lead_changes([[5, 3], [0, 4], [2, 2], [9, 0]])
    2
    """
    changes = 0
    last: int | None = None
    for leader in leaders(round_scores, lower_wins):
        if leader is None:
            continue
        if last is not None and leader != last:
            changes += 1
        last = leader
    return changes
