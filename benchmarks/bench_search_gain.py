"""Where does a one-step search improve on the expert's own playout? Gain by stage.

Run: ``./dev bench bench_search_gain --positions 1200 --worlds 300 --jobs 2``
(about 8 minutes on 2 cores).

Positions are decisions with a choice of one seat played by the expert's fitted
playout (``golf_playout``) against greedy, two-player Golf. Every legal move is
valued twice, by two independent sets of ``--worlds`` imagined worlds
(``fit_playout.values``: the seat's ``determinize``, common random numbers,
the playout for the mover's seat and greedy for the others after the move).
The *search's* move is the best by the first set; its *gain* is the second
set's value of that move less the value of the playout's own move. The second
set never chose, so the gain is unbiased: what a one-step search of that size
wins back over its playout, in chances to win the hole. That is the expert's
edge at depth 1 (``ismcts``), and where it lies says where a better playout
would pay.

Stages (G3.1): ``final``, a final turn after another seat closed; ``can close``,
the seat has one face-down card left; ``rival near``, another seat has at most
one; ``other``. For ``can close`` it also tabulates what the playout did
against what the search picked (close the round, swap a known card, discard,
flip, pass, draw, take).

Measured (six-card, the command above, 8 minutes): the search gains 0.0057 of a
win a decision. Three quarters of it is in ``can close`` (a third of the
decisions, 0.0125 each); the rest of the round gains 0.0017 a decision. In the
endgame the playout errs both ways: the search keeps the round open where the
playout closes (+0.15 a decision where it does) and closes where the playout
keeps it open (+0.08), and switches draw and take (+0.07-0.08).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from fit_playout import values

from greenfelt.bots import golf_playout
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_stage import stage
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase

Row = tuple[str, str, str, str, float]
"""(stage, phase, the playout's move kind, the search's move kind, gain)."""
_STAGE_NAMES = {"final": "final", "close": "can close", "near": "rival near", "other": "other"}
"""The stages (``golf_stage``) as this report names them."""
_PHASES = (Phase.TURN, Phase.DRAWN, Phase.TAKEN, Phase.FLIP)


def kind(state: GolfRound, action: GolfAction) -> str:
    """What a move does: close the round, swap a known card, discard, flip, pass, ..."""
    if action.pos is not None and action.kind is Kind.SWAP:
        seat = state.to_move
        assert seat is not None
        return "swap known" if state.up[seat * state.size + action.pos] else "close"
    return action.kind.name.lower()


def collect(args: tuple[str, int, int, int]) -> list[Row]:
    """``count`` positions of the playout's seat, with the split-half gain."""
    preset, count, worlds, seed = args
    rng = random.Random(seed)
    rules = find_preset(preset)
    out: list[Row] = []
    while len(out) < count:
        state = new_round(rules, 2, rng.randrange(2), rng=random.Random(rng.random()))
        me = rng.randrange(2)
        play = random.Random(rng.random())
        while not state.is_over and len(out) < count:
            if (
                state.to_move == me
                and state.phase in _PHASES
                and len(state.legal_actions()) > 1
                and rng.random() < 0.25
            ):
                first = values(state, worlds, rng.getrandbits(30), "playout")
                second = values(state, worlds, rng.getrandbits(30), "playout")
                mine = golf_playout.playout_policy(state.clone(), random.Random(0))
                pick = max(first, key=first.__getitem__)
                row = (
                    _STAGE_NAMES[stage(state)],
                    state.phase.value,
                    kind(state, mine),
                    kind(state, pick),
                )
                out.append((*row, second[pick] - second[mine]))
            policy = golf_playout.playout_policy if state.to_move == me else greedy_policy
            state.apply_unchecked(policy(state, play))
    return out


def report(rows: list[Row]) -> None:
    """The gain by stage and phase, and the can-close moves."""
    total = len(rows)
    table: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for st, phase, _, _, gain in rows:
        for key in ((st, phase), (st, "all"), ("all", phase), ("all", "all")):
            table[key][0] += 1
            table[key][1] += gain
    print(
        f"{'stage':<11} {'phase':<6} {'positions':>9} {'share':>6} {'gain/decision':>14} {'of all':>8}"
    )
    for (st, phase), (count, gain) in sorted(table.items()):
        print(
            f"{st:<11} {phase:<6} {count:>9.0f} {count / total:>6.2f}"
            f" {gain / count:>+14.4f} {gain / total:>+8.4f}"
        )
    moves: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    for st, phase, mine, pick, gain in rows:
        if st == "can close":
            moves[(phase, mine, pick)][0] += 1
            moves[(phase, mine, pick)][1] += gain
    print("\ncan close: the playout's move, the search's pick")
    print(f"{'phase':<6} {'playout':<11} {'search':<11} {'positions':>9} {'gain/decision':>14}")
    for (phase, mine, pick), (count, gain) in sorted(moves.items()):
        print(f"{phase:<6} {mine:<11} {pick:<11} {count:>9.0f} {gain / count:>+14.4f}")


def main() -> None:
    parser = argparse.ArgumentParser(description="where a one-step search beats the playout")
    parser.add_argument("--preset", default="six-card")
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--worlds", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    start = time.perf_counter()
    jobs = max(1, args.jobs)
    tasks = [
        (args.preset, args.positions // jobs, args.worlds, args.seed * 1000 + j)
        for j in range(jobs)
    ]
    with ProcessPoolExecutor(jobs) as pool:
        rows = [row for part in pool.map(collect, tasks) for row in part]
    print(f"{args.preset}: {len(rows)} positions, {args.worlds} worlds a set, two sets")
    report(rows)
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
