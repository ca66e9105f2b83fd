"""Scoring one Spades hand (RULES S5), as pure functions.

Kept apart from the game state so the scorekeeper (``greenfelt score
spades``), the engine and the tests share exactly one implementation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["BAG_LIMIT", "BAG_PENALTY", "MOON", "HandScore", "bid_text", "score_hand"]

MOON: Final = 13
"""A bid of all thirteen tricks: shooting the moon (S3.2)."""
BAG_LIMIT: Final = 10
"""Each time a player's bags reach this count they pay :data:`BAG_PENALTY` (S5.4)."""
BAG_PENALTY: Final = 100


@dataclass(frozen=True, slots=True)
class HandScore:
    """One player's result for one hand (S5).

    ``points`` is the whole change to the player's score, bag penalty included:
    ``contract + new_bags + penalty`` (a bag is worth one point, S5.1, S5.3).
    """

    bid: int
    blind: bool
    tricks: int
    contract: int
    """Points for the bid itself: 10b, -10b, +100/+200/+250, or the tricks of a failed nil/moon."""
    new_bags: int
    """Bags taken this hand (overtricks; every trick of a failed nil, blind nil or moon)."""
    bags: int
    """The bag count carried to the next hand, after S5.4 removed every 10."""
    penalty: int
    """-100 for each time the bag count reached 10 this hand (S5.4), else 0."""
    points: int
    breakdown: str


def bid_text(bid: int, blind: bool = False) -> str:
    """How a bid is said: ``blind nil``, ``nil``, ``moon (13)`` or the number."""
    if blind:
        return "blind nil"
    if bid == 0:
        return "nil"
    if bid == MOON:
        return "moon (13)"
    return str(bid)


def score_hand(bid: int, blind: bool, tricks: int, bags_before: int = 0) -> HandScore:
    """Score one player's hand: bid ``bid`` (0 = nil), ``blind`` for blind nil.

    - S5.1 bid b (1..12), t >= b: 10b, plus t - b bags worth 1 point each.
    - S5.2 bid b, t < b: -10b.
    - S5.3 nil made +100, blind nil made +200, moon (13) made +250; failed, they
      score the tricks taken as bags (1 point each), with no penalty.
    - S5.4 bags add up across hands; each time they reach 10, -100 and 10 removed.

    Raises ValueError for numbers outside the rules (a blind bid other than 0,
    a bid or trick count outside 0..13, negative bags).

    >>> score_hand(6, False, 7).points, score_hand(0, False, 5).points
    (61, 5)
    """
    if not 0 <= bid <= MOON:
        raise ValueError(f"a bid is 0 (nil) to 13 tricks (S3.1), not {bid}")
    if blind and bid != 0:
        raise ValueError(f"blind nil is a bid of 0 (S3.2), not {bid}")
    if not 0 <= tricks <= 13:
        raise ValueError(f"a player takes 0 to 13 tricks (S4.3), not {tricks}")
    if bags_before < 0:
        raise ValueError(f"bags carried in cannot be negative, not {bags_before}")
    said = bid_text(bid, blind)
    if bid in (0, MOON):
        made = tricks == bid
        bonus = (200 if blind else 100) if bid == 0 else 250
        if made:  # S5.3
            contract, new_bags = bonus, 0
            what = f"bid {said}, took {tricks}: made, +{bonus}"
        else:  # S5.3: a failed nil/blind nil/moon scores its tricks as bags
            contract, new_bags = 0, tricks
            what = f"bid {said}, took {tricks}: failed, no penalty"
    elif tricks >= bid:  # S5.1
        contract, new_bags = 10 * bid, tricks - bid
        what = f"bid {said}, took {tricks}: made, 10 x {bid} = {contract}"
    else:  # S5.2
        contract, new_bags = -10 * bid, 0
        what = f"bid {said}, took {tricks}: failed, -10 x {bid} = {contract}"
    total_bags = bags_before + new_bags
    times = total_bags // BAG_LIMIT  # S5.4: each time the count reaches 10
    penalty = -BAG_PENALTY * times
    bags = total_bags - BAG_LIMIT * times
    points = contract + new_bags + penalty
    parts = [what]
    if new_bags:
        parts.append(f"{new_bags} bag{'s' if new_bags != 1 else ''} +{new_bags}")
    if times:
        parts.append(f"bags reached {BAG_LIMIT}: {penalty}")
    parts.append(f"bags {bags_before} -> {bags}")
    parts.append(f"hand {points:+d}")
    return HandScore(
        bid=bid,
        blind=blind,
        tricks=tricks,
        contract=contract,
        new_bags=new_bags,
        bags=bags,
        penalty=penalty,
        points=points,
        breakdown="; ".join(parts),
    )
