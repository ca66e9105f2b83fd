"""The expert's own playout policy for Golf: greedy, with its placements re-ranked.

The expert (``ismcts``) values a move by playing the round out from imagined
worlds. It plays the others as greedy (a sound player who follows the seed
documents), but its own later moves are stronger than greedy's; a playout that
plays them as greedy undervalues plans greedy would not finish. This policy is
one step of *approximate policy iteration*: where to put a card in hand (G2.2,
G2.3), the decision that holds most of greedy's regret (``bench_regret``), is
chosen by a linear model fitted to rollout values of every move over thousands
of positions (``benchmarks/fit_playout.py``), in two rounds: first with greedy
playing on, then with the first round's model playing on for the mover. Every
other decision is greedy's.

The model reads only what greedy reads (the seat's sight, :func:`seat_sight`),
so it is as safe with hidden cards as greedy is. Its score of a move is
``sum(W[m][s] * move[m] * state[s])``: each *move term* (greedy's own score,
gain and cost, whether it replaces an unknown card, makes or breaks a pair,
closes the round, ...) weighted by a blend of *state terms* (who leads, how
many cards each side still has face down, how far the round is). That lets it
learn tempo: when a seat ahead should replace unknown cards to end the round
sooner, and when a seat behind should not.

The same method can fit the turn (draw or take, :func:`turn_terms`) and the
choice after a discard (flip which card or none, :func:`flip_terms`):
``fit_playout.py --decision turn|flip``. At two players, fitted on 4,000 and
3,000 positions, they gave up as much as greedy on held-out positions (0.0077
against 0.0073 a turn, 0.0186 against 0.0184 a flip) and won no more holes, so
none ships there (``TURN_WEIGHTS`` and ``FLIP_WEIGHTS`` are empty) and greedy
turns and flips.

It applies where it was fitted: layouts of two rows whose columns pair
(six-, eight- and ten-card), without card powers; elsewhere it is greedy.
Measured on six-card, two players (``fit_playout.py``): it beats greedy in
54-55% of decided holes. From three players a seat races more rivals to the
close, and the placements and the turn take weights fitted at three players
(``WEIGHTS_MULTI``, ``TURN_WEIGHTS_MULTI``; :func:`weights_for`), fitted to make
the best move score highest rather than to every move's value; they are what the
`greedy` level plays there (``golf_greedy.greedy_level_policy``). The expert
plays it for its own seat in rollouts, keeps the model's move unless its search
finds a clearly better one (the anchor, ``ismcts.DEFAULT_ANCHOR_Z``) and can
start its root search from the model's estimates (:func:`prior`, off by
default); docs/expert-six-card.md.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from operator import mul

from greenfelt.bots.golf_estimate import PairColumnEval, layout_tables
from greenfelt.bots.golf_greedy import Decision, greedy_policy
from greenfelt.bots.golf_sight import UNKNOWN
from greenfelt.golf.actions import DRAW, PASS, TAKE, GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase

__all__ = [
    "DRAGGING_ROUNDS_PER_CARD",
    "FLIP_TERMS",
    "FLIP_WEIGHTS",
    "FLIP_WEIGHTS_MULTI",
    "MOVE_TERMS",
    "STATE_TERMS",
    "TURN_TERMS",
    "TURN_WEIGHTS",
    "TURN_WEIGHTS_MULTI",
    "WEIGHTS",
    "WEIGHTS_MULTI",
    "Terms",
    "applies",
    "flip_terms",
    "placement_scores",
    "playout_policy",
    "prior",
    "score_moves",
    "terms",
    "turn_terms",
    "weights_for",
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
Terms = tuple[list[float], dict[GolfAction, list[float]]]
"""A decision's state terms, and each legal move's move terms."""

TURN_TERMS = (  # of taking the discard (G2.1); drawing is all zeros
    "take",  # a constant: taking rather than drawing
    "greedy",  # greedy takes it
    "take_value",  # greedy's value of the best use of the discard (gain less cost), /10
    "draw_gain",  # greedy's expected gain of a draw from the stock, /10
    "take_pair",  # that best use pairs the column's known partner (G5.3)
    "take_unknown",  # it replaces an unknown card
    "card",  # the discard's value, /10
)
FLIP_TERMS = (  # of each choice after a discard (G2.2, may flip)
    "pass",  # not flipping
    "closes",  # flipping the seat's last face-down card (G3.1)
    "partner_unknown",  # the column's other card is unknown too
    "partner",  # the value of the column's other card when known, /10
    "pair_chance",  # the share of unseen cards that pair that known card
)
STATE_TERMS = (
    "one",  # a constant: the move term's own weight
    "lead",  # others' expected final score less this seat's, /10, within +-1.5
    "own_unknown",  # share of this seat's cards still unknown
    "rival_unknown",  # the fewest unknown cards of any other seat, as a share
    "rounds",  # rounds played, /10
    "mean",  # the unseen mean (the value of an unknown card), /10
)

# Fitted by ``benchmarks/fit_playout.py`` (ridge 1.0) to rollout values (100 worlds)
# of every placement at 8,000 two-player six-card positions, the mover's seat played
# on by the previous round's model (``--continuation playout``: a second step of
# policy iteration), the others by greedy; rows follow MOVE_TERMS, columns
# STATE_TERMS. Held out: regret 0.0234 a placement against greedy's 0.0300; against
# greedy: 54.6% +-1.0 of 9,482 decided holes, +0.90 points a hole (the first
# round's model, fitted on greedy continuations: 54.1%, +0.82).
WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.09965, -0.01399, -0.02148, -0.01526, -0.00882, -0.01715),  # greedy
    (-0.24024, 0.06017, -0.03935, 0.02288, 0.17482, 0.55134),  # gain
    (0.02109, -0.02912, 0.04230, 0.11278, -0.26059, -0.58428),  # cost
    (-0.16857, -0.00098, 0.11150, -0.00593, 0.00016, 0.15979),  # unknown
    (-0.04274, 0.01290, 0.11085, -0.00751, -0.00660, 0.06021),  # discard
    (0.20719, -0.01822, -0.01176, 0.08496, -0.06174, -0.25024),  # makes_pair
    (-0.14896, -0.02540, 0.04509, -0.08855, 0.02738, 0.14194),  # breaks_pair
    (-0.19367, -0.04864, -0.03228, -0.08923, 0.01266, 0.48301),  # closes
    (-0.21180, 0.02615, -0.01516, -0.03775, 0.10664, 0.39698),  # old
    (0.00259, 0.00374, 0.04476, -0.00439, -0.00057, -0.01132),  # partner_unknown
    (0.04538, 0.00299, -0.04728, 0.02770, -0.01134, -0.05424),  # partner
    (-0.11298, -0.00424, 0.02240, -0.02418, 0.18523, 0.18758),  # gain_unknown
)

# Placements from three players (``weights_for``); empty, WEIGHTS would play there.
# Fitted by ``benchmarks/fit_playout.py --players 3 --continuation playout --objective
# expected`` (temperature 0.03, 1,000 steps from WEIGHTS) to rollout values (100
# worlds) of every placement at 8,000 three-player six-card positions (seed 8), the
# mover played on by WEIGHTS (the run was made while WEIGHTS_MULTI was empty), the
# others by greedy. That objective asks only that the best placement score highest,
# so these scores are no chances to win (``prior`` reads WEIGHTS); least squares on
# the same positions placed worse than WEIGHTS (regret 0.0271 a placement held out
# against 0.0258). Held out: 0.0197 against WEIGHTS' 0.0258 and greedy's 0.0310.
# In one seat against greedy, paired with WEIGHTS on the same deals: +2.6 to +3.5
# points of percentage of win value at three players, +3.5 at four, +3.9 at five. A
# second round (fresh positions, these weights playing on) did no better: 0.0189
# held out against these weights' 0.0183, +0.2 ±0.7 in play.
WEIGHTS_MULTI: tuple[tuple[float, ...], ...] = (
    (0.07248, -0.02604, 0.00985, -0.07252, 0.04136, 0.02438),  # greedy
    (0.17226, -0.04927, 0.15798, 0.09013, 0.73627, 0.96239),  # gain
    (-0.00028, -0.40496, -0.42162, -0.78393, -0.26251, -1.40180),  # cost
    (-0.31343, 0.25556, 0.00561, -0.22952, -0.22635, -0.17832),  # unknown
    (-0.06345, 0.15439, 0.24847, 0.05535, 0.06974, 0.03079),  # discard
    (0.15916, -0.09036, -0.31402, 0.08238, -0.27420, 0.08251),  # makes_pair
    (-0.16298, -0.06278, -0.06944, -0.35428, -0.06645, 0.23625),  # breaks_pair
    (0.04961, 0.48057, 0.21098, -0.41333, 0.18639, 0.33781),  # closes
    (-0.39582, 0.22332, -0.32940, -0.31854, 0.18753, 0.41071),  # old
    (-0.07907, 0.00031, 0.03366, -0.03348, 0.03394, -0.14564),  # partner_unknown
    (-0.13821, 0.20208, -0.35608, -0.32173, 0.14838, -0.25268),  # partner
    (0.21000, -0.15197, 0.47455, 0.33930, 0.15201, 0.32420),  # gain_unknown
)

# Fitted the same way to the turn (draw or take) and to the choice after a
# discard (flip which card, or none); empty: greedy decides. At two players, fits of
# both (``--decision turn``, ``--decision flip``, playout continuations, least
# squares) matched greedy and no better (module docstring), so neither ships.
TURN_WEIGHTS: tuple[tuple[float, ...], ...] = ()
FLIP_WEIGHTS: tuple[tuple[float, ...], ...] = ()

# The turn from three players: ``fit_playout.py --decision turn --players 3
# --continuation playout --objective expected --positions 6000 --seed 11`` (from
# zero weights; the mover played on with WEIGHTS_MULTI). Held out: regret 0.0029 a
# turn against greedy's 0.0041. In one seat against greedy, paired with greedy's
# turns on the same deals: +0.56 ±0.59 points of percentage of win value at three
# players (seed 11), +0.97 ±0.49 and +1.24 ±0.49 (seeds 21, 22), +0.99 ±0.46 at four.
TURN_WEIGHTS_MULTI: tuple[tuple[float, ...], ...] = (
    (-0.04358, 0.04629, -0.05841, -0.06613, -0.02346, -0.03846),  # take
    (0.06437, 0.00954, 0.00118, -0.03294, 0.06116, 0.05657),  # greedy
    (0.11124, -0.08280, 0.08832, 0.08316, 0.11969, 0.11518),  # take_value
    (-0.06734, 0.07070, -0.08935, -0.09492, -0.02998, -0.06406),  # draw_gain
    (0.04497, -0.12293, 0.02638, 0.05801, 0.26695, 0.09567),  # take_pair
    (0.02011, -0.04440, 0.02675, 0.03650, -0.10226, 0.01370),  # take_unknown
    (-0.11200, 0.09340, -0.10006, -0.09724, -0.12438, -0.11168),  # card
)
# The flip after a discard from three players: fitted the same way (``--decision
# flip``, 4,000 positions, seed 12), it gave up 0.0162 a flip held out against
# greedy's 0.0178, but in play it gained +1.04 ±1.02, +0.71 ±0.88 and +0.37 ±0.88
# points of percentage at three players (seeds 12, 21, 22) and +0.30 ±0.86 at four,
# with no points a hole: too little to carry one more model, so greedy flips.
FLIP_WEIGHTS_MULTI: tuple[tuple[float, ...], ...] = ()


def weights_for(players: int, decision: str = "place") -> tuple[tuple[float, ...], ...]:
    """The fitted weights of one decision (``place``, ``turn`` or ``flip``) at a table
    of ``players``: the two-player ones at two, and from three, where a seat has more
    rivals to race to the close, those fitted at three players (the ``_MULTI`` ones)
    where fitted. Empty: greedy decides."""
    if decision == "place":
        two, multi = WEIGHTS, WEIGHTS_MULTI
    elif decision == "turn":
        two, multi = TURN_WEIGHTS, TURN_WEIGHTS_MULTI
    elif decision == "flip":
        two, multi = FLIP_WEIGHTS, FLIP_WEIGHTS_MULTI
    else:
        raise ValueError(f"unknown decision {decision!r}: place, turn or flip")
    return multi if players >= 3 and multi else two


def applies(state: GolfRound) -> bool:
    """Whether the fitted model covers these rules: two-row column pairs, no powers."""
    rules = state.rules
    return not rules.has_powers and isinstance(layout_tables(rules, state.n), PairColumnEval)


def _model_decides(state: GolfRound) -> bool:
    """A card in hand (G2.2, G2.3) under rules the fitted model covers."""
    phase = state.phase
    return (phase is Phase.DRAWN or phase is Phase.TAKEN) and bool(WEIGHTS) and applies(state)


def _state_terms(state: GolfRound, d: Decision) -> list[float]:
    """STATE_TERMS for the seat deciding ``d`` (estimated: :meth:`Decision.estimate`)."""
    t, seat, cells = d.t, d.seat, d.cells
    size = t.size
    base = d.base
    lead = max(-1.5, min(1.5, (d.others_final() - d.total(seat)) / 10.0))
    own = cells[base : base + size].count(UNKNOWN)
    rival = min(
        cells[o * size : (o + 1) * size].count(UNKNOWN) for o in range(state.n) if o != seat
    )
    return [1.0, lead, own / size, rival / size, state.turns / state.n / 10.0, t.v[UNKNOWN] / 10.0]


def _pair_tables(state: GolfRound) -> PairColumnEval:
    t = layout_tables(state.rules, state.n)
    if not isinstance(t, PairColumnEval) or state.rules.has_powers:
        raise ValueError("terms cover two-row column layouts without powers (see applies)")
    return t


def _holding(state: GolfRound) -> tuple[PairColumnEval, Decision, int, bool, list[float]]:
    """What a placement is scored from: the tables, the estimated decision, the card in
    hand, whether putting it over the last face-down card closes (G3.1), the state terms."""
    seat = state.to_move
    held = state.held
    if seat is None or held is None:
        raise ValueError(
            "placement terms and scores need a seat holding a card (phase drawn or taken)"
        )
    t = _pair_tables(state)
    d = Decision(state, seat, t).estimate()
    closing = t.closes and state.closer is None and state.down[seat] == 1
    return t, d, held, closing, _state_terms(state, d)


def terms(state: GolfRound) -> Terms:
    """The state terms and each placement's move terms, for the seat holding a card."""
    t, d, held, closing, state_terms = _holding(state)
    cells, base, v, key, partner = d.cells, d.base, t.v, t.key, t.partner
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


def turn_terms(state: GolfRound) -> Terms | None:
    """The state terms and TURN_TERMS of drawing and taking, where the choice is just
    those two (G2.1); else None."""
    seat = state.to_move
    if seat is None or state.phase is not Phase.TURN:
        return None
    legal = state.legal_actions()
    if len(legal) != 2 or DRAW not in legal or TAKE not in legal:
        return None
    t = _pair_tables(state)
    d = Decision(state, seat, t).estimate()
    card = state.discard[-1]
    value, action = d.best_place(card, may_discard=False)
    draw = d.draw_gain()
    pos = action.pos
    assert pos is not None
    cells, base = d.cells, d.base
    other = cells[base + t.partner[pos]]
    take = [
        1.0,
        1.0 if value > 0.0 and value > draw else 0.0,
        max(-3.0, value / 10.0),  # a closing veto is -30: clipped
        draw / 10.0,
        1.0 if other < 53 and t.key[card] == t.key[other] else 0.0,
        1.0 if cells[base + pos] == UNKNOWN else 0.0,
        t.v[card] / 10.0,
    ]
    return _state_terms(state, d), {TAKE: take, DRAW: [0.0] * len(take)}


def flip_terms(state: GolfRound) -> Terms | None:
    """The state terms and FLIP_TERMS of each choice after a discard (G2.2: may flip a
    face-down card), where those are the only choices; else None."""
    seat = state.to_move
    if seat is None or state.phase is not Phase.FLIP:
        return None
    legal = state.legal_actions()
    if PASS not in legal or any(a.kind is not Kind.FLIP for a in legal if a is not PASS):
        return None
    t = _pair_tables(state)
    d = Decision(state, seat, t).estimate()
    cells, base, v, key = d.cells, d.base, t.v, t.key
    # Unseen copies by match key: the deck's (by class) less those in sight.
    seen = Counter(map(t.cls.__getitem__, chain(cells, state.discard)))
    unseen = t.total_count - sum(map(t.is_card.__getitem__, cells)) - len(state.discard)
    last = t.closes and state.closer is None and state.down[seat] == 1
    moves: dict[GolfAction, list[float]] = {PASS: [1.0, 0.0, 0.0, 0.0, 0.0]}
    for action in legal:
        if action is PASS:
            continue
        pos = action.pos
        assert pos is not None
        other = cells[base + t.partner[pos]]
        if other < 53:
            want = key[other]
            # base_count ends with the sight codes' class, which no card key matches.
            left = sum(
                n - seen[k]
                for k, (n, k_key) in enumerate(zip(t.base_count, t.class_key, strict=False))
                if k_key == want
            )
            chance = max(0, left) / unseen if unseen > 0 else 0.0
            moves[action] = [0.0, 1.0 if last else 0.0, 0.0, v[other] / 10.0, chance]
        else:
            moves[action] = [0.0, 1.0 if last else 0.0, 1.0 if other == UNKNOWN else 0.0, 0.0, 0.0]
    return _state_terms(state, d), moves


def score_moves(
    weights: Sequence[Sequence[float]],
    state_terms: Sequence[float],
    moves: dict[GolfAction, list[float]],
) -> dict[GolfAction, float]:
    """The model's score of each move (higher is better)."""
    coef = [sum(map(mul, row, state_terms)) for row in weights]
    return {action: sum(map(mul, coef, row)) for action, row in moves.items()}


def _best(
    weights: Sequence[Sequence[float]],
    state_terms: Sequence[float],
    moves: dict[GolfAction, list[float]],
) -> GolfAction:
    """The move ``weights`` scores highest: :func:`score_moves`, inlined for the hot path."""
    coef = [sum(map(mul, row, state_terms)) for row in weights]
    best = -math.inf
    choice: GolfAction | None = None
    for action, row in moves.items():
        score = sum(map(mul, coef, row))
        if score > best:
            best, choice = score, action
    assert choice is not None
    return choice


def placement_scores(state: GolfRound) -> dict[GolfAction, float]:
    """``score_moves(weights_for(state.n), *terms(state))`` without the rows of terms:
    the hot path of every rollout.

    Each move's terms times the coefficients are added in MOVE_TERMS order, as
    ``score_moves`` adds them; a term that is zero is skipped and a term that is
    one adds its coefficient, which leaves every float unchanged, so the scores
    are the same to the last bit (a test compares the two).
    """
    actions, scores = _placements(state)
    return dict(zip(actions, scores, strict=True))


def _placements(state: GolfRound) -> tuple[list[GolfAction], list[float]]:
    """The placements and their scores (:func:`placement_scores`), in lists: the
    rollouts pick the best without hashing an action."""
    t, d, held, closing, state_terms = _holding(state)
    cells, base, v, key, partner = d.cells, d.base, t.v, t.key, t.partner
    c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11 = [
        sum(map(mul, row, state_terms)) for row in weights_for(state.n)
    ]
    held_key = key[held]
    actions: list[GolfAction] = []
    scores: list[float] = []
    for action, gain, cost, old in d.placements(held, state.phase is Phase.DRAWN):
        actions.append(action)
        if action.kind is Kind.DISCARD:
            scores.append(c0 * (-cost / 10) + c2 * (cost / 10) + c4)
            continue
        pos = action.pos
        assert pos is not None
        other = cells[base + partner[pos]]
        known_old = old < 53
        known_other = other < 53
        unknown = old == UNKNOWN
        score = c0 * ((gain - cost) / 10.0) + c1 * (gain / 10.0)
        if known_old:
            score += c2 * (cost / 10.0)
        elif unknown:
            score += c3
        if known_other and held_key == key[other]:
            score += c5
        if known_old and known_other and key[old] == key[other]:
            score += c6
        if closing and unknown:
            score += c7
        if known_old:
            score += c8 * (v[old] / 10.0)
        if other == UNKNOWN:
            score += c9
        elif known_other:
            score += c10 * (v[other] / 10.0)
        if unknown:
            score += c11 * (gain / 10.0)
        scores.append(score)
    return actions, scores


# The decisions besides placements that a fitted model may take: the weights'
# decision name and the terms it scores.
_TURN_AND_FLIP = {Phase.TURN: ("turn", turn_terms), Phase.FLIP: ("flip", flip_terms)}


# Rounds, per card of a layout, after which the models hand the round to greedy's
# rules (:func:`playout_policy`). No three-player hole of the `greedy` level reached
# it in 30,000 (the longest: 43 turns, 14 rounds, of six-card's 18).
DRAGGING_ROUNDS_PER_CARD = 3


def playout_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """Greedy, except where a fitted model decides: where to put a card in hand, and
    (when fitted) whether to draw or take and what to flip after a discard.

    A round that drags past DRAGGING_ROUNDS_PER_CARD rounds a card is left to greedy's
    rules, whose patience ends it (``Decision.closing_ok``). The models know no such
    patience, and their tempo term grows with the turns beyond anything they were
    fitted on: three seats playing them once took and swapped aces in turn for
    thousands of turns with the stock empty, which G2.5 reshuffles only on a draw
    (an expert's rollout that never returned).
    """
    if state.turns >= DRAGGING_ROUNDS_PER_CARD * state.size * state.n:
        return greedy_policy(state, rng)
    phase = state.phase
    if _model_decides(state):
        actions, scores = _placements(state)
        return actions[scores.index(max(scores))]  # the first of the best, as _best picks
    model = _TURN_AND_FLIP.get(phase)
    if model is not None:
        decision, find_terms = model
        weights = weights_for(state.n, decision)
        if weights and applies(state):
            found = find_terms(state)
            if found is not None:
                return _best(weights, *found)
    return greedy_policy(state, rng)


def prior(state: GolfRound) -> dict[GolfAction, float] | None:
    """The model's estimate of each placement's value relative to the average move
    (in chances to win the hole), where it applies; else None. The expert starts its
    search from it, so few samples do not outvote a sound model (``ismcts``). Its
    scale is WEIGHTS' at every table size (below), and so is the ranking that the
    expert's ``top_moves`` option (off by default) takes from it."""
    if not _model_decides(state):
        return None
    # WEIGHTS, at every table size: fitted to the values of moves, its scores are in
    # chances to win; WEIGHTS_MULTI is fitted to the choice and has no such scale.
    scores = score_moves(WEIGHTS, *terms(state))
    mean = sum(scores.values()) / len(scores)
    return {action: score - mean for action, score in scores.items()}
