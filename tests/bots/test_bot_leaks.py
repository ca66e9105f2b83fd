"""Bots never use a card their seat cannot know (issue 4; STYLE 13).

For random states of both games, a bot deciding on the real state and an
identical bot (same seed) deciding on a state where every card the seat cannot
know was resampled must choose the same action: the decision is a function of
the seat's information alone.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from greenfelt.bots import make_bot
from greenfelt.golf import find_preset, new_round
from tests.bots.helpers import golf_states, spades_states

LEVELS = {"random": {}, "easy": {}, "greedy": {}, "expert": {"iterations": 12}}


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("game", ["golf", "spades"])
def test_decision_is_a_function_of_the_seats_information(game: str, level: str) -> None:
    count = 12 if level == "expert" else 30  # the expert's rollouts are the slow part
    states = golf_states(count, 1) if game == "golf" else spades_states(count, 2)
    changed = 0
    for index, state in enumerate(states):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(1000 + index))
        if game == "golf":
            changed += twin.cards != state.cards or twin.stock != state.stock
        else:
            changed += twin.deck != state.deck
        real = make_bot(game, level, index, **LEVELS[level]).act(state, seat)
        imagined = make_bot(game, level, index, **LEVELS[level]).act(twin, seat)
        assert real == imagined, f"{game} {level}: state {index} seat {seat}"
        assert real in state.legal_actions()
    assert changed > len(states) // 2  # the hidden cards really were resampled


POWER_RULES = {
    "cambio": find_preset("cambio"),  # G7.2
    "bga-powers": find_preset("bga").with_options({"powers": "bga"}),  # G7.3
    "cutthroat": find_preset("six-card").with_options({"cutthroat": True}),  # G7.5
    "powers": find_preset("powers"),  # G7.4
}


def power_states(rules: Any, count: int, seed: int) -> list[Any]:
    """States where the seat to move holds a card drawn from the stock (a power may be
    used) or is in a power's own phase, reached by random play."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        game = new_round(rules, rng.choice((2, 3)), 0, rng=rng)
        for _ in range(rng.randrange(4, 60)):
            if game.is_over:
                break
            game.apply_unchecked(rng.choice(game.legal_actions()))
            powers = [a for a in game.legal_actions() if a.kind.value == "power"]
            if powers or game.phase.value in ("choose", "second"):
                break
        if not game.is_over and game.to_move is not None:
            states.append(game)
    return states


@pytest.mark.parametrize("level", ["easy", "greedy", "expert"])
@pytest.mark.parametrize("name", list(POWER_RULES))
def test_power_decisions_are_a_function_of_the_seats_information(name: str, level: str) -> None:
    """G7, G8: with peeks, swaps, shuffles and offers in play, a power decision (or
    any other) is the same after every card the seat cannot know is resampled."""
    states = power_states(POWER_RULES[name], 8 if level == "expert" else 24, 5)
    changed = 0
    for index, state in enumerate(states):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(2000 + index))
        changed += twin.cards != state.cards or twin.stock != state.stock
        real = make_bot("golf", level, index, **LEVELS[level]).act(state, seat)
        imagined = make_bot("golf", level, index, **LEVELS[level]).act(twin, seat)
        assert real == imagined, f"{name} {level}: state {index} seat {seat}"
        assert real in state.legal_actions()
    assert changed > len(states) // 2
