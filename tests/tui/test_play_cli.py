"""``greenfelt play`` arguments: bad ones exit 2 with one line, good ones build the session."""

from __future__ import annotations

import socket

import pytest

from greenfelt.cli import build_parser, main
from greenfelt.tui import cli as tui_cli
from greenfelt.tui.app import PlayApp
from greenfelt.tui.cli import build_session
from greenfelt.tui.local import LocalSession


@pytest.fixture(autouse=True)
def no_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Arguments that should fail must fail before the full screen opens."""

    def run(self: PlayApp) -> None:
        raise AssertionError("the app started")

    monkeypatch.setattr(PlayApp, "run", run)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port  # closed when the socket is: nothing listens there


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["play"], "choose a game"),
        (["play", "chess"], "invalid choice: 'chess'"),
        (["play", "golf", "--rules", "seven-card"], "unknown Golf preset 'seven-card'"),
        (["play", "golf", "--set", "colour=blue"], "unknown option 'colour'"),
        (["play", "golf", "--set", "closer_rule=sometimes"], "'sometimes' is not one of"),
        (["play", "golf", "--set", "closer_rule"], "expected OPTION=VALUE"),
        (["play", "golf", "--bots", "genius"], "unknown bot level 'genius'"),
        (["play", "golf", "--players", "9"], "Golf is for 2 to 8 players, not 9"),
        (["play", "golf", "--players", "1"], "Golf is for 2 to 8 players, not 1"),
        (["play", "golf", "--players", "three"], "invalid int value: 'three'"),
        (["play", "golf", "--players", "3", "--bots", "random,greedy,expert"], "not 3"),
        (["play", "golf", "--delay", "-1"], "cannot be negative"),
        (["play", "golf", "--name", ""], "--name must be 1 to 32 characters"),
        (["play", "spades", "--players", "3"], "two-player Spades is for 2 players"),
        (["play", "spades", "--bots", "random,random"], "two-player Spades has one bot"),
        (["play", "spades", "--rules", "four-player"], "unknown spades preset"),
        (["play", "spades", "--set", "target=-5"], "must be a whole number above 0"),
        (["play", "golf", "--table", "abc"], "--table and --seat need --server URL"),
        (["play", "--server", "localhost:8000", "--table", "abc"], "is not a server address"),
        (["play", "--server", "http://127.0.0.1:1"], "--server needs --table ID"),
        (["play", "golf", "--server", "http://127.0.0.1:1", "--table", "a"], "not both"),
        (["play", "--server", "http://x", "--table", "a", "--bots", "expert"], "--bots apply"),
        (["play", "golf"], "greenfelt play needs a terminal, and its input or output is not"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("greenfelt: error:")
    assert says in captured.err


def test_an_unreachable_server_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tui_cli, "need_terminal", lambda: None)  # as if run in one
    url = f"http://127.0.0.1:{_closed_port()}"
    assert main(["play", "--server", url, "--table", "abc123", "--name", "Ann"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot reach the server at {url}" in err


def test_play_is_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    out = capsys.readouterr().out
    assert "--server" in out and "--bots" in out and "--save" in out


def _session(*argv: str) -> LocalSession:
    session = build_session(build_parser().parse_args(["play", *argv]))
    assert isinstance(session, LocalSession)
    return session


def test_one_level_per_bot_seat_or_one_for_all() -> None:
    three = _session("golf", "--rules", "nine-card", "--players", "3", "--bots", "random,greedy")
    assert three.match.names == ["You", "Bot 1", "Bot 2"]
    assert three.labels == ["", "random bot", "greedy bot"]
    assert three.rules.layout == "3x3"
    everyone = _session("golf", "--players", "4", "--bot", "random", "--name", "Ann")
    assert everyone.levels == ["random"] * 3 and everyone.match.names[0] == "Ann"
    inferred = _session("golf", "--bots", "random,random,greedy")
    assert len(inferred.match.names) == 4
    assert len(_session("golf").match.names) == 2


def test_options_and_the_seed_reach_the_game() -> None:
    session = _session(
        "golf", "--set", "closer_rule=penalty_10", "--set", "end=holes:3", "--seed", "9"
    )
    assert session.rules.closer_rule == "penalty_10" and session.rules.match_end == ("holes", 3)
    again = _session("golf", "--seed", "9", "--set", "closer_rule=penalty_10")
    session.match.start_round(rng=session.rng)
    again.match.start_round(rng=again.rng)
    assert session.match.rounds[0].deck == again.match.rounds[0].deck
    spades = _session("spades", "--bot", "random", "--set", "target=300", "--save", "x.json")
    assert spades.rules.target == 300 and spades.save_path == "x.json"
    assert spades.match.names == ["You", "Bot"]
