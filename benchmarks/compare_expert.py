"""Two ``bench_expert`` runs compared hole by hole on the deals both played.

Run: ``./dev bench compare_expert A.json B.json``, where each is a ``bench_expert
--out`` file; a side may be several files of one seed, comma-separated, such as a
run and its extension by ``--first``: ``A.json,A-more.json B.json``.

Two runs of the same ``--seed`` deal the same cards and give greedy the same
random numbers (``bench_expert.play_deal``), so most of the luck of the cards
cancels in the difference between them, hole by hole: far fewer holes show a
difference than two separate win rates would need. A hole's win value is 1 for
a win, ½ for a tie and 0 for a loss, times 100 (points of percentage); the
margin is greedy's points less the expert's (Golf: higher is better for the
expert; Spades: lower). Each difference is A less B with its 95% interval,
±1.96 standard errors of the mean paired difference (docs/expert-six-card.md).
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from bench_expert import summarise

Row = dict[str, Any]
Key = tuple[str, int, int]  # configuration, deal, the expert's seat


class RunError(Exception):
    """A results file that cannot be compared: say which and why."""


def load(paths: str) -> tuple[int, dict[Key, Row]]:
    """The holes of one side (comma-separated ``--out`` files of one seed), by key."""
    seeds: set[int] = set()
    rows: dict[Key, Row] = {}
    for path in paths.split(","):
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
            seeds.add(int(data["args"]["seed"]))
            results = data["results"]
            keyed = {(r["config"], int(r["deal"]), int(r["expert_seat"])): r for r in results}
        except KeyError as error:
            raise RunError(f"{path}: not a bench_expert --out file (no {error} field)") from error
        except (OSError, ValueError, TypeError) as error:
            raise RunError(f"{path}: not a bench_expert --out file ({error})") from error
        repeated = sorted(set(keyed) & set(rows))
        if repeated:
            raise RunError(f"{path}: holes already in an earlier file, first {repeated[0]}")
        rows.update(keyed)
    if len(seeds) > 1:
        raise RunError(f"{paths}: files of different seeds ({sorted(seeds)}) deal different cards")
    return seeds.pop(), rows


def win_value(row: Row) -> float:
    return 100.0 if row["win"] else 0.0 if row["loss"] else 50.0


def margin(row: Row) -> float:
    return float(row["greedy_points"] - row["expert_points"])


def mean_and_half(diffs: Sequence[float]) -> tuple[float, float]:
    """The mean of paired differences and its 95% half-width (±1.96 standard errors;
    NaN from fewer than two)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.nan
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def paired(
    a: Sequence[Row], b: Sequence[Row], measure: Callable[[Row], float]
) -> tuple[float, float]:
    """The mean of ``measure`` on A less B, hole by hole, and its 95% half-width."""
    return mean_and_half([measure(x) - measure(y) for x, y in zip(a, b, strict=True)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="run A: one or more --out files of one seed, comma-separated")
    parser.add_argument("b", help="run B, the same way")
    args = parser.parse_args()
    try:
        seed_a, rows_a = load(args.a)
        seed_b, rows_b = load(args.b)
    except RunError as error:
        parser.error(str(error))
    if seed_a != seed_b:
        parser.error(f"A is seed {seed_a} and B seed {seed_b}: their deals differ")
    common = sorted(set(rows_a) & set(rows_b))
    if not common:
        parser.error("no hole was played in both runs (same configurations and deals?)")
    print(
        f"{'configuration':<14} {'holes':>6} {'A won':>7} {'B won':>7}"
        f" {'win value A-B':>16} {'margin A-B':>15}"
    )
    for config in sorted({key[0] for key in common}):
        keys = [key for key in common if key[0] == config]
        a = [rows_a[key] for key in keys]
        b = [rows_b[key] for key in keys]
        won_a = summarise(a)[config]["win_rate_decided"]
        won_b = summarise(b)[config]["win_rate_decided"]
        wins, wins_half = paired(a, b, win_value)
        points, points_half = paired(a, b, margin)
        print(
            f"{config:<14} {len(keys):>6} {100 * won_a:>6.1f}% {100 * won_b:>6.1f}%"
            f" {wins:>+8.2f} ±{wins_half:<6.2f} {points:>+7.2f} ±{points_half:<6.2f}"
        )
    print(
        "win value: points of percentage (win 100, tie 50, loss 0); margin: greedy's"
        " points less the expert's (Golf: higher is better); ± is a 95% interval"
    )


if __name__ == "__main__":
    main()
