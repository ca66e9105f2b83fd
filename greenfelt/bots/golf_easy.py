"""The `easy` Golf bot: a casual player who knows the basics and nothing more.

`random` is a baseline that throws away pairs and keeps kings' neighbours at
random; nobody enjoys beating it. `easy` plays the way a friend who learned the
game last week does, so that a newcomer can win some holes and learn from it:

- it judges a layout by what it can see: the rules' own score (G5, every match
  rule, block and special) of its known cards, with each card it cannot see
  counted at the deck's average value;
- reveal and peek (G1.7): a card in a column with nothing seen yet;
- turn (G2.1): take the discard when it would lower that score by
  :data:`TAKE_GAIN` or more (a pair, a low card), else draw;
- place (G2.2, G2.3): put the card where it lowers the score most; a drawn card
  that helps by less than :data:`KEEP_GAIN` is discarded;
- flip after a discard (G2.2 may): a card in a column with nothing seen yet,
  never the last face-down one;
- knock (G4): once its score is at most a point a card, or when the round drags on.

What it does not do is what makes `greedy` strong: no odds of the unseen cards,
no watching what the others collect, no judgement of when to close, no card
powers (G7: it leaves them unused, and plays as `greedy` in the steps that only
powers open, such as keeping one of an 8's two cards). It reads only
:func:`~greenfelt.bots.golf_sight.seat_sight`, like every Golf policy.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Final

from greenfelt.bots.base import PolicyBot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.golf_sight import EMPTY, OWNER_KNOWN, UNKNOWN, seat_sight
from greenfelt.cards import CARDS, Card
from greenfelt.golf.actions import DISCARD, KNOCK, PASS, SWAP, TAKE, GolfAction, Kind
from greenfelt.golf.game import GolfRound, Phase
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import score_layout

__all__ = ["KEEP_GAIN", "TAKE_GAIN", "EasyGolfBot", "easy_policy", "visible_score"]

TAKE_GAIN: Final = 2.0
"""Points a discard must save to be taken (a pair, or a low card over an unseen one)."""
KEEP_GAIN: Final = 1.0
"""Points a drawn card must save to be kept rather than discarded."""
KNOCK_PER_CARD: Final = 1.0
"""Knock (G4) once the visible score is at most this many points a card..."""
PATIENCE: Final = 12
"""...or once the seat has had this many turns of the round (no endless rounds)."""

_HIDDEN: Final = frozenset((UNKNOWN, OWNER_KNOWN))
_NOT_A_CARD: Final = frozenset((UNKNOWN, OWNER_KNOWN, EMPTY))


@functools.cache
def _mean_value(rules: GolfRules) -> float:
    """The average card's value under ``rules`` (G5.1): what an unseen card is taken for."""
    values = rules.card_values
    jokers = rules.jokers_per_deck
    return (sum(values[c] for c in range(52)) + jokers * values[52]) / (52 + jokers)


def visible_score(rules: GolfRules, own: Sequence[int]) -> float:
    """A layout's score as a casual player reckons it from ``seat_sight`` codes.

    The known cards are scored by the rules (G5); an unseen card neither matches
    nor blocks and counts at the deck's average; a removed one (G3.5) counts 0.
    """
    cards: list[Card | None] = [None if c in _NOT_A_CARD else CARDS[c] for c in own]
    hidden = sum(1 for c in own if c in _HIDDEN)
    return score_layout(cards, rules).total + hidden * _mean_value(rules)


def _placed(own: Sequence[int], pos: int, card: int) -> list[int]:
    after = list(own)
    after[pos] = card
    return after


def _best_place(
    rules: GolfRules, own: Sequence[int], card: int, legal: Sequence[GolfAction]
) -> tuple[float, GolfAction]:
    """The swap that lowers the visible score most, and how much it saves."""
    now = visible_score(rules, own)
    best: tuple[float, GolfAction] | None = None
    for action in legal:
        if action.kind is Kind.SWAP:
            assert action.pos is not None
            saving = now - visible_score(rules, _placed(own, action.pos, card))
            if best is None or saving > best[0]:
                best = (saving, action)
    if best is None:
        raise ValueError("no swap is legal here")
    return best


def _unseen_first(
    rules: GolfRules, own: Sequence[int], legal: Sequence[GolfAction]
) -> GolfAction | None:
    """A legal flip or peek of an unseen card, one in a column with nothing seen first."""
    moves = [a for a in legal if a.kind in (Kind.FLIP, Kind.PEEK) and a.pos is not None]
    if not moves:
        return None
    column_of = {p: line for line in rules.shape.column_lines for p in line}

    def column_unseen(action: GolfAction) -> bool:
        assert action.pos is not None
        return all(own[q] in _HIDDEN for q in column_of.get(action.pos, (action.pos,)))

    return next((a for a in moves if column_unseen(a)), moves[0])


def easy_policy(state: GolfRound, rng: random.Random) -> GolfAction:
    """The easy move for ``state.to_move``, from what that seat may know (G8.1)."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the round is over: nobody is to move")
    rules = state.rules
    size = state.size
    cells, held = seat_sight(state, seat)
    own = cells[seat * size : (seat + 1) * size]
    legal = [a for a in state.legal_actions() if a.kind is not Kind.POWER]
    phase = state.phase
    if not legal or phase in (Phase.CHOOSE, Phase.SECOND):
        return greedy_policy(state, rng)  # steps only a power opens (G7)
    if phase is Phase.REVEAL:
        return _unseen_first(rules, own, legal) or legal[0]
    if phase is Phase.TURN:
        if KNOCK in legal:
            own_turns = state.turns // state.n
            if visible_score(rules, own) <= KNOCK_PER_CARD * size or own_turns >= PATIENCE:
                return KNOCK
        if TAKE in legal:
            places = [SWAP[p] for p in range(size) if own[p] != EMPTY]  # G2.3, G3.5
            saving, _ = _best_place(rules, own, state.discard[-1], places)
            if saving >= TAKE_GAIN:
                return TAKE
        return next(a for a in legal if a.kind is Kind.DRAW)
    if phase is Phase.DRAWN or phase is Phase.TAKEN:
        assert held is not None
        saving, swap = _best_place(rules, own, held, legal)
        if DISCARD in legal and saving < KEEP_GAIN:
            return DISCARD
        return swap
    if phase is Phase.FLIP:
        unseen = sum(1 for c in own if c in _HIDDEN)
        if PASS in legal and unseen <= 1:
            return PASS  # never turn up the last card just because one may
        return _unseen_first(rules, own, legal) or legal[0]
    raise ValueError(f"no easy move in phase {phase.value}")


class EasyGolfBot(PolicyBot):
    """The `easy` level for Golf: :func:`easy_policy` on a sample of its seat's view."""

    level = "easy"
    policy = staticmethod(easy_policy)
