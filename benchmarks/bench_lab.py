"""Lab throughput: mirrored Golf holes per second through ``greenfelt sim``'s runner.

Run: ``./dev bench bench_lab`` (or ``.venv/bin/python benchmarks/bench_lab.py``).
Measures the whole lab path (bots built per game, checked ``apply``, results
gathered in deal order) for two-player six-card holes, on one worker and on
every core, for each bot level that is installed and fast enough to time here
(``--levels``; ``expert`` is left out by default: its budget is per move).
Then the memory a simulation keeps for its tables: the bytes of every result a
hole (``tracemalloc``, random bots, ``--memory-holes`` holes in one process), what
decides how many million holes a run can hold.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from greenfelt.lab.runner import Spec, check_bots, default_jobs, run


def holes_per_second(level: str, jobs: int, holes: int, seed: int) -> float:
    spec = Spec("golf", {"preset": "six-card"}, 2, (level, level), seed)
    check_bots(spec)
    start = time.perf_counter()
    games = run(spec, holes // 2, jobs)
    return len(games) / (time.perf_counter() - start)


def result_bytes(holes: int, seed: int) -> float:
    """Bytes of memory a hole's result holds once the run has returned."""
    spec = Spec("golf", {"preset": "six-card"}, 2, ("random", "random"), seed)
    run(spec, 1)  # modules, caches and the bots' start-up are not the results'
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        games = run(spec, holes // 2)
        return (tracemalloc.get_traced_memory()[0] - before) / len(games)
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holes", type=int, default=4000, help="holes per measurement")
    parser.add_argument("--levels", default="random,greedy", help="bot levels to time")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--memory-holes", type=int, default=20_000, help="holes for the memory line"
    )
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
    size = result_bytes(args.memory_holes, args.seed)
    print(f"results in memory: {size:,.0f} bytes a hole ({size * 1e6 / 2**20:,.0f} MiB a million)")


if __name__ == "__main__":
    main()
