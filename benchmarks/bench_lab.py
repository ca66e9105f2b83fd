"""Lab throughput: mirrored Golf holes per second through ``greenfelt sim``'s runner.

Run: ``./dev bench bench_lab`` (or ``.venv/bin/python benchmarks/bench_lab.py``).
Measures the whole lab path (bots built per game, checked ``apply``, results
gathered in deal order) for two-player six-card holes, on one worker and on
every core, for each bot level that is installed and fast enough to time here
(``--levels``; ``expert`` is left out by default: its budget is per move).
"""

from __future__ import annotations

import argparse
import time

from greenfelt.lab.runner import Spec, check_bots, default_jobs, run


def holes_per_second(level: str, jobs: int, holes: int, seed: int) -> float:
    spec = Spec("golf", {"preset": "six-card"}, 2, (level, level), seed)
    check_bots(spec)
    start = time.perf_counter()
    games = run(spec, holes // 2, jobs)
    return len(games) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holes", type=int, default=4000, help="holes per measurement")
    parser.add_argument("--levels", default="random,greedy", help="bot levels to time")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    cores = default_jobs()
    print(f"{'six-card, 2 players':<28} {'1 worker':>12} {f'{cores} workers':>12}")
    for level in args.levels.split(","):
        try:
            one = holes_per_second(level, 1, args.holes, args.seed)
        except Exception as error:  # a level not installed yet: say so and go on
            print(f"{level:<28} unavailable ({error})")
            continue
        every = holes_per_second(level, cores, args.holes, args.seed) if cores > 1 else one
        print(f"{level + ' holes/s':<28} {one:>12,.0f} {every:>12,.0f}")


if __name__ == "__main__":
    main()
