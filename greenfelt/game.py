"""The small interface every game of greenfelt offers its clients (DESIGN.md).

Records, the command line, bots and the server use games only through these
protocols, so Golf and Spades are interchangeable to them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, Self

from greenfelt.cards import Card

__all__ = ["Match", "Round"]


class Round(Protocol):
    """One round (a Golf hole, a Spades hand): a pure function of rules, deck and actions."""

    @property
    def to_move(self) -> int | None:
        """The seat whose decision it is, or ``None`` once the round is over."""

    @property
    def is_over(self) -> bool: ...

    @property
    def scores(self) -> list[int] | None:
        """Round scores in seat order once over, else ``None``."""

    @property
    def actions(self) -> list[tuple[int, Any]]:
        """Every action applied so far, as ``(seat, action)``."""

    def legal_actions(self, seat: int | None = None) -> list[Any]:
        """Legal actions of the seat to move (of ``seat``: empty unless it is to move)."""

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply a checked action (an action value or its text); raises IllegalAction."""

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-able data; ``None`` is a spectator."""

    def clone(self) -> Self: ...

    def determinize(self, seat: int, rng: random.Random) -> Self:
        """A full state consistent with ``view(seat)``, every unknown card resampled."""


class Match(Protocol):
    """A series of rounds with totals, a dealer rotation and an end condition."""

    names: list[str]

    @property
    def rounds(self) -> Sequence[Round]:
        """Every round dealt so far; the last may be in progress."""

    @property
    def next_dealer(self) -> int:
        """The dealer of the next round to be dealt."""

    @property
    def needs_deal(self) -> bool:
        """True when no round is in progress and the match is not over."""

    @property
    def is_over(self) -> bool: ...

    @property
    def totals(self) -> list[int]:
        """Match totals over completed rounds, in seat order."""

    def start_round(self, deck: Sequence[Card], dealer: int | None = None) -> Round:
        """Deal the next round from ``deck`` (top card first)."""

    def apply(self, action: Any, seat: int | None = None) -> None:
        """Apply a checked action to the round in progress."""

    def round_record(self, index: int) -> dict[str, Any]:
        """Round ``index`` in the record format: dealer, deck, actions (and chance events)."""
