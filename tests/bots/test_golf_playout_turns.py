"""The playout's turn and flip models, and the expert's budget per choice (issue 4).

``golf_playout`` can also decide, with models fitted like its placements, whether
to draw or take the discard (G2.1) and what to flip after a discard (G2.2, may
flip). At two players none ships, as the fitted ones did no better than greedy;
from three players a turn model fitted there ships (``TURN_WEIGHTS_MULTI``). The
expert's default budget where the placement model plays grows with the number of
legal moves (``ismcts.DEFAULT_PER_CHOICE``). These tests hold any turn or flip
model to what every policy must do (legal, leak-free), the shipped playout to
greedy's turns and flips at two players and to its turn model from three, and the
budget to its stated sizes.
"""

from __future__ import annotations

import random

import pytest
from test_golf_playout import phase_states as states_in
from test_greedy_golf import SIX, reveal, stacked

from greenfelt.bots import golf_playout
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_playout import flip_terms, playout_policy, score_moves, turn_terms
from greenfelt.bots.golf_stage import stage
from greenfelt.bots.ismcts import DEFAULT_ITERATIONS, DEFAULT_PER_CHOICE, ExpertBot
from greenfelt.golf import new_round
from greenfelt.golf.actions import DISCARD, DRAW, PASS, SWAP, TAKE
from greenfelt.golf.game import GolfRound


def phase_states(preset: str, players: int, phase: str, count: int, seed: int) -> list[GolfRound]:
    return states_in(preset, players, (phase,), count, seed)


def random_weights(rows: int, seed: int) -> tuple[tuple[float, ...], ...]:
    rng = random.Random(seed)
    cols = len(golf_playout.STATE_TERMS)
    return tuple(tuple(rng.uniform(-1, 1) for _ in range(cols)) for _ in range(rows))


@pytest.mark.parametrize("phase", ["turn", "flip"])
def test_at_two_players_turn_and_flip_are_greedys(phase: str) -> None:
    """Fitted turn and flip models did no better than greedy at two players
    (docs/expert-six-card.md), so none ships there and the playout turns and flips
    exactly as greedy does."""
    assert golf_playout.TURN_WEIGHTS == () and golf_playout.FLIP_WEIGHTS == ()
    for index, state in enumerate(phase_states("six-card", 2, phase, 20, 31)):
        expected = greedy_policy(state, random.Random(index))
        assert playout_policy(state, random.Random(index)) == expected


@pytest.mark.parametrize(("preset", "players"), [("six-card", 3), ("eight-card", 4)])
def test_from_three_players_the_turn_model_fitted_there_draws_or_takes(
    preset: str, players: int
) -> None:
    """G2.1: from three players the turn is the best by TURN_WEIGHTS_MULTI, which at
    some turns is not greedy's choice; a flip after a discard is still greedy's."""
    assert golf_playout.TURN_WEIGHTS_MULTI and golf_playout.FLIP_WEIGHTS_MULTI == ()
    differ = 0
    for index, state in enumerate(phase_states(preset, players, "turn", 150, 43)):
        found = turn_terms(state)
        assert found is not None
        scores = score_moves(golf_playout.TURN_WEIGHTS_MULTI, *found)
        move = playout_policy(state, random.Random(index))
        assert scores[move] == max(scores.values()), f"{preset}: state {index}"
        differ += move != greedy_policy(state, random.Random(index))
    assert differ > 0
    for index, state in enumerate(phase_states(preset, players, "flip", 20, 47)):
        expected = greedy_policy(state, random.Random(index))
        assert playout_policy(state, random.Random(index)) == expected


@pytest.mark.parametrize("phase", ["turn", "flip"])
@pytest.mark.parametrize(
    ("preset", "players"), [("six-card", 2), ("six-card", 3), ("eight-card", 2), ("ten-card", 4)]
)
def test_a_legal_turn_and_flip_from_the_seats_information_alone(
    preset: str, players: int, phase: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """G2.1, G2.2, G8: whatever its weights, a turn or flip model's choice is legal and
    the same after every card the seat cannot know is resampled."""
    turn = random_weights(len(golf_playout.TURN_TERMS), 1)
    flip = random_weights(len(golf_playout.FLIP_TERMS), 2)
    monkeypatch.setattr(golf_playout, "TURN_WEIGHTS", turn)
    monkeypatch.setattr(golf_playout, "FLIP_WEIGHTS", flip)
    states = phase_states(preset, players, phase, 30, 17)
    changed = 0
    for index, state in enumerate(states):
        seat = state.to_move
        assert seat is not None
        twin = state.determinize(seat, random.Random(900 + index))
        changed += twin.cards != state.cards or twin.stock != state.stock
        real = playout_policy(state, random.Random(index))
        assert real == playout_policy(twin, random.Random(index)), f"{preset}: state {index}"
        assert real in state.legal_actions()
    assert changed > len(states) // 2


def test_a_fitted_turn_model_decides_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    """With weights, the model's score decides: one that prizes the "take" term takes
    every discard, one that penalises it always draws."""
    states = phase_states("six-card", 2, "turn", 10, 41)
    rows, cols = len(golf_playout.TURN_TERMS), len(golf_playout.STATE_TERMS)
    for sign, expected in ((1.0, TAKE), (-1.0, DRAW)):
        weights = tuple(
            tuple(sign * 10.0 if (r, c) == (0, 0) else 0.0 for c in range(cols))
            for r in range(rows)
        )
        monkeypatch.setattr(golf_playout, "TURN_WEIGHTS", weights)
        for state in states:
            assert playout_policy(state, random.Random(0)) == expected


def test_turn_terms_value_taking_against_drawing() -> None:
    """Drawing is the zero row; taking's row has one value per TURN_TERMS."""
    for state in phase_states("six-card", 2, "turn", 20, 5):
        found = turn_terms(state)
        assert found is not None
        state_terms, moves = found
        assert len(state_terms) == len(golf_playout.STATE_TERMS)
        assert set(moves) == {DRAW, TAKE}
        assert moves[DRAW] == [0.0] * len(golf_playout.TURN_TERMS)
        assert len(moves[TAKE]) == len(golf_playout.TURN_TERMS)
        assert moves[TAKE][0] == 1.0


def test_turn_and_flip_terms_only_in_their_phase() -> None:
    held = phase_states("six-card", 2, "drawn", 1, 2)[0]
    assert turn_terms(held) is None
    assert flip_terms(held) is None
    turn = phase_states("six-card", 2, "turn", 1, 2)[0]
    assert flip_terms(turn) is None


def test_flip_terms_describe_each_column() -> None:
    """G2.2 (may flip), G5.3: passing is its own row; a flip under a known card carries
    that card's value and the share of unseen cards that would pair it."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ ?? / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "K♥", stock="Q♦")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    rnd.apply(DRAW, 1)
    rnd.apply(DISCARD, 1)
    found = flip_terms(rnd)
    assert found is not None
    _, moves = found
    assert set(moves) == set(rnd.legal_actions())
    assert moves[PASS] == [1.0, 0.0, 0.0, 0.0, 0.0]
    flip_under_nine = next(a for a in moves if a is not PASS and a.pos == 3)
    pass_, closes, partner_unknown, partner, chance = moves[flip_under_nine]
    assert (pass_, closes, partner_unknown) == (0.0, 0.0, 0.0)
    assert partner == pytest.approx(0.9)  # G5.1: a 9 counts 9
    # Seat 1 has seen six cards (four face up, the K♥ and the Q♦ on the pile): of the
    # 46 it has not, three are nines.
    assert chance == pytest.approx(3 / 46)
    flip_in_own_column = next(a for a in moves if a is not PASS and a.pos == 2)
    assert moves[flip_in_own_column][2] == 1.0  # both cards of that column unknown


def test_takes_a_discard_that_pairs_a_face_up_card() -> None:
    """G2.1, G5.3: the 9♥ on the pile pairs the face-up 9♠; taking it is the play."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "9♥")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    assert playout_policy(rnd, random.Random(0)) == TAKE
    rnd.apply(TAKE, 1)
    assert playout_policy(rnd, random.Random(0)) == SWAP[3]


# ---- the expert's budget per choice ------------------------------------------------


def test_the_default_budget_grows_with_the_choice_where_the_model_plays() -> None:
    """Six-card: 150 iterations per legal move, at most 1,050 (a turn 300, a placement
    of seven moves 1,050). (Early turns are not searched by default at all: with
    ``playout_phases`` given, the budget stays the default and every turn is searched.)"""
    per, most = DEFAULT_PER_CHOICE
    for phase in ("turn", "drawn"):
        state = phase_states("six-card", 2, phase, 1, 21)[0]
        bot = ExpertBot("golf", 4, playout_phases="reveal")
        seat = state.to_move
        assert seat is not None
        assert bot.act(state, seat) in state.legal_actions()
        assert bot.last_iterations == min(most, per * len(state.legal_actions()))


def test_an_explicit_budget_is_spent_on_every_decision() -> None:
    state = phase_states("six-card", 2, "turn", 1, 21)[0]
    seat = state.to_move
    assert seat is not None
    flat = ExpertBot("golf", 4, iterations=40)
    flat.act(state, seat)
    assert flat.last_iterations == 40
    scaled = ExpertBot("golf", 4, iterations=40, per_choice=7)
    scaled.act(state, seat)
    assert scaled.last_iterations == 14


def test_the_default_budget_is_flat_where_the_model_does_not_play() -> None:
    """Nine-card plays greedy rollouts: every decision gets the whole default budget."""
    state = phase_states("nine-card", 2, "turn", 1, 21)[0]
    seat = state.to_move
    assert seat is not None
    bot = ExpertBot("golf", 4)
    bot.act(state, seat)
    assert bot.last_iterations == DEFAULT_ITERATIONS["golf"]


def test_the_opening_reveal_is_the_playouts_rule() -> None:
    """G1.7: with the default budget the expert turns its second card in a column of
    its own, as the playout does, without a search."""
    state = new_round(SIX, 2, 0, rng=random.Random(8))
    seat = state.to_move
    assert seat is not None
    bot = ExpertBot("golf", 2)
    first = bot.act(state, seat)
    assert bot.last_iterations == 0
    state.apply(first, seat)
    while state.to_move != seat:
        other = state.to_move
        assert other is not None
        state.apply(greedy_policy(state, random.Random(0)), other)
    second = bot.act(state, seat)
    assert bot.last_iterations == 0
    assert second.pos is not None and first.pos is not None
    assert second.pos % 3 != first.pos % 3  # six-card: positions 0-2 over 3-5


def test_a_per_choice_budget_must_be_positive() -> None:
    with pytest.raises(ValueError, match="per_choice"):
        ExpertBot("golf", 1, per_choice=0)


def test_playout_phases_leave_those_decisions_to_the_playout() -> None:
    """``playout_phases``: the fitted playout decides the flip after a discard (G2.2)
    without a search, and an empty set searches even the opening reveals (G1.7)."""
    state = phase_states("six-card", 2, "flip", 1, 21)[0]
    seat = state.to_move
    assert seat is not None
    bot = ExpertBot("golf", 4, playout_phases="reveal, flip")
    move = bot.act(state, seat)
    assert bot.last_iterations == 0
    assert move in {playout_policy(state, random.Random(k)) for k in range(40)}
    searched = ExpertBot("golf", 4)
    searched.act(state, seat)
    assert searched.last_iterations > 0
    opening = new_round(SIX, 2, 0, rng=random.Random(8))
    first = opening.to_move
    assert first is not None
    everything = ExpertBot("golf", 4, playout_phases="")
    everything.act(opening, first)
    assert everything.last_iterations > 0


def test_a_playout_phase_may_name_a_stage_of_the_round() -> None:
    """``playout_phases`` "turn@other": the fitted playout decides the turn (G2.1)
    without a search while no seat is near closing (G3.1; ``golf_stage``), and the
    search still decides the turn where the seat can close."""
    early = late = None
    for seed in range(40):  # greedy rounds, stopped at a turn in each stage
        state = new_round(SIX, 2, 0, rng=random.Random(seed))
        rng = random.Random(seed)
        while not state.is_over and (early is None or late is None):
            if state.phase.value == "turn" and len(state.legal_actions()) > 1:
                if stage(state) == "other" and early is None:
                    early = state.clone()
                if stage(state) == "close" and late is None:
                    late = state.clone()
            state.apply_unchecked(greedy_policy(state, rng))
    assert early is not None and late is not None
    for state, searched in ((early, False), (late, True)):
        seat = state.to_move
        assert seat is not None
        bot = ExpertBot("golf", 4, iterations=40, playout_phases="reveal, turn@other")
        move = bot.act(state, seat)
        assert (bot.last_iterations > 0) is searched
        if not searched:
            assert move == playout_policy(state, random.Random(0))  # no random choice in it


def test_an_unknown_playout_phase_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown playout phase flop"):
        ExpertBot("golf", 1, playout_phases="flop")
    with pytest.raises(ValueError, match=r"unknown playout phase flop \(in flop@other\)"):
        ExpertBot("golf", 1, playout_phases="flop@other")
    with pytest.raises(ValueError, match="unknown stage late in playout phase turn@late"):
        ExpertBot("golf", 1, playout_phases="turn@late")
    with pytest.raises(ValueError, match="for Golf"):
        ExpertBot("spades", 1, playout_phases="flip")
