"""Mid-round Golf and Spades states for the bot tests: random play from seeded deals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from greenfelt.cards import shuffled_deck
from greenfelt.golf import find_preset, new_round
from greenfelt.spades import SpadesRules, new_hand

LEAK_PRESETS = ("six-card", "four-card", "four-in-hand", "nine-card-wiki", "bga")


def golf_states(
    count: int, seed: int, presets: Sequence[str] = LEAK_PRESETS, seats: Sequence[int] = (2, 3, 4)
) -> list[Any]:
    """``count`` unfinished rounds, the presets in turn, after 0-39 random moves."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        rules = find_preset(presets[len(states) % len(presets)])
        game = new_round(rules, rng.choice(seats), 0, rng=rng)
        for _ in range(rng.randrange(0, 40)):
            if game.is_over:
                break
            game.apply_unchecked(rng.choice(game.legal_actions()))
        if not game.is_over:
            states.append(game)
    return states


def spades_states(
    count: int,
    seed: int,
    discards: Sequence[str] = ("face_up", "face_down"),
    moves: tuple[int, int] = (0, 60),
) -> list[Any]:
    """``count`` unfinished hands, each after ``moves`` (a range) random moves from a deal."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        rules = SpadesRules(discards=rng.choice(discards))
        deck = shuffled_deck(rng)
        hand = new_hand(rules, rng.randrange(2), deck)
        for _ in range(rng.randrange(*moves)):
            if hand.is_over:
                break
            hand.apply_unchecked(rng.choice(hand.legal_actions()))
        if not hand.is_over:
            states.append(hand)
    return states


def greedy_positions(preset: str, count: int, seed: int, most_moves: int) -> list[Any]:
    """``count`` unfinished two-player rounds of ``preset`` after the reveals, greedy
    playing both seats for 4 to ``most_moves`` moves."""
    from greenfelt.bots.golf_greedy import greedy_policy

    rules = find_preset(preset)
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = new_round(rules, 2, rng.randrange(2), rng=random.Random(rng.random()))
        for _ in range(rng.randrange(4, most_moves)):
            if state.is_over:
                break
            state.apply_unchecked(greedy_policy(state, rng))
        if not state.is_over and state.phase.value != "reveal":
            out.append(state)
    return out
