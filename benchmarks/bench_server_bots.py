"""A person's move on a server busy with bot tables: how long until it is acknowledged.

Run: ``./dev bench bench_server_bots --busy 0,10,40`` (or
``.venv/bin/python benchmarks/bench_server_bots.py``).

For each count in ``--busy`` it starts ``greenfelt serve`` (SQLite in a temporary
folder, ``--bot-delay 0.3``), creates that many tables where two ``--level`` bots
play each other (six-card Golf, 50 holes, so they play for the whole run), and one
table of a person against an ``--opponent`` bot (easy). The person is this script: it joins over
HTTP, plays a random legal move whenever it is its turn, and times each move from
the frame sent to the server's ``ack``. Reported: the 50th and 90th percentile and
the slowest of ``--moves`` moves; and the same of the wait from each ack to the
person's next turn, which is the opponent's reply (0.3 s of ``--bot-delay`` for each
of its moves, plus whatever they wait for a thinker).

Why: server bots think in worker processes (``greenfelt.server.thinking``), or with
``--bot-processes 0`` in threads of the server, where their CPU-bound Python shares
the interpreter lock with the event loop serving people. ``bench_server`` measures
the loop with bot *clients*; this measures what server bots cost people.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

GREENFELT = str(Path(sys.executable).with_name("greenfelt"))
GOLF = {"game": "golf", "preset": "six-card", "options": {"end": "holes:50"}}


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _ready(http: httpx.AsyncClient) -> None:
    for _ in range(200):
        try:
            if (await http.get("/api/health")).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("the server did not start")


async def _person_table(
    http: httpx.AsyncClient, busy: int, level: str, opponent: str
) -> tuple[str, str]:
    for _ in range(busy):
        bots = [{"bot": level}, {"bot": level}]
        created = await http.post("/api/tables", json={**GOLF, "seats": bots})
        created.raise_for_status()
    person = [{"name": "Ann"}, {"bot": opponent}]
    created = await http.post("/api/tables", json={**GOLF, "seats": person})
    created.raise_for_status()
    table = created.json()["id"]
    await asyncio.sleep(2.0)  # the bot tables get going
    joined = await http.post(f"/api/tables/{table}/join", json={"name": "Ann", "seat": 0})
    joined.raise_for_status()
    return table, joined.json()["token"]


def _next_frame(latest: dict[str, Any]) -> dict[str, Any] | None:
    """What the person sends on this state: a move, next, rematch, or nothing."""
    view = latest.get("view") or {}
    rv = view.get("round_view") or {}
    if view.get("over"):
        return {"type": "rematch"}
    if rv.get("phase") == "over":
        return {"type": "next"}
    if rv.get("legal") and rv.get("to_move") == 0:
        action = random.choice(rv["legal"])
        return {"type": "action", "action": action, "seq": latest["seq"]}
    return None


async def _play(port: int, table: str, token: str, moves: int) -> tuple[list[float], list[float]]:
    """Seconds from each move sent to its ack, and from each ack to the person's next turn
    (the easy bot's reply: its moves' ``--bot-delay`` plus any wait for a thinker)."""
    acks: list[float] = []
    turns: list[float] = []
    sent: float | None = None
    acked: float | None = None
    bot_moved = False  # since the ack: a Golf turn is two moves of the person's in a row
    latest: dict[str, Any] | None = None
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while len(acks) < moves:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            kind = message.get("type")
            if kind in ("ack", "error") and sent is not None:
                acked = time.perf_counter()
                acks.append(acked - sent)
                bot_moved = False
                sent = None
            elif kind in ("state", "update"):
                latest = message
                rv = (message.get("view") or {}).get("round_view") or {}
                bot_moved |= rv.get("to_move") not in (0, None)
            if sent is not None or latest is None:
                continue
            frame = _next_frame(latest)
            if frame is not None:
                if frame["type"] == "action":
                    sent = time.perf_counter()
                    if acked is not None and bot_moved:
                        turns.append(sent - acked)
                acked = None  # a round's end between two moves is not a bot's reply
                await ws.send(json.dumps(frame))
                latest = None  # wait for the table's answer before the next decision
    return acks, turns


async def _run(
    busy: int, level: str, opponent: str, moves: int, processes: str | None
) -> tuple[list[float], list[float]]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        serve = [GREENFELT, "serve", "--port", str(port), "--data", data, "--bot-delay", "0.3"]
        if processes is not None:
            serve += ["--bot-processes", processes]
        server = subprocess.Popen(
            serve,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
                await _ready(http)
                table, token = await _person_table(http, busy, level, opponent)
            return await _play(port, table, token, moves)
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", default="0,10,40", help="bot tables beside the person's")
    parser.add_argument("--level", default="expert", help="the bots' level at those tables")
    parser.add_argument("--opponent", default="easy", help="the person's bot's level")
    parser.add_argument("--moves", type=int, default=60, help="the person's moves timed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bot-processes",
        metavar="N",
        help="passed to greenfelt serve (default: its own; 0: bots think in its threads)",
    )
    args = parser.parse_args()
    random.seed(args.seed)
    where = "the server's default" if args.bot_processes is None else args.bot_processes
    print(
        f"{args.moves} moves of a person against the {args.opponent} bot; "
        f"six-card bot tables of two {args.level} bots; "
        f"bot processes: {where}"
    )
    for busy in (int(n) for n in args.busy.split(",")):
        acks, turns = asyncio.run(
            _run(busy, args.level, args.opponent, args.moves, args.bot_processes)
        )
        print(
            f"{busy:4d} bot tables: move to ack {_spread(acks)}; ack to next turn {_spread(turns)}",
            flush=True,
        )


def _spread(seconds: list[float]) -> str:
    """p50, p90 and the slowest, in milliseconds."""
    ordered = sorted(seconds)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"p50 {statistics.median(ordered) * 1000:6.1f} ms, p90 {p90 * 1000:6.1f} ms, "
        f"slowest {ordered[-1] * 1000:6.1f} ms"
    )


if __name__ == "__main__":
    main()
