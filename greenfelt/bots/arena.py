"""Bots playing rounds and matches through the checked engine interface."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from greenfelt.bots.base import Bot
from greenfelt.game import Round

__all__ = ["play_match", "play_round"]


def play_round(round_: Round, bots: Sequence[Bot]) -> None:
    """Play ``round_`` to its end, ``bots[seat]`` for each round seat.

    Actions go through the checked ``apply``: a bot that chose an illegal
    action is a bug that must surface, not corrupt the round.
    """
    while not round_.is_over:
        seat = round_.to_move
        assert seat is not None
        round_.apply(bots[seat].act(round_, seat), seat)


def play_match(
    match: Any, bots: Sequence[Bot], rng: random.Random, max_rounds: int = 10_000
) -> None:
    """Deal with ``rng`` and play ``match`` to its end; ``bots[seat]`` per match seat."""
    for _ in range(max_rounds):
        if match.is_over:
            return
        match.start_round(rng=rng)
        rnd = match.rounds[-1]
        seating = match.seating(len(match.rounds) - 1) if hasattr(match, "seating") else None
        round_bots = [bots[s] for s in seating] if seating else list(bots)
        play_round(rnd, round_bots)
    raise RuntimeError(f"the match did not end within {max_rounds} rounds")
