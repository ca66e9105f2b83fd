"""Server load: N concurrent tables of bot clients over real WebSockets on loopback.

Run: ``./dev bench bench_server`` (or ``.venv/bin/python benchmarks/bench_server.py``).

It starts ``greenfelt serve`` (SQLite in a temporary folder, ``--bot-delay 0``) as a
process of its own, creates ``--tables`` tables in which every seat is a person's
seat, joins them all, and drives every seat with a bot *client*: a separate process
(``--client-procs`` of them) that holds one WebSocket per seat and decides only from
the frames it receives (a random legal move; in Spades a middling bid), after a
pause of ``--think`` seconds on average (uniform between half and one and a half
times it), which keeps each connection within the server's rate limit (10 messages
a second per connection). When a match ends the first seat asks for a rematch, so
every table plays for the whole run.

Reported, over the measured window (after ``--warmup``):

* actions per second (moves whose update reached every seat, all tables together);
* latency from a move sent to *every* seat's update for that event number received
  (50th, 99th percentile, max): what a player sees between a click and everyone's
  screens showing it;
* the server process's CPU use, and the clients' (the load shares this machine).

The bar of issue 5: 200 concurrent tables, p99 under 100 ms on the 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

GREENFELT = str(Path(sys.executable).with_name("greenfelt"))
NAMES = ["Ann", "Bob", "Cy", "Dee"]

# game -> (game, preset, options, seats)
GAMES: dict[str, tuple[str, str, dict[str, Any], int]] = {
    "golf": ("golf", "six-card", {"end": "holes:9"}, 2),
    "golf4": ("golf", "four-card", {"end": "holes:9"}, 4),
    "spades": ("spades", "two-player", {"target": 300}, 2),
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ---- the clients (a process of their own) --------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    matches: int = 0
    cpu: float = 0.0


class TableRun:
    """One table's seats, and the moves in flight: event number -> (sent at, seats waiting)."""

    def __init__(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.tokens = tokens
        self.pending: dict[int, tuple[float, set[int]]] = {}


def legal_moves(message: dict[str, Any]) -> list[str]:
    view = message.get("view") or {}
    inner = view.get("round_view") if view.get("game") == "golf" else view.get("hand")
    return list((inner or {}).get("legal") or [])


def over(message: dict[str, Any]) -> bool:
    view = message.get("view") or {}
    return bool(view.get("over") if view.get("game") == "golf" else view.get("winners"))


def choose(legal: list[str], rng: random.Random) -> str:
    middling = [a for a in legal if a in ("bid 3", "bid 4", "bid 5", "pass")]
    return rng.choice(middling if middling and rng.random() < 0.9 else legal)


@dataclass(frozen=True)
class Plan:
    """What every client process does: where, how fast, and when (wall-clock start)."""

    ws_base: str
    think: float
    start_at: float
    warmup: float
    seconds: float


@dataclass
class Shared:
    """One client process's clock, tally and start signal."""

    stats: Stats = field(default_factory=Stats)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    connected: int = 0
    start: float = float("inf")
    end: float = float("inf")


async def seat_client(plan: Plan, run: TableRun, seat: int, shared: Shared) -> None:
    import websockets

    ws_base, think, stats, clock = plan.ws_base, plan.think, shared.stats, shared

    rng = random.Random(f"{run.id}:{seat}")
    seats = len(run.tokens)
    async with websockets.connect(
        ws_base + run.id, max_size=None, max_queue=None, open_timeout=60
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "token": run.tokens[seat]}))
        shared.connected += 1
        await shared.ready.wait()
        thinking: asyncio.Task[None] | None = None
        asked_rematch = 0

        async def move(message: dict[str, Any]) -> None:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            if time.perf_counter() >= clock.end:
                return
            seq = message["seq"]
            sent = time.perf_counter()
            run.pending[seq + 1] = (sent, set(range(seats)))
            text = choose(legal_moves(message), rng)
            await ws.send(json.dumps({"type": "action", "action": text, "seq": seq}))

        async for raw in ws:
            now = time.perf_counter()
            message = json.loads(raw)
            kind = message["type"]
            if kind == "update":
                waiting = run.pending.get(message["seq"])
                if waiting is not None:
                    waiting[1].discard(seat)
                    if not waiting[1]:
                        del run.pending[message["seq"]]
                        if waiting[0] >= clock.start:
                            stats.latencies.append(now - waiting[0])
                            stats.actions += 1
            if kind in ("state", "update"):
                if over(message):
                    if seat == 0 and message["match"] > asked_rematch and now < clock.end:
                        asked_rematch = message["match"]
                        stats.matches += 1
                        await ws.send('{"type": "rematch"}')
                elif legal_moves(message) and (thinking is None or thinking.done()):
                    thinking = asyncio.create_task(move(message))
            elif kind == "error":
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1


def clients_process(plan: Plan, tables: list[tuple[str, list[str]]]) -> dict[str, Any]:
    async def main() -> Stats:
        shared = Shared()
        runs = {t: TableRun(t, k) for t, k in tables}  # one per table, shared by its seats
        tasks = [
            asyncio.create_task(seat_client(plan, runs[table_id], seat, shared))
            for table_id, tokens in tables
            for seat in range(len(tokens))
        ]
        total = len(tasks)
        while shared.connected < total:
            for task in tasks:
                if task.done():
                    task.result()
            await asyncio.sleep(0.05)
        await asyncio.sleep(max(plan.start_at - time.time(), 0))
        now = time.perf_counter()
        shared.start = now + plan.warmup
        shared.end = now + plan.warmup + plan.seconds
        shared.ready.set()
        await asyncio.sleep(plan.warmup + plan.seconds + 1.0)  # the last updates arrive
        for task in tasks:
            task.cancel()
        for result in await asyncio.gather(*tasks, return_exceptions=True):
            if isinstance(result, Exception):
                raise result
        return shared.stats

    stats = asyncio.run(main())
    return {
        "latencies": stats.latencies,
        "actions": stats.actions,
        "errors": stats.errors,
        "matches": stats.matches,
        "cpu": time.process_time(),
    }


# ---- the run ---------------------------------------------------------------------------------


def create_tables(url: str, count: int, games: list[str]) -> list[tuple[str, list[str]]]:
    out = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for n in range(count):
            game, preset, options, seats = GAMES[games[n % len(games)]]
            body = {
                "game": game,
                "preset": preset,
                "options": options,
                "seats": [{"name": NAMES[i]} for i in range(seats)],
            }
            created = http.post("/api/tables", json=body)
            created.raise_for_status()
            table_id = created.json()["id"]
            tokens = []
            for seat in range(seats):
                joined = http.post(
                    f"/api/tables/{table_id}/join", json={"name": NAMES[seat], "seat": seat}
                )
                joined.raise_for_status()
                tokens.append(joined.json()["token"])
            out.append((table_id, tokens))
    return out


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument(
        "--game",
        default="golf,spades",
        help=f"comma-separated mix of {', '.join(GAMES)} (default golf,spades: half each)",
    )
    parser.add_argument(
        "--think", type=float, default=0.25, help="seconds a client thinks per move (0.25)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first (3)")
    parser.add_argument("--client-procs", type=int, default=1, help="client processes (1)")
    parser.add_argument("--db", help="database URL for the server (default SQLite in a temp dir)")
    parser.add_argument("--server-arg", action="append", default=[], help="extra serve argument")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.game.split(",") if g.strip()]
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}")

    command = (
        "./dev bench bench_server " + shlex.join(argv if argv is not None else sys.argv[1:])
    ).rstrip()
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        serve = [
            GREENFELT,
            "serve",
            "--port",
            str(port),
            "--data",
            folder,
            "--bot-delay",
            "0",
            "--round-pause",
            "0",
            "--takeover-after",
            "3600",
            *(["--db", args.db] if args.db else []),
            *args.server_arg,
        ]
        log = open(Path(folder) / "server.log", "wb")  # noqa: SIM115
        server = subprocess.Popen(serve, stdout=log, stderr=subprocess.STDOUT)
        print(
            f"server: pid {server.pid}, port {port}: {shlex.join(serve)}",
            file=sys.stderr,
            flush=True,
        )
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{url}/api/health", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    print((Path(folder) / "server.log").read_text()[-2000:], file=sys.stderr)
                    return 1
                time.sleep(0.1)
            tables = create_tables(url, args.tables, games)
            seats = sum(len(t) for _, t in tables)
            chunks = [tables[i :: args.client_procs] for i in range(args.client_procs)]
            start_at = time.time() + 2.0 + seats / 200  # time to connect every seat
            context = multiprocessing.get_context("spawn")
            with context.Pool(args.client_procs) as pool:
                plan = Plan(
                    f"ws://127.0.0.1:{port}/ws/tables/",
                    args.think,
                    start_at,
                    args.warmup,
                    args.seconds,
                )
                pending = pool.starmap_async(clients_process, [(plan, chunk) for chunk in chunks])
                while time.time() < start_at + args.warmup:
                    time.sleep(0.05)
                cpu_before = cpu_seconds(server.pid)
                measured_from = time.monotonic()
                while time.time() < start_at + args.warmup + args.seconds:
                    time.sleep(0.05)
                cpu_server = cpu_seconds(server.pid) - cpu_before
                window = time.monotonic() - measured_from
                results = pending.get(timeout=args.seconds + 120)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()

    latencies = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    errors: dict[str, int] = {}
    for r in results:
        for code, n in r["errors"].items():
            errors[code] = errors.get(code, 0) + n
    if not latencies:
        print("no move completed in the measured window", file=sys.stderr)
        return 1
    p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
    print(
        f"greenfelt server: {args.tables} tables ({', '.join(games)}), {seats} seats, each a "
        f"bot client on its own WebSocket; think {args.think:g} s; "
        f"{args.client_procs} client process(es); storage {'SQLite' if not args.db else args.db}"
    )
    print(
        f"  actions: {actions} in {args.seconds:g} s = {actions / args.seconds:.0f}/s; "
        f"matches finished: {sum(r['matches'] for r in results)}"
    )
    print(
        f"  move -> every seat's update: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
        f"mean {statistics.fmean(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms"
    )
    print(
        f"  server CPU {cpu_server / window * 100:.0f}% of a core; "
        f"clients CPU {sum(r['cpu'] for r in results) / (args.warmup + args.seconds) * 100:.0f}% "
        f"of a core (same machine); errors {errors or 'none'}"
    )
    verdict = "met" if args.tables >= 200 and p99 < 0.100 else "NOT met"
    print(f"  bar (200 tables, p99 < 100 ms): {verdict}")
    print(f"  command: {command}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
