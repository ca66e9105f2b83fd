"""Package-level checks: doctests, standard-library-only core (STYLE 1), records."""

from __future__ import annotations

import ast
import doctest
import importlib
import json
import random
import sys
from pathlib import Path

import pytest

import greenfelt.spades
from greenfelt.cards import shuffled_deck
from greenfelt.cli import main
from greenfelt.spades import SpadesMatch, SpadesRules

MODULES = ["__init__", "actions", "rules", "scoring", "game", "match", "cli"]
PACKAGE = Path(greenfelt.spades.__file__).parent


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(
        "greenfelt.spades" + ("" if name == "__init__" else f".{name}")
    )
    failed, _ = doctest.testmod(module, raise_on_error=False, report=True)
    assert failed == 0


@pytest.mark.parametrize("name", MODULES)
def test_core_imports_only_the_standard_library(name: str) -> None:
    """STYLE 1: the engine imports the standard library and greenfelt's core only."""
    tree = ast.parse((PACKAGE / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top == "greenfelt":
                assert module in {"greenfelt.cards", "greenfelt.errors"} or module.startswith(
                    "greenfelt.spades"
                ), module
            else:
                assert top in sys.stdlib_module_names or top == "__future__", module


def random_match(seed: int, hands: int) -> SpadesMatch:
    rng = random.Random(seed)
    match = SpadesMatch(SpadesRules(target=300, discards="face_down"), names=("Ann", "Bo"))
    while match.needs_deal and len(match.rounds) < hands:
        hand = match.start_round(shuffled_deck(rng))
        while not hand.is_over:
            match.apply(str(rng.choice(hand.legal_actions())), hand.to_move)
    return match


def test_record_replays_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 3: a Spades record uses the Golf format and `greenfelt replay` checks it."""
    from greenfelt.record import dumps, match_record

    match = random_match(1, hands=3)
    record = match_record("spades", match)
    assert record["game"] == "spades"
    assert record["rules"] == {
        "preset": "two-player",
        "set": {"discards": "face_down", "target": 300},
    }
    assert record["rounds"][1]["dealer"] == 1 and len(record["rounds"][0]["deck"]) == 52
    path = tmp_path / "spades.json"
    path.write_text(dumps(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == " ".join(map(str, match.totals))

    # A tampered action is refused with one line naming where, exit status 2.
    actions = record["rounds"][0]["actions"]
    actions[40] = [actions[40][0], "play 2♠" if actions[40][1] != "play 2♠" else "play 3♠"]
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "round 1" in err and "action #41" in err


def test_record_with_the_wrong_dealer_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from greenfelt.record import match_record

    record = match_record("spades", random_match(2, hands=2))
    record["rounds"][1]["dealer"] = 0
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "alternates each hand (S1.2)" in capsys.readouterr().err
