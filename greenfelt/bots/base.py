"""The bot interface: a bot decides from what its seat may know, never from the state.

A bot receives an :class:`Observation`: its seat's ``view``, the legal actions,
and :meth:`Observation.sample`, which imagines the hidden cards (the engine's
``determinize``). Because every sample is a function of the seat's view alone,
a bot given two states its seat cannot tell apart decides the same way with
the same seed; ``tests/bots/test_bot_leaks.py`` checks exactly that.

Search bots and rollouts also run *policies* on imagined full states: a policy
is ``policy(state, rng) -> action`` for the seat to move, and must read only
what that seat may know of the state (face-up cards, its own known cards, the
discard pile, ...). Policies never see a real state in play: the bots call them
on ``Observation.sample``.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable
from typing import Any

from greenfelt.game import Round

__all__ = ["Bot", "Observation", "Policy", "PolicyBot", "observe"]

Policy = Callable[[Any, random.Random], Any]
"""``policy(state, rng) -> action`` for ``state.to_move``; reads only what that seat may know."""


class Observation:
    """What one seat may use to decide: its view, its legal actions, imagined worlds.

    ``view`` and ``legal`` are computed on first use: a policy bot decides from a
    sample alone, and building a view it never reads cost a quarter of a simulated
    greedy hole (``./dev bench bench_lab``)."""

    __slots__ = ("_legal", "_round", "_view", "seat")

    def __init__(self, round_: Round, seat: int) -> None:
        self._round = round_
        self.seat = seat
        self._view: dict[str, Any] | None = None
        self._legal: list[Any] | None = None

    @property
    def view(self) -> dict[str, Any]:
        """The seat's view (``round.view(seat)``), the same dict on every use."""
        if self._view is None:
            self._view = self._round.view(self.seat)
        return self._view

    @property
    def game(self) -> str:
        """``"golf"`` or ``"spades"``."""
        game: str = self.view["game"]
        return game

    @property
    def legal(self) -> list[Any]:
        """The seat's legal actions, the same list on every use."""
        if self._legal is None:
            self._legal = self._round.legal_actions(self.seat)
        return self._legal

    @property
    def rules(self) -> Any:
        """The rules of the game being played (public)."""
        return self._round.rules  # type: ignore[attr-defined]

    def sample(self, rng: random.Random) -> Any:
        """A full state consistent with this seat's view, hidden cards drawn with ``rng``."""
        return self._round.determinize(self.seat, rng)


def observe(round_: Round, seat: int | None = None) -> Observation:
    """The observation of ``seat`` (the seat to move by default)."""
    if seat is None:
        seat = round_.to_move
        if seat is None:
            raise ValueError("the round is over: nobody is to move")
    return Observation(round_, seat)


class Bot(abc.ABC):
    """A player. Subclasses implement :meth:`choose`; ``rng`` is the bot's own generator."""

    level: str = "bot"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    @abc.abstractmethod
    def choose(self, obs: Observation) -> Any:
        """The action to play, one of ``obs.legal``."""

    def act(self, round_: Round, seat: int | None = None) -> Any:
        """Observe ``round_`` as ``seat`` (the one to move) and choose."""
        return self.choose(observe(round_, seat))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level}>"


class PolicyBot(Bot):
    """A bot that plays a :data:`Policy` on a sample of its seat's view.

    A sample agrees with the real round on all the seat may know, and a policy
    reads nothing else: the decision is the one the real round would give.
    Subclasses name the level and the policy (``policy = staticmethod(...)``).
    """

    policy: Policy

    def choose(self, obs: Observation) -> Any:
        return self.policy(obs.sample(self.rng), self.rng)


class RandomBot(Bot):
    """Uniform over the legal actions: a baseline, not a level for people."""

    level = "random"

    def choose(self, obs: Observation) -> Any:
        return self.rng.choice(obs.legal)


def random_policy(state: Any, rng: random.Random) -> Any:
    """The random policy on a full state (for rollouts and baselines)."""
    return rng.choice(state.legal_actions())
