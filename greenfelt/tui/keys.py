"""Short keys for the engine's actions, both ways: pure functions of a view.

Golf: a number key is a position (``flip P``, ``peek P`` or ``swap P``,
whichever the phase asks for), ``d`` draw, ``t`` take, ``k`` knock, ``p`` pass,
``x`` discard; while an 8's offer is open (G7.4, phase ``choose``) a number key
``N`` is ``power keep N``. Other card powers are typed (``:``). Spades: ``b`` blind nil, ``p`` pass, ``k`` keep, ``r`` reject,
``0``-``9`` a bid (``0`` is nil), and a letter ``a``-``m`` plays the card at
that place in your hand. A key always maps to an action *text*; whether that
action is legal is the engine's to say (its message explains why not).

The ``view`` everywhere is a match view (``GolfMatch.view`` /
``SpadesMatch.view``), exactly as the server sends it.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "GOLF_KEYS",
    "HAND_LETTERS",
    "SPADES_KEYS",
    "action_for_key",
    "key_for",
    "legal_actions",
    "moves",
]

GOLF_KEYS = {"draw": "d", "take": "t", "knock": "k", "pass": "p", "discard": "x"}
"""Golf's word actions and their keys; positional actions use the position's number."""

SPADES_KEYS = {"blind nil": "b", "pass": "p", "keep": "k", "reject": "r"}
"""Spades' word actions and their keys; bids use digits, plays use hand letters."""

HAND_LETTERS = "abcdefghijklm"
"""The keys of the 13 places of a Spades hand, in the order the view lists it."""

# Which positional action a number key means in each Golf phase.
_GOLF_DIGIT = {"turn": "flip", "drawn": "swap", "taken": "swap", "flip": "flip"}


def _golf_round(view: dict[str, Any]) -> dict[str, Any] | None:
    rv: dict[str, Any] | None = view.get("round_view")
    return rv


def _spades_hand(view: dict[str, Any]) -> dict[str, Any] | None:
    hand: dict[str, Any] | None = view.get("hand")
    return hand


def legal_actions(view: dict[str, Any] | None) -> list[str]:
    """The viewing seat's legal action texts (empty when it is not to move)."""
    if view is None:
        return []
    part = _golf_round(view) if view.get("game") == "golf" else _spades_hand(view)
    if part is None:
        return []
    return list(part.get("legal") or [])


def key_for(view: dict[str, Any], action: str) -> str | None:
    """The key that makes ``action`` in this view, or None when it must be typed.

    >>> key_for({"game": "golf", "round_view": {"phase": "drawn"}}, "swap 4")
    '4'
    >>> key_for({"game": "spades", "hand": {"hand": ["A♠", "2♥"]}}, "play 2♥")
    'b'
    """
    if view.get("game") == "golf":
        word, _, pos = action.partition(" ")
        if word == "power":  # G7.4 8: "power keep N" is key N; other powers are typed
            verb, _, number = pos.partition(" ")
            return number if verb == "keep" and number.isdigit() and len(number) == 1 else None
        if pos:
            return pos if pos.isdigit() and len(pos) == 1 else None
        return GOLF_KEYS.get(word)
    if action in SPADES_KEYS:
        return SPADES_KEYS[action]
    if action == "bid nil":
        return "0"
    word, _, rest = action.partition(" ")
    if word == "bid":
        return rest if rest.isdigit() and len(rest) == 1 else None
    if word == "play":
        hand = (_spades_hand(view) or {}).get("hand") or []
        if rest in hand:
            return HAND_LETTERS[hand.index(rest)]
    return None


def action_for_key(view: dict[str, Any] | None, key: str) -> str | None:
    """The action text a key means in this view's phase, or None if it means nothing now.

    >>> action_for_key({"game": "golf", "round_view": {"phase": "reveal", "layout": "2x3"}}, "4")
    'flip 4'
    >>> action_for_key({"game": "spades", "hand": {"phase": "bid"}}, "0")
    'bid nil'
    """
    if view is None or len(key) != 1:
        return None
    if view.get("game") == "golf":
        rv = _golf_round(view)
        if rv is None:
            return None
        phase = rv.get("phase")
        if key.isdigit():
            if phase == "choose":  # G7.4 8: keep card N of the offer
                return f"power keep {key}"
            kind = _GOLF_DIGIT.get(str(phase))
            if phase == "reveal":
                legal = rv.get("legal") or []
                peeks = rv.get("layout") == "2x2" or any(a.startswith("peek ") for a in legal)
                kind = "peek" if peeks else "flip"
            return None if kind is None else f"{kind} {key}"
        if phase == "over":
            return None
        for word, shortcut in GOLF_KEYS.items():
            if key == shortcut:
                return word
        return None
    hand = _spades_hand(view)
    if hand is None:
        return None
    phase = hand.get("phase")
    if phase == "blind":
        return {"b": "blind nil", "p": "pass"}.get(key)
    if phase == "draw":
        return {"k": "keep", "r": "reject"}.get(key)
    if phase == "bid" and key.isdigit():
        return "bid nil" if key == "0" else f"bid {key}"
    if phase == "play" and key in HAND_LETTERS:
        cards = hand.get("hand") or []
        index = HAND_LETTERS.index(key)
        return f"play {cards[index]}" if index < len(cards) else None
    return None


def moves(view: dict[str, Any] | None) -> list[tuple[str | None, str]]:
    """The viewing seat's legal actions, each with its key (None: type the text)."""
    if view is None:
        return []
    return [(key_for(view, action), action) for action in legal_actions(view)]
