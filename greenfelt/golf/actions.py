"""Golf actions and their pinned text forms.

``flip P``, ``peek P``, ``draw``, ``take``, ``swap P``, ``discard``, ``knock``,
``pass``. Actions are interned values: ``parse_action("swap 4") is SWAP[4]``,
so engines compare them by identity and never allocate on the hot path.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from greenfelt.errors import IllegalAction

__all__ = [
    "DISCARD",
    "DRAW",
    "FLIP",
    "KNOCK",
    "PASS",
    "PEEK",
    "SWAP",
    "TAKE",
    "GolfAction",
    "Kind",
    "parse_action",
]


class Kind(enum.Enum):
    """What an action does; the value is its text keyword."""

    FLIP = "flip"
    PEEK = "peek"
    DRAW = "draw"
    TAKE = "take"
    SWAP = "swap"
    DISCARD = "discard"
    KNOCK = "knock"
    PASS = "pass"


_POSITIONAL = frozenset((Kind.FLIP, Kind.PEEK, Kind.SWAP))


@dataclass(frozen=True, slots=True)
class GolfAction:
    """One decision of a player; ``pos`` is a layout position (row-major) or hand index."""

    kind: Kind
    pos: int | None = None

    def __str__(self) -> str:
        return self.kind.value if self.pos is None else f"{self.kind.value} {self.pos}"

    __repr__ = __str__


_MAX_INTERNED = 16
FLIP = tuple(GolfAction(Kind.FLIP, p) for p in range(_MAX_INTERNED))
PEEK = tuple(GolfAction(Kind.PEEK, p) for p in range(_MAX_INTERNED))
SWAP = tuple(GolfAction(Kind.SWAP, p) for p in range(_MAX_INTERNED))
DRAW = GolfAction(Kind.DRAW)
TAKE = GolfAction(Kind.TAKE)
DISCARD = GolfAction(Kind.DISCARD)
KNOCK = GolfAction(Kind.KNOCK)
PASS = GolfAction(Kind.PASS)

_BY_TEXT: dict[str, GolfAction] = {
    str(a): a for a in (*FLIP, *PEEK, *SWAP, DRAW, TAKE, DISCARD, KNOCK, PASS)
}
_KINDS = {k.value: k for k in Kind}


def parse_action(text: str) -> GolfAction:
    """Parse an action's text form; raises IllegalAction saying what is malformed.

    >>> parse_action("swap 4"), parse_action(" Draw ")
    (swap 4, draw)
    """
    if not isinstance(text, str):
        raise IllegalAction(f"an action is text such as 'swap 4', not {type(text).__name__}")
    action = _BY_TEXT.get(text)
    if action is not None:
        return action
    words = text.strip().lower().split()
    if not words:
        raise IllegalAction("empty action: expected draw, take, swap P, discard, flip P, ...")
    kind = _KINDS.get(words[0])
    if kind is None:
        raise IllegalAction(
            f"unknown action {words[0]!r} in {text!r}: Golf actions are "
            "flip P, peek P, draw, take, swap P, discard, knock, pass"
        )
    if kind in _POSITIONAL:
        if len(words) != 2:
            raise IllegalAction(
                f"{kind.value} needs one position, as in '{kind.value} 2': {text!r}"
            )
        if not words[1].isdigit():
            raise IllegalAction(f"position {words[1]!r} in {text!r} is not a number")
        pos = int(words[1])
        if pos < _MAX_INTERNED:
            return {Kind.FLIP: FLIP, Kind.PEEK: PEEK, Kind.SWAP: SWAP}[kind][pos]
        return GolfAction(kind, pos)
    if len(words) != 1:
        raise IllegalAction(f"{kind.value} takes no position: {text!r}")
    return _BY_TEXT[kind.value]
