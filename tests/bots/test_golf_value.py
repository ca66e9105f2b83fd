"""The learned six-card value and its policy (``golf_value``; issue 4).

The network itself is fitted (``benchmarks/fit_value.py``); what is tested here is
what must hold for any fit: the rules it applies to, that it reads only the seat's
view, that the seat's last turn is valued by the hole's own reward (G3.1, G5.3),
the inputs a player would reckon, and the expert's use of it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from greenfelt.bots import BotError, golf_value, make_bot
from greenfelt.bots.golf_value import (
    SCALARS,
    Sight,
    ValueModel,
    applies,
    best_move,
    decide,
    features_one,
    featurize,
    leaf_value,
    load_model,
    options,
    prior,
    reward,
    sight,
    value_policy,
)
from greenfelt.bots.ismcts import DEFAULT_LEAF
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import DISCARD, DRAW, SWAP, TAKE, Kind
from greenfelt.golf.game import GolfRound
from tests.bots.helpers import greedy_positions

SIX = find_preset("six-card")


def unseen_of(*layouts: tuple[int, ...], discard: tuple[int, ...] = (), held: int = 0) -> tuple:
    """Unseen cards by rank (one deck, C1) once these face-up ranks are out."""
    counts = [0] + [4] * 13
    for rank in (*[r for lay in layouts for r in lay], *discard, held):
        if rank:
            counts[rank] -= 1
    return tuple(counts)


def positions(count: int, seed: int) -> list[GolfRound]:
    """Two-player six-card positions after the reveals, greedy playing both seats."""
    return greedy_positions("six-card", count, seed, 30)


def test_it_applies_to_two_player_six_card_only() -> None:
    assert applies(SIX, 2)
    assert applies(SIX.with_options({"end": "holes:18"}), 2)  # a longer match: the same holes
    assert not applies(SIX, 3)
    assert not applies(SIX.with_options({"closer_rule": "penalty_10"}), 2)  # G6
    assert not applies(SIX.with_options({"values": "wikihow-basic"}), 2)  # G5.1
    for preset in ("eight-card", "nine-card", "four-card", "cambio"):
        assert not applies(find_preset(preset), 2), preset


def test_sight_is_the_views_cards() -> None:
    """Face-up cards by rank, face-down as 0, and every card not in sight unseen (C1)."""
    for state in positions(20, 1):
        seat = state.to_move
        assert seat is not None
        s = sight(state.view(seat))
        size = state.size
        for who, ranks in ((seat, s.mine), (1 - seat, s.theirs)):
            for p in range(size):
                i = who * size + p
                assert ranks[p] == (state.cards[i].rank if state.up[i] else 0)
        seen = sum(r != 0 for r in s.mine + s.theirs) + len(state.discard) + (s.held != 0)
        assert sum(s.unseen) == 52 - seen


def test_the_last_turn_takes_the_card_that_pairs_and_wins() -> None:
    """G3.1: the other has closed; the discard's 9 pairs the seat's face-up 9 over its
    last face-down card (G5.3), a hole of 0 against the other's 8, which the reward of
    the hole itself values exactly."""
    mine = (9, 3, 4, 0, 3, 4)
    theirs = (5, 6, 7, 5, 6, 1)  # 0 + 0 + 8, all face up
    turn = Sight(mine, theirs, 9, unseen_of(mine, theirs, discard=(9,)), "turn", 0, True, True)
    action, value = decide(turn)
    assert action == TAKE
    assert value == pytest.approx(reward(0, 8))
    taken = Sight(
        mine, theirs, 2, unseen_of(mine, theirs, discard=(2,), held=9), "taken", 9, True, False
    )
    assert decide(taken) == (SWAP[3], pytest.approx(reward(0, 8)))


def test_the_last_turn_discards_a_card_that_would_lose() -> None:
    """A drawn queen (10, G5.1) anywhere would lose a hole the seat wins as it stands."""
    mine = (1, 3, 4, 1, 3, 4)  # all face up: 0 + 0 + 0, and A-A pairs too
    theirs = (5, 6, 7, 5, 6, 1)
    drawn = Sight(
        mine, theirs, 8, unseen_of(mine, theirs, discard=(8,), held=12), "drawn", 12, True, True
    )
    assert decide(drawn) == (DISCARD, pytest.approx(reward(0, 8)))


def _hole_score(layout: list[int]) -> int:
    """G5.2, G5.3 by hand: each column of unequal ranks scores both cards (G5.1)."""
    value = {1: 1, 2: -2, 11: 10, 12: 10, 13: 0}
    return sum(
        value.get(layout[c], layout[c]) + value.get(layout[c + 3], layout[c + 3])
        for c in range(3)
        if layout[c] != layout[c + 3]
    )


def test_the_last_turn_with_two_cards_face_down_is_valued_exactly() -> None:
    """G3.1: after the other closed, each move's value is the hole's reward averaged
    over every ordered pair of unseen cards the seat's two face-down cards may be, as
    counted here by brute force, card by card."""
    mine = (0, 5, 9, 4, 0, 13)  # cards 1 and 5 face down
    theirs = (7, 6, 2, 7, 8, 10)  # all face up: 0 + 14 + 8
    held = 3
    s = Sight(
        mine, theirs, 8, unseen_of(mine, theirs, discard=(8,), held=held), "drawn", held, True, True
    )
    pool = [rank for rank in range(1, 14) for _ in range(s.unseen[rank])]
    down = [p for p in range(6) if mine[p] == 0]
    other = _hole_score(list(theirs))

    def expected(pos: int | None) -> float:
        total = 0.0
        count = 0
        for i, x in enumerate(pool):
            for j, y in enumerate(pool):
                if i != j:
                    layout = list(mine)
                    layout[down[0]], layout[down[1]] = x, y
                    if pos is not None:
                        layout[pos] = held
                    total += reward(_hole_score(layout), other)
                    count += 1
        return total / count

    values = dict(options(s))
    for pos in range(6):
        assert values[SWAP[pos]] == pytest.approx(expected(pos), abs=1e-12), pos
    # Passing, or flipping a face-down card: the hole ends with every card up (G3.1),
    # so either way the same expectation.
    assert values[DISCARD] == pytest.approx(expected(None), abs=1e-12)


def test_the_policy_reads_only_the_seats_view() -> None:
    """The same move on a state whose every card the seat cannot know is resampled."""
    changed = 0
    for index, state in enumerate(positions(30, 2)):
        seat = state.to_move
        assert seat is not None
        twin = state.determinize(seat, random.Random(index))
        changed += twin.cards != state.cards or twin.stock != state.stock
        assert value_policy(state, random.Random(0)) == value_policy(twin, random.Random(1))
    assert changed > 20


def test_a_high_card_never_replaces_a_low_face_up_card_or_breaks_a_pair() -> None:
    """A drawn J, Q or 10 (10 points, G5.1) over a face-up A, 2 or K, or over one of
    a pair (G5.3), only adds points, unless it pairs the column's other card: the
    fitted policy never does it."""
    checked = 0
    for state in positions(600, 3):
        if state.phase.value != "turn" or DRAW not in state.legal_actions():
            continue
        state.apply(DRAW)
        held = state.held
        assert held is not None
        if held.rank not in (10, 11, 12):
            continue
        seat = state.to_move
        assert seat is not None
        s = sight(state.view(seat))
        action = value_policy(state, random.Random(0))
        if action.kind is Kind.SWAP and action.pos is not None:
            old = s.mine[action.pos]
            partner = s.mine[(action.pos + 3) % 6]
            if partner == held.rank:
                continue
            assert old not in (1, 2, 13), (s, action)
            assert not (old and old == partner), (s, action)
        checked += 1
    assert checked > 40


def test_inputs_count_pairs_as_a_player_does() -> None:
    """G5.3: a column of equal ranks scores 0 in the known scores; the other seat can
    pair the discard's top card with a face-up card over a different partner."""
    mine = [[5, 10, 0, 5, 3, 0]]  # 5/5 paired: 0; 10 + 3 = 13; face-down column
    theirs = [[7, 0, 0, 2, 0, 0]]  # a 7 over a face-down card
    unseen = [unseen_of(tuple(mine[0]), tuple(theirs[0]), discard=(7,))]
    index, scalars = featurize(mine, theirs, [7], unseen, [0])
    named = dict(zip(SCALARS, scalars[0], strict=True))
    assert named["my_known"] == pytest.approx(13 / 20)
    assert named["their_known"] == pytest.approx(5 / 20)  # 7 + -2
    assert named["their_pair"] == 1.0
    assert named["unseen"] == pytest.approx(sum(unseen[0]) / 40)
    assert index.shape == (1, 9)
    _, none = featurize(mine, theirs, [8], unseen, [0])
    assert dict(zip(SCALARS, none[0], strict=True))["their_pair"] == 0.0


def random_afterstates(count: int, seed: int) -> list[tuple[list[int], list[int], int, list[int]]]:
    """Afterstates of every kind the inputs tell apart: columns paired, half paired or
    face down, no card on the discard pile, few or no cards unseen."""
    rng = random.Random(seed)
    out: list[tuple[list[int], list[int], int, list[int]]] = []
    while len(out) < count:
        deck = [rank for rank in range(1, 14) for _ in range(4)]
        rng.shuffle(deck)
        up_mine, up_theirs = rng.random(), rng.random()
        mine = [deck.pop() if rng.random() < up_mine else 0 for _ in range(6)]
        theirs = [deck.pop() if rng.random() < up_theirs else 0 for _ in range(6)]
        if rng.random() < 0.4:  # G5.3: a pair in a column, face up or half face down
            mine[rng.randrange(3, 6)] = mine[0]
            theirs[rng.randrange(3, 6)] = theirs[rng.randrange(3)]
        unseen = [0] + [4] * 13
        for rank in mine + theirs + deck[: rng.choice((0, 5, 20, 40))]:
            unseen[rank] -= 1
        unseen[0] = 0
        if min(unseen) >= 0:
            out.append((mine, theirs, rng.randrange(14), unseen))
    return out


def test_one_afterstates_inputs_are_the_batchs_to_the_last_bit() -> None:
    """``features_one`` (the rollouts' leaves, one at a time, in plain Python) gives
    the network exactly the input ``featurize`` gives a batch, so the expert's moves
    do not depend on which path valued a leaf; and ``ValueModel.one`` is the batch's
    value to the bit."""
    model = load_model()
    states = random_afterstates(3000, 17)
    for mine, theirs, top, unseen in states:
        index, scalars = featurize([mine], [theirs], [top], [unseen], [0 not in mine])
        one_index, one_scalars = features_one(mine, theirs, top, unseen)
        assert one_index == index[0].tolist(), (mine, theirs, top)
        got = np.array(one_scalars, dtype=np.float32)
        assert got.tobytes() == scalars[0].tobytes(), (mine, theirs, top, unseen)
    for mine, theirs, top, unseen in states[:300]:
        batch = model([mine], [theirs], [top], [unseen], [0 not in mine])
        assert model.one(mine, theirs, top, unseen) == float(batch[0])


def test_a_network_of_other_inputs_is_refused() -> None:
    with pytest.raises(ValueError, match=r"refit it with benchmarks/fit_value\.py"):
        ValueModel({"W1": np.zeros((10, 4)), "b1": np.zeros(4)})


def test_a_leaf_is_valued_from_what_the_seat_knows() -> None:
    """``leaf_value`` (where the expert's rollouts may stop) values the position the
    seat just left as the network values the seat's view of it, and does not change
    when every card the seat cannot know is resampled."""
    model = load_model()
    checked = 0
    for index, state in enumerate(positions(40, 6)):
        if state.phase.value != "turn":
            continue
        seat = 1 - state.to_move  # its turn just ended: an afterstate
        s = sight(state.view(seat))
        closed = all(s.mine)
        expected = model([s.mine], [s.theirs], [s.top], [s.unseen], [closed])[0]
        assert leaf_value(state, seat) == float(expected)  # to the last bit
        twin = state.determinize(seat, random.Random(index))
        assert leaf_value(twin, seat) == leaf_value(state, seat)
        checked += 1
    assert checked >= 10


def test_the_expert_with_leaf_values_reads_only_its_view() -> None:
    """With ``leaf`` on, rollouts end in the network's value; the decision is still a
    function of the seat's information (same seed, hidden cards resampled)."""
    decided = 0
    for index, state in enumerate(positions(8, 7)):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(50 + index))
        options_ = {"leaf": 2, "iterations": 40, "per_choice": 8}
        real = make_bot("golf", "expert", index, **options_).act(state, seat)
        imagined = make_bot("golf", "expert", index, **options_).act(twin, seat)
        assert real == imagined
        assert real in state.legal_actions()
        decided += 1
    assert decided == 8


def test_the_default_experts_rollouts_end_in_the_learned_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DEFAULT_LEAF: on two-player six-card the default expert's rollouts stop after
    the seat's turn (an afterstate, the other seat to move) and take ``leaf_value``,
    at most once a rollout; ``leaf=0`` plays every rollout out."""
    calls: list[tuple[int | None, int]] = []

    def recording(state: GolfRound, seat: int, model: ValueModel | None = None) -> float:
        calls.append((state.to_move, seat))
        return leaf_value(state, seat, model)

    monkeypatch.setattr(golf_value, "leaf_value", recording)
    budget = {"iterations": 40, "per_choice": 8}
    for index, state in enumerate(positions(4, 9)):
        seat = state.to_move
        assert seat is not None
        calls.clear()
        bot = make_bot("golf", "expert", index, **budget)
        bot.act(state, seat)
        searched = bot.last_iterations  # type: ignore[attr-defined]
        assert 0 < len(calls) <= searched
        assert all(to_move == 1 - seat and who == seat for to_move, who in calls)
        calls.clear()
        make_bot("golf", "expert", index, leaf=0, **budget).act(state, seat)
        assert calls == []


def test_the_expert_option_leaf_is_a_count_of_turns() -> None:
    assert make_bot("golf", "expert", 1).leaf == DEFAULT_LEAF == 2  # type: ignore[attr-defined]
    assert make_bot("golf", "expert", 1, leaf=0).leaf == 0  # type: ignore[attr-defined]
    assert make_bot("golf", "expert", 1, leaf=2).leaf == 2  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="leaf must be 0"):
        make_bot("golf", "expert", 1, leaf=-1)


def test_the_expert_option_value_is_on_or_off() -> None:
    assert make_bot("golf", "expert", 1).value is True  # type: ignore[attr-defined]
    assert make_bot("golf", "expert", 1, value="off").value is False  # type: ignore[attr-defined]
    with pytest.raises(BotError, match="value is on or off"):
        make_bot("golf", "expert", 1, value="maybe")


def test_options_weigh_every_legal_move_and_decide_plays_their_best() -> None:
    """A placement (G2.2, G2.3) or the flip after a discard weighs each legal move;
    the turn (G2.1) weighs drawing and, where the pile has a card, taking; ``decide``
    plays the first of the highest."""
    seen = set()
    for state in positions(60, 4):
        seat = state.to_move
        assert seat is not None
        s = sight(state.view(seat))
        moves = options(s)
        legal = set(state.legal_actions())
        assert {action for action, _ in moves} == legal, s.phase
        best = max(value for _, value in moves)
        first = next(move for move in moves if move[1] == best)
        assert decide(s) == first == best_move(moves)
        seen.add(s.phase)
    assert {"turn", "drawn", "flip"} <= seen


def test_the_prior_is_every_moves_value_less_the_average_from_the_view_alone() -> None:
    """``prior``: one estimate per legal move, averaging zero, ordered as ``options``
    values them, and the same on a state whose hidden cards are resampled; none in
    the opening reveals (G1.7), which the policy does not decide."""
    for index, state in enumerate(positions(30, 6)):
        seat = state.to_move
        assert seat is not None
        estimate = prior(state)
        assert estimate is not None
        assert set(estimate) == set(state.legal_actions())
        assert abs(sum(estimate.values())) < 1e-9
        values = dict(options(sight(state.view(seat))))
        ranked = sorted(values, key=values.__getitem__)
        assert sorted(estimate, key=estimate.__getitem__) == ranked
        assert prior(state.determinize(seat, random.Random(index))) == estimate
    assert prior(new_round(SIX, 2, 0, rng=random.Random(1))) is None


def test_a_heavy_prior_makes_the_expert_play_the_values_best_move() -> None:
    """With the learned value on, the expert's prior (``prior_weight``, counted as that
    many rollouts) is the value's estimate: far heavier than a few rollouts, it makes
    the expert play one of the moves the value rates best, in every searched phase."""
    seen = set()
    for index, state in enumerate(positions(12, 8)):
        seat = state.to_move
        assert seat is not None
        estimate = prior(state)
        assert estimate is not None
        bot = make_bot("golf", "expert", index, iterations=14, prior_weight=1e9, playout_phases="")
        assert estimate[bot.act(state, seat)] > max(estimate.values()) - 1e-9
        seen.add(state.view(seat)["phase"])
    assert {"turn", "drawn", "flip"} <= seen


def test_the_network_runs_on_one_blas_thread() -> None:
    """Bots run one a core or in the server's threads: a second BLAS thread in a
    batch of a few hundred rows only contends (``golf_value._one_blas_thread``)."""
    from threadpoolctl import threadpool_info

    load_model()
    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    assert blas
    assert all(pool["num_threads"] == 1 for pool in blas)
