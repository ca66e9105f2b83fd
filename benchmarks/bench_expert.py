"""The expert bot's strength against greedy, with 95% intervals, in parallel.

Run: ``./dev bench bench_expert --jobs 2 --minutes 20`` (any machine with
Python 3.11+; it needs only the standard library and greenfelt itself, so it
also runs on a larger machine from a bare checkout:
``PYTHONPATH=. python3 benchmarks/bench_expert.py --jobs 16``).

Deals are mirrored: each deal (a seeded deck) is played twice with the seats
swapped, so the luck of the cards cancels. Golf counts holes (a win is a
strictly lower hole score; ties are not decided); Spades counts games to the
target. Every bot decides through the public bot interface (observations),
with the default budgets, so this measures what players meet. Seconds per
expert move are CPU seconds of the worker process, so a loaded machine does
not flatter or hurt them. Work is time-boxed: what finishes is reported.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from greenfelt.bots import Bot, make_bot
from greenfelt.cards import shuffled_deck

CONFIGS: dict[str, tuple[str, str, dict[str, Any]]] = {
    "six-card": ("golf", "six-card", {}),
    "four-card": ("golf", "four-card", {}),
    "nine-card": ("golf", "nine-card", {}),
    "eight-card": ("golf", "eight-card", {}),
    "ten-card": ("golf", "ten-card", {}),
    "four-in-hand": ("golf", "four-in-hand", {}),
    "nine-card-wiki": ("golf", "nine-card-wiki", {}),
    "bga": ("golf", "bga", {}),
    "cambio": ("golf", "cambio", {}),  # G7.2
    "bga-powers": ("golf", "bga", {"powers": "bga"}),  # G7.3
    "spades": ("spades", "two-player", {}),
}


def opponent_bot(game: str, opponent: str, rng: random.Random) -> Bot:
    """The expert's opponent: a level, or ``textbook`` (Golf: ``textbook_golf``)."""
    if opponent == "textbook":
        from textbook_golf import TextbookGolfBot

        return TextbookGolfBot(rng)
    return make_bot(game, opponent, rng)


def expert_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` with ``rollout=textbook`` / ``playout=textbook`` made the policy."""
    out = dict(options)
    for name in ("rollout", "playout"):
        if out.get(name) == "textbook":
            from textbook_golf import textbook_policy

            out[name] = textbook_policy
    return out


def play_deal(
    config: str,
    deal: int,
    expert_seat: int,
    seed: int,
    options: dict[str, Any],
    *,
    opponent: str = "greedy",
) -> dict[str, Any]:
    """One mirrored half: the expert at ``expert_seat`` against ``opponent``."""
    game, preset, rule_options = CONFIGS[config]
    rng = random.Random(f"{seed}:{config}:{deal}")
    bots = [
        make_bot(game, "expert", random.Random(f"{seed}:{deal}:{seat}"), **expert_options(options))
        if seat == expert_seat
        else opponent_bot(game, opponent, random.Random(f"{seed}:{deal}:{seat}"))
        for seat in range(2)
    ]
    cpu = 0.0
    moves = 0
    if game == "golf":
        from greenfelt.golf import find_preset, new_round

        rules = find_preset(preset)
        state = new_round(
            rules.with_options(rule_options) if rule_options else rules, 2, deal % 2, rng=rng
        )
        while not state.is_over:
            seat = state.to_move
            start = time.process_time()
            action = bots[seat].act(state, seat)
            if seat == expert_seat:
                cpu += time.process_time() - start
                moves += 1
            state.apply(action, seat)
        scores = list(state.scores)
        mine, theirs = scores[expert_seat], scores[1 - expert_seat]
        return {
            "config": config,
            "deal": deal,
            "expert_seat": expert_seat,
            "scores": scores,
            "win": mine < theirs,
            "loss": mine > theirs,
            "expert_points": mine,
            "greedy_points": theirs,
            "cpu": cpu,
            "moves": moves,
        }
    from greenfelt.spades import SpadesMatch
    from greenfelt.spades import find_preset as spades_preset

    match = SpadesMatch(spades_preset(preset), ["A", "B"], dealer=deal % 2)
    hands = 0
    while not match.is_over and hands < 60:
        match.start_round(shuffled_deck(rng))
        hands += 1
        hand = match.current
        while hand is not None and not hand.is_over:
            seat = hand.to_move
            start = time.process_time()
            action = bots[seat].act(hand, seat)
            if seat == expert_seat:
                cpu += time.process_time() - start
                moves += 1
            match.apply(action, seat)
    totals = list(match.totals)
    winners = list(match.winners)
    return {
        "config": config,
        "deal": deal,
        "expert_seat": expert_seat,
        "scores": totals,
        "win": winners == [expert_seat],
        "loss": winners == [1 - expert_seat],
        "expert_points": totals[expert_seat],
        "greedy_points": totals[1 - expert_seat],
        "cpu": cpu,
        "moves": moves,
        "hands": hands,
    }


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float, float]:
    if n == 0:
        return math.nan, math.nan, math.nan
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, centre - half, centre + half


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for config in CONFIGS:
        rows = [r for r in results if r["config"] == config]
        if not rows:
            continue
        wins = sum(r["win"] for r in rows)
        losses = sum(r["loss"] for r in rows)
        rate, low, high = wilson(wins, wins + losses)
        n = len(rows)
        mean_e = sum(r["expert_points"] for r in rows) / n
        mean_g = sum(r["greedy_points"] for r in rows) / n
        sd = math.sqrt(sum((r["expert_points"] - mean_e) ** 2 for r in rows) / max(n - 1, 1))
        moves = sum(r["moves"] for r in rows)
        out[config] = {
            "games": n,
            "wins": wins,
            "losses": losses,
            "ties": n - wins - losses,
            "win_rate_decided": rate,
            "ci95": [low, high],
            "expert_points_mean": mean_e,
            "expert_points_ci95": [
                mean_e - 1.96 * sd / math.sqrt(n),
                mean_e + 1.96 * sd / math.sqrt(n),
            ],
            "greedy_points_mean": mean_g,
            "cpu_seconds_per_expert_move": sum(r["cpu"] for r in rows) / max(moves, 1),
        }
    return out


def number_or_text(value: str) -> int | float | str:
    """A command-line option value: an int, a float, or else the text itself."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description="expert vs greedy, mirrored, in parallel")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--minutes", type=float, default=10.0, help="time box for the whole run")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--deals",
        default="six-card=500,four-card=150,nine-card=100,spades=200",
        help=f"deals per configuration (each played twice): NAME=N,...; names: {', '.join(CONFIGS)}",
    )
    parser.add_argument(
        "--first",
        type=int,
        default=0,
        help="the first deal to play: extend an earlier run of the same seed past its deals",
    )
    parser.add_argument("--out", help="write results JSON here")
    parser.add_argument(
        "--opponent",
        default="greedy",
        choices=["greedy", "random", "textbook"],
        help=(
            "who the expert plays: a level, or textbook (Golf: the seeds' rules of thumb,"
            " benchmarks/textbook_golf.py; with --expert rollout=textbook"
            " --expert playout=textbook the search rolls out with it)"
        ),
    )
    parser.add_argument(
        "--expert",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=(
            "an expert option other than the default (iterations, per_choice,"
            " time_ms (a time limit a move, as at tables: 200), depth, exploration,"
            " playout, prior_weight, anchor_z, align, playout_phases, win_weight,"
            " stage_budget, stage_z, halving, top_moves, value, leaf, belief)"
        ),
    )
    args = parser.parse_args()
    options = {k: number_or_text(v) for k, v in (o.split("=", 1) for o in args.expert)}
    plan = [(name, int(count)) for name, count in (p.split("=") for p in args.deals.split(","))]
    unknown = [name for name, _ in plan if name not in CONFIGS]
    if unknown:
        parser.error(
            f"unknown configuration {', '.join(unknown)}: choose from {', '.join(CONFIGS)}"
        )
    if args.first < 0:
        parser.error(f"--first must be 0 or more, not {args.first}")
    tasks = [
        (name, deal, seat)
        for name, count in plan
        for deal in range(args.first, count)
        for seat in (0, 1)
    ]
    if not tasks:
        parser.error(f"no deals from --first {args.first}: every configuration has fewer")
    # Interleave configurations so a time box leaves every one a fair sample.
    counts = dict(plan)
    tasks.sort(key=lambda t: (t[1] / counts[t[0]], t[0], t[2]))
    deadline = time.monotonic() + args.minutes * 60
    results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        pending: set[Future[dict[str, Any]]] = set()
        queue = iter(tasks)
        for task in queue:
            pending.add(pool.submit(play_deal, *task, args.seed, options, opponent=args.opponent))
            if len(pending) >= args.jobs * 2:
                break
        while pending:
            done, pending = wait(pending, timeout=5, return_when=FIRST_COMPLETED)
            results += [f.result() for f in done]
            if time.monotonic() < deadline:
                for task in queue:
                    pending.add(
                        pool.submit(play_deal, *task, args.seed, options, opponent=args.opponent)
                    )
                    if len(pending) >= args.jobs * 2:
                        break
            else:
                for f in pending:
                    f.cancel()
                pending = {f for f in pending if not f.cancelled()}
            print(f"\r{len(results)} games done", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    summary = summarise(results)
    print(
        f"{'configuration':<12} {'games':>6} {'W-L-T':>13} {'win % decided [95% CI]':>26} "
        f"{'expert pts':>11} {args.opponent + ' pts':>11} {'s/move':>7}"
    )
    for config, s in summary.items():
        wlt = f"{s['wins']}-{s['losses']}-{s['ties']}"
        ci = f"{100 * s['win_rate_decided']:.1f} [{100 * s['ci95'][0]:.1f}, {100 * s['ci95'][1]:.1f}]"
        print(
            f"{config:<12} {s['games']:>6} {wlt:>13} {ci:>26} {s['expert_points_mean']:>11.2f} "
            f"{s['greedy_points_mean']:>11.2f} {s['cpu_seconds_per_expert_move']:>7.3f}"
        )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(
                {"summary": summary, "results": results, "args": vars(args)}, handle, indent=1
            )


if __name__ == "__main__":
    main()
