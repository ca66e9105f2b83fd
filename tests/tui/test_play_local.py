"""The terminal app against bots, driven headless through Textual's pilot.

Every assertion is on what the app shows, compared with the engine's state.
One deck is in play (two players), so every card's text is unique: a hidden
card's text must then appear nowhere on the screen.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import SIZE, golf_choice, settle, shown, spades_choice

import greenfelt.bots
from greenfelt.bots import Bot
from greenfelt.golf import find_preset
from greenfelt.golf.rules import OPTIONS
from greenfelt.record import replay
from greenfelt.spades import SpadesRules
from greenfelt.tui.app import HelpScreen, PlayApp
from greenfelt.tui.keys import moves
from greenfelt.tui.local import LocalSession
from greenfelt.tui.render import BACK, plain

ONE_HOLE = find_preset("six-card").with_options({"end": "holes:1"})
PANELS = ("status", "table", "moves", "message", "result", "scores", "log")


def screen_text(app: PlayApp) -> str:
    return "\n".join(shown(app, panel) for panel in PANELS)


def my_cards(table: str, name: str) -> list[str]:
    """The card cells of my layout as the table shows them (``'10♠'``, ``' K♠'``, backs)."""
    lines = table.splitlines()
    start = next(i for i, line in enumerate(lines) if f"{name} (you)" in line)
    cells: list[str] = []
    for line in lines[start + 1 :]:
        if not line.strip() or "(" in line:
            break
        cells += re.findall(r"\[(.{3})\]", line)
    return cells


def golf_hidden(session: LocalSession) -> list[str]:
    """Texts of every card seat 0 may not know now: others' face-down cards and the stock."""
    rnd = session.match.current
    if rnd is None:
        return []
    hidden = [str(c) for c in rnd.stock]
    for seat in range(1, rnd.n):
        for p, card in enumerate(rnd.layout(seat)):
            if card is not None and not rnd.up[seat * rnd.size + p]:
                hidden.append(str(card))
    for p, card in enumerate(rnd.layout(0)):
        if card is not None and not rnd.up[p]:
            hidden.append(str(card))  # never looked at in six-card
    return hidden


def assert_nothing_hidden_shown(text: str, hidden: list[str]) -> None:
    for card in hidden:
        assert not re.search(rf"(?<![0-9]){re.escape(card)}", text), f"{card} leaked"


async def test_a_whole_round_of_six_card_golf_against_a_bot() -> None:
    session = LocalSession("golf", ONE_HOLE, "Ann", ["greedy"], seed=7, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        assert "Ann (you)" in shown(app, "table")
        assert "Bot 1 (greedy bot)" in shown(app, "table")
        presses = 0
        while not session.match.is_over:
            view = session.view
            assert view is not None
            rnd = session.match.current
            # whose turn it is
            assert "your turn" in shown(app, "status")
            # the legal moves shown are exactly the engine's, each with its key
            legal = sorted(str(a) for a in session.match.legal_actions(0))
            assert sorted(action for _, action in moves(view)) == legal
            for key, action in moves(view):
                assert f"[{key}] {action}" in shown(app, "moves")
            # my cards: face-up ones by their text, face-down ones as backs
            expected = [
                str(card).rjust(3) if rnd.up[p] else BACK for p, card in enumerate(rnd.layout(0))
            ]
            assert my_cards(shown(app, "table"), "Ann") == expected
            if rnd.held is not None:
                assert f"You hold [{str(rnd.held).rjust(3)}]" in shown(app, "table")
            assert_nothing_hidden_shown(screen_text(app), golf_hidden(session))
            await pilot.press(golf_choice(view))
            await settle(session)
            presses += 1
            assert presses < 200
        assert app.failure is None
        rnd = session.match.rounds[-1]
        assert rnd.result is not None
        # the log tells each move in words, and the round's end with the engine's scores
        ann, bot = rnd.scores
        assert f"Round 1 is over: Ann {ann:+d}, Bot 1 {bot:+d}." in session.log
        assert any(line.startswith("Bot 1 drew from the stock") for line in session.log)
        assert not any(line.startswith(("You: ", "Bot 1: ")) for line in session.log)
        # the breakdown and scores shown are the engine's
        result = shown(app, "result")
        shown_scores = [int(s) for s in re.findall(r"round score: (-?\d+)", result)]
        assert shown_scores == rnd.scores
        assert [int(s) for s in re.findall(r"layout: (-?\d+)", result)] == [
            layout.total for layout in rnd.result.layouts
        ]
        for layout in rnd.result.layouts:
            for group in layout.groups:
                where = ",".join(map(str, group.positions))
                assert f"{group.kind} [{where}]" in result and f"({group.rule})" in result
        for seat, adjustments in enumerate(rnd.result.adjustments):
            for adj in adjustments:
                assert adj.reason in result, seat
        # every card is face up at the end, so my layout shows each card's text
        assert my_cards(shown(app, "table"), "Ann") == [str(c).rjust(3) for c in rnd.layout(0)]
        scores = shown(app, "scores")
        totals = session.match.totals
        assert re.search(r"Total\s*│\s*" + r"\s*│\s*".join(map(str, totals)), scores)
        winners = " and ".join(session.match.names[w] for w in session.match.winners)
        assert f"Match over: {winners}" in shown(app, "status")
        assert "The match is over" in shown(app, "moves")
        await pilot.press("q")
    assert not app.is_running


async def test_a_whole_spades_hand_draw_bid_and_play_to_the_score() -> None:
    session = LocalSession("spades", SpadesRules(), "Ann", ["random"], seed=11, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        phases: set[str] = set()
        illegal_tried = False
        while session.match.current is not None:
            view = session.view
            assert view is not None
            hand = session.match.current
            phase = view["hand"]["phase"]
            phases.add(phase)
            assert "your turn" in shown(app, "status")
            assert sorted(a for _, a in moves(view)) == sorted(
                str(a) for a in hand.legal_actions(0)
            )
            table = shown(app, "table")
            if phase == "draw":
                assert f"You drew [{view['hand']['drawn'].rjust(3)}]" in table
            # my hand as shown is my hand; the bot's cards never show
            for text in view["hand"]["hand"]:
                assert f"[{text.rjust(3)}]" in table
            hidden = [str(c) for c in hand._hands[1]]
            assert_nothing_hidden_shown(screen_text(app), hidden)
            if phase == "play" and not illegal_tried:
                legal = set(view["hand"]["legal"])
                bad = [i for i, c in enumerate(view["hand"]["hand"]) if f"play {c}" not in legal]
                if bad:
                    illegal_tried = True
                    await pilot.press("abcdefghijklm"[bad[0]])
                    message = shown(app, "message")
                    assert "Try again" in message and "play" in message
                    assert session.match.current is hand and len(hand.actions) == len(
                        view["hand"]["actions"]
                    )
            await pilot.press(spades_choice(view))
            await settle(session)
        assert app.failure is None
        assert phases >= {"draw", "bid", "play"}
        assert illegal_tried
        hand = session.match.rounds[-1]
        result = shown(app, "result")
        assert [int(s) for s in re.findall(r"hand score: (-?\d+)", result)] == hand.scores
        for entry in session.view["hand"]["result"]:  # type: ignore[index]
            assert entry["breakdown"] in result
        assert "over: n for the next" in shown(app, "status")
        await pilot.press("n")
        await settle(session)
        assert "Spades hand 2" in shown(app, "status")
        totals = session.match.totals
        assert re.search(r"Total\s*│\s*" + r"\s*│\s*".join(map(str, totals)), shown(app, "scores"))
        await pilot.press("ctrl+c")
    assert not app.is_running


async def test_illegal_input_shows_the_engine_reason_and_asks_again() -> None:
    session = LocalSession("golf", ONE_HOLE, "Ann", ["random"], seed=3, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        before = len(session.match.current.actions)
        await pilot.press("k")
        assert "knocking is off in these rules (G4.1)" in shown(app, "message")
        await pilot.press("colon", *"swap 9", "enter")
        assert "position 9 is outside a 2x3 layout" in shown(app, "message")
        await pilot.press("colon", *"dance", "enter")
        assert "unknown action 'dance'" in shown(app, "message")
        assert len(session.match.current.actions) == before  # nothing was applied
        assert "[0] flip 0" in shown(app, "moves")  # still asked for a move
        await pilot.press("0")
        await settle(session)
        assert shown(app, "message").strip() == ""
        assert my_cards(shown(app, "table"), "Ann")[0] != BACK
        # typed actions work as well as keys
        await pilot.press("enter", *"flip 5", "enter")
        await settle(session)
        assert my_cards(shown(app, "table"), "Ann")[5] != BACK
        assert app.failure is None


async def test_help_explains_every_option_of_the_preset() -> None:
    rules = find_preset("six-card").with_options({"closer_rule": "penalty_10"})
    session = LocalSession("golf", rules, "Ann", ["random"], seed=1, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        await pilot.press("?")
        assert isinstance(app.screen, HelpScreen)
        text = plain(app.screen.text, width=250)
        assert "Golf: preset six-card" in text
        for spec in OPTIONS:
            assert spec.name in text and spec.help in text, spec.name
        assert re.search(r"closer_rule\s+= penalty_10", text)
        assert re.search(r"flip_after_discard\s+= auto \(may\)", text)
        assert "card values: A=1 2=-2" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")


async def test_help_for_spades_gives_the_rules_and_options() -> None:
    session = LocalSession("spades", SpadesRules(target=300), "Ann", ["random"], bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        await pilot.press("?")
        text = plain(app.screen.text, width=200)  # type: ignore[attr-defined]
        assert "Two-player Spades" in text and "blind nil" in text
        assert re.search(r"target\s+= 300", text)
        assert re.search(r"discards\s+= face_up", text)
        await pilot.press("q")  # closes the help, not the game
        assert app.is_running
        await pilot.press("q")
    assert not app.is_running


async def _play_golf_to_the_end(session: LocalSession, app: PlayApp, pilot: Any) -> None:
    await settle(session)
    while not session.match.is_over:
        view = session.view
        assert view is not None
        await pilot.press(golf_choice(view))
        await settle(session)


async def test_a_finished_game_saves_a_record_that_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    session = LocalSession(
        "golf", ONE_HOLE, "Ann", ["greedy"], seed=5, bot_delay=0, save_path=str(path)
    )
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await _play_golf_to_the_end(session, app, pilot)
        assert path.exists()  # --save writes it when the match ends
        result = replay(path)
        assert result.totals == session.match.totals
        assert result.rounds_completed == 1 and result.match.is_over
        monkeypatch.chdir(tmp_path)
        await pilot.press("s")  # and the key saves again, here to the same file
        assert f"Saved the record to {path}" in shown(app, "message")
        await pilot.press("q")


async def test_the_save_key_writes_a_default_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    session = LocalSession("spades", SpadesRules(), "Ann", ["random"], seed=2, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        while session.match.current is not None:
            await pilot.press(spades_choice(session.view))  # type: ignore[arg-type]
            await settle(session)
        await pilot.press("s")
        assert "Saved the record to greenfelt-spades-" in shown(app, "message")
        (saved,) = tmp_path.glob("greenfelt-spades-*.json")
        result = replay(saved)
        assert result.totals == session.match.totals and result.rounds_completed == 1
        await pilot.press("q")


async def test_the_next_round_key_waits_for_the_round_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    session = LocalSession("golf", ONE_HOLE, "Ann", ["random"], seed=4, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        await pilot.press("n")
        assert "the round is still being played" in shown(app, "message")
        await pilot.press("s")  # mid-round: only finished rounds go into the record
        assert "Saved the record to" in shown(app, "message")
        (saved,) = tmp_path.glob("greenfelt-golf-*.json")
        assert replay(saved).rounds_completed == 0
        await pilot.press("q")


def plant(monkeypatch: pytest.MonkeyPatch, level: str, choose: Callable[..., Any]) -> None:
    """The ``level`` bot of this process (its threads) chooses with ``choose``."""
    real = greenfelt.bots.table_bot

    def table_bot(game: str, tried: str, rng: Any = None) -> Bot:
        bot = real(game, tried, rng)
        if tried == level:
            bot.choose = choose  # type: ignore[method-assign]
        return bot

    monkeypatch.setattr(greenfelt.bots, "table_bot", table_bot)


async def test_a_bot_that_hangs_gives_way_to_a_random_move_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """G2.1: the hung bot's move is a random legal one after ``bot_timeout``; your turn follows."""
    release = threading.Event()
    hung_once = threading.Event()

    def hangs(obs: Any) -> Any:
        if hung_once.is_set():  # later moves are quick, so the news is told once
            return obs.legal[0]
        hung_once.set()
        release.wait(30)
        raise RuntimeError("too late")

    plant(monkeypatch, "greedy", hangs)
    session = LocalSession(
        "golf", ONE_HOLE, "Ann", ["greedy"], seed=6, bot_delay=0, bot_timeout=0.2
    )
    app = PlayApp(session)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(session)
            hung = "Bot 1 thought over 0.2 s; it played at random"
            assert hung in shown(app, "log") and session.log.count(hung) == 1
            assert "your turn" in shown(app, "status")
            await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
            await settle(session)
            assert app.failure is None
            await pilot.press("q")
    finally:
        release.set()


async def test_a_failing_bot_gives_way_to_the_level_below_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*_args: Any) -> Any:
        raise RuntimeError("the bot's secret: it holds K♠")

    plant(monkeypatch, "greedy", broken)
    session = LocalSession("golf", ONE_HOLE, "Ann", [" Greedy "], seed=6, bot_delay=0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await settle(session)
        failed = "Bot 1 failed (RuntimeError); it played as the easy bot"
        assert failed in shown(app, "message") and failed in shown(app, "log")
        assert "secret" not in screen_text(app)
        assert "your turn" in shown(app, "status")
        await pilot.press(golf_choice(session.view))  # type: ignore[arg-type]
        await settle(session)
        assert app.failure is None
        await pilot.press("q")
