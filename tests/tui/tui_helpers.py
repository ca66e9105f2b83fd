"""Shared helpers for driving the terminal app headless."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from greenfelt.tui.app import PlayApp
from greenfelt.tui.keys import moves
from greenfelt.tui.local import LocalSession
from greenfelt.tui.render import plain

SIZE = (160, 60)


def shown(app: PlayApp, panel: str) -> str:
    """The plain text a panel of the app shows now."""
    return plain(app.shown(panel), width=150)


async def settle(session: LocalSession) -> None:
    """Wait until the bots have moved and the game waits for you."""
    for _ in range(200):
        if session.settled is not None:
            break
        await asyncio.sleep(0)
    assert session.settled is not None
    await asyncio.wait_for(session.settled.wait(), 60)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition`` holds (a guard against hanging, not a timing test)."""
    for _ in range(3000):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"gave up waiting for {what}")


def golf_choice(view: dict[str, Any]) -> str:
    """A key for a plain Golf policy: swap drawn cards into face-down places, so rounds end."""
    rv = view["round_view"]
    me = view["seating"].index(view["seat"])
    options = moves(view)
    assert options, "it should be my move"
    if rv["phase"] in ("drawn", "taken"):
        down = [p for p, up in enumerate(rv["layouts"][me]["face_up"]) if not up]
        if down:
            return str(down[0])
    if rv["phase"] == "turn":
        return "d"
    key = options[0][0]
    assert key is not None
    return key


def spades_choice(view: dict[str, Any]) -> str:
    """A key for a plain Spades policy: no blind nil, keep every card, bid 3, lowest legal card."""
    phase = view["hand"]["phase"]
    if phase == "blind":
        return "p"
    if phase == "draw":
        return "k"
    if phase == "bid":
        return "3"
    key = moves(view)[0][0]
    assert key is not None
    return key
