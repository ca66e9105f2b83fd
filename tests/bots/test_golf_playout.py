"""The expert's own Golf playout policy (issue 4): legal, leak-free, greedy where not fitted.

``golf_playout`` re-ranks greedy's placements of a card in hand (G2.2, G2.3)
with a fitted model; everything else is greedy's. These tests hold it to what
every policy must do (a legal move from the seat's information alone) and to
the plays no model should unlearn (completing a column pair, G5.3).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_greedy_golf import SIX, reveal, stacked

from greenfelt.bots import golf_playout
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_playout import (
    applies,
    placement_scores,
    playout_policy,
    score_moves,
    terms,
    weights_for,
)
from greenfelt.bots.golf_value import value_policy
from greenfelt.bots.ismcts import DEFAULT_ANCHOR_Z, ExpertBot
from greenfelt.cards import Rank
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import DRAW, SWAP, TAKE
from greenfelt.golf.game import GolfRound


def phase_states(
    preset: str, players: int, phases: tuple[str, ...], count: int, seed: int
) -> list[GolfRound]:
    """States reached by random play where the seat to move is in one of ``phases``
    with a choice to make."""
    rng = random.Random(seed)
    rules = find_preset(preset)
    out: list[GolfRound] = []
    while len(out) < count:
        state = new_round(rules, players, 0, rng=rng)
        for _ in range(rng.randrange(4, 80)):
            if state.is_over:
                break
            state.apply_unchecked(rng.choice(state.legal_actions()))
            if state.phase.value in phases and rng.random() < 0.4:
                break
        if not state.is_over and state.phase.value in phases and len(state.legal_actions()) > 1:
            out.append(state)
    return out


def held_states(preset: str, players: int, count: int, seed: int) -> list[GolfRound]:
    """States reached by random play where the seat to move holds a card (drawn or taken)."""
    return phase_states(preset, players, ("drawn", "taken"), count, seed)


def test_the_model_is_fitted() -> None:
    """The shipped weights cover every move term and state term (fit_playout.py's output)."""
    assert len(golf_playout.WEIGHTS) == len(golf_playout.MOVE_TERMS)
    assert all(len(row) == len(golf_playout.STATE_TERMS) for row in golf_playout.WEIGHTS)


@pytest.mark.parametrize(
    ("preset", "players"), [("six-card", 2), ("six-card", 3), ("eight-card", 2), ("ten-card", 4)]
)
def test_a_legal_placement_from_the_seats_information_alone(preset: str, players: int) -> None:
    """G2.2, G2.3, G8: the choice is legal and the same after every card the seat cannot
    know is resampled (the policy runs on imagined worlds, never reads a hidden card)."""
    states = held_states(preset, players, 40, 11)
    changed = 0
    for index, state in enumerate(states):
        assert applies(state)
        seat = state.to_move
        assert seat is not None
        twin = state.determinize(seat, random.Random(500 + index))
        changed += twin.cards != state.cards or twin.stock != state.stock
        real = playout_policy(state, random.Random(index))
        imagined = playout_policy(twin, random.Random(index))
        assert real == imagined, f"{preset}: state {index}"
        assert real in state.legal_actions()
    assert changed > len(states) // 2


def test_every_placement_has_its_terms() -> None:
    """One row of move terms per legal placement, one value per state term."""
    for state in held_states("six-card", 2, 20, 3):
        state_terms, moves = terms(state)
        assert len(state_terms) == len(golf_playout.STATE_TERMS)
        assert set(moves) == set(state.legal_actions())
        assert all(len(row) == len(golf_playout.MOVE_TERMS) for row in moves.values())


@pytest.mark.parametrize(
    ("preset", "players"), [("six-card", 2), ("six-card", 3), ("eight-card", 2), ("ten-card", 4)]
)
def test_the_placement_is_the_one_the_model_scores_highest(preset: str, players: int) -> None:
    """G2.2, G2.3: the policy scores placements without building rows of terms; the
    scores are ``score_moves``'s to the last bit, and it plays the first of the best."""
    states = held_states(preset, players, 150, 23)
    for index, state in enumerate(states):
        expected = score_moves(weights_for(players), *terms(state))
        scores = placement_scores(state)
        assert scores == expected, f"{preset}: state {index}"
        assert list(scores) == list(expected)
        top = max(expected.values())
        first = next(action for action, score in expected.items() if score == top)
        assert playout_policy(state, random.Random(index)) == first, f"{preset}: state {index}"


def test_the_model_from_three_players_is_fitted() -> None:
    """The weights fitted at three players cover the same terms as the two-player ones."""
    assert len(golf_playout.WEIGHTS_MULTI) == len(golf_playout.MOVE_TERMS)
    assert all(len(row) == len(golf_playout.STATE_TERMS) for row in golf_playout.WEIGHTS_MULTI)


@pytest.mark.parametrize(
    ("preset", "players"),
    [("six-card", 2), ("six-card", 3), ("six-card", 5), ("eight-card", 3), ("ten-card", 4)],
)
def test_a_card_goes_where_the_weights_of_the_table_size_put_it(preset: str, players: int) -> None:
    """G2.2, G2.3: the placement is the best by WEIGHTS at two players and by
    WEIGHTS_MULTI (fitted on three-player holes) from three, also at the positions
    where the other table size's weights would place the card elsewhere."""
    plays, other = golf_playout.WEIGHTS, golf_playout.WEIGHTS_MULTI
    if players >= 3:
        plays, other = other, plays
    differ = 0
    for index, state in enumerate(held_states(preset, players, 150, 31)):
        state_terms, moves = terms(state)
        chosen = score_moves(plays, state_terms, moves)
        rejected = score_moves(other, state_terms, moves)
        move = playout_policy(state, random.Random(index))
        assert chosen[move] == max(chosen.values()), f"{preset}: state {index}"
        differ += rejected[move] < max(rejected.values())
    assert differ > 0


def test_weights_are_asked_for_a_decision_the_model_knows() -> None:
    """The three decisions the models can take; any other name is a clear error."""
    assert weights_for(2, "turn") is golf_playout.TURN_WEIGHTS
    assert weights_for(3, "turn") is golf_playout.TURN_WEIGHTS_MULTI
    with pytest.raises(ValueError, match="unknown decision 'knock': place, turn or flip"):
        weights_for(2, "knock")


def test_without_weights_from_three_players_the_two_player_weights_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An empty WEIGHTS_MULTI (not fitted) leaves every table to the two-player weights."""
    monkeypatch.setattr(golf_playout, "WEIGHTS_MULTI", ())
    assert weights_for(3) is golf_playout.WEIGHTS
    for index, state in enumerate(held_states("six-card", 3, 40, 41)):
        two = score_moves(golf_playout.WEIGHTS, *terms(state))
        assert two[playout_policy(state, random.Random(index))] == max(two.values())


def test_terms_need_a_card_in_hand() -> None:
    state = new_round(SIX, 2, 0, rng=random.Random(1))
    with pytest.raises(ValueError, match="holding a card"):
        terms(state)
    with pytest.raises(ValueError, match="holding a card"):
        placement_scores(state)


def test_terms_refuse_rules_the_model_does_not_cover() -> None:
    """Three-row columns (nine-card) have no column partner: a clear error, not a guess."""
    state = held_states("nine-card", 2, 1, 2)[0]
    with pytest.raises(ValueError, match="two-row column layouts"):
        terms(state)


@pytest.mark.parametrize("preset", ["nine-card", "four-card", "cambio", "bga", "powers"])
def test_greedy_where_the_model_was_not_fitted(preset: str) -> None:
    """Three-row columns, closed golf, lines and card powers (G7): greedy's move exactly."""
    rng = random.Random(5)
    state = new_round(find_preset(preset), 2, 0, rng=rng)
    decisions = 0
    while not state.is_over and decisions < 150:
        assert not applies(state)
        expected = greedy_policy(state, random.Random(decisions))
        assert playout_policy(state, random.Random(decisions)) == expected
        state.apply_unchecked(expected)
        decisions += 1
    assert decisions > 10


def test_completes_a_column_pair() -> None:
    """G5.3: the 9♥ taken from the pile goes under the face-up 9♠, and the column cancels."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "9♥")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    rnd.apply(TAKE, 1)
    assert playout_policy(rnd, random.Random(0)) == SWAP[3]


def test_swaps_a_drawn_card_into_a_pair() -> None:
    """G2.2, G5.3: a drawn 7♦ pairs the face-up 7♣ rather than going elsewhere."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "K♥", stock="7♦")
    reveal(rnd, {1: [0, 2], 0: [0, 1]})
    rnd.apply(DRAW, 1)
    assert playout_policy(rnd, random.Random(0)) == SWAP[5]


class _Spy:
    """A policy that records which seats it moved for, and plays greedy."""

    def __init__(self) -> None:
        self.seats: set[int] = set()

    def __call__(self, state: Any, rng: random.Random) -> Any:
        self.seats.add(state.to_move)
        return greedy_policy(state, rng)


def test_the_expert_plays_its_own_seat_with_the_playout_and_the_others_with_greedy() -> None:
    """The expert's rollouts: its own later moves by ``playout``, every other seat's by
    ``rollout`` (a model of a sound player)."""
    state = held_states("six-card", 3, 1, 8)[0]
    seat = state.to_move
    assert seat is not None
    own, others = _Spy(), _Spy()
    bot = ExpertBot("golf", 1, iterations=60, playout=own, rollout=others)
    assert bot.act(state, seat) in state.legal_actions()
    assert own.seats == {seat}
    assert others.seats == {0, 1, 2} - {seat}


def test_the_expert_defaults_to_the_fitted_playout_for_golf_only() -> None:
    assert ExpertBot("golf", 1).playout is playout_policy
    assert ExpertBot("golf", 1, playout="greedy").playout is greedy_policy
    assert ExpertBot("spades", 1).playout is ExpertBot("spades", 1).rollout
    with pytest.raises(ValueError, match="unknown playout 'best'"):
        ExpertBot("golf", 1, playout="best")


def test_the_prior_is_the_models_estimate_centred_on_the_average_move() -> None:
    """Where the model applies, one estimate per legal placement, averaging zero, from
    the two-player weights at any table; elsewhere (a turn, card powers) there is none."""
    for state in held_states("six-card", 2, 10, 4):
        estimate = golf_playout.prior(state)
        assert estimate is not None
        assert set(estimate) == set(state.legal_actions())
        assert abs(sum(estimate.values())) < 1e-9
    for state in held_states("six-card", 3, 10, 4):
        # Fitted to values, the two-player weights' scores are in chances to win; the
        # weights from three players are fitted to the choice and have no such scale.
        scores = score_moves(golf_playout.WEIGHTS, *terms(state))
        mean = sum(scores.values()) / len(scores)
        assert golf_playout.prior(state) == {a: v - mean for a, v in scores.items()}
    turn = new_round(SIX, 2, 0, rng=random.Random(2))
    assert golf_playout.prior(turn) is None
    assert golf_playout.prior(held_states("powers", 2, 1, 4)[0]) is None


def test_a_heavy_prior_makes_the_expert_play_the_models_move() -> None:
    """The prior counts as ``prior_weight`` rollouts: far more than a few rollouts, and
    the expert's placement is one of the model's best."""
    for index, state in enumerate(held_states("six-card", 2, 8, 6)):
        seat = state.to_move
        assert seat is not None
        estimate = golf_playout.prior(state)
        assert estimate is not None
        # The fitted model's own anchor (value off), which the prior speaks for.
        bot = ExpertBot("golf", index, iterations=14, prior_weight=1e9, value="off")
        # Alike moves (two unknown cards in like columns) share the best estimate.
        assert estimate[bot.act(state, seat)] > max(estimate.values()) - 1e-9


def _queens_to_the_corner(state: Any, rng: random.Random) -> Any:
    """Greedy, except that a queen in hand always replaces position 0: a poor policy."""
    if (
        state.held is not None
        and state.held.rank is Rank.QUEEN
        and SWAP[0] in state.legal_actions()
    ):
        return SWAP[0]
    return greedy_policy(state, rng)


def _queen_drawn_over_an_ace() -> GolfRound:
    """Seat 1 shows A♠ 2♦ in its top row and has drawn the Q♥ (10 points, G5.1)."""
    rnd = stacked(SIX, 2, {1: "A♠ 2♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "K♥", stock="Q♥")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    rnd.apply(DRAW, 1)
    return rnd


def test_the_search_overrules_its_playouts_move_only_when_clearly_better() -> None:
    """The anchor: the expert keeps its playout policy's move unless the paired rollouts
    show another move better by ``anchor_z`` standard errors. Putting the Q♥ over the
    face-up A♠ costs about nine points, so a search anchored at the default strength
    overrules it; an anchor no evidence can overrule is kept."""
    state = _queen_drawn_over_an_ace()
    assert _queens_to_the_corner(state, random.Random(0)) == SWAP[0]
    searched = ExpertBot(
        "golf", 3, iterations=300, playout=_queens_to_the_corner, anchor_z=DEFAULT_ANCHOR_Z
    )
    assert searched.act(state, 1) != SWAP[0]
    stubborn = ExpertBot("golf", 3, iterations=300, playout=_queens_to_the_corner, anchor_z=1e9)
    assert stubborn.act(state, 1) == SWAP[0]
    free = ExpertBot("golf", 3, iterations=300, playout=_queens_to_the_corner, anchor_z=0)
    assert free.act(state, 1) != SWAP[0]


def test_by_default_the_search_is_anchored_to_the_fitted_model_and_to_column_builders() -> None:
    """With one rollout a move no difference is clear, so an anchored expert plays its
    own move: on two-player six-card the learned value's (``golf_value``), or with
    ``value=off`` the fitted playout's; on three-player six-card, where no value is
    fitted, the playout's; on nine-card, where the playout is greedy building columns
    of three (G5.3), greedy's. On four-card, where the playout is greedy and the
    search is not anchored, the rollouts decide."""
    for index, state in enumerate(held_states("six-card", 2, 12, 9)):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot("golf", index, iterations=len(state.legal_actions()))
        assert bot.act(state, seat) == value_policy(state, random.Random(0))
        off = ExpertBot("golf", index, iterations=len(state.legal_actions()), value="off")
        assert off.act(state, seat) == playout_policy(state, random.Random(0))
    for index, state in enumerate(held_states("six-card", 3, 6, 9)):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot("golf", index, iterations=len(state.legal_actions()))
        assert bot.act(state, seat) == playout_policy(state, random.Random(0))
    for index, state in enumerate(held_states("nine-card", 2, 12, 9)):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot("golf", index, iterations=len(state.legal_actions()))
        assert bot.act(state, seat) == greedy_policy(state, random.Random(0))
    differs = 0
    for index, state in enumerate(held_states("four-card", 2, 12, 9)):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot("golf", index, iterations=len(state.legal_actions()))
        differs += bot.act(state, seat) != greedy_policy(state, random.Random(0))
    assert differs > 0


@pytest.mark.parametrize("value", [-1.0, float("nan")])
def test_a_negative_anchor_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match="anchor_z must be 0"):
        ExpertBot("golf", 1, anchor_z=value)
