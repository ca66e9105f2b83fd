"""Golf engine throughput: random playouts, clone() and determinize() per second.

Run: ``./dev bench bench_golf`` (or ``.venv/bin/python benchmarks/bench_golf.py``).
One process, one core. A "random round" deals a freshly shuffled deck and plays
uniformly random legal actions to the end, scoring included; the loop is what a
simulation or a search rollout does: ``legal_actions()`` then ``apply_unchecked()``.

For scale, the same machine also runs a minimal hand-written loop of two-player
six-card Golf (no engine, no options, no views), the anchor of shared/STACK.md.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from greenfelt.cards import shuffled_deck
from greenfelt.golf import PRESETS, GolfRound, find_preset, new_round


def rate(work: Callable[[], int], seconds: float) -> tuple[float, float]:
    """(calls per second, units per second) of ``work`` over about ``seconds`` (bench_spades
    measures with it too)."""
    calls = units = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        units += work()
        calls += 1
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - start), units / (now - start)


def random_round(
    preset: str, players: int, rng: random.Random, checked: bool = False
) -> Callable[[], int]:
    rules = find_preset(preset)
    decks = rules.deck_count(players)

    def play() -> int:
        deck = shuffled_deck(rng, decks, rules.jokers_per_deck)
        game = new_round(rules, players, 0, deck, rng=rng)
        steps = 0
        choice = rng.choice
        if checked:
            while not game.is_over:
                game.apply(choice(game.legal_actions()))
                steps += 1
        else:
            while not game.is_over:
                game.apply_unchecked(choice(game.legal_actions()))
                steps += 1
        return steps

    return play


def mid_game_states(
    preset: str, players: int, rng: random.Random, count: int = 200
) -> list[GolfRound]:
    rules = find_preset(preset)
    states = []
    while len(states) < count:
        game = new_round(rules, players, 0, rng=rng)
        stop = rng.randrange(4, 30)
        for _ in range(stop):
            if game.is_over:
                break
            game.apply_unchecked(rng.choice(game.legal_actions()))
        if not game.is_over:
            states.append(game)
    return states


def hand_written_six_card(rng: random.Random) -> Callable[[], int]:
    """Two-player six-card Golf as one plain loop: the speed of light for Python.

    Same rules and the same uniform random choices as the engine's playout
    (reveal two, draw or take, swap or discard, may flip after a discard,
    one final turn, columns cancel), but no options, views, records or checks.
    """
    values = {r: r for r in range(3, 11)} | {1: 1, 2: -2, 11: 10, 12: 10, 13: 0}
    base = [r for r in range(1, 14) for _ in range(4)]
    randrange = rng.randrange

    def play() -> int:
        deck = base[:]
        rng.shuffle(deck)
        hands = [deck[0:12:2], deck[1:12:2]]
        up = [[False] * 6, [False] * 6]
        down = [6, 6]
        steps = 0
        for seat in (1, 0):  # reveal: two flips each, left of the dealer first
            for _ in range(2):
                hidden = [p for p in range(6) if not up[seat][p]]
                up[seat][hidden[randrange(len(hidden))]] = True
                down[seat] -= 1
                steps += 1
        discard = [deck[12]]
        stock = deck[13:]
        seat, final_left = 1, -1
        while True:
            steps += 1
            if randrange(2):
                if not stock:
                    stock, discard = discard[:-1], discard[-1:]
                    rng.shuffle(stock)
                    if not stock:
                        break
                card = stock.pop()
                choice = randrange(7)
            else:
                card = discard.pop()
                choice = randrange(6)
            steps += 1
            if choice == 6:
                discard.append(card)
                hidden = [p for p in range(6) if not up[seat][p]]
                if hidden:
                    steps += 1
                    flip = randrange(len(hidden) + 1)
                    if flip < len(hidden):
                        up[seat][hidden[flip]] = True
                        down[seat] -= 1
            else:
                discard.append(hands[seat][choice])
                hands[seat][choice] = card
                if not up[seat][choice]:
                    up[seat][choice] = True
                    down[seat] -= 1
            if final_left >= 0:
                final_left -= 1
                if final_left == 0:
                    break
            elif down[seat] == 0:
                final_left = 1
            seat ^= 1
        for h in hands:
            sum(0 if h[c] == h[c + 3] else values[h[c]] + values[h[c + 3]] for c in range(3))
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    s = args.seconds

    print(f"{'random playouts':<32} {'rounds/s':>10} {'steps/s':>10}")
    reference, ref_steps = rate(hand_written_six_card(rng), s)
    print(f"{'hand-written six-card, 2p':<32} {reference:>10,.0f} {ref_steps:>10,.0f}")
    for preset in PRESETS:
        for players in (2, 4):
            rounds, steps = rate(random_round(preset, players, rng), s)
            print(f"{preset + f', {players}p':<32} {rounds:>10,.0f} {steps:>10,.0f}")
    rounds, steps = rate(random_round("six-card", 2, rng, checked=True), s)
    print(f"{'six-card, 2p, checked apply()':<32} {rounds:>10,.0f} {steps:>10,.0f}")
    main_rate, _ = rate(random_round("six-card", 2, rng), s * 3)
    print(
        f"\nsix-card 2p: {main_rate:,.0f} rounds/s = {main_rate / reference:.2f}x the hand-written loop"
    )

    print(f"\n{'per second, mid-game states':<32} {'clone':>10} {'determinize':>12} {'view':>10}")
    for preset, players in (("six-card", 2), ("four-card", 4), ("nine-card", 4)):
        states = mid_game_states(preset, players, rng)
        clones, _ = rate(_cycle(states, lambda g: g.clone()), s / 2)
        dets, _ = rate(_cycle(states, lambda g: g.determinize(g.to_move or 0, rng)), s / 2)
        views, _ = rate(_cycle(states, lambda g: g.view(g.to_move)), s / 2)
        print(f"{preset + f', {players}p':<32} {clones:>10,.0f} {dets:>12,.0f} {views:>10,.0f}")


def _cycle(states: list[GolfRound], work: Callable[[GolfRound], object]) -> Callable[[], int]:
    """Apply ``work`` to the states in turn, one per call."""
    index = 0

    def step() -> int:
        nonlocal index
        index = (index + 1) % len(states)
        work(states[index])
        return 1

    return step


if __name__ == "__main__":
    main()
