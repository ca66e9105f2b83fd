"""The greedy policy for the extended Powers set (RULES G7.4, ``powers=powers``).

:func:`greedy_policy` hands every decision of a ``powers=powers`` round to
:func:`powers_policy`. It reads only what the seat may know (G8:
:func:`~greenfelt.bots.golf_sight.seat_sight`, the discard pile, the public
counts and flags) and judges every legal action by the change it makes to
**estimated scores**: each card the seat cannot see counts at the mean value of
the cards it has not seen (a rival's card that its owner has seen a little
lower: they chose to keep it), columns match as the rules say.

- Reveal (G1.7): peek into different columns.
- A drawn card goes in where it lowers the estimate most (put low cards in,
  swap out known high ones), or is discarded, or is used for its power when
  the power is worth more: a J or 10 peeks at an unknown card, a 9 or 6 gives a
  known high card away for a rival's known-low or unknown one, a 5 raises a
  shield when none is up, an ace removes a known high card of one's own, a 3
  shuffles the cards a leading rival has seen, a black king cancels a knock
  when the seat is not lowest.
- Knock (G4) when the seat's estimate is clearly the lowest: the margin grows
  with the seat's own unknown cards and shrinks as the round drags on, so
  rounds of greedy players end.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

from greenfelt.bots.golf_sight import EMPTY, OWNER_KNOWN, UNKNOWN, seat_sight
from greenfelt.cards import CARDS, make_deck
from greenfelt.golf.actions import DISCARD, DRAW, KNOCK, PASS, SWAP, GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase
from greenfelt.golf.scoring import score_layout

__all__ = ["powers_policy"]

_OWNER_KNOWN_SHARE: Final = 0.8  # a rival's seen card, as a share of the unseen mean
_PEEK_OWN: Final = 2.0  # a look at an own unknown card
_PEEK_RIVAL: Final = 0.6
_SHIELD: Final = 1.2  # the first shield; later ones are worth little
_SHOW: Final = 0.3
_SHUFFLE_PER_CARD: Final = 1.2  # per face-down card the victim knew and forgets
_CANCEL: Final = 6.0  # cancelling a knock when not lowest
_BLOCKED: Final = 0.3  # an attack on a shielded seat only strips the shield
_LEADER: Final = 0.8  # weight of the leading rival's loss
_OTHER_RIVAL: Final = 0.3
_KNOCK_MARGIN: Final = 3.0  # lead needed to knock with every own card known
_UNKNOWN_MARGIN: Final = 2.0  # extra lead per own card still unknown
_PATIENCE: Final = 0.4  # margin lost per own turn played, so that rounds end
_LAST_TURN: Final = 40  # own turns after which the seat knocks whenever it may


class _Sight:
    """What one decision works from: the seat's cells, values and estimates."""

    def __init__(self, state: GolfRound, seat: int) -> None:
        rules = state.rules
        self.state = state
        self.seat = seat
        self.size = state.size
        self.grid = rules.shape.size
        self.cells, held = seat_sight(state, seat)
        self.held = held
        values = rules.card_values
        self.values = values
        unseen: Counter[int] = Counter(make_deck(rules.deck_count(state.n), rules.jokers_per_deck))
        unseen.subtract(state.discard)
        unseen.subtract(CARDS[c] for c in self.cells if c < UNKNOWN)
        if held is not None:
            unseen[held] -= 1
        if seat == state.to_move:
            unseen.subtract(card for card, _ in state.choice)
        else:
            unseen.subtract(card for card, tag in state.choice if tag < 0)
        count = sum(max(k, 0) for k in unseen.values())
        total = sum(values[c] * k for c, k in unseen.items() if k > 0)
        self.mean = total / count if count else 0.0
        self.column = (
            rules.matchers == ("column",)
            and not rules.negative_pairs_keep_value
            and not rules.one_eyed_jacks_wild
            and rules.block_score is None
            and not rules.four_in_two_columns
        )
        self.totals = [self.estimate(s, self.layout(s)) for s in range(state.n)]

    def layout(self, s: int) -> list[int]:
        return self.cells[s * self.size : (s + 1) * self.size]

    def value(self, code: int, owner_known: float) -> float:
        if code < UNKNOWN:
            return float(self.values[code])
        if code == UNKNOWN:
            return self.mean
        if code == OWNER_KNOWN:
            return owner_known
        return 0.0  # EMPTY

    def estimate(self, s: int, cells: Sequence[int]) -> float:
        """Seat ``s``'s expected score with ``cells`` as its layout (G5, extras alone)."""
        rules = self.state.rules
        known = self.mean if s == self.seat else self.mean * _OWNER_KNOWN_SHARE
        grid = self.grid
        if self.column:
            shape = rules.shape
            cols, rows = shape.cols, shape.rows
            total = 0.0
            for c in range(cols):
                codes = [cells[r * cols + c] for r in range(rows)]
                first = codes[0]
                if all(x < UNKNOWN for x in codes) and all(
                    (x == 52) == (first == 52) and (x == 52 or x % 13 == first % 13) for x in codes
                ):
                    total += rules.joker_pair_value if first == 52 else 0
                else:
                    total += sum(self.value(x, known) for x in codes)
        else:
            shown = [CARDS[x] if x < UNKNOWN else None for x in cells[:grid]]
            total = float(score_layout(shown, rules).total)
            total += sum(self.value(x, known) for x in cells[:grid] if x >= UNKNOWN)
        return total + sum(self.value(x, known) for x in cells[grid:])

    def weight(self, s: int) -> float:
        """How much a loss of seat ``s`` is worth to this seat: the leader counts most."""
        others = [o for o in range(self.state.n) if o != self.seat]
        leader = min(others, key=lambda o: (self.totals[o], o))
        return _LEADER if s == leader else _OTHER_RIVAL

    def put_gain(self, code: int, pos: int) -> float:
        """How much putting card ``code`` at own position ``pos`` lowers the estimate."""
        mine = self.layout(self.seat)
        mine[pos] = code
        return self.totals[self.seat] - self.estimate(self.seat, mine)

    def best_put(self, code: int) -> tuple[float, GolfAction]:
        base = self.seat * self.size
        best: tuple[float, GolfAction] | None = None
        for p in range(self.size):
            if self.state.cards[base + p] is None:
                continue
            gain = self.put_gain(code, p)
            if best is None or gain > best[0]:
                best = (gain, SWAP[p])
        assert best is not None
        return best

    def change(self, s: int, pos: int, code: int) -> float:
        """How much seat ``s``'s estimate rises when its position ``pos`` holds ``code``."""
        cells = self.layout(s)
        cells[pos] = code
        return self.estimate(s, cells) - self.totals[s]


def _power_value(d: _Sight, action: GolfAction, held: int | None) -> float:
    """What a power action is worth to the seat, in estimated points (G7.4)."""
    state, seat, size = d.state, d.seat, d.size
    verb = action.power
    targets = action.targets
    shields = state.shields or ()
    victim = next((t for t, _ in targets if t != seat), None)
    if victim is not None and verb not in ("peek",) and shields and shields[victim]:
        return _BLOCKED * d.weight(victim)
    if verb == "peek":
        s, p = targets[0]
        assert p is not None
        if d.cells[s * size + p] < UNKNOWN:
            return 0.0
        return _PEEK_OWN if s == seat else _PEEK_RIVAL
    if verb == "place":  # the 9 in place of their card
        s, p = targets[0]
        assert p is not None and held is not None
        return d.weight(s) * d.change(s, p, held)
    if verb == "swap":
        (_, p), (s, q) = targets
        assert p is not None and q is not None
        mine, theirs = d.cells[seat * size + p], d.cells[s * size + q]
        theirs = min(UNKNOWN, theirs)  # to this seat, their card is one it has not seen
        mine_code = mine if mine < UNKNOWN else UNKNOWN
        return d.put_gain(theirs, p) + d.weight(s) * d.change(s, q, mine_code)
    if verb == "shield":
        return _SHIELD if not shields or not shields[seat] else 0.1
    if verb == "show":
        return _SHOW
    if verb == "shuffle":
        s = targets[0][0]
        base, bit = s * size, 1 << s
        forgets = sum(
            1
            for i in range(base, base + size)
            if state.cards[i] is not None and not state.up[i] and state.known[i] & bit
        )
        return d.weight(s) * _SHUFFLE_PER_CARD * forgets
    if verb == "add":
        s = targets[0][0]
        return d.weight(s) * d.mean
    if verb == "remove":
        p = targets[0][1]
        assert p is not None
        return d.put_gain(EMPTY, p)
    if verb == "cancel":
        lowest = min(t for s, t in enumerate(d.totals) if s != seat)
        return _CANCEL if d.totals[seat] > lowest else -1.0
    if verb == "draw2":
        worst = max(
            (d.value(c, d.mean) for c in d.layout(seat) if c != EMPTY),
            default=0.0,
        )
        return max(0.0, worst - d.mean) * 0.6 + 0.5
    return 0.0  # rows, cols (the column estimate does not change), hide


def _best_power(
    d: _Sight, legal: Sequence[GolfAction], held: int | None
) -> tuple[float, GolfAction]:
    best: tuple[float, GolfAction] = (float("-inf"), PASS)
    for action in legal:
        if action.kind is Kind.POWER:
            value = _power_value(d, action, held)
            if value > best[0]:
                best = (value, action)
    return best


def _reveal(state: GolfRound, d: _Sight) -> GolfAction:
    cols = state.rules.shape.cols
    mine = d.layout(d.seat)
    seen = Counter(p % cols for p in range(d.grid) if mine[p] < UNKNOWN)
    legal = state.legal_actions()
    return min(legal, key=lambda a: (seen[(a.pos or 0) % cols], -(a.pos or 0)))


def _knock(state: GolfRound, d: _Sight) -> bool:
    seat = d.seat
    mine = d.totals[seat]
    lowest = min(t for s, t in enumerate(d.totals) if s != seat)
    unknown = sum(1 for c in d.layout(seat) if c == UNKNOWN)
    played = state.turns // state.n
    if played >= _LAST_TURN:
        return True
    margin = _KNOCK_MARGIN + _UNKNOWN_MARGIN * unknown - _PATIENCE * played
    return mine + margin <= lowest


def powers_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """The greedy action for ``state.to_move`` in a ``powers=powers`` round (G7.4).

    Deterministic; always one of ``state.legal_actions()``. Raises ValueError when
    the round is over.
    """
    seat = state.to_move
    if seat is None:
        raise ValueError("the round is over: nobody is to move")
    d = _Sight(state, seat)
    phase = state.phase
    legal = state.legal_actions()
    if phase is Phase.REVEAL:
        return _reveal(state, d)
    if phase is Phase.TURN:
        return KNOCK if KNOCK in legal and _knock(state, d) else DRAW
    if phase is Phase.TAKEN:
        held = state.held
        assert held is not None
        return d.best_put(held)[1]
    if phase is Phase.CHOOSE:
        offer = state.choice
        scored = [(d.best_put(card)[0], a) for a, (card, _) in zip(legal, offer, strict=True)]
        return max(scored, key=lambda item: item[0])[1]
    if phase is Phase.SECOND:
        value, action = _best_power(d, legal, None)
        return action if value > 0 else PASS
    if phase is Phase.DRAWN:
        held = state.held
        assert held is not None
        keep, put = d.best_put(held)
        value, power = _best_power(d, legal, held)
        if value > max(keep, 0.0) and power is not PASS:
            return power
        return put if keep > 0 else DISCARD
    raise ValueError(f"no decision in phase {phase.value}")
