"""The observation a bot decides from: its seat's view (G8; S2.4) and legal actions (S4.1), built
on first use, so a bot that plays a policy on an imagined world pays for no view."""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import make_bot
from greenfelt.bots.base import observe
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.game import GolfRound
from tests.bots.helpers import golf_states, spades_states


@pytest.mark.parametrize("game", ["golf", "spades"])
def test_an_observation_is_its_seats_view_and_legal_actions(game: str) -> None:
    states = golf_states(12, 6) if game == "golf" else spades_states(12, 6)
    for state in states:
        seat = state.to_move
        obs = observe(state)
        assert obs.seat == seat
        assert obs.view == state.view(seat)
        assert obs.view is obs.view  # built once
        assert obs.game == game
        assert obs.legal == state.legal_actions(seat)
        assert obs.legal is obs.legal


class _NoViews(GolfRound):
    """A round that refuses to build a view, as a policy bot should never need one."""

    __slots__ = ()

    def view(self, seat: int | None = None) -> dict:  # type: ignore[override, type-arg]
        raise AssertionError("a view was built")


@pytest.mark.parametrize("level", ["random", "easy", "greedy"])
def test_a_policy_bot_decides_without_building_a_view(level: str) -> None:
    round_ = new_round(find_preset("six-card"), 2, rng=random.Random(4))
    round_.__class__ = _NoViews
    bot = make_bot("golf", level, random.Random(1))
    while round_.to_move is not None:
        action = bot.act(round_)
        assert action in round_.legal_actions(round_.to_move)
        round_.apply(action, round_.to_move)
    with pytest.raises(AssertionError, match="a view was built"):
        _ = observe(round_, 0).view
