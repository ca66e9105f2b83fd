"""Bots at tables with people (server, terminal): the expert's move is capped in time,
while ``make_bot`` keeps the reproducible iteration budget simulations need."""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import TABLE_TIME_MS, BotError, ismcts, make_bot, table_bot
from greenfelt.bots.base import observe
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.ismcts import DEFAULT_ITERATIONS, ExpertBot
from greenfelt.golf import find_preset, new_round
from tests.bots.helpers import golf_states, spades_states


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


# A time limit so tight that it has passed before the first rollout: what a table's
# expert meets on a machine stalled mid-move. It still plays one round of rollouts.
NO_TIME_MS = 1e-6


@pytest.mark.parametrize("game", ["golf", "spades"])
def test_a_limit_passed_before_any_rollout_still_gives_a_legal_move(game: str) -> None:
    """Mid-round Golf and Spades states: every candidate gets one rollout, none is left
    without a value (before, the root's choice failed on a move never tried)."""
    states = golf_states(12, 5) if game == "golf" else spades_states(12, 5)
    searched = 0
    for k, state in enumerate(states):
        legal = state.legal_actions()
        bot = ExpertBot(game, random.Random(k), time_ms=NO_TIME_MS)
        assert bot.choose(observe(state)) in legal
        if bot.last_iterations:
            searched += 1
            assert bot.last_iterations <= len(legal)  # one block: a rollout a candidate
    assert searched >= 4


def test_a_search_cut_short_keeps_the_playouts_move() -> None:
    """Nine-card-wiki (G5.3 lines and adjacent pairs, G5.4 blocks), where the search
    has no anchor: cut short after one rollout a move, it plays greedy's move (its
    playout) rather than the move that happened to roll out best."""
    rules = find_preset("nine-card-wiki")
    rng = random.Random(8)
    compared = differs_uncut = 0
    for deal in range(6):
        state = new_round(rules, 2, 0, rng=random.Random(deal))
        while not state.is_over and compared < 12:
            legal = state.legal_actions()
            moves = {greedy_policy(state, random.Random(r)) for r in range(10)}
            if len(legal) > 2 and len(moves) == 1:
                (greedy_move,) = moves
                cut = ExpertBot("golf", random.Random(deal), time_ms=NO_TIME_MS)
                assert cut.choose(observe(state)) == greedy_move
                uncut = ExpertBot("golf", random.Random(deal), iterations=len(legal))
                differs_uncut += uncut.choose(observe(state)) != greedy_move
                compared += 1
            state.apply_unchecked(greedy_policy(state, rng))
    assert compared == 12
    # The same single round of rollouts, uncut, often prefers another move: the
    # fallback is what makes the cut search keep greedy's.
    assert differs_uncut >= 2


class _BlockClock:
    """A clock for the search that moves a millisecond each time it is read: the
    search reads it once a block, so its time limit becomes a number of blocks."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        self.now += 0.001
        return self.now


def test_a_search_the_limit_will_cut_plans_its_halving_and_keeps_the_fallback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Nine-card-wiki (G5.3, G5.4) decisions among eight moves or more, with a 30 ms
    limit on a clock that moves a millisecond a read (far fewer blocks than the budget
    needs): the search plans its rounds of halving from its pace after the
    first block, so the moves it keeps get more rollouts than those it drops (cut in
    its first round, every move would get the same few), and greedy's move, its
    fallback, stays in to the end."""
    monkeypatch.setattr(ismcts, "time", _BlockClock())
    rules = find_preset("nine-card-wiki")
    rng = random.Random(3)
    checked = 0
    for deal in range(8):
        state = new_round(rules, 2, 0, rng=random.Random(deal))
        while not state.is_over and checked < 10:
            legal = state.legal_actions()
            if len(legal) >= 8:
                bot = ExpertBot("golf", random.Random(deal), time_ms=30)
                move = bot.choose(observe(state))
                assert move in legal
                assert 0 < bot.last_iterations < DEFAULT_ITERATIONS["golf"]
                visits = bot.last_visits
                assert max(visits.values()) >= 3 * min(visits.values())
                fallback = greedy_policy(observe(state).sample(random.Random(0)), random.Random(0))
                assert visits[fallback] == max(visits.values())
                checked += 1
            state.apply_unchecked(greedy_policy(state, rng))
    assert checked == 10
