"""How near a Golf round is to its end, for the seat to move (G3.1).

The expert's search gains most near the end of a round (``bench_search_gain``:
three quarters of what a one-step search wins over its playout comes in
decisions where the seat could close), so the search may spend its budget and
its trust by stage.
"""

from __future__ import annotations

from greenfelt.golf.game import GolfRound

__all__ = ["STAGES", "stage"]

STAGES = ("final", "close", "near", "other")
"""``final``: a final turn after another seat closed (G3.1); ``close``: the seat has
one face-down card left and can close; ``near``: another seat has at most one;
``other``: the rest of the round."""


def stage(state: GolfRound) -> str:
    """The stage of the round (``STAGES``) for the seat to move."""
    seat = state.to_move
    assert seat is not None
    if state.closer is not None:
        return "final"
    if state.down[seat] == 1:
        return "close"
    if min(state.down[o] for o in range(state.n) if o != seat) <= 1:
        return "near"
    return "other"
