"""Bots for both games, chosen by level name: random, greedy, expert.

Every bot decides from an :class:`~greenfelt.bots.base.Observation` (its seat's
view, legal actions and imagined worlds), never from the real state.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from greenfelt.bots.base import Bot, Observation, RandomBot, observe
from greenfelt.errors import GreenfeltError

__all__ = ["GAMES", "LEVELS", "Bot", "BotError", "Observation", "make_bot", "observe"]

GAMES = ("golf", "spades")
LEVELS = ("random", "greedy", "expert")

# level -> game -> "module:Class"; modules load on first use.
_REGISTRY: dict[str, dict[str, str]] = {
    "greedy": {
        "golf": "greenfelt.bots.golf_greedy:GreedyGolfBot",
        "spades": "greenfelt.bots.spades_greedy:GreedySpadesBot",
    },
    "expert": {
        "golf": "greenfelt.bots.ismcts:ExpertBot",
        "spades": "greenfelt.bots.ismcts:ExpertBot",
    },
}


class BotError(GreenfeltError, ValueError):
    """An unknown bot level or game, or bad bot options."""


def make_bot(game: str, level: str, rng: random.Random | int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` for ``game``; raises BotError listing what exists."""
    if game not in GAMES:
        raise BotError(f"unknown game {game!r}: choose {' or '.join(GAMES)}")
    level = level.strip().lower()
    if level == "random":
        if options:
            raise BotError(f"the random bot takes no options ({', '.join(options)})")
        return RandomBot(rng)
    if level not in _REGISTRY:
        raise BotError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    module_name, _, class_name = _REGISTRY[level][game].partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as error:
        raise BotError(f"the {level} {game} bot is not available: {error}") from None
    try:
        bot: Bot = cls(game, rng, **options) if level == "expert" else cls(rng, **options)
    except TypeError as error:
        raise BotError(f"bad options for the {level} {game} bot: {error}") from None
    return bot
