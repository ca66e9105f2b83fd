"""The expert's root allocation: sequential halving, or a plain sampler (``halving``).

The strength bar's reference figures (issue 4) were for a plain Monte Carlo
sampler: the same number of greedy rollouts for every legal move. ``halving=off``
turns the expert into that player, so the figure can be checked like for like.
"""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import BotError, make_bot
from greenfelt.bots.base import observe
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.ismcts import ExpertBot
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.game import GolfRound


def placement() -> GolfRound:
    """A six-card position where the seat holds a drawn card: keep it over one of six
    cards, or discard it (seven legal moves)."""
    state = new_round(find_preset("six-card"), 2, 0, rng=random.Random(11))
    while state.view(state.to_move or 0)["phase"] == "reveal":
        state.apply(state.legal_actions()[0])
    state.apply(next(a for a in state.legal_actions() if str(a) == "draw"))
    return state


def sampler(seed: int, halving: str = "on") -> ExpertBot:
    """The issue's reference player at 16 greedy rollouts a move (no anchor)."""
    return ExpertBot(
        "golf",
        seed,
        playout="greedy",
        anchor_z=0,
        per_choice=16,
        iterations=448,
        halving=halving,
    )


def test_the_plain_sampler_gives_every_move_the_same_rollouts() -> None:
    state = placement()
    moves = state.legal_actions()
    assert len(moves) == 7
    bot = sampler(3, halving="off")
    assert bot.choose(observe(state)) in moves
    assert bot.last_visits == {move: 16 for move in moves}
    assert bot.last_iterations == 16 * 7


def test_halving_spends_more_on_the_moves_it_keeps() -> None:
    """The default: each round keeps the better half, so visits differ and the
    chosen move is among the most visited."""
    state = placement()
    bot = sampler(3)
    choice = bot.choose(observe(state))
    visits = bot.last_visits
    assert sum(visits.values()) == bot.last_iterations
    assert len(set(visits.values())) > 1
    assert visits[choice] == max(visits.values())


@pytest.mark.parametrize("text, expected", [("on", True), ("0", False), (1, True), (False, False)])
def test_the_option_reads_on_and_off(text: object, expected: bool) -> None:
    assert make_bot("golf", "expert", 1, halving=text).halving is expected  # type: ignore[attr-defined]


def test_a_bad_value_is_refused() -> None:
    with pytest.raises(BotError, match="halving is on or off, not 'sometimes'"):
        make_bot("golf", "expert", 1, halving="sometimes")


def test_align_reads_off_as_off() -> None:
    """On/off options share one reader: ``align=off`` was once taken as on (any text is true)."""
    assert make_bot("golf", "expert", 1, align="off").align is False  # type: ignore[attr-defined]
    assert make_bot("golf", "expert", 1, align="on").align is True  # type: ignore[attr-defined]


def test_a_forced_move_reports_no_rollouts() -> None:
    """A decision with one legal move (G2.2 "must": the flip after a discard, one card
    face down) is played without a search, and the diagnostic says so: 0 iterations,
    not the last search's count."""
    rules = find_preset("six-card").with_options({"flip_after_discard": "must"})
    rng = random.Random(5)
    bot = sampler(3)
    bot.choose(observe(placement()))
    assert bot.last_iterations > 0
    for deal in range(50):
        state = new_round(rules, 2, deal % 2, rng=rng)
        while not state.is_over:
            if len(state.legal_actions()) == 1:
                assert bot.choose(observe(state)) == state.legal_actions()[0]
                assert bot.last_iterations == 0
                return
            state.apply_unchecked(greedy_policy(state, rng))
    pytest.fail("no forced move in 50 greedy rounds")
