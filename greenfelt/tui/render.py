"""Views as Rich renderables: pure functions, testable without a terminal.

Everything here reads a *match view* (``GolfMatch.view(seat)`` or
``SpadesMatch.view(seat)``, the same dict the server sends a seat) and nothing
else, so the terminal can never show what that seat may not know: a card the
view writes ``??`` is drawn as a card back and its text never appears.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from greenfelt.golf.layout import shape_of
from greenfelt.tui.keys import HAND_LETTERS, moves

__all__ = [
    "BACK",
    "card",
    "face",
    "golf_breakdown",
    "golf_layout",
    "golf_table",
    "match_result",
    "moves_text",
    "plain",
    "result_panel",
    "scoresheet",
    "spades_result",
    "spades_table",
    "status_line",
    "table_panel",
]

BACK = "░░░"
"""A face-down card whose face the viewer does not know."""

_RED = "bold red"
_BLACK = "bold"
_JOKER = "bold magenta"


def card(text: str | None, *, face_up: bool = True) -> Text:
    """One card as ``[10♥]`` in its suit's colour; ``??`` is a back, None an empty place.

    A card the viewer knows but that lies face down (a peeked card) is dimmed.
    """
    if text is None:
        return Text("[   ]", style="dim")
    if text == "??":
        return Text(f"[{BACK}]", style="blue")
    style = _JOKER if text == "JK" else _RED if text[-1:] in ("♥", "♦") else _BLACK
    if not face_up:
        style += " dim italic"
    return Text.assemble("[", (text.rjust(3), style), "]")


def face(text: str | None) -> Text:
    """A card's text alone in its suit's colour (``--`` for an empty place): for lists."""
    if text is None:
        return Text("--", style="dim")
    if text == "??":
        return Text(BACK, style="blue")
    style = _JOKER if text == "JK" else _RED if text[-1:] in ("♥", "♦") else _BLACK
    return Text(text, style=style)


def _cards(texts: Sequence[str | None]) -> Text:
    return Text(" ").join(face(t) for t in texts)


def _name(names: Sequence[str], seat: int, me: int | None, labels: Sequence[str]) -> Text:
    out = Text(names[seat], style="bold")
    extra = []
    if seat == me:
        extra.append("you")
    if seat < len(labels) and labels[seat]:
        extra.append(labels[seat])
    if extra:
        out.append(f" ({', '.join(extra)})", style="dim")
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---- Golf ----------------------------------------------------------------------------


def golf_layout(
    cards: Sequence[str | None], face_up: Sequence[bool], layout: str, *, numbered: bool = False
) -> Text:
    """A layout as rows of cards (``numbered``: each position's number above its card).

    Positions beyond the grid (G7.4: cards an ace added) follow on an ``added:`` line,
    each with its position; empty ones are left out.
    """
    shape = shape_of(layout)
    out = Text()
    for row in range(shape.rows):
        positions = range(row * shape.cols, (row + 1) * shape.cols)
        if numbered:
            out.append("  " + " ".join(f"  {p:<3}" for p in positions).rstrip() + "\n", "dim")
        out.append("  ")
        out.append(Text(" ").join(card(cards[p], face_up=face_up[p]) for p in positions))
        out.append("\n")
    extra = [p for p in range(shape.size, len(cards)) if cards[p] is not None]
    if extra:
        out.append("  added:", style="dim")
        for p in extra:
            out.append(f" {p}:", style="dim")
            out.append(card(cards[p], face_up=face_up[p]))
        out.append("\n")
    return out


def _golf_round_seat_names(view: dict[str, Any]) -> list[int]:
    """Match seat of each round seat (a playoff seats only the tied players)."""
    seating = view.get("seating") or list(range(len(view["names"])))
    return [int(s) for s in seating]


def golf_table(view: dict[str, Any], labels: Sequence[str] = ()) -> Text:
    """The Golf table: every layout, stock, discard pile, the held card, who is closing."""
    names: list[str] = view["names"]
    me: int | None = view.get("seat")
    rv = view.get("round_view")
    out = Text()
    if rv is None:
        out.append("Waiting for the first deal.\n")
        return out
    seating = _golf_round_seat_names(view)
    round_me = seating.index(me) if me in seating else None
    n = len(seating)
    order = [(round_me + 1 + i) % n for i in range(n)] if round_me is not None else range(n)
    totals: list[int] = view.get("totals") or [0] * len(names)
    for j in order:
        seat = seating[j]
        title = Text("▶ " if rv.get("to_move") == j else "  ", style="bold yellow")
        title.append(_name(names, seat, me, labels))
        title.append(f"   total {totals[seat]}", style="dim")
        if rv.get("closer") == j:
            title.append("   knocked" if rv.get("knocked") else "   closed", style="bold yellow")
        shields = (rv.get("shields") or [])[j : j + 1]
        if shields and shields[0]:
            title.append(f"   shield [5] x{shields[0]}", style="bold cyan")
        out.append(title)
        out.append("\n")
        layout = rv["layouts"][j]
        out.append(
            golf_layout(layout["cards"], layout["face_up"], rv["layout"], numbered=j == round_me)
        )
        out.append("\n")
    out.append(f"Stock: {_plural(int(rv['stock']), 'card')}   Discard: ")
    discard: list[str] = rv.get("discard") or []
    out.append(card(discard[-1]) if discard else Text("(empty)", style="dim"))
    if len(discard) > 1:
        under = discard[-6:-1][::-1]
        out.append("   under it: ", style="dim")
        out.append(_cards(under))
    out.append("\n")
    held = rv.get("held")
    to_move = rv.get("to_move")
    if held is not None and to_move is not None:
        mover = seating[to_move]
        who = "You hold" if mover == me else f"{names[mover]} holds"
        out.append(f"{who} ")
        out.append(card(held))
        if rv.get("offer") is not None and rv.get("phase") == "taken":
            out.append(" kept from the 8's offer: put it in (swap P)\n")
        else:
            out.append(f" from the {rv.get('held_from') or 'stock'}\n")
    offer: list[str] = rv.get("offer") or []
    if offer and to_move is not None:
        mover = seating[to_move]
        who = "Your 8 offers" if mover == me else f"{names[mover]}'s 8 offers"
        out.append(f"{who}: ")
        for k, text in enumerate(offer):
            out.append(f" {k}:")
            out.append(card(text))
        out.append("   (power keep N keeps one; the rest are discarded)\n", style="dim")
    lent: list[str] | None = rv.get("lent")
    if lent and rv.get("phase") == "second" and to_move is not None:
        out.append(
            f"The 2 lent the {', '.join(lent)}'s power; a second, different power or pass (p)\n",
            style="bold cyan",
        )
    closer = rv.get("closer")
    if closer is not None and rv.get("phase") != "over":
        how = "knocked" if rv.get("knocked") else "closed"
        left = int(rv.get("final_turns_left") or 0)
        out.append(
            f"{names[seating[closer]]} {how}: {_plural(left, 'final turn')} left\n",
            style="bold yellow",
        )
    return out


def golf_breakdown(view: dict[str, Any]) -> Text | None:
    """How a finished round scored: counted cards, which cancelled by which rule, penalties."""
    rv = view.get("round_view")
    if rv is None or rv.get("breakdown") is None:
        return None
    names: list[str] = view["names"]
    seating = _golf_round_seat_names(view)
    shape = shape_of(rv["layout"])
    out = Text()
    out.append(f"Round {view.get('round', '')} breakdown\n", style="bold underline")
    closer = rv.get("closer")
    if closer is not None:
        how = "knocked" if rv.get("knocked") else "closed"
        out.append(f"{names[seating[closer]]} {how} the round.\n", style="dim")
    for j, entry in enumerate(rv["breakdown"]):
        cards: list[str | None] = rv["layouts"][j]["cards"]
        out.append(names[seating[j]], style="bold")
        out.append(":")
        for r, line in enumerate(shape.row_lines):
            out.append(" /" if r else "")
            for p in line:
                out.append(" ")
                out.append(face(cards[p]))
        added = [p for p in range(shape.size, len(cards)) if cards[p] is not None]
        if added:
            out.append(" + added")
            for p in added:
                out.append(" ")
                out.append(face(cards[p]))
        out.append("\n")
        grouped = {p for g in entry["groups"] for p in g["positions"]}
        counted = [
            (cards[p], points)
            for p, points in enumerate(entry["points"])
            if cards[p] is not None and p not in grouped
        ]
        if counted:
            out.append("  counted:")
            for text, points in counted:
                out.append(" ")
                out.append(face(text))
                out.append(f"={points}")
            out.append("\n")
        for group in entry["groups"]:
            where = ",".join(str(p) for p in group["positions"])
            out.append(f"  {group['kind']} [{where}]")
            for p in group["positions"]:
                out.append(" ")
                out.append(face(cards[p]))
            out.append(f" = {group['points']} ({group['rule']})\n")
        out.append(f"  layout: {entry['layout']}\n")
        for adj in entry["adjustments"]:
            sign = "+" if adj["delta"] >= 0 else ""
            out.append(f"  {sign}{adj['delta']}: {adj['reason']} ({adj['rule']})\n", "yellow")
        out.append(f"  round score: {entry['score']}\n", style="bold")
    return out


# ---- Spades --------------------------------------------------------------------------


def _bid_text(bid: int | None, blind: bool) -> str:
    if blind:
        return "blind nil"
    if bid is None:
        return "no bid yet"
    return "nil" if bid == 0 else str(bid)


def spades_table(view: dict[str, Any], labels: Sequence[str] = ()) -> Text:
    """The Spades table: both players, the draw, the bids, the trick, your hand with its keys."""
    names: list[str] = view["names"]
    me: int | None = view.get("hand", {}).get("seat") if view.get("hand") else None
    hand = view.get("hand")
    out = Text()
    if hand is None:
        out.append("Waiting for the first hand.\n")
        return out
    to_move = hand.get("to_move")
    bids: list[int | None] = hand.get("bids") or [None, None]
    blind: list[bool] = hand.get("blind_nil") or [False, False]
    won: list[int] = hand.get("tricks_won") or [0, 0]
    order = [1 - me, me] if me in (0, 1) else [0, 1]
    for seat in order:
        line = Text("▶ " if to_move == seat else "  ", style="bold yellow")
        line.append(_name(names, seat, me, labels))
        line.append(
            f"   {_plural(hand['hand_sizes'][seat], 'card')} · bid {_bid_text(bids[seat], blind[seat])}"
            f" · tricks {won[seat]} · total {view['totals'][seat]} (bags {view['bags'][seat]})",
            style="dim",
        )
        if seat == hand.get("dealer"):
            line.append(" · dealer", style="dim")
        out.append(line)
        out.append("\n")
    out.append("\n")
    phase = hand.get("phase")
    if phase in ("blind", "draw"):
        out.append(f"Stock: {_plural(int(hand['stock']), 'card')} · draw step ")
        out.append(f"{int(hand['draw_steps']) + 1} of 26 · discards {hand['discard_count']}")
        if hand.get("discard_top") is not None:
            out.append(", top ")
            out.append(card(hand["discard_top"]))
        out.append("\n")
        if hand.get("discards") is not None and hand["discards"]:
            out.append("Discards you have seen: ", style="dim")
            out.append(_cards(hand["discards"]))
            out.append("\n")
        if hand.get("drawn") is not None:
            out.append("You drew ")
            out.append(card(hand["drawn"]))
            out.append(": keep it, or reject it and keep the next card\n")
    trick: list[list[Any]] = hand.get("trick") or []
    if phase == "play" or trick:
        out.append("Trick: ")
        if not trick:
            leader = hand.get("leader")
            who = "you" if leader == me else names[leader] if leader is not None else "?"
            out.append(f"{who} to lead", style="dim")
        for seat, text in trick:
            out.append(f"{names[seat]} ")
            out.append(card(text))
            out.append("  ")
        out.append("   spades broken" if hand.get("spades_broken") else "", style="dim")
        out.append("\n")
    tricks: list[dict[str, Any]] = hand.get("tricks") or []
    if tricks:
        last = tricks[-1]
        out.append("Last trick: ", style="dim")
        for seat, text in last["cards"]:
            out.append(f"{names[seat]} ")
            out.append(card(text))
            out.append("  ")
        out.append(f"won by {names[last['winner']]}\n", style="dim")
    cards: list[str] = hand.get("hand") or []
    if me is not None and cards:
        out.append("\nYour hand:\n")
        legal = set(hand.get("legal") or [])
        playing = phase == "play"
        for i, text in enumerate(cards):
            ok = f"play {text}" in legal
            out.append(f" {HAND_LETTERS[i]}" if playing else "  ", style="bold" if ok else "dim")
            out.append(card(text, face_up=ok or not playing or not legal))
        out.append("\n")
    return out


def spades_result(view: dict[str, Any]) -> Text | None:
    """How the last hand scored, seat by seat (S5)."""
    hand = view.get("hand")
    if hand is None or hand.get("result") is None:
        return None
    names: list[str] = view["names"]
    out = Text()
    out.append(f"Hand {view.get('hands', '')} result\n", style="bold underline")
    for seat, entry in enumerate(hand["result"]):
        out.append(f"{names[seat]}: ", style="bold")
        out.append(f"{entry['breakdown']}\n")
        out.append(f"  hand score: {entry['points']}\n", style="bold")
    return out


# ---- both games ------------------------------------------------------------------------


def table_panel(
    view: dict[str, Any] | None, labels: Sequence[str] = (), waiting: str | None = None
) -> RenderableType:
    """The table of either game, or a waiting line (and what it waits for) before the
    match starts."""
    if view is None:
        line = "Waiting for the match to start (every seat must be taken)."
        return Text(line + (f"\n\n{waiting}" if waiting else ""))
    if view.get("game") == "golf":
        return golf_table(view, labels)
    return spades_table(view, labels)


def result_panel(view: dict[str, Any] | None) -> RenderableType | None:
    """The finished round's breakdown (Golf) or the hand's result (Spades), if any."""
    if view is None:
        return None
    if view.get("game") == "golf":
        return golf_breakdown(view)
    return spades_result(view)


def scoresheet(view: dict[str, Any] | None) -> Table | None:
    """Rounds (hands) by seat, the totals beneath; None before any round finished."""
    if view is None:
        return None
    names: list[str] = view["names"]
    rows: list[list[int]] = view.get("scoresheet") or []
    word = "Round" if view.get("game") == "golf" else "Hand"
    table = Table(title="Scoresheet", title_justify="left", expand=False)
    table.add_column(word)
    for name in names:
        table.add_column(name, justify="right")
    for number, row in enumerate(rows, start=1):
        table.add_row(str(number), *(str(s) for s in row))
    table.add_section()
    totals: list[int] = view.get("totals") or [0] * len(names)
    table.add_row("Total", *(str(t) for t in totals), style="bold")
    if view.get("game") == "spades":
        table.add_row("Bags", *(str(b) for b in view.get("bags") or []), style="dim")
        table.caption = f"game to {view.get('target')}"
    return table


def match_result(view: dict[str, Any] | None) -> Text | None:
    """The match winner(s) once the match is over."""
    if view is None:
        return None
    winners: list[int] = view.get("winners") or []
    over = view.get("over") if view.get("game") == "golf" else bool(winners)
    if not over or not winners:
        return None
    names: list[str] = view["names"]
    totals: list[int] = view.get("totals") or []
    who = " and ".join(names[w] for w in winners)
    verb = "share the win" if len(winners) > 1 else "wins the match"
    return Text(f"Match over: {who} {verb} with {totals[winners[0]]}.", style="bold green reverse")


def _round_over(view: dict[str, Any]) -> bool:
    if view.get("game") == "golf":
        rv = view.get("round_view")
        return rv is not None and rv.get("phase") == "over"
    hand = view.get("hand")
    return hand is not None and hand.get("phase") == "over"


def _mover(view: dict[str, Any]) -> int | None:
    """The match seat to move, if any."""
    if view.get("game") == "golf":
        rv = view.get("round_view")
        if rv is None or rv.get("to_move") is None:
            return None
        return _golf_round_seat_names(view)[int(rv["to_move"])]
    hand = view.get("hand")
    mover = None if hand is None else hand.get("to_move")
    return mover if isinstance(mover, int) else None


def _seat(view: dict[str, Any]) -> int | None:
    seat = view.get("seat")
    if seat is None and view.get("game") == "spades" and view.get("hand"):
        seat = view["hand"].get("seat")
    return seat if isinstance(seat, int) else None


def status_line(view: dict[str, Any] | None) -> Text:
    """One line: which round, whose turn (or that the round or match is over)."""
    if view is None:
        return Text("Waiting for the match to start.")
    names: list[str] = view["names"]
    game = view.get("game")
    number = view.get("round") if game == "golf" else view.get("hands")
    word = "Golf round" if game == "golf" else "Spades hand"
    out = Text(f"{word} {number}", style="bold")
    result = match_result(view)
    if result is not None:
        out.append(" · ")
        out.append(result)
        return out
    if _round_over(view):
        out.append(" · over: n for the next", style="bold yellow")
        return out
    mover = _mover(view)
    if mover is None:
        return out
    if mover == _seat(view):
        out.append(" · your turn", style="bold green")
    else:
        out.append(f" · {names[mover]} to move", style="yellow")
    return out


def moves_text(view: dict[str, Any] | None) -> Text:
    """Your legal moves with their keys, or what you are waiting for."""
    out = Text()
    if view is None:
        return out
    if match_result(view) is not None:
        return Text(
            "The match is over: s saves the record (a local game), "
            "n asks for a rematch (a server table), q leaves."
        )
    if _round_over(view):
        return Text("The round is over: n deals the next one (the breakdown is on the right).")
    legal = moves(view)
    if not legal:
        mover = _mover(view)
        if mover is not None:
            out.append(f"Waiting for {view['names'][mover]}…", style="dim")
        return out
    out.append("Your move: ", style="bold green")
    typed = []
    for key, action in legal:
        if key is None:
            typed.append(action)
            continue
        out.append(f"[{key}]", style="bold cyan")
        out.append(f" {action}  ")
    if typed:
        out.append("· type: " + ", ".join(_summarised(typed)), style="dim")
    return out


def _summarised(typed: list[str]) -> list[str]:
    """Typed actions, a power with many targets shortened to its count and two examples."""
    groups: dict[str, list[str]] = {}
    for action in typed:
        words = action.split()
        verb = " ".join(words[:2]) if words[0] == "power" and len(words) > 2 else action
        groups.setdefault(verb, []).append(action)
    out = []
    for verb, actions in groups.items():
        if len(actions) <= 4:
            out += actions
        else:
            out.append(f"{verb} … ({len(actions)} ways, e.g. {actions[0]}, {actions[-1]})")
    return out


def plain(renderable: RenderableType | None, width: int = 110) -> str:
    """A renderable as plain text (no colour): what a test or a log can read."""
    if renderable is None:
        return ""
    console = Console(width=width, record=True, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text(styles=False)
