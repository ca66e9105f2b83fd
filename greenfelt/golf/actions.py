"""Golf actions and their pinned text forms.

``flip P``, ``peek P``, ``draw``, ``take``, ``swap P``, ``discard``, ``knock``,
``pass``, and the card powers of G7: ``power VERB S:P ...`` where ``S:P`` is
seat ``S``'s position ``P`` (``power peek 1:3``, ``power swap 0:2 1:3``,
``power shuffle 1``, ``power give 1:4``). The extended Powers set (G7.4) adds
``power place 1:4`` (9), ``power draw2`` and ``power keep K`` (8), ``power rows
1:0 1:1`` / ``power cols 1:0 1:2`` (7), ``power shield`` (5), ``power show 1:4`` /
``power hide 0:2`` (4), ``power add 1`` / ``power remove 0:3`` (A) and ``power
cancel`` (black K); see :mod:`greenfelt.golf.powers`. The plain actions are interned values:
``parse_action("swap 4") is SWAP[4]``, so engines compare them by identity and
never allocate on the hot path.
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
    "POWER_VERBS",
    "SWAP",
    "TAKE",
    "GolfAction",
    "Kind",
    "parse_action",
    "power_action",
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
    POWER = "power"


POWER_VERBS = (
    "peek",
    "swap",
    "shuffle",
    "give",
    "place",
    "draw2",
    "keep",
    "rows",
    "cols",
    "shield",
    "show",
    "hide",
    "add",
    "remove",
    "cancel",
)
"""G7 powers: look at a card, swap two cards, shuffle a layout, give a king (G7.5);
and the extended set of G7.4: place a 9, draw two (then keep one), swap rows or
columns, raise a shield, show or hide a card, add or remove a card, cancel a knock."""

# How many targets each verb takes, and whether they are whole layouts (a seat
# alone, or for ``keep`` the index of a card on offer) rather than SEAT:POSITION.
_SHAPES: dict[str, tuple[int, bool]] = {
    "peek": (1, False),
    "swap": (2, False),
    "shuffle": (1, True),
    "give": (1, False),
    "place": (1, False),
    "draw2": (0, False),
    "keep": (1, True),
    "rows": (2, False),
    "cols": (2, False),
    "shield": (0, False),
    "show": (1, False),
    "hide": (1, False),
    "add": (1, True),
    "remove": (1, False),
    "cancel": (0, False),
}
Target = tuple[int, int | None]
"""A power's target: (seat, position), or (seat, None) for a whole layout."""


_POSITIONAL = frozenset((Kind.FLIP, Kind.PEEK, Kind.SWAP))


@dataclass(frozen=True, slots=True)
class GolfAction:
    """One decision of a player; ``pos`` is a layout position (row-major) or hand index."""

    kind: Kind
    pos: int | None = None
    power: str | None = None
    targets: tuple[Target, ...] = ()

    def __str__(self) -> str:
        if self.kind is Kind.POWER:
            places = " ".join(f"{s}" if p is None else f"{s}:{p}" for s, p in self.targets)
            return f"power {self.power} {places}" if places else f"power {self.power}"
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
    if kind is Kind.POWER:
        return _parse_power(text, words[1:])
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


def power_action(power: str, *targets: Target) -> GolfAction:
    """A G7 power action, e.g. ``power_action("swap", (0, 2), (1, 3))``."""
    return GolfAction(Kind.POWER, None, power, tuple(targets))


def _parse_power(text: str, words: list[str]) -> GolfAction:
    if not words or words[0] not in POWER_VERBS:
        raise IllegalAction(
            f"{text!r}: a power is one of {', '.join('power ' + v for v in POWER_VERBS)}"
        )
    verb, places = words[0], words[1:]
    shape, whole = _SHAPES[verb]
    if len(places) != shape:
        if shape == 0:
            raise IllegalAction(f"{text!r}: power {verb} takes no target")
        example = "a seat such as 1" if whole else "SEAT:POSITION such as 1:3"
        if verb == "keep":
            example = "the number of a card on offer such as 1"
        raise IllegalAction(f"{text!r}: power {verb} takes {shape} target(s): {example}")
    targets: list[Target] = []
    for place in places:
        seat, sep, pos = place.partition(":")
        if not seat.isdigit() or (sep and not pos.isdigit()) or whole == bool(sep):
            example = "a seat such as 1" if whole else "SEAT:POSITION such as 1:3"
            if verb == "keep":
                example = "the number of a card on offer such as 1"
            raise IllegalAction(f"{text!r}: {place!r} should be {example}")
        targets.append((int(seat), int(pos) if sep else None))
    return power_action(verb, *targets)
