"""Rollouts cut short at greedy's estimate (``golf_leaf``; the expert's ``estimate``
option; issue 4).

The estimate's weights are fitted (``benchmarks/fit_leaf.py``); what is tested here
is what must hold for any fit: the rules it applies to, that it reads only what the
seat sees (G8.1), that a lead is worth more the lower the seat's score (G9.2), and
the expert's use of it.
"""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import golf_leaf, make_bot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_leaf import FITS, applies, fit_for, leaf_value, reward, terms
from greenfelt.bots.ismcts import (
    DEFAULT_ESTIMATE,
    DEFAULT_WIN_WEIGHT,
    ExpertBot,
)
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.game import GolfRound
from tests.bots.helpers import greedy_positions

WIKI = find_preset("nine-card-wiki")


def positions(count: int, seed: int) -> list[GolfRound]:
    """Two-player nine-card-wiki positions after the reveals, greedy playing both seats."""
    return greedy_positions("nine-card-wiki", count, seed, 40)


def test_it_applies_to_two_player_rounds_of_the_fitted_presets_only() -> None:
    assert set(FITS) == {"nine-card-wiki", "nine-card", "bga"}
    for name in FITS:
        rules = find_preset(name)
        assert applies(rules, 2), name
        longer = rules.with_options({"end": "target:200"})  # a longer match: the same holes
        assert applies(longer, 2), name
        assert not applies(rules, 3), name
    assert not applies(WIKI.with_options({"block_score": -10}), 2)  # G5.4: other holes
    assert not applies(find_preset("bga").with_options({"powers": "bga"}), 2)  # G7.3
    for preset in ("six-card", "four-card", "four-in-hand", "cambio"):
        assert not applies(find_preset(preset), 2), preset


@pytest.mark.parametrize("preset", sorted(FITS))
def test_a_lead_is_worth_more_and_the_estimate_is_a_reward(preset: str) -> None:
    """G9.2, lowest wins: the further the other's estimate is above the seat's, the
    higher the seat's estimated reward, at every count of face-down cards; and it
    stays within the reward's [0, 1]."""
    fit = FITS[preset]
    for my_down in range(10):
        for their_down in range(10):
            values = [
                reward(fit, terms(20.0, 20.0 + lead, my_down, their_down), DEFAULT_WIN_WEIGHT)
                for lead in range(-60, 61, 4)
            ]
            assert all(0.0 <= v <= 1.0 for v in values)
            assert values == sorted(values), (my_down, their_down)
            assert values[-1] - values[0] > 0.5, (my_down, their_down)


@pytest.mark.parametrize("preset", sorted(FITS))
def test_a_leaf_is_valued_from_what_the_seat_sees(preset: str) -> None:
    """G8.1: the estimate at an afterstate does not change when every card the seat
    cannot see (both layouts' face-down cards, the stock) is resampled."""
    fit = fit_for(find_preset(preset), 2)
    assert fit is not None
    checked = 0
    for index, state in enumerate(greedy_positions(preset, 40, 6, 40)):
        if state.phase.value != "turn":
            continue
        seat = 1 - state.to_move  # its turn just ended: an afterstate
        value = leaf_value(state, seat, fit, DEFAULT_WIN_WEIGHT)
        for k in range(3):
            twin = state.determinize(seat, random.Random(100 * index + k))
            assert leaf_value(twin, seat, fit, DEFAULT_WIN_WEIGHT) == value
        checked += 1
    assert checked >= 10


@pytest.fixture
def leaves(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int | None, int]]:
    """(who moves next, the seat) of every leaf the search asks ``golf_leaf`` to value."""
    calls: list[tuple[int | None, int]] = []

    def recording(state: GolfRound, seat: int, fit: golf_leaf.LeafFit, win_weight: float) -> float:
        calls.append((state.to_move, seat))
        return leaf_value(state, seat, fit, win_weight)

    monkeypatch.setattr(golf_leaf, "leaf_value", recording)
    return calls


def test_rollouts_stop_at_the_estimate_after_the_seats_turns(
    leaves: list[tuple[int | None, int]],
) -> None:
    """DEFAULT_ESTIMATE: every rollout of a nine-card-wiki search ends in the estimate
    once the seat has ended two turns (the root move's own turn counts), at an
    afterstate of the seat, unless the hole ended first; with ``estimate=0``, rollouts
    play the hole out and the estimate is never asked."""
    for index, state in enumerate(positions(4, 9)):
        seat = state.to_move
        assert seat is not None
        leaves.clear()
        bot = ExpertBot("golf", index, iterations=60)
        assert bot.estimate == DEFAULT_ESTIMATE == 2
        bot.act(state, seat)
        assert 0 < len(leaves) <= bot.last_iterations
        assert len(leaves) >= bot.last_iterations // 2  # few holes end within two turns
        assert all(to_move == 1 - seat and who == seat for to_move, who in leaves)
        leaves.clear()
        ExpertBot("golf", index, iterations=60, estimate=0).act(state, seat)
        assert leaves == []


@pytest.mark.parametrize("preset", ["nine-card", "bga"])
def test_fits_measured_at_tables_are_used_only_with_a_time_limit(
    preset: str, leaves: list[tuple[int | None, int]]
) -> None:
    """``LeafFit.untimed``: nine-card's and bga's estimates pay only at tables (without
    a limit they read behind playing out), so a search without a time limit
    (simulations) plays its rollouts out, and one with a limit (at tables) stops them
    at the estimate, at the seat's afterstates."""
    assert not FITS[preset].untimed and FITS["nine-card-wiki"].untimed
    for index, state in enumerate(greedy_positions(preset, 3, 11, 12)):
        seat = state.to_move
        assert seat is not None
        ExpertBot("golf", index, iterations=40).act(state, seat)
        assert leaves == []
        timed = ExpertBot("golf", index, iterations=40, time_ms=60_000)
        timed.act(state, seat)
        assert 0 < len(leaves) <= timed.last_iterations
        assert all(to_move == 1 - seat and who == seat for to_move, who in leaves)
        leaves.clear()


def test_the_learned_six_card_value_comes_before_the_estimate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On six-card, where the learned value applies (``golf_value``), ``estimate`` asks
    nothing of ``golf_leaf``: there is no fit for it, and the network's leaves stay."""
    asked: list[int] = []
    monkeypatch.setattr(golf_leaf, "fit_for", lambda rules, players: asked.append(1))
    state = new_round(find_preset("six-card"), 2, 0, rng=random.Random(3))
    while state.phase.value == "reveal":
        state.apply_unchecked(greedy_policy(state, random.Random(4)))
    seat = state.to_move
    assert seat is not None
    bot = ExpertBot("golf", 1, iterations=40, per_choice=8, estimate=2, playout_phases="reveal")
    bot.act(state, seat)
    assert bot.last_iterations > 0  # searched, so its rollouts had leaves
    assert asked == []


def test_the_expert_with_the_estimate_reads_only_its_view() -> None:
    """The decision is a function of the seat's information: the same seed gives the
    same move when the hidden cards are resampled (the leak detector's check)."""
    for index, state in enumerate(positions(6, 7)):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(50 + index))
        options = {"iterations": 60}  # the estimate on, by default
        real = make_bot("golf", "expert", index, **options).act(state, seat)
        imagined = make_bot("golf", "expert", index, **options).act(twin, seat)
        assert real == imagined
        assert real in state.legal_actions()


def test_a_negative_estimate_is_refused() -> None:
    with pytest.raises(ValueError, match="estimate must be 0"):
        ExpertBot("golf", 1, estimate=-1)
