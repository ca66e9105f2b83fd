"""Ctrl-C stops `greenfelt sim` without losing the deals played before it.

A long run stopped by hand reports (and with ``--out`` writes) the whole deals
finished before the interruption, from the first one on: the very games a shorter
run of the same seed plays, so its numbers stay reproducible. It exits with 130,
the status of a Ctrl-C. Ctrl-C is injected where a chunk of deals is played
(``runner.play_deals``) or a record is written (``report.write_text``), and once
sent as a real SIGINT to a run's process group, its two workers included.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from greenfelt.cli import main
from greenfelt.lab import report, runner
from greenfelt.lab.runner import Interrupted, Spec

PATIENCE_S = 60.0  # a bound on waiting for a process, not a speed claim

SPEC = Spec("golf", {"preset": "six-card"}, 2, ("greedy", "random"), seed=4)


def _stop_at(
    monkeypatch: pytest.MonkeyPatch, when: Callable[[Spec, int], bool]
) -> list[tuple[str, int]]:
    """Raise KeyboardInterrupt (as Ctrl-C would) when a chunk for which ``when(spec,
    start)`` holds begins to play; returns the chunks begun, (preset, first deal)."""
    real = runner.play_deals
    begun: list[tuple[str, int]] = []

    def play_deals(spec: Spec, start: int, stop: int) -> Any:
        begun.append((spec.rules["preset"], start))
        if when(spec, start):
            raise KeyboardInterrupt
        return real(spec, start, stop)

    monkeypatch.setattr(runner, "play_deals", play_deals)
    return begun


def _stop_writing(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Raise KeyboardInterrupt when the record file ``name`` is about to be written."""
    real = report.write_text

    def write_text(path: Path, text: Any) -> None:
        if path.name == name:
            raise KeyboardInterrupt
        real(path, text)

    monkeypatch.setattr(report, "write_text", write_text)


def test_interrupted_keeps_the_whole_deals_before_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games kept are those of the deals before the chunk Ctrl-C broke into, equal to
    a run of that many deals; the interruption is still a KeyboardInterrupt."""
    begun = _stop_at(monkeypatch, lambda spec, start: start >= 20)
    with pytest.raises(Interrupted) as caught:
        runner.run(SPEC, 60, jobs=1)
    stop = caught.value
    assert isinstance(stop, KeyboardInterrupt)
    assert stop.deals == begun[-1][1] and 0 < stop.deals < 60  # the chunk broken into
    assert stop.planned == 60
    monkeypatch.undo()
    assert stop.games == runner.run(SPEC, stop.deals, jobs=1)
    assert [game["game"] for game in stop.games] == list(range(1, 2 * stop.deals + 1))


def test_interrupted_before_a_deal_keeps_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    _stop_at(monkeypatch, lambda spec, start: True)
    with pytest.raises(Interrupted) as caught:
        runner.run(SPEC, 10, jobs=1)
    assert caught.value.deals == 0 and caught.value.games == []


def test_sim_reports_and_writes_what_was_played(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``sim golf`` after Ctrl-C: the table, results and records of the deals kept, the
    same files a run of ``--games`` that many writes; the config says it was cut.

    Ctrl-C comes while the records of a chunk of deals are written (the 61st game's:
    deal 30): that chunk is not kept, and the records of it already written go."""
    begun = _stop_at(monkeypatch, lambda spec, start: False)
    _stop_writing(monkeypatch, "game-000061.json")
    argv = ["sim", "golf", "--bots", "greedy,random", "--seed", "4", "--jobs", "1", "--quiet"]
    assert main([*argv, "--games", "400", "--out", str(tmp_path / "cut"), "--records"]) == 130
    out, err = capsys.readouterr()
    deals = begun[-1][1]  # the chunk whose records were being written
    assert 0 < deals <= 30
    games = 2 * deals
    assert f"interrupted after {deals} of 200 deals" in err
    assert f"the same games as --games {games} with this seed" in err
    assert f"{games} holes = {deals} deals x 2 rotations" in out
    assert f"interrupted after {deals} of 200 deals for --games 400" in out
    monkeypatch.undo()
    assert main([*argv, "--games", str(games), "--out", str(tmp_path / "whole")]) == 0
    cut, whole = tmp_path / "cut", tmp_path / "whole"
    assert (cut / "results.csv").read_bytes() == (whole / "results.csv").read_bytes()
    cut_json, whole_json = (json.loads((d / "results.json").read_text()) for d in (cut, whole))
    assert cut_json["summary"] == whole_json["summary"]
    assert cut_json["config"]["interrupted"] is True
    assert cut_json["config"]["deals_planned"] == 200
    assert cut_json["config"]["games"] == games and "interrupted" not in whole_json["config"]
    records = sorted(path.name for path in (cut / "records").iterdir())
    assert records == [f"game-{n:06d}.json" for n in range(1, games + 1)]


def test_sim_interrupted_before_a_deal_says_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nothing to report: no table, no files, and no record of the deal half written."""
    _stop_writing(monkeypatch, "game-000002.json")
    argv = ["sim", "golf", "--bots", "random", "--games", "20", "--jobs", "1", "--quiet"]
    assert main([*argv, "--out", str(tmp_path), "--records"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "greenfelt: interrupted before a deal was played out\n"
    assert not (tmp_path / "results.json").exists()
    assert list((tmp_path / "records").iterdir()) == []


COMPARE = ["sim", "compare", "golf", "--rules", "six-card,four-card,nine-card"]
COMPARE += ["--bots", "greedy", "--seed", "6", "--jobs", "1", "--quiet", "--match-holes", "3"]


def test_compare_cuts_every_rule_set_to_the_matches_played(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rule sets are compared on the same deals: Ctrl-C in the second cuts the first to
    the whole matches the second finished, and the third is not played; the report and
    files are those of a compare of the two on that many holes."""
    begun = _stop_at(
        monkeypatch, lambda spec, start: spec.rules["preset"] == "four-card" and start >= 10
    )
    cut, whole = tmp_path / "cut", tmp_path / "whole"
    assert main([*COMPARE, "--games", "120", "--out", str(cut), "--records"]) == 130
    out, err = capsys.readouterr()
    done = begun[-1][1]
    deals = done // 3 * 3  # whole matches of 3 holes
    assert "nine-card" not in {preset for preset, _ in begun}
    assert f"after {deals} of 60 deals; not played: nine-card" in out
    assert f"interrupted in the rule set 'four-card' after {done} of its deals" in err
    assert f"compares 2 of 3 rule sets (six-card, four-card) on {2 * deals} holes each" in err
    monkeypatch.undo()
    rules = ["--rules", "six-card,four-card"]
    assert main([*COMPARE, *rules, "--games", str(2 * deals), "--out", str(whole)]) == 0
    assert (cut / "compare.csv").read_bytes() == (whole / "compare.csv").read_bytes()
    cut_json, whole_json = (json.loads((d / "compare.json").read_text()) for d in (cut, whole))
    assert cut_json["rule_sets"][1]["paired"] == whole_json["rule_sets"][1]["paired"]
    assert cut_json["config"]["rules"] == ["six-card", "four-card"]
    assert cut_json["config"]["rules_planned"] == ["six-card", "four-card", "nine-card"]
    folders = sorted(path.name for path in (cut / "records").iterdir())
    assert folders == ["1-six-card", "2-four-card"]
    for folder in folders:
        names = sorted(path.name for path in (cut / "records" / folder).iterdir())
        assert names == [f"game-{n:06d}.json" for n in range(1, 2 * deals + 1)]


def test_compare_stopped_before_a_match_reports_the_sets_before_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _stop_at(monkeypatch, lambda spec, start: spec.rules["preset"] == "nine-card")
    assert main([*COMPARE, "--games", "36", "--out", str(tmp_path), "--records"]) == 130
    out, err = capsys.readouterr()
    assert "interrupted (not played: nine-card)" in out
    assert "compares 2 of 3 rule sets (six-card, four-card) on 36 holes each" in err
    data = json.loads((tmp_path / "compare.json").read_text())
    assert [entry["name"] for entry in data["rule_sets"]] == ["six-card", "four-card"]
    assert data["config"]["deals"] == data["config"]["deals_planned"] == 18
    assert sorted(p.name for p in (tmp_path / "records").iterdir()) == ["1-six-card", "2-four-card"]


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs POSIX process groups")
def test_ctrl_c_on_a_run_with_workers(tmp_path: Path) -> None:
    """A real SIGINT to the run's process group (what a terminal's Ctrl-C sends): the
    parent stops its two workers and writes the deals it had; none is left running."""
    exe = Path(sys.executable).parent / "greenfelt"
    cut = tmp_path / "cut"
    argv = [str(exe), "sim", "golf", "--bots", "greedy,random", "--seed", "8", "--quiet"]
    run = subprocess.Popen(
        [*argv, "--games", "400000", "--jobs", "2", "--out", str(cut), "--records"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    try:
        deadline = time.monotonic() + PATIENCE_S
        while time.monotonic() < deadline and run.poll() is None and _first(cut) < 384:
            time.sleep(0.1)  # the first 384 games recorded: whole chunks of deals are in
        assert run.poll() is None, "the run ended before Ctrl-C"
        os.killpg(run.pid, signal.SIGINT)
        _, err = run.communicate(timeout=PATIENCE_S)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    assert run.returncode == 130, err
    config = json.loads((cut / "results.json").read_text())["config"]
    games = config["games"]
    assert config["interrupted"] is True and 0 < games < 400000
    assert f"the same games as --games {games} with this seed" in err
    assert len(list((cut / "records").iterdir())) == games
    whole = tmp_path / "whole"
    assert main(["sim", *argv[2:], "--games", str(games), "--jobs", "1", "--out", str(whole)]) == 0
    assert (cut / "results.csv").read_bytes() == (whole / "results.csv").read_bytes()
    deadline = time.monotonic() + PATIENCE_S
    while _group_alive(run.pid) and time.monotonic() < deadline:
        time.sleep(0.1)  # its helpers (the resource tracker) end just after it
    assert not _group_alive(run.pid), "a worker outlived the run"


def _first(out: Path) -> int:
    """How many games from the first on have their record in ``out/records``."""
    folder = out / "records"
    if not folder.is_dir():
        return 0
    numbers = {int(path.stem[5:]) for path in folder.glob("game-*.json")}
    return next(n for n in range(1, len(numbers) + 2) if n not in numbers) - 1


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def test_compare_stopped_before_its_first_match_keeps_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C in the first rule set before a whole match (3 holes here) of it is in:
    nothing to compare, and the records written of it go with their folder."""
    _stop_writing(monkeypatch, "game-000005.json")  # deal 2; deals 0 and 1 are in
    assert main([*COMPARE, "--games", "36", "--out", str(tmp_path), "--records"]) == 130
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "greenfelt: interrupted before a match was played out\n"
    assert not (tmp_path / "compare.json").exists()
    assert list((tmp_path / "records").iterdir()) == []
