"""`greenfelt score spades` (pinned by issue 3) and `greenfelt rules spades`."""

from __future__ import annotations

import argparse

import pytest

from greenfelt.cli import main
from greenfelt.spades.cli import register


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_score_example_from_the_issue(capsys: pytest.CaptureFixture[str]) -> None:
    """S5.1: bid 6 take 7 = 61, bid 5 take 6 = 51; the last line is the new scores."""
    status, lines, err = run(capsys, "score", "spades", "--bids", "6,5", "--tricks", "7,6")
    assert status == 0 and err == ""
    assert lines[-1] == "61 51"
    assert lines[0].startswith("seat 0: bid 6, took 7: made, 10 x 6 = 60; 1 bag +1")


@pytest.mark.parametrize(
    ("argv", "last"),
    [
        (["--bids", "6,7", "--tricks", "6,7"], "60 70"),  # S5.1 made exactly
        (["--bids", "6,5", "--tricks", "5,8"], "-60 53"),  # S5.2 failed
        (["--bids", "nil,moon", "--tricks", "0,13"], "100 250"),  # S5.3
        (["--bids", "blind,4", "--tricks", "0,13"], "200 49"),  # S5.3 blind nil
        (["--bids", "0,13", "--tricks", "5,8"], "5 8"),  # S5.3 failed nil and moon
        (["--bids", "4,2", "--tricks", "5,8", "--bags", "9,0"], "-59 26"),  # S5.4
        (["--bids", "4,2", "--tricks", "5,8", "--scores=-40,480"], "1 506"),
        (
            ["--bids", "NIL,Blind", "--tricks", "13,0", "--scores", "10,20"],
            "-77 220",
        ),  # 13 bags: -100
    ],
)
def test_score_rows(capsys: pytest.CaptureFixture[str], argv: list[str], last: str) -> None:
    status, lines, _ = run(capsys, "score", "spades", *argv)
    assert status == 0 and lines[-1] == last and len(lines) == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bids", "6,5", "--tricks", "7,5"], "adds up to 12; a hand has 13 tricks (S4.3)"),
        (["--bids", "6", "--tricks", "7,6"], "--bids needs two values separated by a comma"),
        (["--bids", "6,14", "--tricks", "7,6"], "--bids: 14 is out of range"),
        (["--bids", "6,lots", "--tricks", "7,6"], "--bids: 'lots' is not a number"),
        (["--bids", "6,5", "--tricks", "7,6", "--bags", "10,0"], "bags carried in are 0-9"),
        (["--bids", "6,5", "--tricks", "14,-1"], "--tricks: 14 is out of range"),
        (["--bids", "6,5"], "the following arguments are required: --tricks"),
        (["--bids", "6,5", "--tricks", "7,6", "--scores", "x,0"], "'x' is not a number"),
    ],
)
def test_score_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, lines, err = run(capsys, "score", "spades", *argv)
    assert status == 2 and lines == []
    assert err.count("\n") == 1 and err.startswith("greenfelt: error: ")
    assert message in err and "Traceback" not in err


def test_rules_lists_presets_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(capsys, "rules", "spades")
    assert status == 0 and lines[0] == "Spades presets (RULES S):"
    text = "\n".join(lines)
    assert "two-player" in text
    for option in ("discards = face_up", "target   = 500", "memory   = on", "S2.4", "S6.2"):
        assert option in text


def test_rules_shows_a_preset_with_changes(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = run(
        capsys, "rules", "spades", "two-player", "--set", "target=300", "--set", "memory=off"
    )
    assert status == 0 and lines[0].startswith("Spades preset two-player with target=300")
    assert any(line.strip().startswith("target   = 300") for line in lines)
    assert any(line.strip().startswith("memory   = off") for line in lines)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["four-hand"], "unknown spades preset 'four-hand'; known presets: two-player"),
        (["--set", "target=many"], "target='many'"),
        (["--set", "trump=hearts"], "unknown spades option 'trump'"),
        (["--set", "target"], "write name=value"),
    ],
)
def test_rules_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    status, lines, err = run(capsys, "rules", "spades", *argv)
    assert status == 2 and lines == [] and message in err and err.count("\n") == 1


def test_register_adds_spades_to_both_commands() -> None:
    """register() works on any parser with `score` and `rules` sub-command sets."""
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    score = commands.add_parser("score").add_subparsers(dest="game")
    rules = commands.add_parser("rules").add_subparsers(dest="game")
    register(score, rules)
    args = parser.parse_args(["score", "spades", "--bids", "6,5", "--tricks", "7,6"])
    assert callable(args.func) and args.bids == "6,5"
    assert callable(parser.parse_args(["rules", "spades"]).func)
