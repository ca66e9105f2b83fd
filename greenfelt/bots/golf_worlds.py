"""Aligned worlds: compare Golf moves that turn up different face-down cards fairly.

The expert (``ismcts``) compares its candidate moves on *common random numbers*:
each imagined world is shared by every candidate, so luck cancels in their
difference. It does not cancel where two moves turn up different face-down
cards (flip 1 against flip 4, G2.2; or put the card in hand over face-down card
1 against face-down card 4, G2.3): in one world the first finds a king, the
second a two, and the comparison measures that luck, not the moves.

The seat's face-down cards are exchangeable: it knows nothing of any of them
(G1.7, G8.1), and :meth:`GolfRound.determinize` draws them from one pool. So a
world with two of them swapped is exactly as likely as the world itself. Each
candidate's world is the block's world with the card its move turns up swapped
into a reference place: every candidate then turns up the same card, and what
differs is only where it lands (which column it joins, which card stays hidden).
Every candidate still sees worlds drawn from the seat's belief, so each one's
value is estimated without bias; only their difference is less noisy.

It is an option (``ExpertBot(align=True)``), off by default: on six-card, at
the default budget, the same 1,345 holes against greedy went 60.1% with it and
63.1% without (paired -2.8 +-2.3 points of percentage). Like four times the
budget, a sharper comparison made the anchored search worse, not better
(docs/expert-six-card.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from greenfelt.golf.actions import GolfAction, Kind
from greenfelt.golf.game import GolfRound

__all__ = ["Alignment", "alignment"]

_TURNS_UP = (Kind.FLIP, Kind.SWAP)


class Alignment:
    """For each move that turns up one of the seat's face-down cards, its cell; and
    the reference cell every other such card is swapped with."""

    __slots__ = ("cells", "reference")

    def __init__(self, reference: int, cells: dict[GolfAction, int]) -> None:
        self.reference = reference
        self.cells = cells

    def world(self, world: GolfRound, action: GolfAction) -> GolfRound:
        """``world`` (a fresh clone, changed in place) with the card ``action`` turns
        up moved to the reference cell's card: the same card for every candidate."""
        cell = self.cells.get(action)
        if cell is not None and cell != self.reference:
            cards, ref = world.cards, self.reference
            cards[ref], cards[cell] = cards[cell], cards[ref]
        return world


def alignment(state: GolfRound, seat: int, moves: Sequence[GolfAction]) -> Alignment | None:
    """How to align the worlds of ``moves`` for ``seat`` (any state it cannot tell
    from the real one), or None where fewer than two moves turn up an unknown card."""
    bit = 1 << seat
    base = seat * state.size
    cards, up, known, origin = state.cards, state.up, state.known, state.origin
    cells: dict[GolfAction, int] = {}
    for action in moves:
        if action.kind not in _TURNS_UP or action.pos is None or action.pos >= state.size:
            continue
        cell = base + action.pos
        if cards[cell] is not None and not up[cell] and not known[cell] & bit:
            cells[action] = cell
    if len(set(cells.values())) < 2:
        return None
    reference = min(cells.values())
    # Only cards drawn from the same pool are exchangeable (a reshuffle's cards are
    # another pool, G2.4).
    pool = origin[reference]
    cells = {action: cell for action, cell in cells.items() if origin[cell] == pool}
    return Alignment(reference, cells) if len(cells) > 1 else None
