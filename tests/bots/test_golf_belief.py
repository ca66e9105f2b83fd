"""Believed worlds (issue 4): rivals' seen-and-kept cards imagined as kept cards score.

``golf_belief.believe`` re-draws, in an imagined world, the cards a rival has seen
and the deciding seat has not (hand4, G1.7; closed golf, G8.2), low-scoring hands
likelier (G5). The world must stay one the seat cannot tell from the real state
(G8.1): the same view and the same cards, only unknown places exchanged.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from greenfelt.bots.golf_belief import HAND_GAMMAS, believe, gammas_for, unknown_places
from greenfelt.bots.ismcts import ExpertBot
from greenfelt.golf import find_preset
from greenfelt.golf.game import GolfRound
from greenfelt.golf.scoring import score_layout
from tests.bots.helpers import golf_states


def states(preset: str, count: int, seed: int) -> list[GolfRound]:
    """Unfinished rounds where the seat to move has rivals' seen cards to imagine."""
    out = [
        s
        for s in golf_states(count * 2, seed, presets=(preset,), seats=(2, 3))
        if unknown_places(s, s.to_move)[0]
    ]
    assert len(out) >= count
    return out[:count]


def every_card(world: GolfRound) -> Counter:
    return Counter([c for c in world.cards if c is not None] + world.stock + world.discard)


@pytest.mark.parametrize("preset", ["four-in-hand", "four-card"])
def test_a_believed_world_is_one_the_seat_cannot_tell_from_the_real_state(preset: str) -> None:
    """G8.1: same view for the seat, same cards; only places it cannot know exchanged."""
    moved = 0
    for index, state in enumerate(states(preset, 30, 3)):
        seat = state.to_move
        world = state.determinize(seat, random.Random(index))
        before = world.cards[:], world.stock[:]
        believe(world, seat, random.Random(index), (3.0,))
        assert world.view(seat) == state.view(seat), f"state {index}"
        assert every_card(world) == every_card(state)
        moved += (world.cards, world.stock) != before
    assert moved > 15


@pytest.mark.parametrize("preset", ["four-in-hand", "four-card"])
def test_a_memo_of_hand_scores_believes_the_same_worlds(preset: str) -> None:
    """G5: scores kept by the kinds of a hand's cards (``card_kinds``), shared over many
    worlds as the expert shares them, pick the same hands as scoring each afresh."""
    memo: dict[tuple[int, ...], int] = {}
    for index, state in enumerate(states(preset, 12, 9)):
        seat = state.to_move
        for world_seed in range(8):
            fresh = state.determinize(seat, random.Random(world_seed))
            kept = fresh.clone()
            believe(fresh, seat, random.Random(index), (0.3,))
            believe(kept, seat, random.Random(index), (0.3,), memo=memo)
            assert (fresh.cards, fresh.stock) == (kept.cards, kept.stock), f"state {index}"
    assert memo
    size = len(memo)  # the same world believed again scores nothing afresh
    believe(
        state.determinize(seat, random.Random(0)), seat, random.Random(index), (0.3,), memo=memo
    )
    assert len(memo) == size


def test_gamma_zero_is_the_random_draw() -> None:
    """A gamma of 0 weighs every proposal alike: the world is left as drawn."""
    for index, state in enumerate(states("four-in-hand", 10, 4)):
        world = state.determinize(state.to_move, random.Random(index))
        before = world.cards[:], world.stock[:]
        believe(world, state.to_move, random.Random(index), (0.0,))
        assert (world.cards, world.stock) == before


def test_believed_rivals_hold_lower_hands_as_rounds_go_on() -> None:
    """G1.7, G5 (four-in-hand, any pairs): drawn at random a rival holds about 18 points
    in any round; believed, less, and less still from the third round on."""
    rules = find_preset("four-in-hand")
    by_round: dict[str, tuple[list[int], list[int]]] = {"early": ([], []), "late": ([], [])}
    for index, state in enumerate(states("four-in-hand", 120, 5)):
        seat = state.to_move
        rng = random.Random(index)
        stage = "late" if state.turns // state.n >= 2 else "early"
        for _ in range(4):
            world = state.determinize(seat, rng)
            rivals = [r for r in range(state.n) if r != seat]
            drawn = [score_layout(world.cards[r * 4 : r * 4 + 4], rules).total for r in rivals]
            believe(world, seat, rng, HAND_GAMMAS)
            held = [score_layout(world.cards[r * 4 : r * 4 + 4], rules).total for r in rivals]
            by_round[stage][0].extend(drawn)
            by_round[stage][1].extend(held)
    early_drawn, early_held = (statistics.mean(x) for x in by_round["early"])
    late_drawn, late_held = (statistics.mean(x) for x in by_round["late"])
    assert early_held < early_drawn - 1.0
    assert late_held < late_drawn - 6.0
    assert late_held < early_held


def test_belief_is_for_golf() -> None:
    with pytest.raises(ValueError, match="belief is for Golf"):
        ExpertBot("spades", 1, belief=True)


@pytest.mark.parametrize(
    ("preset", "fitted"),
    [("four-in-hand", True), ("four-card", True), ("six-card", False), ("cambio", False)],
)
def test_belief_applies_where_owners_keep_hidden_cards_they_chose(
    preset: str, fitted: bool
) -> None:
    """G1.7, G2.4: hand4 and closed 2x2 rivals keep cards they saw; open grids keep none,
    and powers (G7) move cards unseen, so there the worlds stay random draws."""
    assert (gammas_for(find_preset(preset)) is not None) is fitted


@pytest.mark.parametrize("preset", ["four-in-hand", "four-card"])
def test_belief_changes_what_the_expert_imagines(preset: str) -> None:
    """With belief on, the same seed searches other worlds, so the rollouts per move
    differ on some decisions."""
    differ = 0
    for index, state in enumerate(states(preset, 12, 7)):
        seat = state.to_move
        on = ExpertBot("golf", index, iterations=48, belief=True)
        off = ExpertBot("golf", index, iterations=48, belief=False)
        on.act(state, seat)
        off.act(state, seat)
        differ += on.last_visits != off.last_visits
    assert differ >= 3


@pytest.mark.parametrize(("preset", "believes"), [("four-in-hand", True), ("four-card", True)])
def test_the_expert_believes_by_default_where_it_was_measured_to_pay(
    preset: str, believes: bool
) -> None:
    """``ismcts.DEFAULT_BELIEF``: hand4 and closed 2x2 search believed worlds unless
    told otherwise (the test above shows that belief changes the search, so this fails
    if either layout is left out of the default)."""
    for index, state in enumerate(states(preset, 6, 8)):
        seat = state.to_move
        default = ExpertBot("golf", index, iterations=48)
        chosen = ExpertBot("golf", index, iterations=48, belief=believes)
        assert default.act(state, seat) == chosen.act(state, seat)
        assert default.last_visits == chosen.last_visits


@pytest.mark.parametrize("preset", ["four-in-hand", "four-card"])
def test_an_expert_that_believes_decides_from_the_seats_information(preset: str) -> None:
    """Issue 4: with belief on, the decision on the real state and on a state with every
    card the seat cannot know resampled is the same (the leak test's method)."""
    changed = 0
    for index, state in enumerate(states(preset, 10, 6)):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(500 + index))
        changed += twin.cards != state.cards
        real = ExpertBot("golf", index, iterations=24, belief=True).act(state, seat)
        imagined = ExpertBot("golf", index, iterations=24, belief=True).act(twin, seat)
        assert real == imagined, f"state {index}"
    assert changed > 5
