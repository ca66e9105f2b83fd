"""Spades actions and their pinned text forms (RULES S2-S4).

Every decision of a hand is one :class:`SpadesAction`:

=============  ==============================  ========================
phase          text                            rule
=============  ==============================  ========================
blind          ``blind nil`` / ``pass``        S2.1
draw           ``keep`` / ``reject``           S2.2
bid            ``bid N`` (1-13), ``bid nil``   S3.1 (``bid 0`` parses too)
play           ``play Q♠``                     S4
=============  ==============================  ========================

The canonical text of the zero bid is ``bid nil``: it is what players say
(S3.2) and what DESIGN.md lists; ``bid 0`` parses to the same action. After
``reject`` the player keeps the next card without a further action (S2.2).

Actions are interned: the module holds one instance per distinct action, and
:func:`parse_action`, :func:`bid` and :func:`play` return those, so engines
can compare with ``is`` and keep them in cached tuples. ``parse_action(str(a))
== a`` for every action.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from greenfelt.cards import CARDS, Card, parse_card
from greenfelt.errors import IllegalAction, NotationError

__all__ = [
    "ALL_ACTIONS",
    "BIDS",
    "BLIND_NIL",
    "KEEP",
    "PASS",
    "PLAYS",
    "REJECT",
    "ActionKind",
    "ActionTextError",
    "SpadesAction",
    "bid",
    "format_action",
    "parse_action",
    "play",
]


class ActionTextError(NotationError, IllegalAction):
    """Action text that is not an action: both a notation error and an illegal action.

    Callers that catch either family (records catch notation errors, servers
    catch illegal actions) see it.
    """


class ActionKind(enum.IntEnum):
    """What an action does; the phase it belongs to follows from it."""

    BLIND_NIL = 0
    PASS = 1
    KEEP = 2
    REJECT = 3
    BID = 4
    PLAY = 5


@dataclass(frozen=True, slots=True, repr=False)
class SpadesAction:
    """One decision. ``bid`` is set for BID (0 = nil), ``card`` for PLAY.

    Prefer the interned constants and :func:`bid` / :func:`play`; an equal
    instance built by hand compares equal and is accepted by the checked path.

    >>> parse_action("play 10h"), parse_action("bid 0")
    (play 10♥, bid nil)
    """

    kind: ActionKind
    bid: int | None = None
    card: Card | None = None

    def __post_init__(self) -> None:
        # Every action is well formed by construction, so engines never meet a broken one.
        kind, bid, card = self.kind, self.bid, self.card
        if kind is ActionKind.BID:
            ok = type(bid) is int and 0 <= bid <= 13 and card is None
        elif kind is ActionKind.PLAY:
            ok = isinstance(card, int) and 0 <= card < 52 and bid is None
        else:
            ok = isinstance(kind, ActionKind) and bid is None and card is None
        if not ok:
            raise IllegalAction(f"not a spades action: kind={kind!r}, bid={bid!r}, card={card!r}")

    def __str__(self) -> str:
        return format_action(self)

    __repr__ = __str__

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickle by text so worker processes get the interned instance back.
        return (parse_action, (format_action(self),))


BLIND_NIL: Final = SpadesAction(ActionKind.BLIND_NIL)
PASS: Final = SpadesAction(ActionKind.PASS)
KEEP: Final = SpadesAction(ActionKind.KEEP)
REJECT: Final = SpadesAction(ActionKind.REJECT)
BIDS: Final = tuple(SpadesAction(ActionKind.BID, bid=n) for n in range(14))
"""``BIDS[n]`` is the bid of n tricks (S3.1); ``BIDS[0]`` is nil."""
PLAYS: Final = tuple(SpadesAction(ActionKind.PLAY, card=c) for c in CARDS[:52])
"""``PLAYS[card]`` plays that card, indexed by card code."""
ALL_ACTIONS: Final = (BLIND_NIL, PASS, KEEP, REJECT, *BIDS, *PLAYS)

_WORDS: Final = {"blind nil": BLIND_NIL, "pass": PASS, "keep": KEEP, "reject": REJECT}
_TEXT: Final[dict[SpadesAction, str]] = {
    BLIND_NIL: "blind nil",
    PASS: "pass",
    KEEP: "keep",
    REJECT: "reject",
    BIDS[0]: "bid nil",
    **{a: f"bid {a.bid}" for a in BIDS[1:]},
    **{a: f"play {a.card}" for a in PLAYS},
}
_PARSED: dict[str, SpadesAction] = {text: a for a, text in _TEXT.items()}


def bid(n: int) -> SpadesAction:
    """The interned bid of ``n`` tricks, 0 (nil) to 13 (S3.1)."""
    if not 0 <= n <= 13:
        raise IllegalAction(f"a bid is 0 (nil) to 13 tricks (S3.1), not {n}")
    return BIDS[n]


def play(card: Card) -> SpadesAction:
    """The interned action that plays ``card``."""
    if not 0 <= card < 52:
        raise IllegalAction(f"{card} is not a card of the Spades deck (S1.1)")
    return PLAYS[card]


def format_action(action: SpadesAction) -> str:
    """The canonical text of an action (the wire and record format)."""
    text = _TEXT.get(action)
    if text is None:
        raise IllegalAction(f"not a spades action: {action.kind.name} {action.bid} {action.card}")
    return text


def parse_action(text: str) -> SpadesAction:
    """Parse action text: ``blind nil``, ``pass``, ``keep``, ``reject``, ``bid N``,
    ``bid nil``, ``play CARD`` (case and spacing are free; cards in C2 notation).

    Raises :class:`ActionTextError` (a NotationError and an IllegalAction)
    naming the bad token.
    """
    action = _PARSED.get(text)
    if action is not None:
        return action
    words = text.lower().split()
    norm = " ".join(words)
    if norm in _WORDS:
        action = _WORDS[norm]
    elif len(words) == 2 and words[0] == "bid":
        arg = words[1]
        if arg == "nil":
            action = BIDS[0]
        elif arg.isdigit() and int(arg) <= 13:
            action = BIDS[int(arg)]
        else:
            raise ActionTextError(
                f"{text.split()[1]!r} is not a bid: bid 0 (or nil) to 13 tricks (S3.1)"
            )
    elif len(words) == 2 and words[0] == "play":
        token = text.split()[1]
        try:
            card = parse_card(token)
        except NotationError as error:
            raise ActionTextError(f"in {text.strip()!r}: {error}") from None
        if card >= 52:
            raise ActionTextError(f"{token!r}: there are no jokers in Spades (S1.1)")
        action = PLAYS[card]
    else:
        tokens = text.split()
        first = tokens[0] if tokens else ""
        raise ActionTextError(
            f"{text!r} is not a spades action"
            + (f" (unknown or incomplete {first!r})" if first else "")
            + ": expected blind nil, pass, keep, reject, bid N, bid nil or play CARD"
        )
    if len(_PARSED) < 4096:  # cache the spellings actually used
        _PARSED[text] = action
    return action
