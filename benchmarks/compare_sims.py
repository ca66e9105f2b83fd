"""Two ``greenfelt sim`` runs of one seed compared game by game, for one bot entry.

Run: ``./dev bench compare_sims A/results.json B/results.json [--entry 1]``, where
each is the ``results.json`` that ``greenfelt sim golf --out DIR`` writes, typically
the same command run on two versions of a bot (a worktree of the code before on
``PYTHONPATH``, or a changed option).

Runs of the same ``--seed``, players and rotations deal the same cards in the same
games, so most of the luck of the cards cancels in the difference between them,
game by game: far fewer games show a difference than two separate win rates would
need (docs/expert-six-card.md, "paired difference"). The entry's win value in a
game is 100 for a win (the strictly lowest score), 100/k for a lowest shared by k
seats and 0 for a loss; its margin is the other seats' mean points less its own
(higher is better for the entry). Each difference is B less A with its 95%
interval, ±1.96 standard errors of the mean paired difference.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from compare_expert import mean_and_half

Game = dict[str, Any]


class RunError(Exception):
    """A results file that cannot be compared: say which and why."""


def load(path: str) -> tuple[dict[str, Any], dict[int, Game]]:
    """A run's configuration and its games by number."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        if data.get("format") != "greenfelt-sim/1" or data["config"]["game"] != "golf":
            raise RunError(f"{path}: not the results.json of a greenfelt sim golf run")
        return data["config"], {int(g["game"]): g for g in data["games"]}
    except KeyError as error:
        raise RunError(f"{path}: not a greenfelt sim results.json (no {error} field)") from error
    except (OSError, ValueError, TypeError, AttributeError) as error:
        raise RunError(
            f"{path}: cannot be read as a greenfelt sim results.json ({error})"
        ) from error


def measures(game: Game, entry: int) -> tuple[float, float]:
    """The entry's win value and margin in one game (``entry`` counts from 1)."""
    seat = game["entries"].index(entry - 1)
    scores = game["scores"]
    winners = game["winners"]
    win = 100.0 / len(winners) if seat in winners else 0.0
    others = [s for k, s in enumerate(scores) if k != seat]
    return win, sum(others) / len(others) - scores[seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", help="run A's results.json")
    parser.add_argument("b", help="run B's results.json")
    parser.add_argument("--entry", type=int, default=1, help="the bot entry compared (from 1)")
    args = parser.parse_args()
    try:
        config_a, games_a = load(args.a)
        config_b, games_b = load(args.b)
    except RunError as error:
        parser.error(str(error))
    for field in ("rules", "players", "seed", "rotations"):
        if config_a[field] != config_b[field]:
            parser.error(f"A and B differ in {field} ({config_a[field]} against {config_b[field]})")
    if not 1 <= args.entry <= len(config_a["bots"]):
        parser.error(f"--entry {args.entry}: the runs have entries 1 to {len(config_a['bots'])}")
    common = sorted(set(games_a) & set(games_b))
    if not common:
        parser.error("no game was played in both runs")
    for number in common:
        if games_a[number]["deal"] != games_b[number]["deal"]:
            parser.error(f"game {number} has different deals in A and B")
    a = [measures(games_a[g], args.entry) for g in common]
    b = [measures(games_b[g], args.entry) for g in common]
    bot_a, bot_b = config_a["bots"][args.entry - 1], config_b["bots"][args.entry - 1]
    print(f"entry {args.entry}: A {bot_a}, B {bot_b}, {len(common)} games")
    for label, index in (("win value", 0), ("margin", 1)):
        mean_a = sum(x[index] for x in a) / len(a)
        mean_b = sum(x[index] for x in b) / len(b)
        diff, half = mean_and_half([y[index] - x[index] for x, y in zip(a, b, strict=True)])
        print(f"{label:<10} A {mean_a:7.2f}  B {mean_b:7.2f}  B-A {diff:+.2f} ±{half:.2f}")
    print(
        "win value: points of percentage (win 100, a lowest shared by k seats 100/k, loss 0);"
        " margin: the other seats' mean points less the entry's; ± is a 95% interval"
    )


if __name__ == "__main__":
    main()
