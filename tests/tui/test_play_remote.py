"""The terminal app at a real server's table, through the public protocol.

A ``greenfelt serve`` process runs for the module; each test creates its own
table over HTTP and plays it through :class:`RemoteSession`.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import SIZE, golf_choice, shown, until

from greenfelt.cli import main
from greenfelt.tui import cli as tui_cli
from greenfelt.tui.app import PlayApp
from greenfelt.tui.keys import moves
from greenfelt.tui.remote import RemoteSession
from greenfelt.tui.session import PlayError

GREENFELT = str(Path(sys.executable).parent / "greenfelt")
FAST = ("--bot-delay", "0", "--round-pause", "0.2")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def _post(url: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    data = tmp_path_factory.mktemp("server")
    log = (data / "server.log").open("w")
    process = subprocess.Popen(
        [GREENFELT, "serve", "--port", str(port), "--data", str(data), *FAST],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if process.poll() is not None:
                raise AssertionError((data / "server.log").read_text())
            try:
                if _get(url + "/api/health")["ok"]:
                    break
            except OSError:
                time.sleep(0.05)
        else:
            raise AssertionError("the server did not come up")
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)
        log.close()


def _table(server: str, **spec: Any) -> str:
    body = {
        "game": "golf",
        "preset": "six-card",
        "options": {"end": "holes:1"},
        "seats": [{"name": "Ann"}, {"bot": "random"}],
        **spec,
    }
    table_id: str = _post(server + "/api/tables", body)["id"]
    return table_id


def _my_move_or_over(session: RemoteSession) -> bool:
    view = session.view
    if view is None or view["round_view"] is None:
        return False
    return bool(moves(view)) or view["round_view"]["phase"] == "over"


async def test_a_round_at_a_server_table_with_a_dropped_connection_and_a_stale_move(
    server: str,
) -> None:
    table_id = _table(server)
    session = RemoteSession.join(server, table_id, "Ann", 0)
    session.retry_delays = (0.05,)
    assert session.seat == 0 and session.game == "golf" and session.rules.preset == "six-card"
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: _my_move_or_over(session), "my first move")
        assert "Ann (you)" in shown(app, "table")
        assert "Random bot (random bot)" in shown(app, "table")
        turns = 0
        while session.view["round_view"]["phase"] != "over":  # type: ignore[index]
            view = session.view
            assert view is not None
            assert "your turn" in shown(app, "status")
            for key, action in moves(view):
                assert f"[{key}] {action}" in shown(app, "moves")
            if turns == 2:  # the connection drops: the client comes back with its token
                await session.ws.close()
                await until(pilot, lambda: session.connects == 2, "the reconnection")
                await until(pilot, lambda: _my_move_or_over(session), "the state after it")
                assert "Reconnected." in session.log
            if turns == 4:  # a move made against an old event is refused, then resynced
                seq = session.seq
                session.seq = seq - 1
                await pilot.press(golf_choice(view))
                await until(pilot, lambda: "moved on" in shown(app, "message"), "action/stale")
                await until(pilot, lambda s=seq: session.seq == s, "the resync")
                assert session.view == view  # nothing was applied
            seq = session.seq
            await pilot.press(golf_choice(view))
            await until(pilot, lambda s=seq: session.seq > s, "my move applied")
            await until(pilot, lambda: _my_move_or_over(session), "my next move")
            turns += 1
            assert turns < 100
        assert app.failure is None
        record = _get(f"{server}/api/tables/{table_id}/record")
        scores = record["rounds"][0]["scores"]
        result = shown(app, "result")
        assert [int(s) for s in re.findall(r"round score: (-?\d+)", result)] == scores
        assert "Match over:" in shown(app, "status")
        # the log told the moves in words and the round's end once, with the recorded scores
        told = f"Round 1 is over: Ann {scores[0]:+d}, Random bot {scores[1]:+d}."
        assert session.log.count(told) == 1, session.log[-5:]
        assert any(line.startswith("Random bot ") for line in session.log)
        await pilot.press("q")
    assert session.ws is None


async def test_illegal_input_at_a_server_shows_the_engine_reason(server: str) -> None:
    table_id = _table(server)
    session = RemoteSession.join(server, table_id, "Ann")
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: _my_move_or_over(session), "my first move")
        seq = session.seq
        await pilot.press("colon", *"swap 9", "enter")
        await until(pilot, lambda: "outside a 2x3 layout" in shown(app, "message"), "the reason")
        assert session.seq == seq
        await pilot.press("k")
        await until(pilot, lambda: "knocking is off" in shown(app, "message"), "the reason")
        await pilot.press("0")
        await until(pilot, lambda: session.seq > seq, "a legal move")
        await pilot.press("q")


async def test_a_waiting_seat_is_given_to_a_bot_from_the_terminal(server: str) -> None:
    """While the table waits, the seats are listed and `:bot SEAT LEVEL` fills one; a
    refusal says why; the match starts once every seat is filled."""
    table_id = _table(server, seats=[{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}])
    session = RemoteSession.join(server, table_id, "Ann", 0)
    app = PlayApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "seat 1: Ann (you)" in shown(app, "table"), "the seats")
        table = shown(app, "table")
        assert "seat 2: open" in table and "seat 3: open" in table
        assert ":bot 2 greedy" in table
        await pilot.press("colon", *"bot 1 easy", "enter")  # Ann's own seat
        await until(pilot, lambda: "already taken (Ann)" in shown(app, "message"), "why not")
        await pilot.press("colon", *"bot 0 easy", "enter")
        await until(pilot, lambda: "numbered from 1" in shown(app, "message"), "why not")
        await pilot.press("colon", *"bot 2 greedy", "enter")
        await until(pilot, lambda: "seat 2: Greedy bot" in shown(app, "table"), "seat 2 filled")
        assert "Seat 2 went to the Greedy bot." in session.log
        assert session.view is None  # seat 3 is still open
        await pilot.press("colon", *"bot 3 Easy", "enter")
        await until(pilot, lambda: session.view is not None, "the match to start")
        assert [s["bot"] for s in _get(f"{server}/api/tables/{table_id}")["seats"]] == [
            None,
            "greedy",
            "easy",
        ]
        await pilot.press("q")


def test_joining_an_unknown_table_or_a_taken_seat_exits_2(
    server: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(PlayApp, "run", lambda self: pytest.fail("the app started"))
    assert main(["play", "--server", server, "--table", "abcdef123456", "--name", "Ann"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "there is no table abcdef123456" in err
    table_id = _table(server, seats=[{"name": "Ann"}, {"bot": "random"}])
    monkeypatch.setattr(tui_cli, "need_terminal", lambda: None)  # as if run in one
    assert main(["play", "--server", server, "--table", table_id, "--seat", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "seat 1 is played by a bot" in err
    with pytest.raises(PlayError, match="seat 5 does not exist"):
        RemoteSession.join(server, table_id, "Ann", 5)


def test_without_a_terminal_no_seat_is_taken(
    server: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Input or output piped (no terminal: the app would wait for keys for ever): one
    line says so, before the seat is taken, so the seat stays free for a real try."""
    monkeypatch.setattr(PlayApp, "run", lambda self: pytest.fail("the app started"))
    table_id = _table(server, seats=[{"name": "Ann"}, {"bot": "random"}])
    assert main(["play", "--server", server, "--table", table_id, "--name", "Bo"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "greenfelt play needs a terminal" in err
    joined = RemoteSession.join(server, table_id, "Bo", 0)  # the seat is still free
    assert joined.seat == 0
