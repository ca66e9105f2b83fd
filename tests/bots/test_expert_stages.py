"""The expert's budget and trust by stage of the round (G3.1), ``golf_stage``.

``stage_budget`` and ``stage_z`` change the search only in the stages they
name, so the stage of a position must follow G3.1 exactly: a seat with one
face-down card left can close the round; once a seat has closed, the others
play their final turns.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from greenfelt.bots import BotError, make_bot
from greenfelt.bots.base import observe
from greenfelt.bots.golf_playout import playout_policy
from greenfelt.bots.golf_stage import stage
from greenfelt.bots.golf_value import value_policy
from greenfelt.bots.ismcts import DEFAULT_PLAYOUT_PHASES, DEFAULT_VALUE_PHASES, ExpertBot
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import parse_action
from greenfelt.golf.game import GolfRound


def scripted_move(state: GolfRound) -> str:
    """Seat 0 draws, discards and turns up its first face-down card; seat 1 draws
    and swaps the card over a face-up one, so it keeps four cards face down."""
    seat = state.to_move
    assert seat is not None
    view = state.view(seat)
    legal = [str(a) for a in state.legal_actions()]
    if view["phase"] == "reveal":
        return legal[0]
    if "draw" in legal:
        return "draw"
    up = view["layouts"][seat]["face_up"]
    if seat == 0:
        if "discard" in legal:
            return "discard"
        return next(a for a in legal if a.startswith("flip"))
    return next(a for a in legal if a.startswith("swap") and up[int(a.split()[1])])


def turn_starts() -> Iterator[GolfRound]:
    """The scripted six-card round (two players), at the start of every turn."""
    state = new_round(find_preset("six-card"), 2, 1, rng=random.Random(5))
    while not state.is_over:
        if state.view(state.to_move or 0)["phase"] == "turn":
            yield state.clone()
        state.apply(parse_action(scripted_move(state)))


def stages_at_turns() -> list[tuple[int, int, int, str]]:
    """(seat to move, its face-down cards, the other's, stage) at each turn start."""
    seen = []
    for state in turn_starts():
        seat = state.to_move
        assert seat is not None
        view = state.view(seat)
        down = [sum(not up for up in lay["face_up"]) for lay in view["layouts"]]
        seen.append((seat, down[seat], down[1 - seat], stage(state)))
    return seen


def test_stages_follow_the_round_to_its_end() -> None:
    """G3.1: other, then near/close as seat 0 nears its last card, then final."""
    seen = stages_at_turns()
    assert seen[0] == (0, 4, 4, "other")
    assert (0, 1, 4, "close") in seen
    assert (1, 4, 1, "near") in seen
    # Seat 0 turned up its last card: seat 1's final turn ends the round.
    assert seen[-1] == (1, 4, 0, "final")
    for seat, mine, theirs, where in seen:
        expected = (
            "final" if theirs == 0 else "close" if mine == 1 else "near" if theirs <= 1 else "other"
        )
        assert where == expected, (seat, mine, theirs)


def test_stage_options_are_read_and_bad_ones_refused() -> None:
    bot = ExpertBot("golf", 1, stage_budget="close:3, final:2.5", stage_z="other:2")
    assert bot.stage_budget == {"close": 3.0, "final": 2.5}
    assert bot.stage_z == {"other": 2.0}
    for options, message in (
        ({"stage_budget": "late:2"}, "'late' is not a stage"),
        ({"stage_budget": "close:0"}, "close:0.0 must be more than 0"),
        ({"stage_z": "close:-1"}, "must be 0 or more"),
        ({"stage_z": "close=1"}, "stage_z is STAGE:NUMBER"),
        ({"stage_budget": "close:many"}, "stage_budget is STAGE:NUMBER"),
    ):
        with pytest.raises(BotError, match=message):
            make_bot("golf", "expert", 1, **options)
    with pytest.raises(BotError, match="for Golf"):
        make_bot("spades", "expert", 1, stage_z="final:0")


def position(where: str) -> GolfRound:
    """The first turn start of the scripted round in stage ``where``."""
    return next(state for state in turn_starts() if stage(state) == where)


def test_the_learned_value_plays_the_last_turn_without_a_search() -> None:
    """DEFAULT_VALUE_PHASES: after another seat closed (G3.1) the learned value knows
    its move's worth exactly (the hole's reward over the seat's face-down cards), so
    where it proposes the move (two-player six-card) the default expert plays that
    move unsearched; the turns before the end are still searched."""
    assert "turn@final" in DEFAULT_VALUE_PHASES
    bot = ExpertBot("golf", 7)
    for where, searched in (("other", False), ("near", True), ("close", True), ("final", False)):
        state = position(where)
        move = bot.choose(observe(state))
        assert (bot.last_iterations > 0) is searched, where
        if not searched:
            assert move == value_policy(state, random.Random(0)), where
    asked = ExpertBot("golf", 7, playout_phases="reveal,turn@other")  # as asked, searched
    asked.choose(observe(position("final")))
    assert asked.last_iterations > 0


def test_the_budget_grows_only_in_the_stages_named() -> None:
    """A turn (draw or take) gets 300 iterations by default where it is searched;
    tripled where the seat can close, unchanged elsewhere (near: a rival can close)."""
    close, near = position("close"), position("near")
    assert len(close.legal_actions()) == len(near.legal_actions()) == 2
    plain = ExpertBot("golf", 7)
    plain.choose(observe(close))
    default_turn = plain.last_iterations
    assert default_turn == 300
    scaled = ExpertBot("golf", 7, stage_budget="close:3")
    scaled.choose(observe(close))
    assert scaled.last_iterations == 3 * default_turn
    scaled.choose(observe(near))
    assert scaled.last_iterations == default_turn


def test_the_default_leaves_the_early_turns_to_the_playout() -> None:
    """DEFAULT_PLAYOUT_PHASES: while no seat is near closing (G3.1), the turn (G2.1)
    is the playout's, without a search; near the end it is searched."""
    assert "turn@other" in DEFAULT_PLAYOUT_PHASES
    bot = ExpertBot("golf", 7, value="off")
    for where, searched in (("other", False), ("near", True), ("close", True), ("final", True)):
        state = position(where)
        move = bot.choose(observe(state))
        assert move in state.legal_actions()
        assert (bot.last_iterations > 0) is searched, where
    early = position("other")
    bot.choose(observe(early))
    assert bot.last_iterations == 0
    # The seat's own move: the learned value's (two-player six-card), or the playout's.
    assert bot.choose(observe(early)) == value_policy(early, random.Random(0))
    off = ExpertBot("golf", 7, value="off")
    assert off.choose(observe(early)) == playout_policy(early, random.Random(0))
    explicit = ExpertBot("golf", 7, iterations=40)  # a budget of its own searches it
    explicit.choose(observe(early))
    assert explicit.last_iterations == 40


@pytest.mark.parametrize("where", ["close", "final"])
def test_a_stage_threshold_no_search_can_pass_keeps_the_playouts_move(where: str) -> None:
    """With ``stage_z`` out of reach in a stage, the expert plays its playout's move
    there (the anchor is never overruled), even with the anchor off elsewhere."""
    state = position(where)
    obs = observe(state)
    own = value_policy(state.clone(), random.Random(0))  # the default's own move
    # Without the threshold the search overrules the playout here for some seed,
    # so keeping its move is the threshold's doing. Rollouts play the hole out
    # (leaf=0): ended at the network's value (the default) they agree with its move
    # here for these seeds, which would leave the threshold nothing to show. The
    # last turn is searched only when asked (DEFAULT_VALUE_PHASES leaves it out).
    searched = {"anchor_z": 0, "leaf": 0, "playout_phases": "reveal,turn@other"}
    free = [ExpertBot("golf", seed, **searched).choose(obs) for seed in range(3)]
    assert any(choice != own for choice in free)
    for seed in range(3):
        bot = ExpertBot("golf", seed, **searched, stage_z={where: 1e9})
        assert bot.choose(obs) == own
        assert bot.last_iterations > 0  # it searched, and kept the anchor
