"""Fit the estimate that cut-short rollouts take (``greenfelt/bots/golf_leaf.py``).

Run: ``./dev bench fit_leaf [--preset nine-card-wiki] [--deals 10000] [--seed 2]
[--jobs 2]``.

Plays greedy against greedy (two players) over seeded deals and, each time a
seat's turn ends with the hole still on, records :func:`golf_leaf.terms` of
greedy's estimates as that seat sees them
(:func:`~greenfelt.bots.golf_greedy.estimated_totals`) and what the hole then
gave the seat: its result (1, 1/2 for a tie, 0) and its margin over 20 points,
within +-1 (``ismcts.golf_reward``'s two parts). Fits a logistic model of the
result (Newton's method, a little ridge) and a least-squares one of the margin
on the deals of even number, and reports both on the deals of odd number,
against the constant that knows nothing. Prints the :class:`golf_leaf.LeafFit`
to put in ``golf_leaf.FITS``.

Measured (issue 4's stop 48; 20,000 deals, seeds 2 and 3, 77 s each on one
core): on nine-card-wiki about 23 turn ends a hole; held out, the result's log
loss 0.606 against the constant's 0.693 (Brier 0.204 against 0.250), the
margin's mean squared error 0.313 against its variance 0.394. Stop 49 (seeds 2 and 3,
18-26 s each on two cores): nine-card 25.7 turn ends a hole, log loss 0.589 and 0.584
against 0.693, margin 0.203 and 0.206 against 0.284 and 0.291; bga 13.8 a hole, 0.619
and 0.623 against 0.693, margin 0.136 and 0.137 against 0.179 and 0.177. The two seeds'
weights differ by 0.61 at most (nine-card's lead over the face-down cards: 8.01, 8.62).
Stop 50: four-card 13.1 a hole, log loss 0.680 against 0.693 (its cards stay face down,
so the tempo term is constant and fitted 0), too little to pay at tables
(docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import numpy.typing as npt

from greenfelt.bots import golf_leaf
from greenfelt.bots.golf_greedy import estimated_totals, greedy_policy
from greenfelt.golf import find_preset, new_round

Array = npt.NDArray[np.float64]
CHUNK = 500  # deals per task


def collect(
    task: tuple[str, int, int, int],
) -> tuple[list[tuple[float, ...]], list[float], list[float], list[int]]:
    """(terms, result, margin, deal) of every turn end in greedy self-play of deals
    ``first`` to ``last``."""
    preset, seed, first, last = task
    rules = find_preset(preset)
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    margins: list[float] = []
    deals: list[int] = []
    for deal in range(first, last):
        state = new_round(rules, 2, deal % 2, rng=random.Random(f"{seed}:{deal}"))
        rng = random.Random(deal)
        ends: list[tuple[int, tuple[float, ...]]] = []
        while not state.is_over:
            mover = state.to_move
            state.apply_unchecked(greedy_policy(state, rng))
            if state.to_move != mover and not state.is_over:
                totals = estimated_totals(state, mover)
                down = state.down
                x = golf_leaf.terms(totals[mover], totals[1 - mover], down[mover], down[1 - mover])
                ends.append((mover, x))
        scores = state.scores
        assert scores is not None
        for seat, x in ends:
            mine, theirs = scores[seat], scores[1 - seat]
            rows.append(x)
            results.append(1.0 if mine < theirs else 0.5 if mine == theirs else 0.0)
            margins.append(max(-1.0, min(1.0, (theirs - mine) / 20.0)))
            deals.append(deal)
    return rows, results, margins, deals


def fit_logistic(x: Array, y: Array, ridge: float = 1e-3, steps: int = 30) -> Array:
    """Weights of a logistic model of ``y`` (in [0, 1]) on ``x``, by Newton's method."""
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + ridge * w
        hess = (x * (p * (1 - p))[:, None]).T @ x + ridge * np.eye(len(w))
        w -= np.linalg.solve(hess, grad)
    return w


def log_loss(p: Array, y: Array) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    parser = argparse.ArgumentParser(description="fit golf_leaf's estimate on greedy self-play")
    parser.add_argument("--preset", default="nine-card-wiki")
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = [
        (args.preset, args.seed, first, min(first + CHUNK, args.deals))
        for first in range(0, args.deals, CHUNK)
    ]
    rows: list[tuple[float, ...]] = []
    results: list[float] = []
    margins: list[float] = []
    deals: list[int] = []
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for r, y, m, d in pool.map(collect, tasks):
            rows += r
            results += y
            margins += m
            deals += d
    x, y, m = np.array(rows), np.array(results), np.array(margins)
    train = np.array(deals) % 2 == 0
    test = ~train
    win = fit_logistic(x[train], y[train])
    margin = np.linalg.lstsq(x[train], m[train], rcond=None)[0]
    p = 1.0 / (1.0 + np.exp(-(x[test] @ win)))
    base = float(np.mean(y[train]))
    print(
        f"{args.preset}: {len(rows):,} turn ends over {args.deals:,} deals ({len(rows) / args.deals:.1f} a hole)"
    )
    print(
        f"result, held out: log loss {log_loss(p, y[test]):.4f} against the constant's"
        f" {log_loss(np.full(test.sum(), base), y[test]):.4f}; Brier"
        f" {np.mean((p - y[test]) ** 2):.4f} against {np.mean((base - y[test]) ** 2):.4f}"
    )
    err = float(np.mean((x[test] @ margin - m[test]) ** 2))
    print(
        f"margin, held out: mean squared error {err:.4f} against its variance {np.var(m[test]):.4f}"
    )
    print(
        f'    "{args.preset}": LeafFit(\n'
        f"        win=({', '.join(f'{v:.4g}' for v in win)}),\n"
        f"        margin=({', '.join(f'{v:.4g}' for v in margin)}),\n"
        "    ),"
    )
    assert all(math.isfinite(v) for v in (*win, *margin))


if __name__ == "__main__":
    main()
