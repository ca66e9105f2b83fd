"""Golden playthroughs (STYLE 14): short games with every seat's view at every step.

The files under ``playthroughs/`` are reviewed by people: each step shows who
moves, the legal actions, the action taken, and what each seat (and a spectator)
sees. A change in behaviour or visibility shows up as a diff. To regenerate
after an intended change: ``GREENFELT_REGENERATE=1 ./dev test tests/golf/test_playthrough.py``
and review the diff before committing.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from greenfelt.golf import find_preset, new_round

HERE = Path(__file__).resolve().parent / "playthroughs"
CASES = {
    "six-card-2p": ("six-card", 2, {}),
    "four-card-2p": ("four-card", 2, {}),
    "four-in-hand-3p": ("four-in-hand", 3, {}),
    "nine-card-wiki-2p": ("nine-card-wiki", 2, {}),
    "ten-card-2p-removal": ("ten-card", 2, {"remove_matched_lines": "on"}),
}


def render_view(view: dict[str, Any]) -> str:
    layouts = []
    for layout in view["layouts"]:
        cards = [
            "--" if c is None else (c if up else f"({c})" if c != "??" else "??")
            for c, up in zip(layout["cards"], layout["face_up"], strict=True)
        ]
        layouts.append(" ".join(cards))
    held = f" held={view['held']}" if view["held"] else ""
    top = view["discard"][-1] if view["discard"] else "-"
    return f"[{' | '.join(layouts)}] top={top} stock={view['stock']}{held}"


def playthrough(preset: str, players: int, options: dict[str, str], seed: int = 1) -> str:
    rules = find_preset(preset)
    if options:
        rules = rules.with_options(options)
    rng = random.Random(seed)
    game = new_round(rules, players, dealer=0, rng=rng)
    lines = [f"# {preset} {players} players {options or ''}".rstrip()]
    lines.append("# (X) = face down but known to this seat; ?? = unknown; -- = removed")
    step = 0
    while True:
        lines.append(f"step {step}: phase={game.phase.value} to_move={game.to_move}")
        for seat in [*range(players), None]:
            name = "spectator" if seat is None else f"seat {seat}"
            lines.append(f"  {name:<9} {render_view(game.view(seat))}")
        if game.is_over:
            lines.append(f"scores: {game.scores}")
            break
        legal = game.legal_actions()
        action = rng.choice(legal)
        lines.append(f"  legal: {', '.join(map(str, legal))}")
        lines.append(f"  action: {action}")
        game.apply(str(action))
        step += 1
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", list(CASES))
def test_playthrough_matches_golden_file(name: str) -> None:
    preset, players, options = CASES[name]
    text = playthrough(preset, players, options)
    path = HERE / f"{name}.txt"
    if os.environ.get("GREENFELT_REGENERATE"):
        HERE.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; regenerate (see module docstring)"
    assert text == path.read_text(encoding="utf-8")
