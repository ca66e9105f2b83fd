"""`greenfelt sim` at the edge: bad input is one line and exit 2; help explains every flag."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from greenfelt.cli import main
from greenfelt.lab.cli import (
    Variant,
    parse_bot_options,
    parse_bots,
    parse_variant,
    parse_vary,
)

BAD = {
    "unknown level": (["golf", "--bots", "wizard"], "unknown bot level 'wizard'"),
    "unknown preset": (["golf", "--rules", "seven-card", "--bots", "random"], "seven-card"),
    "unknown option": (["golf", "--set", "colour=red", "--bots", "random"], "colour"),
    "malformed --set": (["golf", "--set", "closer_rule", "--bots", "random"], "OPTION=VALUE"),
    "bots vs players": (
        ["golf", "--players", "3", "--bots", "random,random"],
        "2 levels for 3 players",
    ),
    "too many players": (["golf", "--players", "9", "--bots", "random"], "2 to 8 players"),
    "no games": (["golf", "--games", "0", "--bots", "random"], "--games must be at least 1"),
    "no jobs": (["golf", "--jobs", "0", "--bots", "random"], "--jobs must be at least 1"),
    "not a number": (["golf", "--games", "many", "--bots", "random"], "invalid int value"),
    "records without out": (["golf", "--bots", "random", "--records"], "--records needs --out"),
    "bad bot option": (["golf", "--bots", "random", "--bot-option", "fast"], "LEVEL:OPTION=VALUE"),
    "option for an absent level": (
        ["golf", "--bots", "random", "--bot-option", "expert:time_ms=5"],
        "no seat plays",
    ),
    "option the bot lacks": (
        ["golf", "--bots", "random", "--bot-option", "random:speed=2"],
        "takes no options",
    ),
    "option the level lacks": (
        ["golf", "--bots", "greedy", "--bot-option", "greedy:speed=2"],
        "the greedy golf bot has no option 'speed'; it takes no options",
    ),
    "option the expert lacks": (
        ["golf", "--bots", "expert", "--bot-option", "expert:budget=2"],
        "the expert golf bot has no option 'budget'; its options are: iterations, time_ms",
    ),
    "option value not a number": (
        ["golf", "--bots", "expert", "--bot-option", "expert:time_ms=soon"],
        "bad options for the expert golf bot (time_ms='soon')",
    ),
    "a flag of another command": (
        ["spades", "--bots", "random", "--players", "3"],
        "greenfelt: error: unrecognized arguments: --players 3 (try --help)",
    ),
    "option value out of range": (
        ["golf", "--bots", "expert", "--bot-option", "expert:iterations=0"],
        "must be positive",
    ),
    "unknown playout phase": (
        ["golf", "--bots", "expert", "--bot-option", "expert:playout_phases=flop"],
        "unknown playout phase flop",
    ),
    "spades is for two": (["spades", "--bots", "random,random,random"], "3 levels for 2 players"),
    "spades preset": (["spades", "--rules", "four-player", "--bots", "random"], "four-player"),
    "spades option": (["spades", "--set", "target=-5", "--bots", "random"], "target"),
    "spades max hands": (["spades", "--bots", "random", "--max-hands", "0"], "--max-hands"),
    "compare twice": (
        ["compare", "golf", "--rules", "six-card,six-card", "--bots", "random"],
        "twice",
    ),
    "compare unknown": (
        ["compare", "golf", "--rules", "six-card,bogus", "--bots", "random"],
        "bogus",
    ),
    "variant without a preset": (
        ["compare", "golf", "--variant", "closer_rule=penalty_10", "--bots", "random"],
        "name a preset before the options",
    ),
    "variant word": (
        ["compare", "golf", "--variant", "six-card closer_rule", "--bots", "random"],
        "'closer_rule' is not OPTION=VALUE",
    ),
    "variant option": (
        ["compare", "golf", "--variant", "ours: six-card colour=red", "--bots", "random"],
        "--variant 'ours': unknown option 'colour'",
    ),
    "variant value": (
        ["compare", "golf", "--variant", "six-card closer_rule=often", "--bots", "random"],
        "'often' is not one of",
    ),
    "variant preset": (
        ["compare", "golf", "--variant", "ours: seven-card", "--bots", "random"],
        "--variant 'ours': unknown Golf preset 'seven-card'",
    ),
    "variant named as a preset": (
        ["compare", "golf", "--rules", "six-card", "--variant", "six-card: four-card"],
        "the rule set 'six-card' twice",
    ),
    "variant sets twice": (
        ["compare", "golf", "--variant", "six-card knock=on knock=off"],
        "sets knock twice",
    ),
    "vary unknown": (["compare", "golf", "--vary", "colour"], "unknown option 'colour'"),
    "vary without values": (["compare", "golf", "--vary", "decks"], "--vary decks=V1,V2"),
    "vary values": (["compare", "golf", "--vary", "values=A:1,K:0"], "compare tables with"),
    "vary one value": (["compare", "golf", "--vary", "knock=on"], "two values or more"),
    "vary a value twice": (["compare", "golf", "--vary", "decks=1,1"], "names a value twice"),
    "vary a bad value": (
        ["compare", "golf", "--vary", "knock=on,sometimes", "--bots", "random"],
        "--vary 'knock=sometimes': option knock: 'sometimes' is not one of",
    ),
    "vary two presets": (
        ["compare", "golf", "--rules", "six-card,four-card", "--vary", "knock"],
        "--vary changes one preset; --rules names 2",
    ),
    "compare records without out": (
        ["compare", "golf", "--bots", "random", "--records"],
        "--records needs --out",
    ),
    "compare match holes": (
        ["compare", "golf", "--bots", "random", "--match-holes", "0"],
        "--match-holes",
    ),
    "no game": ([], "sim"),
    "compare no game": (["compare"], "compare"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_exits_2_with_one_line(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv, words = BAD[case]
    assert main(["sim", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("greenfelt: error: ")
    assert words in lines[0]


def test_unwritable_out_is_refused_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    status = main(["sim", "golf", "--bots", "random", "--out", str(blocker / "lab")])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert len(err.splitlines()) == 1
    assert "--out" in err and "cannot write" in err


def test_missing_bot_level_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A level whose module is not installed is one line, not a traceback."""
    from greenfelt import bots

    monkeypatch.setitem(bots._REGISTRY, "greedy", {"golf": "greenfelt.bots.absent:Bot"})
    assert main(["sim", "golf", "--bots", "greedy"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1
    assert "greedy golf bot is not available" in err


FLAGS = [
    "--rules",
    "--set",
    "--players",
    "--bots",
    "--games",
    "--seed",
    "--jobs",
    "--out",
    "--records",
    "--bot-option",
    "--max-hands",
    "--quiet",
]


def help_of(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--help"])
    assert exit_info.value.code == 0
    return capsys.readouterr().out


def test_sim_help_explains_every_flag_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(capsys, "sim")
    for flag in FLAGS:
        assert flag in text, flag
    assert "greenfelt sim golf --rules six-card --players 3 --bots expert,greedy,greedy" in text
    assert "greenfelt sim spades --bots expert,greedy" in text
    assert "greenfelt sim compare golf" in text
    for game, flags in (("golf", FLAGS[:-2]), ("spades", [f for f in FLAGS if f != "--players"])):
        text = help_of(capsys, "sim", game)
        for flag in flags:
            assert flag in text, (game, flag)
        assert "examples:" in text


COMPARE_FLAGS = [
    "--rules", "--variant", "--vary", "--set", "--players", "--bots", "--games", "--match-holes",
    "--seed", "--jobs", "--bot-option", "--out", "--records", "--quiet",
]  # fmt: skip


def test_compare_help_explains_every_flag(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("sim", "compare"), ("sim", "compare", "golf")):
        text = help_of(capsys, *argv)
        for flag in COMPARE_FLAGS:
            assert flag in text, flag
        assert "greenfelt sim compare golf --rules six-card,nine-card,four-card" in text
        assert "lead change" in text


def test_parse_bots_and_options() -> None:
    assert parse_bots("greedy", 3) == ("greedy", "greedy", "greedy")
    assert parse_bots("Expert, greedy", None) == ("expert", "greedy")
    assert parse_bots("random", None) == ("random", "random")
    assert parse_bot_options(["expert:time_ms=100", "expert:rollouts=off", "greedy:x=0.5"]) == {
        "expert": {"time_ms": 100, "rollouts": False},
        "greedy": {"x": 0.5},
    }
    assert parse_bot_options(["expert:mode=fast"]) == {"expert": {"mode": "fast"}}


def test_parse_vary_every_choice_or_the_values_listed() -> None:
    """A switch (G3.1 final turns) is off and on; a choice option (G4.1 knock) its choices
    but auto; listed values as given, without skipping."""
    final, every = parse_vary("final_turns", "six-card")
    assert [v.name for v in final] == ["final_turns=off", "final_turns=on"] and every
    knock, every = parse_vary("knock", "four-card")
    assert [v.options for v in knock] == [{"knock": "on"}, {"knock": "off"}] and every
    decks, every = parse_vary(" decks = 1, 2 ", "six-card")
    assert decks == [Variant("decks=1", "six-card", {"decks": "1"}, "--vary"),
                     Variant("decks=2", "six-card", {"decks": "2"}, "--vary")]  # fmt: skip
    assert not every


def test_parse_variant_names_and_options() -> None:
    """An optional NAME: first; a colon after an = belongs to a value (G5.1 RANK:POINTS)."""
    assert parse_variant("penalty: six-card closer_rule=penalty_10") == Variant(
        "penalty", "six-card", {"closer_rule": "penalty_10"}
    )
    assert parse_variant("  six-card   values=K:13,A:11 ") == Variant(
        "six-card values=K:13,A:11", "six-card", {"values": "K:13,A:11"}
    )
    assert parse_variant("our table:nine-card") == Variant("our table", "nine-card", {})


def test_score_never_imports_the_lab_libraries() -> None:
    """tqdm and matplotlib load only when a simulation runs."""
    code = (
        "import sys\n"
        "from greenfelt.cli import main\n"
        "assert main(['score', 'golf', 'K♠ 6♠ K♥ / 4♦ 6♥ 2♣']) == 0\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('matplotlib', 'tqdm'))\n"
        "assert not heavy, heavy\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, encoding="utf-8", check=False
    )
    assert done.returncode == 0, done.stderr
