"""The pinned command-line contract: last lines, exit status 2, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from greenfelt.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_score_golf_issue_example_last_line(capsys: pytest.CaptureFixture[str]) -> None:
    """G5.1/G5.3: the issue's example ends with the line `2`."""
    status, lines, _ = run(capsys, "score", "golf", "--rules", "six-card", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣")
    assert status == 0
    assert lines[-1] == "2"
    assert any("column" in line and "G5.3" in line for line in lines)


def test_score_golf_seat_order_and_closer_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """G6 add_lowest: the closer (43, not lowest) adds the lowest score (24)."""
    status, lines, _ = run(
        capsys,
        "score",
        "golf",
        "--set",
        "closer_rule=add_lowest",
        "--closer",
        "0",
        "Qs Qh 7h / 3c 3d Jh",
        "As 6h 2d / 7c 8d 4h",
    )
    assert status == 0
    assert lines[-1] == "67 24"


def test_score_golf_set_values_and_block(capsys: pytest.CaptureFixture[str]) -> None:
    """G5.4 block via --set on six-card."""
    status, lines, _ = run(
        capsys, "score", "golf", "--set", "block_score=-20", "5s 5h 9h / 5d 5c 9c"
    )
    assert status == 0
    assert lines[-1] == "-20"


def test_score_golf_hand4(capsys: pytest.CaptureFixture[str]) -> None:
    """G5.3 any_pairs in hand4 (wikihow-basic values: 2 scores 2)."""
    status, lines, _ = run(capsys, "score", "golf", "--rules", "four-in-hand", "K♠ K♥ 2♠ 5♦")
    assert status == 0
    assert lines[-1] == "7"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["score", "golf", "K♠ 6♠ / 4♦ 6♥ 2♣"], "row 1"),
        (["score", "golf", "K♠ 6♠ K♥ / 4♦ 6♥ 2x"], "'2x' is not a card"),
        (["score", "golf", "--rules", "nope", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"], "unknown Golf preset"),
        (["score", "golf", "--set", "colour=red", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"], "unknown option"),
        (["score", "golf", "--set", "block_score", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"], "OPTION=VALUE"),
        (
            ["score", "golf", "--set", "match=lines", "--rules", "four-in-hand", "K♠ K♥ 2♠ 5♦"],
            "hand4",
        ),
        (["score", "golf", "--closer", "3", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"], "--closer 3"),
        (["score", "golf", "K♠ K♠ K♥ / 4♦ 6♥ 2♣"], "K♠ appears 2 times"),
        (["score", "golf", "K♠ ?? K♥ / 4♦ 6♥ 2♣"], "face up"),
        (["score", "golf", "--rules", "four-in-hand", "K♠ K♥ / 2♠ 5♦"], "without '/'"),
        (["replay", "/nonexistent/record.json"], "cannot read record"),
        (["frobnicate"], "invalid choice"),
        (["serve", "--bot-timeout", "0"], "'0' is not a number of seconds above 0"),
        (["serve", "--bot-timeout", "soon"], "'soon' is not a number of seconds"),
        (["serve", "--shard", "3/2"], "is not K/N"),
        (["serve", "--bot-processes", "-1"], "'-1' is not a whole number, 0 or more"),
        (["serve", "--bot-processes", "many"], "'many' is not a whole number"),
        (["score"], "required"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    status, lines, err = run(capsys, *argv)
    assert status == 2
    assert lines == []
    assert len(err.strip().splitlines()) == 1
    assert fragment in err
    assert "Traceback" not in err


def test_rules_golf_lists_presets(capsys: pytest.CaptureFixture[str]) -> None:
    """G10: every preset is listed."""
    status, lines, _ = run(capsys, "rules", "golf")
    assert status == 0
    text = "\n".join(lines)
    for preset in ("six-card", "bga", "four-card", "four-in-hand", "nine-card", "nine-card-wiki"):
        assert preset in text


def test_rules_golf_explains_every_option(capsys: pytest.CaptureFixture[str]) -> None:
    from greenfelt.golf.rules import OPTIONS

    status, lines, _ = run(capsys, "rules", "golf", "six-card", "--set", "layout=3x3")
    assert status == 0
    text = "\n".join(lines)
    for spec in OPTIONS:
        assert spec.name in text and f"({spec.rule})" in text
    assert "auto (3)" in text  # G1.7: three flips on 3x3


def test_replay_example_last_line_is_totals(capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((EXAMPLES / "six-card-3-holes.json").read_text(encoding="utf-8"))
    totals = [sum(r["scores"][s] for r in record["rounds"]) for s in range(2)]
    status, lines, _ = run(capsys, "replay", str(EXAMPLES / "six-card-3-holes.json"))
    assert status == 0
    assert lines[-1] == " ".join(str(t) for t in totals)


def test_replay_names_round_and_action(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = json.loads((EXAMPLES / "six-card-3-holes.json").read_text(encoding="utf-8"))
    seat = record["rounds"][1]["actions"][7][0]
    record["rounds"][1]["actions"][7] = [seat, "swap 9"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2
    assert "round 2" in err and "actions[7]" in err
    assert "position 9 is outside a 2x3 layout" in err


def test_console_script_runs_as_a_process() -> None:
    """The installed `greenfelt` entry point: real process, real exit status."""
    exe = Path(sys.executable).parent / "greenfelt"
    ok = subprocess.run(
        [str(exe), "score", "golf", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0
    assert ok.stdout.splitlines()[-1] == "2"
    bad = subprocess.run(
        [str(exe), "score", "golf", "K♠"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
