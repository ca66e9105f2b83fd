"""The expert weighs only the fitted model's best placements (``top_moves``).

Where the fitted playout plays (six-, eight- and ten-card), a card in hand
(G2.2, G2.3) can go over any of the seat's cards or, drawn, to the discard pile;
``top_moves=K`` spends the search on the model's K best of those moves
(``golf_playout.prior``) and the model's own move, the anchor, is always among
them. Turns and flips, and rules the model does not cover, are searched in full.
"""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import BotError, make_bot
from greenfelt.bots.base import observe
from greenfelt.bots.golf_playout import placement_scores, playout_policy
from greenfelt.bots.golf_stage import STAGES, stage
from greenfelt.bots.golf_value import value_policy
from greenfelt.bots.ismcts import DEFAULT_PER_CHOICE, ExpertBot
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import parse_action
from greenfelt.golf.game import GolfRound


def drawn(preset: str, seed: int, where: str | None = None) -> GolfRound:
    """A two-player round of ``preset`` where the seat to move holds a drawn card
    (G2.2): greedy plays both seats until a turn (in stage ``where``, ``golf_stage``,
    if given), where the seat draws."""
    greedy = make_bot("golf", "greedy", seed)
    state = new_round(find_preset(preset), 2, seed % 2, rng=random.Random(seed))
    while not state.is_over:
        if state.view(state.to_move or 0)["phase"] == "turn" and where in (None, stage(state)):
            state.apply(parse_action("draw"))
            return state
        state.apply(greedy.act(state))
    raise AssertionError(f"no turn in stage {where} for seed {seed}")


def ranked(state: GolfRound) -> list[object]:
    """The placements by the model's score, best first."""
    scores = placement_scores(state)
    return sorted(scores, key=scores.__getitem__, reverse=True)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_search_weighs_only_the_models_best_placements(seed: int) -> None:
    state = drawn("six-card", seed)
    legal = state.legal_actions()
    assert len(legal) == 7  # over any of six cards, or to the discard pile
    per_choice = DEFAULT_PER_CHOICE[0]
    bot = ExpertBot("golf", seed, top_moves=3, value="off")  # the model's own anchor
    move = bot.choose(observe(state))
    best = ranked(state)[:3]
    assert set(bot.last_visits) == set(best)
    assert move in best
    # The budget follows the moves weighed (a block of rollouts is never cut short).
    assert 3 * per_choice <= bot.last_iterations < 3 * per_choice + 3
    # The model's own move (the anchor) is the first of them.
    assert playout_policy(state.clone(), random.Random(0)) == best[0]


def test_every_placement_is_weighed_with_top_moves_0() -> None:
    state = drawn("six-card", 1)
    bot = ExpertBot("golf", 1, top_moves=0)
    bot.choose(observe(state))
    assert set(bot.last_visits) == set(state.legal_actions())
    assert DEFAULT_PER_CHOICE[1] <= bot.last_iterations < DEFAULT_PER_CHOICE[1] + 7


def test_top_moves_1_plays_the_models_move_without_a_search() -> None:
    state = drawn("six-card", 2)
    bot = ExpertBot("golf", 2, top_moves=1, value="off")
    assert bot.choose(observe(state)) == playout_policy(state.clone(), random.Random(0))
    assert bot.last_iterations == 0


def test_rules_the_model_does_not_cover_are_searched_in_full() -> None:
    """Four-card (a 2x2 layout) is greedy's: no model, so no cut."""
    state = drawn("four-card", 4)
    bot = ExpertBot("golf", 4, top_moves=2, iterations=60)
    bot.choose(observe(state))
    assert set(bot.last_visits) == set(state.legal_actions())


def test_a_count_by_stage_cuts_only_in_that_stage() -> None:
    """``other:3``: the model's three best early in the round (G3.1: nobody near
    closing); every placement where the seat can close."""
    bot = ExpertBot("golf", 5, top_moves="other:3", value="off")
    assert bot.top_moves == {"other": 3}
    early = drawn("six-card", 5, "other")
    bot.choose(observe(early))
    assert set(bot.last_visits) == set(ranked(early)[:3])
    late = drawn("six-card", 5, "close")
    bot.choose(observe(late))
    assert set(bot.last_visits) == set(late.legal_actions())
    assert len(late.legal_actions()) > 3


def test_top_moves_is_read_and_bad_values_refused() -> None:
    assert ExpertBot("golf", 1, top_moves="4").top_moves == dict.fromkeys(STAGES, 4)
    assert ExpertBot("golf", 1, top_moves=2).top_moves == dict.fromkeys(STAGES, 2)
    for value, message in (
        (-1, "must be 0 or more"),
        ("many", "top_moves is a number or STAGE:NUMBER"),
        ("late:3", "'late' is not a stage"),
        ("other:2.5", "a whole number"),
    ):
        with pytest.raises(BotError, match=message):
            make_bot("golf", "expert", 1, top_moves=value)
    with pytest.raises(BotError, match="for Golf"):
        make_bot("spades", "expert", 1, top_moves=3)


@pytest.mark.parametrize("seed", [6, 7, 8])
def test_the_cut_reads_only_what_the_seat_knows(seed: int) -> None:
    """The model ranks moves from the seat's sight: on a state where every card the
    seat cannot know is resampled, the same moves are weighed (the model's best two
    and the anchor, the learned value's move) and the same chosen."""
    state = drawn("six-card", seed, "other")
    seat = state.to_move
    twin = state.determinize(seat, random.Random(100 + seed))
    assert twin.cards != state.cards or twin.stock != state.stock
    real, imagined = (ExpertBot("golf", seed, top_moves=2, iterations=40) for _ in range(2))
    assert real.choose(observe(state)) == imagined.choose(observe(twin))
    weighed = {*ranked(state)[:2], value_policy(state.clone(), random.Random(0))}
    assert set(real.last_visits) == set(imagined.last_visits) == weighed
