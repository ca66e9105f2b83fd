"""A bot that fails gives way to the levels below it (``greenfelt.bots.steady``), so a
table with people never waits on a broken bot, and the failure is told without a card."""

from __future__ import annotations

import random
from typing import Any

import pytest

from greenfelt.bots import LEVELS, Bot, make_bot
from greenfelt.bots.base import Observation
from greenfelt.bots.steady import Failure, fallback_levels, steady_move
from greenfelt.errors import NotYourTurn
from greenfelt.golf import find_preset, new_round
from tests.bots.helpers import spades_states
from tests.server.helpers import CARD_TEXT


class Raises(Bot):
    """A bot with a bug: its error's message names a card (as an engine error may)."""

    level = "broken"

    def choose(self, obs: Observation) -> Any:
        raise KeyError(f"the bot's secret: it holds K♠ and {obs.legal[0]}")


class Illegal(Bot):
    """A bot that answers with a move that is not among the legal ones."""

    level = "illegal"

    def choose(self, obs: Observation) -> Any:
        return "swap 99"


def golf_round() -> Any:
    """Six-card Golf, two players, past the reveals (G1.7), the first seat to move."""
    rnd = new_round(find_preset("six-card"), 2, 0, rng=random.Random(5))
    while rnd.phase.name == "REVEAL":
        rnd.apply(rnd.legal_actions()[0], rnd.to_move)
    return rnd


def makers(broken: dict[str, Bot], seed: int = 1) -> Any:
    """``bot_for``: the real bot of each level, except the ``broken`` ones."""
    return lambda level: broken.get(level) or make_bot("golf", level, random.Random(seed))


def test_the_levels_give_way_strongest_first_down_to_random() -> None:
    assert fallback_levels("expert") == ("expert", "greedy", "easy", "random")
    assert fallback_levels(" Greedy ") == ("greedy", "easy", "random")
    assert fallback_levels("random") == ("random",)
    assert set(fallback_levels("expert")) == set(LEVELS)
    with pytest.raises(ValueError, match="wizard"):
        fallback_levels("wizard")


def test_a_bot_that_works_plays_its_own_move() -> None:
    rnd = golf_round()
    seat = rnd.to_move
    move = steady_move("greedy", rnd.clone(), seat, makers({}))
    assert move.level == "greedy" and move.failures == ()
    assert move.action == make_bot("golf", "greedy", random.Random(1)).act(rnd.clone(), seat)


def test_a_bot_that_raises_gives_way_to_the_next_level_and_is_told_without_cards() -> None:
    """G2.1: the greedy bot's move stands in for the broken expert's, a legal one."""
    rnd = golf_round()
    seat = rnd.to_move
    move = steady_move("expert", rnd.clone(), seat, makers({"expert": Raises()}))
    assert move.level == "greedy"
    assert move.action == make_bot("golf", "greedy", random.Random(1)).act(rnd.clone(), seat)
    assert move.action in rnd.legal_actions(seat)
    (failure,) = move.failures
    assert (failure.level, failure.kind) == ("expert", "KeyError")
    assert failure.where.startswith(__file__) and failure.where.split(":")[-1].isdigit()
    told = str(failure)
    assert told.startswith("the expert bot failed (KeyError at ")
    assert "secret" not in told and not CARD_TEXT.search(told), told


def test_where_a_failure_is_told_is_the_line_in_greenfelt_that_raised() -> None:
    """An engine error (an action for a seat not to move) is placed in the engine's file."""
    rnd = golf_round()
    seat = rnd.to_move
    with pytest.raises(NotYourTurn) as caught:
        rnd.apply(rnd.legal_actions(seat)[0], 1 - seat)
    failure = Failure.of("greedy", caught.value)
    assert failure.where.startswith("greenfelt/golf/"), failure.where
    assert failure.kind == "NotYourTurn"


def test_an_illegal_answer_is_a_failure_too() -> None:
    rnd = golf_round()
    seat = rnd.to_move
    broken = {"expert": Raises(), "greedy": Illegal()}
    move = steady_move("expert", rnd.clone(), seat, makers(broken))
    assert move.level == "easy"
    assert move.action in rnd.legal_actions(seat)
    assert [(f.level, f.kind) for f in move.failures] == [
        ("expert", "KeyError"),
        ("greedy", "IllegalAction"),
    ]
    assert "99" not in str(move.failures[1])


def test_spades_gives_way_to_random_when_every_level_above_it_fails() -> None:
    """S3 (the bid) and S4 (the play): random's move is always one of the legal ones."""
    broken: dict[str, Bot] = {level: Raises() for level in ("expert", "greedy", "easy")}
    for hand in spades_states(6, 5):
        seat = hand.to_move
        move = steady_move(
            "expert",
            hand.clone(),
            seat,
            lambda level: broken.get(level) or make_bot("spades", level, 2),
        )
        assert move.level == "random"
        assert [f.level for f in move.failures] == ["expert", "greedy", "easy"]
        assert move.action in hand.legal_actions(seat)


def test_when_even_random_fails_the_error_is_raised() -> None:
    """Nothing is left to play for the seat: the caller's own error handling takes it."""
    rnd = golf_round()
    with pytest.raises(KeyError, match="secret"):
        steady_move("greedy", rnd.clone(), rnd.to_move, lambda level: Raises())
