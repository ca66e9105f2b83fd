"""The `easy` two-player Spades bot: a casual player's count and play.

`greedy` counts the odds of every honour, bids nil when it is safe and ducks
bags; `easy` plays the way most people first learn the game, so that a newcomer
can win some games:

- blind nil (S2.1): never; nil (S3.2): never;
- drawing (S2.2): keep an ace, a king or a spade of 10 or higher, reject the rest;
- bidding (S3): one trick for each ace, each king with another card of its suit,
  the queen of spades with two more spades, and each spade beyond the fourth;
  at least 1;
- play (S4): while its bid is not made it wins tricks with the lowest card that
  beats the lead (the lowest spade when it cannot follow) and leads its highest
  side card; once the bid is made, or when it cannot win, it plays its lowest
  card. It does not count cards, mind bags or play to the score.

It reads only :func:`~greenfelt.bots.spades_greedy.seat_sight`, like greedy.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from greenfelt.bots.base import PolicyBot
from greenfelt.bots.spades_greedy import SpadesSight, seat_sight
from greenfelt.spades.actions import BIDS, KEEP, PASS, PLAYS, REJECT, SpadesAction
from greenfelt.spades.game import RANK_POWER, Phase, SpadesHand

__all__ = ["EasySpadesBot", "easy_bid", "easy_policy"]

_SPADES: Final = 0  # suit of a card code: code // 13 (S1.1)
_ACE, _KING, _QUEEN, _TEN = 14, 13, 12, 10


_power = RANK_POWER.__getitem__  # S1.1: 2 is 2, the ace 14


def easy_bid(hand: Sequence[int]) -> int:
    """S3: the casual count of a hand's tricks (aces, guarded kings, long spades)."""
    by_suit: dict[int, list[int]] = {}
    for card in hand:
        by_suit.setdefault(card // 13, []).append(_power(card))
    tricks = 0
    for suit, powers in by_suit.items():
        tricks += powers.count(_ACE)
        if _KING in powers and len(powers) >= 2:
            tricks += 1
        if suit == _SPADES:
            if _QUEEN in powers and len(powers) >= 3:
                tricks += 1
            tricks += max(0, len(powers) - 4)
    return min(max(tricks, 1), 13)


def _play(cards: Sequence[int], sight: SpadesSight) -> SpadesAction:
    """S4: win cheaply while the bid needs tricks, else play low."""
    seat = sight.seat
    need = (sight.bids[seat] or 0) - sight.won[seat]
    lowest = min(cards, key=lambda c: (c // 13 == _SPADES, _power(c)))  # keep spades
    lead = sight.lead
    if lead is None:  # S4.1, S4.2: leading (legality already keeps spades back)
        if need > 0:
            side = [c for c in cards if c // 13 != _SPADES] or cards
            return PLAYS[max(side, key=_power)]
        return PLAYS[lowest]
    suit = lead // 13
    follow = [c for c in cards if c // 13 == suit]
    if follow:
        winners = [c for c in follow if _power(c) > _power(lead)]
        if need > 0 and winners:
            return PLAYS[min(winners, key=_power)]
        return PLAYS[min(follow, key=_power)]
    spades = [c for c in cards if c // 13 == _SPADES]
    if need > 0 and spades:  # S4.3: a spade wins a side suit's trick
        return PLAYS[min(spades, key=_power)]
    return PLAYS[lowest]


def easy_policy(state: SpadesHand, rng: random.Random) -> SpadesAction:
    """The easy action for ``state.to_move``, from what that seat may know."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the hand is over: nobody is to move")
    phase = state.phase
    if phase is Phase.BLIND:
        return PASS
    sight = seat_sight(state, seat)
    if phase is Phase.DRAW:
        card = sight.drawn
        assert card is not None
        high = _power(card) >= _KING or (card // 13 == _SPADES and _power(card) >= _TEN)
        return KEEP if high else REJECT
    if phase is Phase.BID:
        return BIDS[easy_bid(sight.hand)]
    if phase is Phase.PLAY:
        cards = [a.card for a in state.legal_actions() if a.card is not None]
        return _play(cards, sight)
    raise ValueError(f"no decision in phase {phase.value}")


class EasySpadesBot(PolicyBot):
    """The `easy` level for Spades: :func:`easy_policy` on a sample of its seat's view."""

    level = "easy"
    policy = staticmethod(easy_policy)
