"""The Golf expert's reward: the result of the hole (G9.2: lowest wins) and the margin.

``win_weight`` sets the mix; the search compares moves by it, so each part must
move the reward the right way.
"""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import BotError, make_bot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.ismcts import DEFAULT_WIN_WEIGHT, ExpertBot, golf_reward
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.game import GolfRound


def finished(seed: int) -> GolfRound:
    """A two-player six-card round played to its end by greedy."""
    state = new_round(find_preset("six-card"), 2, 0, rng=random.Random(seed))
    rng = random.Random(seed)
    while not state.is_over:
        state.apply_unchecked(greedy_policy(state, rng))
    return state


def decided() -> GolfRound:
    """A finished round with a winner and a margin under 20 points."""
    for seed in range(200):
        state = finished(seed)
        low, high = sorted(state.scores)
        if low < high < low + 20:
            return state
    raise AssertionError("no decided round in 200 deals")


def test_all_weight_on_the_result_is_the_result_of_the_hole() -> None:
    """G9.2: the lowest score wins the hole: 1 for the winner, 0 for the other."""
    state = decided()
    winner = state.scores.index(min(state.scores))
    rewards = golf_reward(state, win_weight=1.0)
    assert rewards[winner] == 1.0
    assert rewards[1 - winner] == 0.0


def test_no_weight_on_the_result_is_the_margin_alone() -> None:
    """The margin part rises with the lead, symmetric around a half."""
    state = decided()
    winner = state.scores.index(min(state.scores))
    lead = max(state.scores) - min(state.scores)
    rewards = golf_reward(state, win_weight=0.0)
    assert rewards[winner] == pytest.approx(0.5 + lead / 40.0)
    assert rewards[winner] + rewards[1 - winner] == pytest.approx(1.0)


def test_the_default_mixes_the_two() -> None:
    state = decided()
    mixed = golf_reward(state)
    result, margin = golf_reward(state, win_weight=1.0), golf_reward(state, win_weight=0.0)
    w = DEFAULT_WIN_WEIGHT
    assert mixed == pytest.approx(
        [w * r + (1 - w) * m for r, m in zip(result, margin, strict=True)]
    )


def test_the_expert_searches_with_the_weight_it_is_given() -> None:
    state = decided()
    bot = ExpertBot("golf", 1, win_weight=1.0)
    assert bot.reward(state) == golf_reward(state, win_weight=1.0)
    assert ExpertBot("golf", 1).reward(state) == golf_reward(state)


@pytest.mark.parametrize(("game", "weight"), [("golf", 1.5), ("golf", -0.1), ("spades", 0.9)])
def test_a_weight_out_of_range_or_for_spades_is_refused(game: str, weight: float) -> None:
    with pytest.raises(BotError, match="win_weight is for Golf, from 0"):
        make_bot(game, "expert", 1, win_weight=weight)
