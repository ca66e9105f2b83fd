"""Errors by cause (STYLE 7).

Every message says what was wrong and where, in words a player or operator can
act on. Messages that may reach a client describe the position only as that
seat may know it, never the full state.
"""

from __future__ import annotations

__all__ = [
    "GreenfeltError",
    "IllegalAction",
    "NotYourTurn",
    "NotationError",
    "RecordError",
    "RulesError",
]


class GreenfeltError(Exception):
    """Base of every error greenfelt raises on bad input."""


class NotationError(GreenfeltError, ValueError):
    """Text that is not valid notation: a card, a layout, an action (C2-C3)."""


class RulesError(GreenfeltError, ValueError):
    """A rule set that is unknown, malformed or cannot be played."""


class IllegalAction(GreenfeltError, ValueError):
    """An action that is malformed, or not allowed in the current position."""


class NotYourTurn(IllegalAction):
    """An action from a seat that is not the one to move."""


class RecordError(GreenfeltError, ValueError):
    """A game record that cannot be read or does not replay."""
