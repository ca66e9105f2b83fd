"""The textbook Golf opponent of the benchmarks (``benchmarks/textbook_golf.py``).

It calibrates the expert's strength bar (issue 4; docs/expert-six-card.md), so
the figures measured against it hold only if it plays legal Golf to the end of
every hole and, like every bot, decides from its seat's information alone.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from greenfelt.bots import make_bot
from greenfelt.bots.arena import play_round
from greenfelt.bots.golf_sight import UNKNOWN, seat_sight
from greenfelt.golf import find_preset, new_round
from greenfelt.golf.actions import Kind
from greenfelt.golf.game import Phase
from tests.bots.helpers import golf_states

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from textbook_golf import TextbookGolfBot, textbook_policy


@pytest.mark.parametrize("preset", ["six-card", "eight-card", "ten-card"])
def test_plays_whole_holes_against_greedy(preset: str) -> None:
    """G2-G3: every move goes through the checked ``apply``; every hole ends scored."""
    rules = find_preset(preset)
    for deal in range(40):
        state = new_round(rules, 2, deal % 2, rng=random.Random(deal))
        bots = [TextbookGolfBot(deal), make_bot("golf", "greedy", deal)]
        play_round(state, bots if deal % 2 else bots[::-1])
        assert state.is_over
        assert len(state.scores) == 2


def test_decision_is_a_function_of_the_seats_information() -> None:
    """G8.1: resampled hidden cards (stock, face-down cards) give the same move."""
    states = golf_states(60, 7, presets=["six-card"], seats=[2])
    changed = 0
    for index, state in enumerate(states):
        seat = state.to_move
        twin = state.determinize(seat, random.Random(500 + index))
        changed += twin.cards != state.cards or twin.stock != state.stock
        # The policy itself on both states (the bot samples first, which alone would
        # hide a policy that read hidden cards), then the bot as players meet it.
        policy = textbook_policy(state, random.Random(index))
        assert policy == textbook_policy(twin, random.Random(index)), f"state {index}"
        real = TextbookGolfBot(index).act(state, seat)
        assert real == TextbookGolfBot(index).act(twin, seat), f"state {index}"
        assert real in state.legal_actions()
    assert changed > len(states) // 2


def test_a_held_card_that_pairs_goes_into_that_column() -> None:
    """G5.3: a held card matching a face-up card of an unpaired column completes the pair."""
    columns = find_preset("six-card").shape.column_lines
    seen = 0
    for state in golf_states(400, 11, presets=["six-card"], seats=[2]):
        if state.phase not in (Phase.DRAWN, Phase.TAKEN):
            continue
        seat = state.to_move
        cells, held = seat_sight(state, seat)
        mine = cells[seat * 6 : seat * 6 + 6]
        slots = set()
        for a, b in columns:
            for p, q in ((a, b), (b, a)):
                up = mine[p] != UNKNOWN and mine[p] < 52
                pair = mine[q] != UNKNOWN and mine[q] < 52 and mine[q] % 13 == mine[p] % 13
                if up and not pair and held < 52 and mine[p] % 13 == held % 13:
                    slots.add(q)
        if not slots:
            continue
        seen += 1
        action = textbook_policy(state, random.Random(0))
        assert action.kind is Kind.SWAP and action.pos in slots
    assert seen >= 5
