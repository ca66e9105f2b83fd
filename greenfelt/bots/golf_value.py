"""A learned value of six-card Golf positions, and the one-ply expectimax policy over it.

The expert's search (``ismcts``) keeps a move of its own unless its rollouts find
a clearly better one (the *anchor*). This module gives it a stronger move to keep:
for two-player six-card Golf, a small neural network values every *afterstate*
(the position the seat leaves when its turn ends, the other seat to move) as the
seat's expected reward for the hole (``ismcts.golf_reward``: mostly winning it,
partly the margin), and the policy takes the move with the best expected value:

- a placement (G2.2, G2.3): each of the six positions, or the discard pile and
  then the best of passing or flipping each face-down card; a card that comes
  face up from face down (the one replaced, the one flipped) is averaged over
  what it may be, weighted by the unseen cards;
- the turn (G2.1): taking the discard against the average, over every card the
  stock may give, of the best use of that card;
- the seat's last turn after the other closed (G3.1): no network, the hole's
  reward itself, averaged over what its face-down cards may be: exactly for up to
  two of them, else over fixed draws (so the answer is a function of the view).

The network was fitted by *approximate policy iteration* against greedy
(``benchmarks/fit_value.py``): the afterstates of thousands of holes, first of
the fitted playout (``golf_playout``), then of this policy with the previous
network, each valued by what the hole then gave (blended with the values the
policy itself computed at the seat's next turn, TD(lambda)). It reads only what
the seat may know: its view's face-up cards, the discard pile and the card in
hand. Inputs (:func:`featurize`): each layout as a bag of its three columns (a
column is an unordered pair of face-down or a rank, as pairs cancel, G5.3), the
discard's top card, the unseen cards by rank, how many cards each side has face
down, and a few sums a player would reckon (known and expected scores, what the
top card would give the other seat, the chance to pair a column).

It applies to two-player rounds of the ``six-card`` rules (standard values, pairs
in columns, final turns, ``flip_after_discard=may``); elsewhere :func:`applies`
is false and the expert plays as before.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from greenfelt.cards import parse_card
from greenfelt.golf.actions import DISCARD, DRAW, FLIP, PASS, SWAP, TAKE, GolfAction
from greenfelt.golf.rules import GolfRules, find_preset

__all__ = [
    "FEATURES",
    "Sight",
    "ValueModel",
    "applies",
    "best_move",
    "decide",
    "features_one",
    "featurize",
    "leaf_value",
    "load_model",
    "options",
    "prior",
    "sight",
    "value_policy",
]

WEIGHTS_PATH = Path(__file__).parent / "data" / "golf_value_six_card.npz"
"""The fitted network (``benchmarks/fit_value.py`` writes it)."""

WIN_WEIGHT = 0.7
"""The reward's share for the result of the hole (as ``ismcts.DEFAULT_WIN_WEIGHT``)."""
FINAL_DRAWS = 24
"""How many fixed draws of its face-down cards value a move in the seat's last turn,
where more than ``EXACT_DOWN`` are face down."""
EXACT_DOWN = 2
"""Up to this many face-down cards, the seat's last turn is valued exactly: every rank
each may be, weighted by the unseen cards. Against greedy, on the same 10,000 holes of
the policy alone (seed 79), paired with 24 fixed draws for every count: +0.07 +-0.14
points of percentage of decided holes and +0.06 +-0.02 points a hole, in less time:
12 ms a last-turn decision against 15-21 (most have one card face down: 13 ranks to
score where the draws scored 24 layouts)."""

_VALUE = np.array([0, 1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0], dtype=np.float32)
"""G5.1 ``standard`` by rank (index 0 stands for a face-down card, worth nothing known)."""
_VALUES = [int(v) for v in _VALUE]
_COLUMN = np.zeros((14, 14), dtype=np.int64)
"""The index of a column (an unordered pair of face-down, 0, or a rank 1-13)."""
_count = 0
for _a in range(14):
    for _b in range(_a, 14):
        _COLUMN[_a, _b] = _COLUMN[_b, _a] = _count
        _count += 1
_COLUMNS = _count  # 105

# The one-hot blocks of the input, then its scalars.
_MINE = 0
_THEIRS = _MINE + _COLUMNS
_TOP = _THEIRS + _COLUMNS
_MY_DOWN = _TOP + 14
_THEIR_DOWN = _MY_DOWN + 7
ONE_HOT = _THEIR_DOWN + 7
SCALARS = (
    *(f"unseen_{rank}" for rank in range(1, 14)),  # unseen cards of each rank, /4
    "unseen",  # unseen cards in all, /40
    "my_known",  # the seat's score of its face-up cards, /20
    "their_known",  # the other's, /20
    "closed",  # the seat just turned its last card: the other has a final turn (G3.1)
    "mean",  # the mean value of an unseen card, /10
    "my_expected",  # the seat's score with each face-down card at the mean, /20
    "their_expected",  # the other's, /20
    "lead",  # the other's expected score less the seat's, /20, within +-2
    "their_take",  # the most the other lowers its expected score by taking the top card, /10
    "their_pair",  # the other can pair a column with the top card (G5.3)
    "my_pair_chance",  # over columns of one face-up card and one face-down: the share of
    "their_pair_chance",  # unseen cards that would pair it, summed (the seat's; the other's)
    "top_value",  # the top card's value, /10
)
FEATURES = ONE_HOT + len(SCALARS)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]


def applies(rules: GolfRules, players: int) -> bool:
    """Whether the network was fitted for these rules: two players, ``six-card``
    (the length of a match, its tie-break and the reveal's constraint aside)."""
    return players == 2 and _comparable(rules) == _reference()


@cache
def _reference() -> GolfRules:
    return _comparable(find_preset("six-card"))


def _comparable(rules: GolfRules) -> GolfRules:
    """The rules but for what the value of a hole does not depend on."""
    ref = find_preset("six-card")
    return replace(
        rules,
        end=ref.end,
        tiebreak=ref.tiebreak,
        memory=ref.memory,
        flip_constraint=ref.flip_constraint,
        preset=None,
    )


def _expected_columns(layout: IntArray, mean: FloatArray) -> FloatArray:
    """Per column (N x 3), its score with each face-down card worth ``mean`` (G5.3)."""
    a, b = layout[:, :3], layout[:, 3:]
    va = np.where(a == 0, mean[:, None], _VALUE[a])
    vb = np.where(b == 0, mean[:, None], _VALUE[b])
    return np.where((a == b) & (a != 0), np.float32(0.0), va + vb)


def _known_score(layout: IntArray) -> FloatArray:
    a, b = layout[:, :3], layout[:, 3:]
    score: FloatArray = np.where((a == b) & (a != 0), np.float32(0.0), _VALUE[a] + _VALUE[b])
    total: FloatArray = score.sum(1)
    return total


def _pair_chance(layout: IntArray, unseen: FloatArray, total: FloatArray) -> FloatArray:
    a, b = layout[:, :3], layout[:, 3:]
    rows = np.arange(len(layout))[:, None]
    one_up = np.where((a != 0) & (b == 0), unseen[rows, a], 0) + np.where(
        (b != 0) & (a == 0), unseen[rows, b], 0
    )
    chance: FloatArray = one_up.sum(1) / np.maximum(total, 1)
    return chance


def featurize(
    mine: npt.ArrayLike,
    theirs: npt.ArrayLike,
    top: npt.ArrayLike,
    unseen: npt.ArrayLike,
    closed: npt.ArrayLike,
) -> tuple[IntArray, FloatArray]:
    """The network's input for N afterstates: the active one-hot indices (N x 9) and
    the scalars (N x ``len(SCALARS)``).

    ``mine`` and ``theirs`` are N x 6 layouts by rank (0: face down), the seat's and
    the other's; ``top`` the discard's top rank; ``unseen`` N x 14 counts of unseen
    cards by rank (index 0 unused); ``closed`` whether the seat just closed.
    """
    m = np.asarray(mine, dtype=np.int64)
    t = np.asarray(theirs, dtype=np.int64)
    top_rank = np.asarray(top, dtype=np.int64)
    u = np.asarray(unseen, dtype=np.float32)
    n = len(m)
    index = np.empty((n, 9), dtype=np.int64)
    for c in range(3):
        index[:, c] = _MINE + _COLUMN[m[:, c], m[:, c + 3]]
        index[:, 3 + c] = _THEIRS + _COLUMN[t[:, c], t[:, c + 3]]
    index[:, 6] = _TOP + top_rank
    index[:, 7] = _MY_DOWN + (m == 0).sum(1)
    index[:, 8] = _THEIR_DOWN + (t == 0).sum(1)
    total = u[:, 1:].sum(1)
    mean = (u[:, 1:] * _VALUE[1:]).sum(1) / np.maximum(total, 1)
    my_expected = _expected_columns(m, mean).sum(1)
    their_columns = _expected_columns(t, mean)
    their_expected = their_columns.sum(1)
    take = np.zeros(n, dtype=np.float32)
    pair = np.zeros(n, dtype=np.float32)
    top_value = _VALUE[top_rank]
    for p in range(6):
        partner = t[:, (p + 3) % 6]
        partner_value = np.where(partner == 0, mean, _VALUE[partner])
        pairs = (partner == top_rank) & (top_rank != 0)
        new = np.where(pairs, np.float32(0.0), top_value + partner_value)
        take = np.maximum(take, their_columns[:, p % 3] - new)
        pair = np.maximum(pair, (pairs & (t[:, p] != top_rank)).astype(np.float32))
    s = np.empty((n, len(SCALARS)), dtype=np.float32)
    s[:, :13] = u[:, 1:] / 4.0
    s[:, 13] = total / 40.0
    s[:, 14] = _known_score(m) / 20.0
    s[:, 15] = _known_score(t) / 20.0
    s[:, 16] = np.asarray(closed, dtype=np.float32)
    s[:, 17] = mean / 10.0
    s[:, 18] = my_expected / 20.0
    s[:, 19] = their_expected / 20.0
    s[:, 20] = np.clip((their_expected - my_expected) / 20.0, -2.0, 2.0)
    s[:, 21] = take / 10.0
    s[:, 22] = pair
    s[:, 23] = _pair_chance(m, u, total)
    s[:, 24] = _pair_chance(t, u, total)
    s[:, 25] = top_value / 10.0
    return index, s


_F32 = np.float32
_V32 = [_F32(v) for v in _VALUES]
_ZERO32 = _F32(0.0)
_COLUMN_INDEX = _COLUMN.tolist()


def _columns_one(layout: Sequence[int], mean: np.float32) -> list[np.float32]:
    """:func:`_expected_columns` for one layout, in float32 as numpy rounds it."""
    out = []
    for c in range(3):
        a, b = layout[c], layout[c + 3]
        if a == b and a:
            out.append(_ZERO32)
        else:
            out.append((mean if a == 0 else _V32[a]) + (mean if b == 0 else _V32[b]))
    return out


def _one_up_one(layout: Sequence[int], unseen: Sequence[int]) -> int:
    """Unseen cards that would pair a column of one face-up card and one face-down."""
    count = 0
    for c in range(3):
        a, b = layout[c], layout[c + 3]
        if a and not b:
            count += unseen[a]
        elif b and not a:
            count += unseen[b]
    return count


def features_one(
    mine: Sequence[int], theirs: Sequence[int], top: int, unseen: Sequence[int]
) -> tuple[list[int], list[np.float32]]:
    """:func:`featurize` for one afterstate (``closed`` read from ``mine``), in plain
    Python with numpy's float32 scalars, rounding step by step as the vector code
    does, so the network sees the same input to the last bit (a test holds the two
    together). The search's rollouts value one afterstate at a time, where the
    vector code's cost a call was more than half of the expert's time."""
    index = [_MINE + _COLUMN_INDEX[mine[c]][mine[c + 3]] for c in range(3)]
    index += [_THEIRS + _COLUMN_INDEX[theirs[c]][theirs[c + 3]] for c in range(3)]
    my_down, their_down = mine.count(0), theirs.count(0)
    index += [_TOP + top, _MY_DOWN + my_down, _THEIR_DOWN + their_down]
    total = sum(unseen[1:])
    left = _F32(max(total, 1))
    mean = _F32(sum(unseen[r] * _VALUES[r] for r in range(1, 14))) / left
    mine_columns = _columns_one(mine, mean)
    their_columns = _columns_one(theirs, mean)
    my_expected = mine_columns[0] + mine_columns[1] + mine_columns[2]
    their_expected = their_columns[0] + their_columns[1] + their_columns[2]
    top_value = _V32[top]
    take, pair = _ZERO32, 0.0
    for p in range(6):
        partner = theirs[(p + 3) % 6]
        pairs = partner == top and top != 0
        new = _ZERO32 if pairs else top_value + (mean if partner == 0 else _V32[partner])
        take = max(take, their_columns[p % 3] - new)
        if pairs and theirs[p] != top:
            pair = 1.0
    lead = (their_expected - my_expected) / _F32(20.0)
    scalars = [_F32(unseen[r]) / _F32(4.0) for r in range(1, 14)]
    scalars += [
        _F32(total) / _F32(40.0),
        _F32(_score(mine)) / _F32(20.0),
        _F32(_score(theirs)) / _F32(20.0),
        _F32(1.0 if my_down == 0 else 0.0),
        mean / _F32(10.0),
        my_expected / _F32(20.0),
        their_expected / _F32(20.0),
        min(max(lead, _F32(-2.0)), _F32(2.0)),
        take / _F32(10.0),
        _F32(pair),
        _F32(_one_up_one(mine, unseen)) / left,
        _F32(_one_up_one(theirs, unseen)) / left,
        top_value / _F32(10.0),
    ]
    return index, scalars


class ValueModel:
    """The fitted network: ReLU layers over :func:`featurize`, a sigmoid output.

    The first layer is a sum of rows for the one-hot part (nine active inputs of
    247) and a product for the scalars, so a batch of a thousand afterstates,
    what one turn weighs, costs about a millisecond.
    """

    def __init__(self, weights: dict[str, npt.NDArray[Any]]) -> None:
        _one_blas_thread()
        first = np.asarray(weights["W1"], dtype=np.float32)
        if first.shape[0] != FEATURES:
            raise ValueError(
                f"the value network takes {first.shape[0]} inputs where featurize gives"
                f" {FEATURES}: refit it with benchmarks/fit_value.py"
            )
        self.one_hot = first[:ONE_HOT]
        self.scalars = first[ONE_HOT:]
        self.bias = np.asarray(weights["b1"], dtype=np.float32)
        self.layers = [
            (np.asarray(weights[f"W{i}"], np.float32), np.asarray(weights[f"b{i}"], np.float32))
            for i in range(2, 10)
            if f"W{i}" in weights
        ]

    def __call__(
        self,
        mine: npt.ArrayLike,
        theirs: npt.ArrayLike,
        top: npt.ArrayLike,
        unseen: npt.ArrayLike,
        closed: npt.ArrayLike,
    ) -> FloatArray:
        """The seat's expected reward in [0, 1] for each afterstate (see :func:`featurize`)."""
        return self._forward(*featurize(mine, theirs, top, unseen, closed))

    def one(
        self, mine: Sequence[int], theirs: Sequence[int], top: int, unseen: Sequence[int]
    ) -> float:
        """One afterstate's value, the same to the last bit as a batch of one through
        ``__call__``: its input is built in plain Python (:func:`features_one`), as
        numpy's cost a call, not the arithmetic, is what one row costs."""
        index, scalars = features_one(mine, theirs, top, unseen)
        row = self._forward(
            np.array([index], dtype=np.int64), np.array([scalars], dtype=np.float32)
        )
        return float(row[0])

    def _forward(self, index: IntArray, s: FloatArray) -> FloatArray:
        h = self.one_hot[index].sum(1) + s @ self.scalars + self.bias
        for weight, bias in self.layers:
            np.maximum(h, 0.0, out=h)
            h = h @ weight + bias
        out: FloatArray = 1.0 / (1.0 + np.exp(-h[:, 0]))
        return out


@cache
def _one_blas_thread() -> None:
    """Keep numpy's BLAS to one thread in this process. A batch is a few hundred rows,
    and bots run one a core (simulations) or beside the server's event loop, where a
    second BLAS thread only contends: a 400-row batch took 7.3 ms with the default
    threads on a busy 2-core machine and 2.0 ms with one."""
    threadpool_limits(limits=1, user_api="blas")


@cache
def load_model() -> ValueModel:
    """The shipped network (``greenfelt/bots/data``), loaded once a process."""
    with np.load(WEIGHTS_PATH) as weights:
        return ValueModel(dict(weights))


@dataclass(frozen=True)
class Sight:
    """What the seat to move knows: its layout and the other's by rank (0: face down),
    the discard's top rank, the unseen cards by rank, and the card in hand."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    top: int
    unseen: tuple[int, ...]
    phase: str
    held: int
    last_turn: bool
    """The other seat has closed (G3.1): this is the seat's final turn."""
    can_take: bool


@cache
def _rank(text: str) -> int:
    return 0 if text == "??" else int(parse_card(text).rank)


def sight(view: dict[str, Any]) -> Sight:
    """The seat's :class:`Sight` from its ``view`` (two players, six-card)."""
    seat = view["seat"]
    unseen = [0] + [4] * 13
    layouts = []
    for s in (seat, 1 - seat):
        layout = view["layouts"][s]
        ranks = tuple(
            _rank(card) if up else 0
            for card, up in zip(layout["cards"], layout["face_up"], strict=True)
        )
        for r in ranks:
            unseen[r] -= 1
        layouts.append(ranks)
    for card in view["discard"]:
        unseen[_rank(card)] -= 1
    held = _rank(view["held"]) if view.get("held") else 0
    unseen[held] -= 1
    unseen[0] = 0
    discard = view["discard"]
    return Sight(
        mine=layouts[0],
        theirs=layouts[1],
        top=_rank(discard[-1]) if discard else 0,
        unseen=tuple(unseen),
        phase=view["phase"],
        held=held,
        last_turn=view["closer"] is not None and view["closer"] != seat,
        can_take="take" in view.get("legal", ()),
    )


_NONE = np.zeros(14, dtype=np.int64)
_TAKEN = np.eye(14, dtype=np.int64)
_TAKEN[0] = _NONE  # rank 0: nothing taken from the unseen cards

Row = tuple[tuple[int, ...], int, int, int]
"""An afterstate to value: the seat's layout after, the discard's top rank, and up
to two ranks that left the unseen cards (the card drawn, the card revealed; 0: none)."""
Option = list[tuple[int, float]]
"""A move's value as a weighted average of rows (indices into the batch)."""


class _Plan:
    """The afterstates one decision weighs, valued in one batch."""

    def __init__(self, view: Sight) -> None:
        self.s = view
        self.rows: list[Row] = []
        self.total = sum(view.unseen)

    def row(self, layout: Sequence[int], top: int, drawn: int, revealed: int) -> int:
        self.rows.append((tuple(layout), top, drawn, revealed))
        return len(self.rows) - 1

    def revealing(self, layout: list[int], pos: int, top: int | None, drawn: int) -> Option:
        """The card at ``pos`` comes face up: a row per rank it may be, by weight.
        ``top`` None: it goes to the discard pile (a swap), else it stays (a flip)."""
        unseen = self.s.unseen
        left = self.total - (drawn > 0)
        option = []
        for rank in range(1, 14):
            k = unseen[rank] - (rank == drawn)
            if k > 0:
                if top is None:
                    option.append((self.row(layout, rank, drawn, rank), k / left))
                else:
                    layout[pos] = rank
                    option.append((self.row(layout, top, drawn, rank), k / left))
        return option

    def placements(self, card: int, drawn: int) -> list[tuple[GolfAction, Option]]:
        """Each position for ``card`` in hand (G2.2, G2.3)."""
        mine = self.s.mine
        out = []
        for pos in range(6):
            layout = list(mine)
            layout[pos] = card
            old = mine[pos]
            if old:
                out.append((SWAP[pos], [(self.row(layout, old, drawn, 0), 1.0)]))
            else:
                out.append((SWAP[pos], self.revealing(layout, pos, None, drawn)))
        return out

    def after_discard(self, top: int, drawn: int) -> list[tuple[GolfAction, Option]]:
        """Passing, or flipping each face-down card, after a discard (G2.2, may)."""
        mine = self.s.mine
        out = [(PASS, [(self.row(mine, top, drawn, 0), 1.0)])]
        for pos in range(6):
            if mine[pos] == 0:
                out.append((FLIP[pos], self.revealing(list(mine), pos, top, drawn)))
        return out

    def values(self, model: ValueModel) -> npt.NDArray[np.float64]:
        """Every row's value: the network's, or in the seat's last turn the reward."""
        s = self.s
        if not self.rows:
            return np.zeros(0)
        if s.last_turn:
            return _final_values(s, self.rows)
        rows = self.rows
        mine = np.array([r[0] for r in rows], dtype=np.int64)
        top = np.array([r[1] for r in rows], dtype=np.int64)
        drawn = np.array([r[2] for r in rows], dtype=np.int64)
        revealed = np.array([r[3] for r in rows], dtype=np.int64)
        unseen = np.asarray(s.unseen, dtype=np.int64)[None, :] - _TAKEN[drawn] - _TAKEN[revealed]
        theirs = np.broadcast_to(np.asarray(s.theirs, dtype=np.int64), mine.shape)
        return model(mine, theirs, top, unseen, (mine != 0).all(1)).astype(np.float64)


def _score(layout: Sequence[int]) -> int:
    """A six-card layout's score (G5.2, G5.3: a column of equal ranks is 0); a
    face-down card (0) counts nothing, so a partly known layout gives its known score."""
    total = 0
    for c in range(3):
        a, b = layout[c], layout[c + 3]
        if a != b:
            total += _VALUES[a] + _VALUES[b]
    return total


def reward(mine: int, theirs: int) -> float:
    """The seat's reward for the hole (``ismcts.golf_reward`` with two players)."""
    outcome = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
    margin = max(-1.0, min(1.0, (theirs - mine) / 20.0))
    return WIN_WEIGHT * outcome + (1.0 - WIN_WEIGHT) / 2.0 * (margin + 1.0)


def _final_values(s: Sight, rows: list[Row]) -> npt.NDArray[np.float64]:
    """The seat's last turn: each row's expected reward over what its face-down cards
    may be (the other is all face up, G3.1): exactly, weighted by the unseen cards,
    for up to ``EXACT_DOWN`` of them, else over ``FINAL_DRAWS`` fixed draws."""
    theirs = _score(s.theirs)
    out = np.empty(len(rows))
    seen: dict[tuple[tuple[int, ...], int, int], float] = {}
    for i, (layout, _, drawn, revealed) in enumerate(rows):
        key = (layout, drawn, revealed)
        value = seen.get(key)
        if value is None:
            unseen = list(s.unseen)
            unseen[drawn] -= drawn > 0
            unseen[revealed] -= revealed > 0
            value = _expected_final(layout, unseen, theirs)
            seen[key] = value
        out[i] = value
    return out


def _expected_final(layout: Sequence[int], unseen: list[int], theirs: int) -> float:
    """The seat's expected reward once its face-down cards (0) in ``layout`` are
    turned up, drawn without replacement from ``unseen`` (counts by rank)."""
    down = [p for p in range(6) if layout[p] == 0]
    if len(down) <= EXACT_DOWN:
        total, ways = sum(unseen), 1
        for drawn in range(len(down)):  # ordered draws: total x (total - 1) x ...
            ways *= total - drawn
        return _exact_final(list(layout), down, list(unseen), theirs) / ways
    full = list(layout)
    pool = [r for r in range(1, 14) for _ in range(unseen[r])]
    draws = random.Random(12345)
    value = 0.0
    for _ in range(FINAL_DRAWS):
        for pos, rank in zip(down, draws.sample(pool, len(down)), strict=True):
            full[pos] = rank
        value += reward(_score(full), theirs)
    return value / FINAL_DRAWS


def _exact_final(full: list[int], down: list[int], unseen: list[int], theirs: int) -> float:
    """:func:`_expected_final` by counting, before dividing by the number of ordered
    draws: the reward of each rank the first face-down card may be, times how many
    unseen cards have it, of the rest counted the same way (``full`` and ``unseen``
    are restored on return)."""
    if not down:
        return reward(_score(full), theirs)
    pos, rest = down[0], down[1:]
    value = 0.0
    for rank in range(1, 14):
        count = unseen[rank]
        if count:
            full[pos] = rank
            unseen[rank] -= 1
            value += count * _exact_final(full, rest, unseen, theirs)
            unseen[rank] += 1
    full[pos] = 0
    return value


def _mean(option: Option, values: npt.NDArray[np.float64]) -> float:
    return sum(w * float(values[i]) for i, w in option)


def _means(
    options: Sequence[tuple[GolfAction, Option]], values: npt.NDArray[np.float64]
) -> list[tuple[GolfAction, float]]:
    """Each move with its expected value, in the order given."""
    return [(action, _mean(option, values)) for action, option in options]


def _best(
    options: Sequence[tuple[GolfAction, Option]], values: npt.NDArray[np.float64]
) -> tuple[GolfAction, float]:
    """The option of the highest value (the first of equals) and that value."""
    return best_move(_means(options, values))


_DECIDED = frozenset(("turn", "taken", "drawn", "flip"))  # the phases options() decides


def options(s: Sight, model: ValueModel | None = None) -> list[tuple[GolfAction, float]]:
    """Each move of the seat to move with its expected value, in the order that settles
    ties (:func:`decide` plays the first of the highest): the turn's draw before its
    take (G2.1), a card in hand's placements before its discard (G2.2, G2.3), and
    after a discard passing before each flip.

    Phases other than a turn, a card in hand or the flip after a discard (the
    reveals of G1.7) are not decided here: see :func:`value_policy`.
    """
    model = model or load_model()
    plan = _Plan(s)
    if s.phase == "turn":
        takes = plan.placements(s.top, 0) if s.can_take else []
        total = plan.total
        draws: list[tuple[float, list[tuple[GolfAction, Option]], list[tuple[GolfAction, Option]]]]
        draws = [
            (s.unseen[r] / total, plan.placements(r, r), plan.after_discard(r, r))
            for r in range(1, 14)
            if s.unseen[r]
        ]
        values = plan.values(model)
        draw = sum(
            w * max(_best(places, values)[1], _best(flips, values)[1]) for w, places, flips in draws
        )
        return [(DRAW, draw), (TAKE, _best(takes, values)[1])] if takes else [(DRAW, draw)]
    if s.phase == "taken":
        places = plan.placements(s.held, 0)
        return _means(places, plan.values(model))
    if s.phase == "drawn":
        places = plan.placements(s.held, 0)
        flips = plan.after_discard(s.held, 0)
        values = plan.values(model)
        return [*_means(places, values), (DISCARD, _best(flips, values)[1])]
    if s.phase == "flip":
        flips = plan.after_discard(s.top, 0)
        return _means(flips, plan.values(model))
    raise ValueError(f"the value policy does not decide the phase {s.phase!r}")


def decide(s: Sight, model: ValueModel | None = None) -> tuple[GolfAction, float]:
    """The move of the highest expected value for the seat to move, and that value."""
    return best_move(options(s, model))


def best_move(moves: Sequence[tuple[GolfAction, float]]) -> tuple[GolfAction, float]:
    """The first of the highest-valued moves (:func:`options` orders them for ties)."""
    best = moves[0]
    for move in moves[1:]:
        if move[1] > best[1]:
            best = move
    return best


def prior(state: Any, model: ValueModel | None = None) -> dict[GolfAction, float] | None:
    """Each move's expected value relative to the average move, for the seat to move,
    from its view: the expert's prior (``ismcts``'s ``prior_weight``) where this
    policy is its anchor. None in the phases :func:`options` leaves out (the reveals)."""
    view = state.view(state.to_move)
    if view["phase"] not in _DECIDED:
        return None
    moves = options(sight(view), model)
    mean = sum(value for _, value in moves) / len(moves)
    return {action: value - mean for action, value in moves}


def leaf_value(state: Any, seat: int, model: ValueModel | None = None) -> float:
    """The network's value of ``state`` for ``seat`` just after its turn ended (an
    afterstate, the other seat to move), from what the seat knows there: the
    face-up cards and the discard pile, as :func:`sight` reads a view.

    The search's rollouts can stop here (``ismcts``'s ``leaf`` option) and take
    this in place of a hole played out by the weaker fitted playout.
    """
    size = state.size
    unseen = [0] + [4] * 13
    layouts = []
    for s in (seat, 1 - seat):
        ranks = []
        for i in range(s * size, s * size + size):
            rank = int(state.cards[i].rank) if state.up[i] else 0
            unseen[rank] -= 1
            ranks.append(rank)
        layouts.append(ranks)
    for card in state.discard:
        unseen[int(card.rank)] -= 1
    unseen[0] = 0
    top = int(state.discard[-1].rank) if state.discard else 0
    return (model or load_model()).one(layouts[0], layouts[1], top, unseen)


def value_policy(state: Any, rng: random.Random) -> GolfAction:
    """The policy on a state (``base.Policy``), from the seat to move's view only.

    The opening reveals (G1.7) turn a card in a column of its own, as the
    fitted playout does: a choice of symmetry, before any card is known.
    """
    view = state.view(state.to_move)
    if view["phase"] == "reveal":
        seat = view["seat"]
        up = view["layouts"][seat]["face_up"]
        legal: list[GolfAction] = state.legal_actions()
        for action in legal:
            column = (action.pos or 0) % 3
            if not up[column] and not up[column + 3]:
                return action
        return legal[0]
    return decide(sight(view))[0]
