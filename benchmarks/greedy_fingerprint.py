"""A fingerprint of greedy Golf's moves on every preset: proof that a speed-up kept them.

Run: ``./dev bench greedy_fingerprint [--holes 40] [--expert-holes 0]``.

Plays ``--holes`` seeded greedy holes of every preset with 2 and 3 players
and prints, per preset, the number of moves and a hash of them (and with
``--expert-holes N``, the same for the expert against greedy in N seeded
six-card holes: slow, about 2 s a hole). Run it before and after a change
meant to make greedy faster without changing its play: the lines must be the
same. It is no test of strength and has no expected value of its own, so it
lives here rather than in the test suite (a change of strategy changes it by
design).
"""

from __future__ import annotations

import argparse
import hashlib
import random

from greenfelt.bots import make_bot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.errors import RulesError
from greenfelt.golf import PRESETS, find_preset, new_round


def greedy_fingerprint(preset: str, holes: int) -> tuple[int, str]:
    """(moves, hash of the moves) of ``holes`` seeded greedy holes per player count."""
    rules = PRESETS[preset]
    digest = hashlib.sha1(usedforsecurity=False)
    moves = 0
    for players in (2, 3):
        try:
            rules.check_players(players)
        except RulesError:
            continue
        for seed in range(holes):
            rng = random.Random(seed)
            state = new_round(rules, players, seed % players, rng=rng)
            while not state.is_over:
                action = greedy_policy(state, rng)
                digest.update(str(action).encode())
                moves += 1
                state.apply_unchecked(action)
    return moves, digest.hexdigest()[:12]


def expert_fingerprint(holes: int) -> tuple[int, str]:
    """(expert moves, hash of every move) of ``holes`` seeded six-card holes against greedy."""
    six = find_preset("six-card")
    expert = make_bot("golf", "expert", random.Random(7))
    greedy = make_bot("golf", "greedy", random.Random(8))
    rng = random.Random(7)
    digest = hashlib.sha1(usedforsecurity=False)
    moves = 0
    for deal in range(holes):
        seats = (expert, greedy) if deal % 2 == 0 else (greedy, expert)
        state = new_round(six, 2, deal % 2, rng=rng)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            action = seats[seat].act(state, seat)
            moves += seats[seat] is expert
            digest.update(str(action).encode())
            state.apply_unchecked(action)
    return moves, digest.hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--holes", type=int, default=40, help="seeded holes per player count")
    parser.add_argument("--expert-holes", type=int, default=0, help="expert holes (slow)")
    args = parser.parse_args()
    for preset in PRESETS:
        moves, digest = greedy_fingerprint(preset, args.holes)
        print(f"greedy {preset:<16} {moves:>7} moves  {digest}")
    if args.expert_holes:
        moves, digest = expert_fingerprint(args.expert_holes)
        print(f"expert {'six-card':<16} {moves:>7} moves  {digest}")


if __name__ == "__main__":
    main()
