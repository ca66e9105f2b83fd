"""Bots for both games, chosen by level name: random, easy, greedy, expert.

Every bot decides from an :class:`~greenfelt.bots.base.Observation` (its seat's
view, legal actions and imagined worlds), never from the real state.
"""

from __future__ import annotations

import importlib
import inspect
import random
from typing import Any

from greenfelt.bots.base import Bot, Observation, RandomBot, observe
from greenfelt.errors import GreenfeltError

__all__ = [
    "GAMES",
    "LEVELS",
    "TABLE_TIME_MS",
    "Bot",
    "BotError",
    "Observation",
    "make_bot",
    "observe",
    "table_bot",
]

GAMES = ("golf", "spades")
LEVELS = ("random", "easy", "greedy", "expert")
"""Every level by name, weakest first; `random` is a baseline, the others are for people."""

# level -> game -> "module:Class"; modules load on first use.
_REGISTRY: dict[str, dict[str, str]] = {
    "easy": {
        "golf": "greenfelt.bots.golf_easy:EasyGolfBot",
        "spades": "greenfelt.bots.spades_easy:EasySpadesBot",
    },
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
    known = bot_options(cls)
    unknown = sorted(set(options) - set(known))
    if unknown:
        offer = f"its options are: {', '.join(known)}" if known else "it takes no options"
        raise BotError(
            f"the {level} {game} bot has no option {', '.join(map(repr, unknown))}; {offer}"
        )
    try:
        bot: Bot = cls(game, rng, **options) if level == "expert" else cls(rng, **options)
    except (TypeError, ValueError) as error:  # a value of the wrong kind, or out of range
        # float("abc") says "could not convert string to float: 'abc'": name the option.
        named = [
            f"{name}={value!r}" for name, value in options.items() if repr(value) in str(error)
        ]
        where = f" ({', '.join(named)})" if named and isinstance(error, ValueError) else ""
        raise BotError(f"bad options for the {level} {game} bot{where}: {error}") from None
    return bot


def bot_options(cls: type) -> list[str]:
    """The options a bot class takes by name (its keyword parameters past ``game`` and
    ``rng``), in the order it declares them: what ``--bot-option`` may set."""
    return [
        name
        for name, parameter in inspect.signature(cls).parameters.items()
        if name not in ("game", "rng") and parameter.kind is not parameter.VAR_KEYWORD
    ]


TABLE_TIME_MS = 200.0
"""The most an expert may think per move at a table with people (server, terminal).

Its default budget is a number of iterations, which keeps simulations
reproducible; where moves have many candidates (nine cards, a BGA king's swaps)
those iterations take longer, so people's tables add this cap as well."""


def table_bot(game: str, level: str, rng: random.Random | int | None = None) -> Bot:
    """A bot for a table with people: ``make_bot``, the expert capped at :data:`TABLE_TIME_MS`."""
    if level.strip().lower() == "expert":
        return make_bot(game, level, rng, time_ms=TABLE_TIME_MS)
    return make_bot(game, level, rng)
