"""``open_bonus``: the expert's value for leaving the round open when it could close it.

G3.1: a seat whose last face-down card is turned up closes the round. The
rollouts value a move that keeps the round open by the playout's play of the
rest, which is weaker than the search's, so the option adds a bonus to such a
move at the root. These tests hold it to that and nothing more: it never picks
a closing move when the bonus outweighs any reward, and it changes nothing
where no move closes or no move keeps the round open.
"""

from __future__ import annotations

import random

import pytest

from greenfelt.bots import BotError, make_bot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.ismcts import ExpertBot
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase

SMALL = {"iterations": 60, "per_choice": 12}
"""A small budget: the tests are about which moves get the bonus, not strength."""


def closes(state: GolfRound, action: GolfAction) -> bool:
    """Whether ``action`` turns up the mover's last face-down card (G3.1)."""
    seat = state.to_move
    assert seat is not None
    if action.kind not in (Kind.FLIP, Kind.SWAP) or action.pos is None:
        return False
    return state.down[seat] == 1 and not state.up[seat * state.size + action.pos]


def decisions(count: int, seed: int, can_close: bool) -> list[GolfRound]:
    """Two-player six-card decisions with a card in hand or a flip to choose, from
    greedy rounds: with both a closing and an open move, or (``can_close`` false)
    with none that closes."""
    rng = random.Random(seed)
    out: list[GolfRound] = []
    while len(out) < count:
        state = new_round(find_preset("six-card"), 2, 0, rng=random.Random(rng.random()))
        while not state.is_over and len(out) < count:
            legal = state.legal_actions()
            if state.phase in (Phase.DRAWN, Phase.TAKEN, Phase.FLIP) and len(legal) > 1:
                closing = sum(closes(state, a) for a in legal)
                if can_close:
                    wanted = 0 < closing < len(legal) and state.closer is None
                else:
                    wanted = closing == 0 and rng.random() < 0.2
                if wanted:
                    out.append(state.clone())
            state.apply_unchecked(greedy_policy(state, rng))
    return out


def test_a_bonus_above_any_reward_keeps_the_round_open() -> None:
    """Rewards lie in [0, 1], so a bonus of 2 outweighs any difference the search
    finds, and the anchor's test too: the expert never closes (G3.1)."""
    closed_without = 0
    for index, state in enumerate(decisions(12, 5, can_close=True)):
        seat = state.to_move
        assert seat is not None
        keep = ExpertBot("golf", index, open_bonus=2.0, **SMALL).act(state, seat)
        assert not closes(state, keep)
        plain = ExpertBot("golf", index, **SMALL).act(state, seat)
        closed_without += closes(state, plain)
    assert closed_without > 0, "without the bonus some of these decisions close"


def test_no_bonus_where_no_move_closes() -> None:
    """Where nothing closes, every move is open: the bonus ranks nothing differently."""
    for index, state in enumerate(decisions(8, 6, can_close=False)):
        seat = state.to_move
        assert seat is not None
        with_bonus = ExpertBot("golf", index, open_bonus=2.0, **SMALL).act(state, seat)
        assert with_bonus == ExpertBot("golf", index, **SMALL).act(state, seat)


def test_the_bonus_is_for_golf() -> None:
    with pytest.raises(BotError, match="open_bonus is for Golf"):
        make_bot("spades", "expert", 1, open_bonus=0.02)
