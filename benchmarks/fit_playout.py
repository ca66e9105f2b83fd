"""Fit the expert's Golf playout policy (``greenfelt/bots/golf_playout.py``).

Run: ``./dev bench fit_playout --positions 8000 --worlds 100 --jobs 2``
(about 10 minutes on 2 cores), then paste the printed ``WEIGHTS`` into
``golf_playout.py``. ``--save F`` keeps the positions and their values, and
``--load F`` refits from them without the rollouts.

One step of approximate policy iteration. Positions where a seat holds a card
(phases drawn and taken) are taken from greedy-vs-greedy two-player six-card
rounds. Every legal placement is valued by ``--worlds`` imagined worlds (the
seat's ``determinize``, common random numbers across moves) played out with
greedy for every seat (``--continuation playout`` plays the mover's seat with
the current playout policy instead: the next step of the iteration): Q(move),
the chance of winning the hole, ties half. A ridge regression fits the
centred Q of each position's moves to their terms (``golf_playout.terms``).

It prints the regret per decision (best Q less the Q of the chosen move) of
greedy and of the fitted model on held-out positions, and with ``--play N`` the
fitted policy against greedy over N mirrored deals.
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from greenfelt.bots import golf_playout
from greenfelt.bots.base import observe
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import GolfAction
from greenfelt.golf.game import GolfRound

Sample = tuple[GolfRound, dict[GolfAction, float]]


def values(state: GolfRound, worlds: int, seed: int, continuation: str) -> dict[GolfAction, float]:
    """Q(move) for the seat to move: its chance to win the hole, playouts after."""
    obs = observe(state)
    me = obs.seat
    own = golf_playout.playout_policy if continuation == "playout" else greedy_policy
    wins = dict.fromkeys(obs.legal, 0.0)
    for k in range(worlds):
        world = obs.sample(random.Random(seed + 7919 * k))
        stream = seed ^ (k + 1) * 0x9E3779B1
        for action in obs.legal:
            s = world.clone()
            s.apply_unchecked(action)
            rng = random.Random(stream)
            while not s.is_over:
                policy = own if s.to_move == me else greedy_policy
                s.apply_unchecked(policy(s, rng))
            mine = s.scores[me]
            other = min(x for i, x in enumerate(s.scores) if i != me)
            wins[action] += 1.0 if mine < other else 0.5 if mine == other else 0.0
    return {a: w / worlds for a, w in wins.items()}


def collect(args: tuple[int, int, int, str]) -> list[Sample]:
    """``count`` positions (a seat holding a card) with their move values."""
    count, worlds, seed, continuation = args
    rng = random.Random(seed)
    out: list[Sample] = []
    rules = find_preset("six-card")
    while len(out) < count:
        state = new_round(rules, 2, rng.randrange(2), rng=random.Random(rng.random()))
        play = random.Random(rng.random())
        while not state.is_over and len(out) < count:
            if (
                state.phase.value in ("drawn", "taken")
                and len(state.legal_actions()) > 1
                and rng.random() < 0.3
            ):
                sample = observe(state).sample(random.Random(rng.random()))
                out.append((sample, values(state, worlds, rng.getrandbits(30), continuation)))
            state.apply_unchecked(greedy_policy(state, play))
    return out


def design(samples: Sequence[Sample]) -> tuple[np.ndarray, np.ndarray]:
    """Rows of move-by-state terms and Q, both centred within each position."""
    xs, ys = [], []
    for state, q in samples:
        state_terms, moves = golf_playout.terms(state)
        acts = list(moves)
        rows = np.array([np.outer(moves[a], state_terms).ravel() for a in acts])
        qs = np.array([q[a] for a in acts])
        xs.append(rows - rows.mean(0))
        ys.append(qs - qs.mean())
    return np.vstack(xs), np.concatenate(ys)


def regret(samples: Sequence[Sample], weights: Sequence[Sequence[float]] | None) -> float:
    """Mean best-Q-less-chosen-Q; ``weights=None`` is greedy's choice."""
    total = 0.0
    for state, q in samples:
        if weights is None:
            move = greedy_policy(state.clone(), random.Random(0))
        else:
            state_terms, moves = golf_playout.terms(state)
            scores = golf_playout.score_moves(weights, state_terms, moves)
            move = max(scores, key=scores.__getitem__)
        total += max(q.values()) - q[move]
    return total / len(samples)


def play(deals: int, seed: int) -> str:
    """The playout policy against greedy, six-card, mirrored deals."""
    rules = find_preset("six-card")
    wins = losses = 0
    margin = 0.0
    for deal in range(deals):
        for me in (0, 1):
            state = new_round(rules, 2, deal % 2, rng=random.Random(f"{seed}:{deal}"))
            rng = random.Random(deal * 2 + me)
            while not state.is_over:
                policy = golf_playout.playout_policy if state.to_move == me else greedy_policy
                state.apply_unchecked(policy(state, rng))
            scores = state.scores
            assert scores is not None
            mine, theirs = scores[me], scores[1 - me]
            wins += mine < theirs
            losses += mine > theirs
            margin += theirs - mine
    p = wins / (wins + losses)
    half = 1.96 * math.sqrt(p * (1 - p) / (wins + losses))
    return (
        f"playout vs greedy: wins {100 * p:.1f}% +-{100 * half:.1f} of {wins + losses} "
        f"decided holes, {margin / (2 * deals):+.2f} points/hole"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="fit the expert's Golf playout policy")
    parser.add_argument("--positions", type=int, default=8000)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--continuation", choices=("greedy", "playout"), default="greedy")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--save", help="keep the positions and values in this file")
    parser.add_argument("--load", help="refit from positions saved with --save")
    parser.add_argument("--play", type=int, default=5000, help="mirrored deals against greedy")
    args = parser.parse_args()
    samples: list[Sample]
    if args.load:
        with open(args.load, "rb") as f:
            samples = pickle.load(f)
    else:
        jobs = max(1, args.jobs)
        tasks = [
            (args.positions // jobs, args.worlds, args.seed * 1000 + j, args.continuation)
            for j in range(jobs)
        ]
        with ProcessPoolExecutor(jobs) as pool:
            samples = [s for part in pool.map(collect, tasks) for s in part]
        if args.save:
            with open(args.save, "wb") as f:
                pickle.dump(samples, f)
    random.Random(0).shuffle(samples)
    split = len(samples) * 3 // 4
    train, test = samples[:split], samples[split:]
    x, y = design(train)
    w = np.linalg.solve(x.T @ x + args.ridge * np.eye(x.shape[1]), x.T @ y)
    weights = w.reshape(len(golf_playout.MOVE_TERMS), len(golf_playout.STATE_TERMS)).tolist()
    print(f"{len(samples)} positions ({len(train)} to fit, {len(test)} held out)")
    print(
        f"held-out regret per decision: greedy {regret(test, None):.4f}, fitted {regret(test, weights):.4f}"
    )
    print("WEIGHTS = (")
    for name, row in zip(golf_playout.MOVE_TERMS, weights, strict=True):
        print(f"    ({', '.join(f'{x:.5f}' for x in row)}),  # {name}")
    print(")")
    if args.play:
        golf_playout.WEIGHTS = tuple(tuple(row) for row in weights)
        print(play(args.play, args.seed))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
