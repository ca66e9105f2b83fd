"""A hole's reward estimated from greedy's own estimates, for rollouts cut short.

The expert's rollouts play a hole out with greedy, which is what costs it most
of its time where greedy is slow: a nine-card-wiki hole is about 50 moves of a
policy that weighs lines, adjacent pairs and blocks (G5.3, G5.4). With the
``estimate`` option, a rollout stops once the searching seat has ended a few
turns and takes this estimate of its reward instead, so a search with a time
limit (at tables) weighs each move on several times more imagined worlds.

The estimate reads what the seat sees, as greedy does
(:func:`~greenfelt.bots.golf_greedy.estimated_totals`: each layout's score with
unseen cards at their mean and matches one card short credited) and how many
cards each side has face down, and maps them to the reward
(``ismcts.golf_reward``: the result of the hole, and its margin over 20 points)
by two small models fitted to greedy self-play (``benchmarks/fit_leaf.py``): a
logistic one for the result and a linear one for the clipped margin, each on

- the lead (the other's estimate less the seat's, over 20),
- the lead over the square root of one plus the face-down cards left in all
  (a lead counts for more as the round nears its end),
- the other's face-down cards less the seat's, over 9 (tempo: who can close
  first, G3.1),
- a constant (the other seat moves next).

Only two-player rounds of the fitted presets have an estimate (:func:`applies`).
Nine-card-wiki's is used by every search; nine-card's and bga's only by a search with
a time limit (at tables, :attr:`LeafFit.untimed`): without one they read behind
rollouts played out (docs/benchmarks.md).
Four-card has none: in closed golf a turn's end says little of the hole, and a fit
measured no gain at tables (docs/benchmarks.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from typing import Any

from greenfelt.bots.golf_greedy import estimated_totals
from greenfelt.golf.rules import GolfRules, find_preset

__all__ = ["FITS", "LeafFit", "applies", "fit_for", "leaf_value", "reward", "terms"]


@dataclass(frozen=True, slots=True)
class LeafFit:
    """The two models' weights, in the order of :func:`terms`."""

    win: tuple[float, float, float, float]
    """Logistic: the chance the seat wins the hole (a tie counts half)."""
    margin: tuple[float, float, float, float]
    """Linear: the margin (the other's score less the seat's) over 20, within +-1."""
    untimed: bool = True
    """Whether a search without a time limit (simulations) takes the estimate too.
    False where it was measured only at tables: there rollouts played out cannot
    finish in the time, and a search without a limit keeps playing them out."""


FITS: dict[str, LeafFit] = {
    # benchmarks/fit_leaf.py --preset nine-card-wiki: see its docstring for the fit.
    "nine-card-wiki": LeafFit(
        win=(-1.813, 9.561, 1.309, -0.192),
        margin=(-0.221, 1.89, 0.431, -0.057),
    ),
    # The same, --preset nine-card and --preset bga (20,000 deals, seed 2), used at
    # tables only (docs/benchmarks.md, "Rollouts that stop at greedy's estimate").
    "nine-card": LeafFit(
        win=(-1.096, 8.013, 1.248, -0.1921),
        margin=(0.1474, 0.9226, 0.3594, -0.05412),
        untimed=False,
    ),
    "bga": LeafFit(
        win=(-1.053, 6.278, 2.017, -0.2309),
        margin=(0.0572, 0.78, 0.5605, -0.05875),
        untimed=False,
    ),
}
"""Fitted estimates by preset name."""


def terms(mine: float, theirs: float, my_down: int, their_down: int) -> tuple[float, ...]:
    """The models' inputs for the seat's and the other's estimates and face-down cards."""
    lead = (theirs - mine) / 20.0
    return (lead, lead / math.sqrt(1 + my_down + their_down), (their_down - my_down) / 9.0, 1.0)


def _comparable(rules: GolfRules) -> GolfRules:
    """The rules but for what the value of one hole does not depend on."""
    return replace(rules, end="holes:9", tiebreak="share")


@cache
def _references() -> tuple[tuple[GolfRules, LeafFit], ...]:
    return tuple((_comparable(find_preset(name)), fit) for name, fit in FITS.items())


@lru_cache(maxsize=64)
def fit_for(rules: GolfRules, players: int) -> LeafFit | None:
    """The fitted estimate for these rules and players, if any (asked at every
    decision of the expert, so kept by rules)."""
    if players != 2:
        return None
    mine = _comparable(rules)
    for reference, fit in _references():
        if reference == mine:
            return fit
    return None


def applies(rules: GolfRules, players: int) -> bool:
    """Whether an estimate was fitted for these rules (two players)."""
    return fit_for(rules, players) is not None


def reward(fit: LeafFit, x: tuple[float, ...], win_weight: float) -> float:
    """The estimated reward for :func:`terms` ``x``: ``win_weight`` of the chance to win
    the hole, the rest the expected margin (``ismcts.golf_reward``'s scale, [0, 1])."""
    z = sum(w * v for w, v in zip(fit.win, x, strict=True))
    win = 1.0 / (1.0 + math.exp(-z)) if z > -60.0 else 0.0
    margin = max(-1.0, min(1.0, sum(w * v for w, v in zip(fit.margin, x, strict=True))))
    return win_weight * win + (1.0 - win_weight) / 2.0 * (margin + 1.0)


def leaf_value(state: Any, seat: int, fit: LeafFit, win_weight: float) -> float:
    """The estimated reward of ``state`` for ``seat``, just after its turn ended,
    from what the seat sees there: where the search's rollouts may stop
    (``ismcts``'s ``estimate`` option)."""
    totals = estimated_totals(state, seat)
    down = state.down
    return reward(
        fit, terms(totals[seat], totals[1 - seat], down[seat], down[1 - seat]), win_weight
    )
