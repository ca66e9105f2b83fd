"""The ``powers`` preset (RULES G7.4) in the terminal, driven headless through Textual's pilot.

A whole round against the greedy bot: peeks by number keys, every power the deal
brings typed as action text (``:``), an 8's offer kept with a number key, a 2's
second power or ``p``, a knock, the scored round. The deal is fixed by the seed,
so the powers met are the same on every run; each screen is checked against the
engine's state (nothing hidden shown, shields and added cards drawn).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.pilot import Pilot
from tui_helpers import SIZE, settle, shown

from greenfelt.golf import find_preset
from greenfelt.golf.powers import EXTENDED_HELP
from greenfelt.tui.app import HelpScreen, PlayApp
from greenfelt.tui.keys import action_for_key, key_for
from greenfelt.tui.local import LocalSession
from greenfelt.tui.render import golf_table, plain

POWERS = find_preset("powers").with_options({"end": "holes:1"})
MAX_PRESSES = 600
KNOCK_AFTER = 14  # own turns; the greedy bot may knock first
PANELS = ("status", "table", "moves", "message")


def screen(app: PlayApp) -> str:
    return "\n".join(shown(app, panel) for panel in PANELS)


def hidden_cards(session: LocalSession) -> list[str]:
    """Cards seat 0 may not see on the table now (face down ones, the bot's draw, the stock).

    With memory on (G8.2) even a face-down card seat 0 has seen is drawn as a back.
    """
    rnd = session.match.current
    if rnd is None:
        return []
    out = [str(c) for c in rnd.stock]
    reveal = rnd.phase.value == "reveal"
    for i, c in enumerate(rnd.cards):
        if c is None or rnd.up[i]:
            continue
        if reveal and rnd.known[i] & 1:
            continue
        out.append(str(c))
    if rnd.to_move != 0:
        if rnd.held is not None and rnd.held_from_stock:
            out.append(str(rnd.held))
        out += [str(c) for c, tag in rnd.choice if tag >= 0]
    return out


def assert_nothing_hidden(app: PlayApp, session: LocalSession) -> None:
    text = screen(app)
    for c in hidden_cards(session):
        assert not re.search(rf"(?<![0-9]){re.escape(c)}", text), f"{c} leaked:\n{text}"


async def typed(pilot: Pilot[Any], text: str) -> None:
    await pilot.press("colon", *text, "enter")


def pick_power(legal: list[str], used: set[str]) -> str | None:
    """A power action whose verb has not been used yet (the peeks and the 2 aside)."""
    powers = [a for a in legal if a.startswith("power ")]
    fresh = [a for a in powers if a.split()[1] not in used]
    return fresh[0] if fresh else None


# Seeds whose deals bring many powers to seat 0 (8: shield, shuffle, show, swap, hide,
# add, remove, peek, draw2, cancel; 1: also rows and place, with this greedy bot).
@pytest.mark.parametrize("seed", [8, 1])
async def test_a_whole_powers_round_in_the_terminal(seed: int) -> None:
    session = LocalSession("golf", POWERS, "Ann", ["greedy"], seed=seed, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)

        # The help lists every power of the extended set with its action text.
        await pilot.press("?")
        assert isinstance(app.screen, HelpScreen)
        help_text = plain(app.screen.text, width=250)
        assert "Card powers (G7.4)" in help_text
        for card, (texts, _meaning) in EXTENDED_HELP.items():
            assert re.search(rf"^\s+{re.escape(card)}\s", help_text, re.M), card
            assert texts in help_text, texts
        assert "0-2" in help_text and "power keep N" in help_text
        await pilot.press("escape")

        # A power verb out of place is explained by the engine, and nothing happens.
        before = len(session.match.current.actions)  # type: ignore[union-attr]
        await typed(pilot, "power keep 0")
        assert "nothing is on offer now" in shown(app, "message")
        assert len(session.match.current.actions) == before  # type: ignore[union-attr]

        used: list[str] = []
        seen_notes = 0
        offers = 0
        turns = 0
        presses = 0
        while session.match.current is not None:
            presses += 1
            assert presses < MAX_PRESSES, "the round did not end"
            view = session.view
            assert view is not None
            rv = view["round_view"]
            assert rv["to_move"] == 0, "settle() returns on my move"
            assert "your turn" in shown(app, "status")
            assert_nothing_hidden(app, session)
            legal: list[str] = rv["legal"]
            phase = rv["phase"]
            table = shown(app, "table")
            # Every extra position with a card is drawn beside the grid, with its number.
            for j, layout in enumerate(rv["layouts"]):
                for p in range(6, 12):
                    if layout["cards"][p] is not None:
                        assert re.search(rf"added:.*\b{p}:\[", table), (j, p, table)
            for count in rv["shields"]:
                if count:
                    assert f"shield [5] x{count}" in table
            if phase == "reveal":
                action = next(a for a in legal if a.startswith("peek "))
                assert action_for_key(view, action.split()[1]) == action
                await pilot.press(action.split()[1])
            elif phase == "turn":
                turns += 1
                if turns > KNOCK_AFTER and "knock" in legal:
                    await pilot.press("k")
                else:
                    await pilot.press("d")
            elif phase == "drawn":
                choice = pick_power(legal, set(used))
                if choice is not None:
                    used.append(choice.split()[1])
                    log_before = len(session.log)
                    await typed(pilot, choice)
                    assert shown(app, "message").strip() == "", shown(app, "message")
                    if choice.startswith("power peek"):
                        # The face seen shows only in the log: memory hides it on the table.
                        await settle(session)
                        assert any("(you saw " in line for line in session.log[log_before:])
                        seen_notes += 1
                else:
                    swaps = [a for a in legal if a.startswith("swap ")]
                    action = swaps[turns % len(swaps)]
                    key = key_for(view, action)
                    if key is None:  # positions 10 and 11 are typed
                        await typed(pilot, action)
                    else:
                        await pilot.press(key)
            elif phase == "choose":
                offers += 1
                assert "Your 8 offers:" in table
                offer = rv["offer"]
                assert "??" not in offer  # the drawer sees every card of the offer
                for text in offer:
                    assert text in table
                key = str(len(offer) - 1)
                assert key_for(view, f"power keep {key}") == key
                await pilot.press(key)
                await settle(session)
                after = session.view["round_view"]  # type: ignore[index]
                assert after["phase"] == "taken" and after["held"] == offer[int(key)]
                assert "kept from the 8's offer" in shown(app, "table")
                continue
            elif phase == "second":
                assert "The 2 lent the" in table
                choice = pick_power(legal, set(used))
                if choice is not None and not choice.startswith("power draw2"):
                    used.append(choice.split()[1])
                    await typed(pilot, choice)
                else:
                    await pilot.press("p")
            elif phase == "taken":
                swaps = [a for a in legal if a.startswith("swap ")]
                await pilot.press(swaps[0].split()[1])
            else:
                raise AssertionError(f"unexpected phase {phase}")
            await settle(session)
            assert app.failure is None, app.failure

        # The round was scored and the breakdown is on the screen.
        rnd = session.match.rounds[-1]
        assert rnd.is_over and rnd.scores is not None
        result = shown(app, "result")
        assert "Round 1 breakdown" in result
        for score in rnd.scores:
            assert f"round score: {score}" in result
        assert "Match over" in shown(app, "status")
        # What the deal brought (fixed by the seed): typed powers of several kinds.
        assert len(set(used)) >= 5, used
        assert seen_notes >= 1 and offers >= 1, (used, seen_notes, offers)
        await pilot.press("q")


def test_the_table_draws_added_cards_shields_the_offer_and_the_lent_power() -> None:
    """Render a made-up view: extra positions, shields, an 8's offer, a 2's second power."""
    cards = ["??"] * 6 + [None] * 6
    added = ["??"] * 6 + ["??", None, "7♣", None, None, None]
    view: dict[str, Any] = {
        "game": "golf",
        "names": ["Ann", "Bo"],
        "seat": 0,
        "seating": [0, 1],
        "totals": [0, 0],
        "round_view": {
            "layout": "2x3",
            "phase": "choose",
            "to_move": 0,
            "layouts": [
                {"cards": cards, "face_up": [False] * 12},
                {"cards": added, "face_up": [False] * 8 + [True] + [False] * 3},
            ],
            "stock": 30,
            "discard": ["4♣"],
            "held": None,
            "held_from": None,
            "closer": None,
            "knocked": False,
            "shields": [2, 0],
            "offer": ["8♠", "Q♥", "3♦"],
            "lent": None,
            "legal": ["power keep 0", "power keep 1", "power keep 2"],
        },
    }
    text = plain(golf_table(view))
    mine = next(line for line in text.splitlines() if "Ann (you)" in line)
    assert "shield [5] x2" in mine
    assert re.search(r"added: 6:\[░░░\] 8:\[ 7♣\]", text), text
    assert "Your 8 offers:  0:[ 8♠] 1:[ Q♥] 2:[ 3♦]" in text
    assert action_for_key(view, "2") == "power keep 2"
    # Bo's view of the same offer: the 8 is public, the drawn cards are backs.
    theirs = {**view, "seat": 1}
    theirs["round_view"] = {**view["round_view"], "offer": ["8♠", "??", "??"], "legal": []}
    other = plain(golf_table(theirs))
    assert "Ann's 8 offers:  0:[ 8♠] 1:[░░░] 2:[░░░]" in other
    assert "Q♥" not in other and "3♦" not in other
    # A 2's second power.
    second = {**view, "round_view": {**view["round_view"], "phase": "second", "offer": []}}
    second["round_view"]["lent"] = ["6"]
    assert "The 2 lent the 6's power" in plain(golf_table(second))
    assert action_for_key(second, "p") == "pass"
