"""Greedy Golf's cost in machine instructions a hole, which the machine's speed does not enter.

Run: ``./dev bench bench_instructions [--preset six-card] [--holes 300]``.

Holes per second on this machine class vary by half from day to day (the
hand-written loop of shared/STACK.md reads 24,000 to 52,000 rounds/s), so a
speed change of a few percent cannot be read from a timing. Valgrind's
callgrind counts the instructions a run executes, the same on every run: this
plays ``--holes`` seeded two-player greedy holes under it, subtracts a run that
only starts up, and prints instructions a hole. Slow (about 50 times slower
than a plain run); needs Debian's ``valgrind``, and says so if it is missing.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys

PLAY = """
import random, sys
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.golf import find_preset, new_round
rules = find_preset(sys.argv[1])
rng = random.Random(1)
for deal in range(int(sys.argv[2])):
    state = new_round(rules, 2, deal % 2, rng=rng)
    while not state.is_over:
        state.apply_unchecked(greedy_policy(state, rng))
"""


def instructions(preset: str, holes: int) -> int:
    """Instructions callgrind counts for a process that plays ``holes`` holes."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            PLAY,
            preset,
            str(holes),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : ([\d,]+)", run.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="six-card")
    parser.add_argument("--holes", type=int, default=300)
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed (apt-get install valgrind); skipped")
        return
    per_hole = (instructions(args.preset, args.holes) - instructions(args.preset, 0)) / args.holes
    print(
        f"{f'golf greedy, {args.preset} 2p':<44} {per_hole:>12,.0f} instructions a hole"
        f"  ({args.holes} seeded holes, callgrind)"
    )


if __name__ == "__main__":
    main()
