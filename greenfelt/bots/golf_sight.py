"""What a Golf seat sees: the one view every Golf policy decides from (G8.1).

:func:`seat_sight` turns a round into the cells a seat may know: card codes,
and three sight codes for what it may not (:data:`UNKNOWN`, :data:`EMPTY`,
:data:`OWNER_KNOWN`). Greedy, easy, the powers policy and the benchmarks'
textbook player read only this, the discard pile, the counts and the public
round flags, never the stock order nor a hidden card; so what a policy may
know is settled here, once.
"""

from __future__ import annotations

from typing import Final

from greenfelt.golf.game import FACE_DOWN, REMOVED, GolfRound

__all__ = ["EMPTY", "OWNER_KNOWN", "UNKNOWN", "seat_sight"]

UNKNOWN: Final = FACE_DOWN
"""Sight code of a card the seat cannot see (valued at the unseen mean)."""
EMPTY: Final = REMOVED
"""Sight code of a position whose matched line left the table (G3.5): 0 points."""
OWNER_KNOWN: Final = 55
"""Sight code of another seat's hidden card that its owner has seen (closed golf, hand4)."""


def seat_sight(state: GolfRound, seat: int) -> tuple[list[int], int | None]:
    """Every layout cell as ``seat`` may know it (G8.1), and the held card if it sees it.

    A cell is its card code when face up or known to ``seat`` (peeked, placed
    by it, or taken from the discard pile), :data:`EMPTY` when its line left
    the table (G3.5), :data:`OWNER_KNOWN` for another seat's hidden card that
    its owner has seen (who peeked or placed what is public), and
    :data:`UNKNOWN` otherwise. This, the discard pile, the counts and the
    public round flags are all the policy reads: never the stock order nor a
    hidden card.
    """
    face = state.face
    # Open layouts without powers: every seat sees the table, kept by the round in the
    # same codes (UNKNOWN is FACE_DOWN, EMPTY is REMOVED).
    cells = face[:] if face is not None else _layout_sight(state, seat)
    held = state.held
    if held is not None and state.held_from_stock and state.to_move != seat:
        held = None
    return cells, held


def _layout_sight(state: GolfRound, seat: int) -> list[int]:
    """:func:`seat_sight`'s cells where a seat may know more than the table shows."""
    bit = 1 << seat
    cards, up, known = state.cards, state.up, state.known
    rules = state.rules
    if rules.closed or rules.shape.is_hand:
        size = state.size
        cells = []
        for i, card in enumerate(cards):
            k = known[i]
            if card is None:
                cells.append(EMPTY)
            elif up[i] or k & bit:
                cells.append(card)
            elif k & (1 << (i // size)):
                cells.append(OWNER_KNOWN)
            else:
                cells.append(UNKNOWN)
    else:
        # Open layouts with powers: a face-down card is unknown to everyone, its owner
        # included, unless a power showed it to a seat (G7). (Copy, then mark: about
        # twice as fast as a comprehension over three lists.)
        cells = list(cards)  # type: ignore[arg-type]  # a removed card's None: below
        for i, u in enumerate(up):
            if not u and not known[i] & bit:
                cells[i] = UNKNOWN
        if rules.has_gaps:
            for i, card in enumerate(cards):
                if card is None:
                    cells[i] = EMPTY
    return cells
