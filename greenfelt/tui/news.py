"""The move log's lines: each move told in words, with the cards it showed.

A line is built from the protocol event (``update.event``) and the view of this
seat *after* the move, the same pair the browser tells its "Table talk" from
(``web/golf.js`` ``describeGolf``, ``web/spades.js`` ``describeSpades``), so a
line can name only a card this seat may see: a discarded card, a card turned
up, the card you drew. Places are numbered from 0, as the terminal labels them
and as the action texts write them (``swap 4``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from greenfelt.errors import GreenfeltError
from greenfelt.golf.actions import parse_action
from greenfelt.golf.powers import describe as describe_power

__all__ = ["event_text", "round_over_text", "seat_news"]


def event_text(
    event: dict[str, Any] | None, view: dict[str, Any] | None, me: int | None
) -> str | None:
    """A line for the move log, or None for an event that tells nothing."""
    if not event:
        return None
    kind = event.get("kind")
    if kind == "deal":
        return f"A new {'hand' if view and view.get('game') == 'spades' else 'round'} is dealt."
    if kind == "start":
        return "The match starts."
    if kind == "rematch":
        return "A rematch starts."
    if kind != "action":
        return None
    seat, action = event.get("seat"), str(event.get("action"))
    names: Sequence[str] = view["names"] if view else ()
    name = "You" if seat == me else _name(names, seat)
    if view is None:
        line = f"{name}: {action}"
    elif view.get("game") == "spades":
        line = _spades(name, action, view, me)
    else:
        line = _golf(name, seat == me, seat, action, view)
    if event.get("seen"):
        line += f" (you saw {event['seen']})"
    return line


def round_over_text(view: dict[str, Any] | None) -> str | None:
    """The line that ends a round: each player's points for it, in seat order (a Golf
    playoff seats only the tied, G9.2), or None while no finished round is in view."""
    if view is None:
        return None
    if view.get("game") == "spades":
        hand = view.get("hand") or {}
        if not hand.get("result"):
            return None
        names, points = view["names"], [r["points"] for r in hand["result"]]
        title = f"Hand {view['hands']}"
    else:
        rv = view.get("round_view") or {}
        if rv.get("scores") is None:
            return None
        names, points = [view["names"][s] for s in view["seating"]], rv["scores"]
        title = f"Round {view['round']}"
    each = ", ".join(f"{name} {p:+d}" for name, p in zip(names, points, strict=True))
    return f"{title} is over: {each}."


def seat_news(
    before: Sequence[dict[str, Any]], after: Sequence[dict[str, Any]], me: int | None
) -> list[str]:
    """What changed at the table's seats (the server's public seats), as the browser's
    table talk tells it (``web/seatnews.js``): who sat down, which seat went to a bot,
    who is away with a bot standing in, who is back, who lost the connection."""
    was_by_seat = {s.get("seat"): s for s in before}
    out = []
    for s in after:
        was = was_by_seat.get(s.get("seat"))
        if was is None:
            continue
        number, name, mine = int(s.get("seat", 0)) + 1, s.get("name"), s.get("seat") == me
        if not was.get("taken") and s.get("taken"):
            if s.get("bot"):
                out.append(f"Seat {number} went to the {name}.")
            else:
                out.append(f"{'You' if mine else name} took seat {number}.")
        elif s.get("taken") and not s.get("bot"):
            if not was.get("stand_in") and s.get("stand_in"):
                out.append(
                    "You are away: a bot plays for you."
                    if mine
                    else f"{name} is away: a bot plays for them."
                )
            elif was.get("stand_in") and not s.get("stand_in"):
                out.append("You are back." if mine else f"{name} is back.")
            elif not mine and was.get("connected") and not s.get("connected"):
                out.append(f"{name} lost the connection.")
            elif not mine and not was.get("connected") and s.get("connected"):
                out.append(f"{name} is connected again.")
    return out


def _name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "?"


def _the(card: str | None) -> str:
    """A card for a sentence: "the K♠", or "a card" where this seat cannot see it."""
    return f"the {card}" if card and card != "??" else "a card"


def _golf(name: str, you: bool, seat: object, action: str, view: dict[str, Any]) -> str:
    rv = view.get("round_view") or {}
    words = action.split()
    verb = words[0] if words else ""
    pile = rv.get("discard") or []
    top = pile[-1] if pile else None
    place = int(words[1]) if len(words) == 2 and words[1].isdigit() else None
    card = None  # the card now at ``place``, as this seat sees it ("??" if it may not)
    seating = view.get("seating") or []
    layouts = rv.get("layouts") or []
    if place is not None and seat in seating and seating.index(seat) < len(layouts):
        cards = layouts[seating.index(seat)].get("cards") or []
        card = cards[place] if place < len(cards) else None
    if verb == "draw":
        held = rv.get("held") if you else None
        return f"You drew {_the(held)} from the stock." if held else f"{name} drew from the stock."
    if verb == "take":
        return f"{name} took {_the(rv.get('held'))} from the discard pile."
    if verb == "swap" and place is not None:
        return f"{name} put {_the(card)} in place {place}; {_the(top)} goes to the discard pile."
    if verb == "discard":
        return f"{name} discarded {_the(top)}."
    if verb == "flip" and place is not None:
        return f"{name} turned up {_the(card)} (place {place})."
    if verb == "peek" and place is not None:
        return f"{name} peeked at place {place}."
    if verb == "knock":
        return f"{name} knocked! Everyone else has one more turn."
    if verb == "pass":
        return f"{name} chose not to turn a card up."
    if verb == "power":  # G7: in words, seats as the action texts number them
        try:
            said = describe_power(parse_action(action))
        except GreenfeltError:
            return f"{name}: {action}"
        return f"{name} used a power: {said if you else said.replace('your ', 'their ')}."
    return f"{name}: {action}"


def _spades(name: str, action: str, view: dict[str, Any], me: int | None) -> str:
    hand = view.get("hand") or {}
    top = hand.get("discard_top")
    if action == "blind nil":
        return f"{name} declared blind nil!"
    if action == "pass":
        return f"{name} will not bid blind nil."
    if action == "keep":
        shown = f"; the next card, {_the(top)}, is discarded" if top and top != "??" else ""
        return f"{name} kept the drawn card{shown}."
    if action == "reject":
        return f"{name} rejected {_the(top)} and took the next card."
    if action.startswith("bid "):
        bid = action[4:]
        return f"{name} bid {'13: shooting the moon' if bid == '13' else bid}."
    if action.startswith("play "):
        line = f"{name} played the {action[5:]}."
        tricks = hand.get("tricks") or []
        if not hand.get("trick") and tricks:
            winner = tricks[-1]["winner"]
            who = "You win" if winner == me else f"{_name(view['names'], winner)} wins"
            line += f" {who} the trick."
        return line
    return f"{name}: {action}"
