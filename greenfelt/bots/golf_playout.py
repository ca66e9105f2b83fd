"""The expert's own playout policy for Golf: greedy, with its placements re-ranked.

The expert (``ismcts``) values a move by playing the round out from imagined
worlds. It plays the others as greedy (a sound player who follows the seed
documents), but its own later moves are stronger than greedy's; a playout that
plays them as greedy undervalues plans greedy would not finish. This policy is
one step of *approximate policy iteration*: where to put a card in hand (G2.2,
G2.3), the decision that holds most of greedy's regret (``bench_regret``), is
chosen by a linear model fitted to greedy rollout values of every move over
thousands of positions (``benchmarks/fit_playout.py``). Every other decision is
greedy's.

The model reads only what greedy reads (the seat's sight, :func:`seat_sight`),
so it is as safe with hidden cards as greedy is. Its score of a move is
``sum(W[m][s] * move[m] * state[s])``: each *move term* (greedy's own score,
gain and cost, whether it replaces an unknown card, makes or breaks a pair,
closes the round, ...) weighted by a blend of *state terms* (who leads, how
many cards each side still has face down, how far the round is). That lets it
learn tempo: when a seat ahead should replace unknown cards to end the round
sooner, and when a seat behind should not.

It applies where it was fitted: layouts of two rows whose columns pair
(six-, eight- and ten-card), without card powers; elsewhere it is greedy.
Measured on six-card, two players (``fit_playout.py``): it beats greedy in
54-55% of decided holes. The expert plays it for its own seat in rollouts,
keeps the model's move unless its search finds a clearly better one (the
anchor, ``ismcts.DEFAULT_ANCHOR_Z``) and can start its root search from the
model's estimates (:func:`prior`, off by default); README, "Benchmarks".
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from operator import mul

from greenfelt.bots.golf_greedy import (
    UNKNOWN,
    _Decision,
    _PairColumnEval,
    _tables,
    greedy_policy,
)
from greenfelt.golf.actions import GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase

__all__ = [
    "MOVE_TERMS",
    "STATE_TERMS",
    "WEIGHTS",
    "applies",
    "playout_policy",
    "prior",
    "score_moves",
    "terms",
]

MOVE_TERMS = (
    "greedy",  # greedy's score of the move (gain less cost), /10
    "gain",  # how much the move lowers the seat's estimate, /10
    "cost",  # what the card put on the pile gives the next player, /10
    "unknown",  # it replaces an unknown card
    "discard",  # it discards the card in hand
    "makes_pair",  # the card pairs its column's known partner (G5.3)
    "breaks_pair",  # it replaces one of a matched pair
    "closes",  # it turns the seat's last unknown card: the round closes (G3.1)
    "old",  # the value of the known card it replaces, /10
    "partner_unknown",  # the column's other card is unknown
    "partner",  # the value of the column's other card when known, /10
    "gain_unknown",  # the gain when it replaces an unknown card, /10
)
STATE_TERMS = (
    "one",  # a constant: the move term's own weight
    "lead",  # others' expected final score less this seat's, /10, within +-1.5
    "own_unknown",  # share of this seat's cards still unknown
    "rival_unknown",  # the fewest unknown cards of any other seat, as a share
    "rounds",  # rounds played, /10
    "mean",  # the unseen mean (the value of an unknown card), /10
)

# Fitted by ``benchmarks/fit_playout.py`` (ridge 1.0) to greedy rollout values
# (100 worlds) of every placement at 8,000 two-player six-card positions; rows
# follow MOVE_TERMS, columns STATE_TERMS. Held out: regret 0.0238 a placement
# against greedy's 0.0316; against greedy: 54.1% of decided holes, +0.82 points.
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.09035, -0.01455, -0.03960, -0.05077, -0.00754, 0.01947),  # greedy
    (-0.18002, 0.05775, -0.08031, 0.04025, 0.11672, 0.49680),  # gain
    (0.11902, -0.02900, 0.02420, 0.03737, -0.28346, -0.69684),  # cost
    (-0.17299, 0.00676, 0.14371, 0.00219, -0.00890, 0.17396),  # unknown
    (-0.09377, 0.01393, 0.18715, 0.00935, 0.01750, 0.09333),  # discard
    (0.17801, -0.01460, 0.00735, 0.08895, -0.03851, -0.21853),  # makes_pair
    (-0.09399, -0.03108, -0.05155, -0.04908, -0.04779, 0.13752),  # breaks_pair
    (-0.12814, -0.05906, -0.02136, -0.16698, 0.03686, 0.37645),  # closes
    (-0.14775, 0.03611, 0.05326, -0.06823, 0.11558, 0.27130),  # old
    (-0.00774, 0.00093, 0.03688, 0.00295, -0.00789, 0.01654),  # partner_unknown
    (0.05884, -0.00260, -0.04842, 0.04238, 0.00619, -0.10155),  # partner
    (-0.09340, 0.00070, -0.04254, -0.02037, 0.12460, 0.24079),  # gain_unknown
)


def applies(state: GolfRound) -> bool:
    """Whether the fitted model covers these rules: two-row column pairs, no powers."""
    rules = state.rules
    return not rules.has_powers and isinstance(_tables(rules, state.n), _PairColumnEval)


def _model_decides(state: GolfRound) -> bool:
    """A card in hand (G2.2, G2.3) under rules the fitted model covers."""
    phase = state.phase
    return (phase is Phase.DRAWN or phase is Phase.TAKEN) and bool(WEIGHTS) and applies(state)


def terms(state: GolfRound) -> tuple[list[float], dict[GolfAction, list[float]]]:
    """The state terms and each placement's move terms, for the seat holding a card."""
    seat = state.to_move
    held = state.held
    if seat is None or held is None:
        raise ValueError("terms need a seat holding a card (phase drawn or taken)")
    t = _tables(state.rules, state.n)
    if not isinstance(t, _PairColumnEval) or state.rules.has_powers:
        raise ValueError("terms cover two-row column layouts without powers (see applies)")
    d = _Decision(state, seat, t).estimate()
    cells, base, v, key, size = d.cells, d.base, t.v, t.key, t.size
    before = d.total(seat)
    lead = max(-1.5, min(1.5, (d.others_final() - before) / 10.0))
    own = sum(1 for p in range(size) if cells[base + p] == UNKNOWN)
    rival = min(
        sum(1 for p in range(size) if cells[o * size + p] == UNKNOWN)
        for o in range(state.n)
        if o != seat
    )
    closing = t.closes and state.closer is None and state.down[seat] == 1
    state_terms = [
        1.0,
        lead,
        own / size,
        rival / size,
        state.turns / state.n / 10.0,
        v[UNKNOWN] / 10.0,
    ]
    partner = t.partner
    moves: dict[GolfAction, list[float]] = {}
    for action, gain, cost, old in d.placements(held, state.phase is Phase.DRAWN):
        if action.kind is Kind.DISCARD:
            moves[action] = [-cost / 10, 0, cost / 10, 0, 1, 0, 0, 0, 0, 0, 0, 0]
            continue
        pos = action.pos
        assert pos is not None
        other = cells[base + partner[pos]]
        unknown = old == UNKNOWN
        known_other = other < 53
        moves[action] = [
            (gain - cost) / 10.0,
            gain / 10.0,
            cost / 10.0 if old < 53 else 0.0,  # a closing bonus or veto is in "greedy" only
            1.0 if unknown else 0.0,
            0.0,
            1.0 if known_other and key[held] == key[other] else 0.0,
            1.0 if old < 53 and known_other and key[old] == key[other] else 0.0,
            1.0 if closing and unknown else 0.0,
            v[old] / 10.0 if old < 53 else 0.0,
            1.0 if other == UNKNOWN else 0.0,
            v[other] / 10.0 if known_other else 0.0,
            gain / 10.0 if unknown else 0.0,
        ]
    return state_terms, moves


def score_moves(
    weights: Sequence[Sequence[float]],
    state_terms: Sequence[float],
    moves: dict[GolfAction, list[float]],
) -> dict[GolfAction, float]:
    """The model's score of each move (higher is better)."""
    coef = [sum(map(mul, row, state_terms)) for row in weights]
    return {action: sum(map(mul, coef, row)) for action, row in moves.items()}


def playout_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """Greedy, except where to put a card in hand, which the fitted model chooses."""
    if _model_decides(state):
        state_terms, moves = terms(state)
        if len(moves) > 1:
            # score_moves, inlined: this runs in every rollout of the expert.
            coef = [sum(map(mul, row, state_terms)) for row in WEIGHTS]
            best = -math.inf
            choice: GolfAction | None = None
            for action, row in moves.items():
                score = sum(map(mul, coef, row))
                if score > best:
                    best, choice = score, action
            assert choice is not None
            return choice
    return greedy_policy(state, rng)


def prior(state: GolfRound) -> dict[GolfAction, float] | None:
    """The model's estimate of each placement's value relative to the average move
    (in chances to win the hole), where it applies; else None. The expert starts its
    search from it, so few samples do not outvote a sound model (``ismcts``)."""
    if not _model_decides(state):
        return None
    scores = score_moves(WEIGHTS, *terms(state))
    mean = sum(scores.values()) / len(scores)
    return {action: score - mean for action, score in scores.items()}
