"""Bots at tables with people (server, terminal): the expert's move is capped in time,
while ``make_bot`` keeps the reproducible iteration budget simulations need."""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import TABLE_TIME_MS, BotError, make_bot, table_bot
from greenfelt.bots.ismcts import DEFAULT_ITERATIONS, ExpertBot
from greenfelt.golf import find_preset, new_round


@pytest.mark.parametrize("game", ["golf", "spades"])
def test_the_table_expert_has_a_time_cap_and_the_default_budget(game: str) -> None:
    bot = table_bot(game, " Expert ", random.Random(1))
    assert isinstance(bot, ExpertBot)
    assert bot.time_ms == TABLE_TIME_MS
    assert bot.iterations == DEFAULT_ITERATIONS[game]
    plain = make_bot(game, "expert", random.Random(1))
    assert isinstance(plain, ExpertBot) and plain.time_ms is None


def test_other_table_levels_are_make_bots_and_errors_name_the_level() -> None:
    assert table_bot("golf", "greedy").level == "greedy"
    assert table_bot("spades", "random").level == "random"
    with pytest.raises(BotError, match="wizard"):
        table_bot("golf", "wizard")


def test_the_table_expert_plays_a_legal_move() -> None:
    """G7.3: even with a BGA king's many swaps on offer the move is one of the legal ones."""
    rules = find_preset("bga").with_options({"powers": "bga"})
    rnd = new_round(rules, 2, 0, rng=random.Random(3))
    bot = table_bot("golf", "expert", random.Random(2))
    moves = 0
    while not rnd.is_over and moves < 12:  # the time cap makes the path machine-dependent
        seat = rnd.to_move
        assert seat is not None
        moves += 1
        action = bot.act(rnd, seat)
        assert action in rnd.legal_actions()
        rnd.apply(action, seat)
    assert moves >= 4  # the two reveals each, then play
