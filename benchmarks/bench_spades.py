"""Spades engine throughput: random playouts, clone() and determinize() per second.

Run: ``./dev bench bench_spades`` (or ``.venv/bin/python benchmarks/bench_spades.py``).
One process, one core. A "random hand" starts a hand from a freshly shuffled
deck and plays uniformly random legal actions to the end (blind nil
declarations, 26 draw steps, bids, 13 tricks), scoring included: 54 to 56
steps. The bar (issue 3) is 100,000 steps per second on one core.
"""

from __future__ import annotations

import argparse
import itertools
import random
from collections.abc import Callable

from bench_golf import rate

from greenfelt.cards import shuffled_deck
from greenfelt.spades import SpadesHand, SpadesRules, random_playout


def _cycle_rate(
    states: list[SpadesHand], op: Callable[[SpadesHand], object], seconds: float
) -> float:
    """Calls of ``op`` per second, going round ``states``."""
    states_iter = itertools.cycle(states)

    def work() -> int:
        op(next(states_iter))
        return 1

    return rate(work, seconds)[0]


def random_hand(rules: SpadesRules, rng: random.Random, loop: str) -> Callable[[], int]:
    """One random hand per call; ``loop`` picks the API a simulation would use."""

    def play() -> int:
        hand = SpadesHand(rules, 0, shuffled_deck(rng))
        if loop == "fast":  # cached legal tuple + apply_unchecked
            return random_playout(hand, rng)
        steps = 0
        choice = rng.choice
        if loop == "checked":  # what a server does: text in, full checks
            while not hand.is_over:
                hand.apply(str(choice(hand.legal_actions())), hand.to_move)
                steps += 1
        else:  # public list API + unchecked apply
            while not hand.is_over:
                hand.apply_unchecked(choice(hand.legal_actions()))
                steps += 1
        return steps

    return play


def states_in(
    phase: str, rules: SpadesRules, rng: random.Random, count: int = 200
) -> list[SpadesHand]:
    """Random hands stopped inside ``phase`` (draw: mid-drawing; play: mid-tricks)."""
    low, high = (4, 28) if phase == "draw" else (32, 54)
    states: list[SpadesHand] = []
    while len(states) < count:
        hand = SpadesHand(rules, rng.randrange(2), shuffled_deck(rng))
        stop = rng.randrange(low, high)
        while len(hand.actions) < stop and not hand.is_over:
            hand.apply_unchecked(rng.choice(hand.legal_tuple()))
        if not hand.is_over and hand.phase.value == phase:
            states.append(hand)
    return states


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    s = args.seconds

    print(f"{'random playouts (one core)':<50} {'hands/s':>10} {'steps/s':>10}")
    for rules, name in (
        (SpadesRules(), "face_up"),
        (SpadesRules(discards="face_down"), "face_down"),
    ):
        for loop, label in (
            ("fast", "random_playout() (cached legal tuple)"),
            ("list", "legal_actions() + apply_unchecked()"),
        ):
            hands, steps = rate(random_hand(rules, rng, loop), s)
            print(f"{f'{name}: {label}':<50} {hands:>10,.0f} {steps:>10,.0f}")
    hands, steps = rate(random_hand(SpadesRules(), rng, "checked"), s)
    print(f"{'face_up: checked apply(text)':<50} {hands:>10,.0f} {steps:>10,.0f}")

    print(f"\n{'per second, mid-hand states':<50} {'clone':>10} {'determinize':>12} {'view':>10}")
    for phase in ("draw", "play"):
        for rules, name in (
            (SpadesRules(), "face_up"),
            (SpadesRules(discards="face_down"), "face_down"),
        ):
            states = states_in(phase, rules, rng)
            clones = _cycle_rate(states, lambda st: st.clone(), s / 2)
            dets = _cycle_rate(states, lambda st: st.determinize(st.to_move or 0, rng), s / 2)
            views = _cycle_rate(states, lambda st: st.view(st.to_move), s / 2)
            print(f"{f'{name}, {phase} phase':<50} {clones:>10,.0f} {dets:>12,.0f} {views:>10,.0f}")


if __name__ == "__main__":
    main()
