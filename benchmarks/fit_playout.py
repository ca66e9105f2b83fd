"""Fit the expert's Golf playout policy (``greenfelt/bots/golf_playout.py``).

Run: ``./dev bench fit_playout --positions 8000 --worlds 100 --jobs 2``
(about 10 minutes on 2 cores; 25 with ``--continuation playout``), then paste
the printed weights into ``golf_playout.py``. ``--save F`` keeps the positions
and their values, and ``--load F`` refits from them without the rollouts.

One step of approximate policy iteration. Positions of one decision
(``--decision``: ``place``, a seat holding a card in phase drawn or taken, the
default; ``turn``, draw or take; ``flip``, what to flip after a discard) are
taken from greedy-vs-greedy two-player six-card rounds. Every legal move is
valued by ``--worlds`` imagined worlds (the seat's ``determinize``, common
random numbers across moves) played out with greedy for every seat
(``--continuation playout`` plays the mover's seat with the current playout
policy instead: the next step of the iteration): Q(move), the chance of winning
the hole, ties half. A ridge regression fits the centred Q of each position's
moves to their terms (``golf_playout.terms``, ``turn_terms``, ``flip_terms``)
and prints the weights to paste (``WEIGHTS``, ``TURN_WEIGHTS``,
``FLIP_WEIGHTS``).

``--players N`` (from 3) takes the positions from N-player holes, greedy playing
the others, and fits ``WEIGHTS_MULTI``: the placement weights from three players
(``golf_playout.weights_for``); ``--continuation playout`` then plays on with the
weights the table size has now. The shipped ones came from ``--players 3
--continuation playout --objective expected --jobs 2`` (19 minutes on 2 cores).

``--objective`` picks the fit. ``squares`` (the default, and how WEIGHTS was
fitted) is a ridge regression of every move's centred Q on its terms.
``expected`` starts from the current weights and climbs the mean Q of a softened
choice, softmax(score / ``--temperature``), for ``--steps`` full-batch steps
(:func:`expected_fit`): it asks only that the best move score highest. On the
three-player positions it gave up 0.0197 a placement held out, where least
squares gave 0.0271 and the two-player weights 0.0258.

It prints the regret per decision (best Q less the Q of the chosen move) of
greedy, of the current weights and of the fitted model on held-out positions, and
with ``--play N`` the fitted policy in one seat against greedy in the others over N
deals, each played with the policy in every seat in turn, and its paired
difference with the current weights on the same deals.

``--target expert`` fits the model to imitate the default expert instead (a
distillation: ``--positions`` decisions of the expert's search, anchor included,
at positions of playout-vs-greedy holes, 0.3 s each): a conditional logit of the
expert's move on the same terms, with the current model's score as one more
term, so the fit starts from it. It prints how often the current and the fitted
model pick the expert's move on held-out positions. Fitted on 10,312 such
placements, the model beat greedy by more than the current one but made the
expert no stronger, so it did not ship (docs/expert-six-card.md).
"""

from __future__ import annotations

import argparse
import math
import pickle
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import Any

import numpy as np
from compare_expert import mean_and_half

from greenfelt.bots import golf_playout
from greenfelt.bots.base import Policy, observe
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_playout import Terms
from greenfelt.bots.ismcts import ExpertBot
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import GolfAction
from greenfelt.golf.game import GolfRound

Sample = tuple[GolfRound, dict[GolfAction, float]]
Choice = tuple[GolfRound, GolfAction]
"""A position (an imagined world of the mover's) and the expert's move there."""
# Each decision the model can take over: its positions' phases, its terms, the
# names of its move terms and the module constant holding its weights.
DECISIONS: dict[
    str, tuple[tuple[str, ...], Callable[[GolfRound], Terms | None], tuple[str, ...], str]
] = {
    "place": (("drawn", "taken"), golf_playout.terms, golf_playout.MOVE_TERMS, "WEIGHTS"),
    "turn": (("turn",), golf_playout.turn_terms, golf_playout.TURN_TERMS, "TURN_WEIGHTS"),
    "flip": (("flip",), golf_playout.flip_terms, golf_playout.FLIP_TERMS, "FLIP_WEIGHTS"),
}


def win_values(
    state: GolfRound, worlds: int, seed: int, own: Policy, others: Policy = greedy_policy
) -> dict[GolfAction, list[float]]:
    """Each legal move's win value for the seat to move in each imagined world (1, its
    share of a tie for the lowest score, or 0): ``own`` plays on for the seat and
    ``others`` for the rest, on common worlds and random streams."""
    obs = observe(state)
    me = obs.seat
    out: dict[GolfAction, list[float]] = {action: [] for action in obs.legal}
    for k in range(worlds):
        world = obs.sample(random.Random(seed + 7919 * k))
        stream = seed ^ (k + 1) * 0x9E3779B1
        for action in obs.legal:
            s = world.clone()
            s.apply_unchecked(action)
            rng = random.Random(stream)
            while not s.is_over:
                s.apply_unchecked((own if s.to_move == me else others)(s, rng))
            scores = s.scores
            assert scores is not None
            low = min(scores)
            out[action].append(1.0 / scores.count(low) if scores[me] == low else 0.0)
    return out


def values(state: GolfRound, worlds: int, seed: int, continuation: str) -> dict[GolfAction, float]:
    """Q(move) for the seat to move: its chance to win the hole, playouts after."""
    own = golf_playout.playout_policy if continuation == "playout" else greedy_policy
    return {a: sum(w) / worlds for a, w in win_values(state, worlds, seed, own).items()}


def _positions(
    rng: random.Random, decision: str, one_seat: bool, players: int = 2
) -> Iterator[GolfRound]:
    """Six-card holes of ``players`` seats without end, yielding about 3 in 10 of the
    positions where ``decision`` is taken and the model applies. With ``one_seat``, a
    seat drawn at random plays the current playout against greedy and only its
    positions are yielded; else greedy plays every seat. The caller reads a position,
    not keeps it."""
    phases, find_terms, _, _ = DECISIONS[decision]
    rules = find_preset("six-card")
    while True:
        me = rng.randrange(players) if one_seat else None
        state = new_round(rules, players, rng.randrange(players), rng=random.Random(rng.random()))
        play = random.Random(rng.random())
        while not state.is_over:
            if (
                (me is None or state.to_move == me)
                and state.phase.value in phases
                and len(state.legal_actions()) > 1
                and find_terms(state) is not None
                and rng.random() < 0.3
            ):
                yield state
            policy = golf_playout.playout_policy if state.to_move == me else greedy_policy
            state.apply_unchecked(policy(state, play))


def collect(args: tuple[int, int, int, str, str, int]) -> list[Sample]:
    """``count`` positions of one ``decision`` with their move values."""
    count, worlds, seed, continuation, decision, players = args
    rng = random.Random(seed)
    return [
        (
            observe(state).sample(random.Random(rng.random())),
            values(state, worlds, rng.getrandbits(30), continuation),
        )
        for state in islice(_positions(rng, decision, one_seat=False, players=players), count)
    ]


def collect_choices(args: tuple[int, int, str]) -> list[Choice]:
    """``count`` positions of one ``decision`` with the default expert's move, from
    holes where the mover plays the current playout policy against greedy."""
    count, seed, decision = args
    rng = random.Random(seed)
    expert = ExpertBot("golf", random.Random(seed + 1))
    out: list[Choice] = []
    for state in islice(_positions(rng, decision, one_seat=True), count):
        obs = observe(state)
        out.append((obs.sample(random.Random(rng.random())), expert.choose(obs)))
    return out


def imitate(choices: Sequence[Choice], decision: str, ridge: float) -> list[list[float]]:
    """Weights of a conditional logit of the chosen move on the move-by-state terms,
    plus the current weights' score (unpenalised), folded back into one table."""
    _, _, names, constant = DECISIONS[decision]
    current = np.array(getattr(golf_playout, constant), dtype=float).ravel()
    positions = []
    for state, chosen in choices:
        state_terms, moves = found(decision, state)
        acts = list(moves)
        rows = np.array([np.outer(moves[a], state_terms).ravel() for a in acts])
        if current.size:
            rows = np.hstack([rows, (rows @ current)[:, None]])
        positions.append((rows, acts.index(chosen)))
    dim = positions[0][0].shape[1]
    penalty = np.full(dim, ridge)
    if current.size:
        penalty[-1] = 1e-6
    w = np.zeros(dim)
    for _ in range(30):  # Newton's method on the penalised log-likelihood
        grad = -penalty * w
        hess = -np.diag(penalty)
        for rows, k in positions:
            z = rows @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ rows
            grad += rows[k] - mean
            hess -= (rows.T * p) @ rows - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    if current.size:
        w = w[:-1] + w[-1] * current
    return w.reshape(len(names), len(golf_playout.STATE_TERMS)).tolist()


def agreement(
    choices: Sequence[Choice], weights: Sequence[Sequence[float]], decision: str
) -> float:
    """How often ``weights`` pick the expert's move (no weights: greedy's)."""
    hits = sum(_pick(state, weights, decision) == chosen for state, chosen in choices)
    return hits / len(choices)


def found(decision: str, state: GolfRound) -> Terms:
    out = DECISIONS[decision][1](state)
    assert out is not None
    return out


def design(samples: Sequence[Sample], decision: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows of move-by-state terms and Q, both centred within each position."""
    xs, ys = [], []
    for state, q in samples:
        state_terms, moves = found(decision, state)
        acts = list(moves)
        rows = np.array([np.outer(moves[a], state_terms).ravel() for a in acts])
        qs = np.array([q[a] for a in acts])
        xs.append(rows - rows.mean(0))
        ys.append(qs - qs.mean())
    return np.vstack(xs), np.concatenate(ys)


def expected_fit(
    samples: Sequence[Sample],
    decision: str,
    start: Sequence[Sequence[float]],
    temperature: float,
    steps: int,
) -> list[list[float]]:
    """Weights that maximise the mean win value of a softened choice, from ``start``.

    Least squares fits every move's value alike, the poor moves' as much as the
    best's; what play needs is only that the best move scores highest. So this fit
    picks each position's moves with probabilities softmax(score / ``temperature``)
    and climbs the mean Q of that choice (Adam, ``steps`` full-batch steps): as the
    temperature falls, that mean tends to the Q of the move the weights play.
    """
    _, _, names, _ = DECISIONS[decision]
    width = len(names) * len(golf_playout.STATE_TERMS)
    most = max(len(q) for _, q in samples)
    rows = np.zeros((len(samples), most, width))
    qs = np.zeros((len(samples), most))
    legal = np.zeros((len(samples), most), dtype=bool)
    for i, (state, q) in enumerate(samples):
        state_terms, moves = found(decision, state)
        for j, (action, move) in enumerate(moves.items()):
            rows[i, j] = np.outer(move, state_terms).ravel()
            qs[i, j] = q[action]
            legal[i, j] = True
    w = np.array(start, dtype=float).ravel() if len(start) else np.zeros(width)
    m, v = np.zeros(width), np.zeros(width)
    rate, b1, b2 = 2e-3, 0.9, 0.999
    for step in range(1, steps + 1):
        z = np.where(legal, rows @ w / temperature, -np.inf)
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        mean = (p * qs).sum(axis=1, keepdims=True)
        grad = np.einsum("nk,nkd->d", p * (qs - mean), rows) / (temperature * len(samples))
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad**2
        w += rate * (m / (1 - b1**step)) / (np.sqrt(v / (1 - b2**step)) + 1e-8)
    return w.reshape(len(names), len(golf_playout.STATE_TERMS)).tolist()


def regret(
    samples: Sequence[Sample], weights: Sequence[Sequence[float]] | None, decision: str
) -> float:
    """Mean best-Q-less-chosen-Q; ``weights=None`` is greedy's choice."""
    total = 0.0
    for state, q in samples:
        move = _pick(state, weights, decision)
        total += max(q.values()) - q[move]
    return total / len(samples)


def _pick(state: GolfRound, weights: Sequence[Sequence[float]] | None, decision: str) -> GolfAction:
    """The move ``weights`` score highest; no weights (None or empty): greedy's."""
    if not weights:
        return greedy_policy(state.clone(), random.Random(0))
    scores = golf_playout.score_moves(weights, *found(decision, state))
    return max(scores, key=scores.__getitem__)


def play(deals: int, seed: int, players: int = 2) -> tuple[str, list[float]]:
    """The playout policy in one seat against greedy in the others, six-card, each
    deal played with the playout in every seat in turn. Returns the summary and each
    hole's win value (1, ½ for a shared lowest, 0; for pairing two fits)."""
    rules = find_preset("six-card")
    wins = losses = 0
    margin = 0.0
    holes: list[float] = []
    for deal in range(deals):
        for me in range(players):
            state = new_round(rules, players, deal % players, rng=random.Random(f"{seed}:{deal}"))
            rng = random.Random(deal * players + me)
            while not state.is_over:
                policy = golf_playout.playout_policy if state.to_move == me else greedy_policy
                state.apply_unchecked(policy(state, rng))
            scores = state.scores
            assert scores is not None
            mine = scores[me]
            others = [s for seat, s in enumerate(scores) if seat != me]
            lowest = min(others)
            wins += mine < lowest
            losses += mine > lowest
            margin += sum(others) / len(others) - mine
            holes.append(1.0 if mine < lowest else 0.5 if mine == lowest else 0.0)
    p = wins / (wins + losses)
    half = 1.96 * math.sqrt(p * (1 - p) / (wins + losses))
    return (
        f"playout vs greedy: wins {100 * p:.1f}% +-{100 * half:.1f} of {wins + losses} "
        f"decided holes, {margin / (players * deals):+.2f} points/hole",
        holes,
    )


def paired(first: Sequence[float], second: Sequence[float]) -> str:
    """The second's mean win value less the first's, hole by hole, with its 95% interval."""
    mean, half = mean_and_half([b - a for a, b in zip(first, second, strict=True)])
    return f"{100 * mean:+.2f} +-{100 * half:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description="fit the expert's Golf playout policy")
    parser.add_argument("--positions", type=int, default=8000)
    parser.add_argument("--worlds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--continuation", choices=("greedy", "playout"), default="greedy")
    parser.add_argument(
        "--decision", choices=tuple(DECISIONS), default="place", help="which decision to fit"
    )
    parser.add_argument(
        "--objective",
        choices=("squares", "expected"),
        default="squares",
        help="least squares on every move's value (ridge), or the expected value of a "
        "softened choice climbed from the current weights (temperature, steps)",
    )
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--temperature", type=float, default=0.03)
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument(
        "--players", type=int, default=2, help="seats at the table (positions and --play)"
    )
    parser.add_argument("--save", help="keep the positions and values in this file")
    parser.add_argument("--load", help="refit from positions saved with --save")
    parser.add_argument("--play", type=int, default=5000, help="mirrored deals against greedy")
    parser.add_argument(
        "--target",
        choices=("values", "expert"),
        default="values",
        help="fit rollout values, or imitate the default expert's moves",
    )
    args = parser.parse_args()
    _, _, names, constant = DECISIONS[args.decision]
    if args.players != 2 and args.target == "expert":
        parser.error("--target expert imitates the expert at two players only")
    if args.players >= 3:
        constant += "_MULTI"  # golf_playout.weights_for: from three players
    samples: list[Any]
    if args.load:
        with open(args.load, "rb") as f:
            samples = pickle.load(f)
        if samples and isinstance(samples[0][1], GolfAction) != (args.target == "expert"):
            parser.error(f"{args.load} was saved with the other --target")
    else:
        jobs = max(1, args.jobs)
        seeds = [args.seed * 1000 + j for j in range(jobs)]
        count = args.positions // jobs
        with ProcessPoolExecutor(jobs) as pool:
            if args.target == "expert":
                choices = pool.map(collect_choices, [(count, s, args.decision) for s in seeds])
                samples = [c for part in choices for c in part]
            else:
                tasks = [
                    (count, args.worlds, s, args.continuation, args.decision, args.players)
                    for s in seeds
                ]
                samples = [v for part in pool.map(collect, tasks) for v in part]
        if args.save:
            with open(args.save, "wb") as f:
                pickle.dump(samples, f)
    random.Random(0).shuffle(samples)
    split = len(samples) * 3 // 4
    train, test = samples[:split], samples[split:]
    print(f"{len(samples)} positions ({len(train)} to fit, {len(test)} held out)")
    if args.target == "expert":
        weights = imitate(train, args.decision, args.ridge)
        current = getattr(golf_playout, constant)
        print(
            f"held-out agreement with the expert: current {agreement(test, current, args.decision):.3f},"
            f" fitted {agreement(test, weights, args.decision):.3f}"
        )
    else:
        current = golf_playout.weights_for(args.players, args.decision)
        if args.objective == "expected":
            weights = expected_fit(train, args.decision, current, args.temperature, args.steps)
        else:
            x, y = design(train, args.decision)
            w = np.linalg.solve(x.T @ x + args.ridge * np.eye(x.shape[1]), x.T @ y)
            weights = w.reshape(len(names), len(golf_playout.STATE_TERMS)).tolist()
        print(
            f"held-out regret per decision: greedy {regret(test, None, args.decision):.4f},"
            f" current {regret(test, current, args.decision):.4f},"
            f" fitted {regret(test, weights, args.decision):.4f}"
        )
    print(f"{constant} = (")
    for name, row in zip(names, weights, strict=True):
        print(f"    ({', '.join(f'{x:.5f}' for x in row)}),  # {name}")
    print(")")
    if args.play:
        summary, before = play(args.play, args.seed, args.players)
        print("current " + summary)
        setattr(golf_playout, constant, tuple(tuple(row) for row in weights))
        summary, after = play(args.play, args.seed, args.players)
        print("fitted  " + summary)
        print(
            f"fitted less current, paired win value (points of percentage): {paired(before, after)}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
