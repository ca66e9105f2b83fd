"""Two benchmark tools that the bots' shipped weights and figures rest on (issue 4).

``fit_playout.expected_fit`` fitted ``golf_playout.WEIGHTS_MULTI``, and
``compare_sims`` pairs two ``greenfelt sim`` runs hole by hole for the README's
figures; a wrong sign in either would ship weaker weights or misreport a change.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from greenfelt.bots import golf_playout
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.cli import main
from greenfelt.golf.game import Phase
from tests.bots.helpers import golf_states

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from fit_playout import expected_fit, regret

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_the_expected_fit_learns_to_pick_the_best_move() -> None:
    """G2.2, G2.3: where one placement is worth a win and the rest nothing, weights
    climbed from zero come to pick it (here greedy's own choice, which the terms can
    express); a climb the wrong way would pick it less often than chance."""
    samples = []
    for state in golf_states(400, 5, presets=("six-card",), seats=(3,)):
        if state.phase in (Phase.DRAWN, Phase.TAKEN) and len(state.legal_actions()) > 1:
            best = greedy_policy(state.clone(), random.Random(0))
            samples.append((state, {a: float(a == best) for a in state.legal_actions()}))
    assert len(samples) >= 60
    zero = [[0.0] * len(golf_playout.STATE_TERMS) for _ in golf_playout.MOVE_TERMS]
    fitted = expected_fit(samples, "place", (), temperature=0.03, steps=300)
    assert len(fitted) == len(golf_playout.MOVE_TERMS)
    assert regret(samples, fitted, "place") < 0.1
    # All-zero weights tie every move and play the first: far from the best.
    assert regret(samples, zero, "place") > 0.5


def _sim(out: Path, bots: str, seed: int) -> Path:
    argv = ["sim", "golf", "--players", "3", "--bots", bots, "--games", "6"]
    assert main([*argv, "--seed", str(seed), "--jobs", "1", "--quiet", "--out", str(out)]) == 0
    return out / "results.json"


def _compare(a: Path, b: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(BENCHMARKS / "compare_sims.py"), str(a), str(b), *extra]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_compare_sims_pairs_the_games_of_one_seed(tmp_path: Path) -> None:
    """G9.2 applied to one hole (the lowest wins, equal lowest share): a run against
    itself differs by nothing; against another level in entry 1, the win values are
    the games' own (100/k for a lowest shared by k), and the difference is B less A."""
    greedy = _sim(tmp_path / "greedy", "greedy,easy,easy", 3)
    done = _compare(greedy, greedy)
    assert done.returncode == 0, done.stderr
    assert "B-A +0.00 ±0.00" in done.stdout
    randoms = _sim(tmp_path / "random", "random,easy,easy", 3)
    wins = {}
    for name, path in (("greedy", greedy), ("random", randoms)):
        games = json.loads(path.read_text(encoding="utf-8"))["games"]
        seat = [g["entries"].index(0) for g in games]
        wins[name] = sum(
            100.0 / len(g["winners"]) if s in g["winners"] else 0.0
            for g, s in zip(games, seat, strict=True)
        ) / len(games)
    done = _compare(randoms, greedy)
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stdout.splitlines() if x.startswith("win value"))
    assert f"A {wins['random']:7.2f}" in line and f"B {wins['greedy']:7.2f}" in line
    assert f"B-A {wins['greedy'] - wins['random']:+.2f}" in line


def test_compare_sims_refuses_runs_it_cannot_pair(tmp_path: Path) -> None:
    """Different seeds deal different cards; a file that is no sim result says so."""
    first = _sim(tmp_path / "a", "greedy,easy,easy", 3)
    other = _sim(tmp_path / "b", "greedy,easy,easy", 4)
    done = _compare(first, other)
    assert done.returncode == 2
    assert "differ in seed (3 against 4)" in done.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    done = _compare(first, broken)
    assert done.returncode == 2
    assert "broken.json: cannot be read as a greenfelt sim results.json" in done.stderr
    done = _compare(first, first, "--entry", "4")
    assert done.returncode == 2
    assert "the runs have entries 1 to 3" in done.stderr


@pytest.mark.parametrize("field", ["format", "games"])
def test_compare_sims_names_what_a_results_file_lacks(tmp_path: Path, field: str) -> None:
    """A results file without its format or its games is refused, naming the file."""
    good = _sim(tmp_path / "a", "greedy,easy,easy", 3)
    data = json.loads(good.read_text(encoding="utf-8"))
    del data[field]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    done = _compare(good, bad)
    assert done.returncode == 2
    assert "bad.json: not" in done.stderr
