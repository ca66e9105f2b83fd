"""A person's move on a server busy with bot tables: how long until it is acknowledged.

Run: ``./dev bench bench_server_bots --busy 0,10,40`` (or
``.venv/bin/python benchmarks/bench_server_bots.py``).

For each count in ``--busy`` it starts ``greenfelt serve`` (SQLite in a temporary
folder, ``--bot-delay 0.3``), creates that many tables where two ``--level`` bots
play each other (six-card Golf, 50 holes, so they play for the whole run), and one
table of a person against an easy bot. The person is this script: it joins over
HTTP, plays a random legal move whenever it is its turn, and times each move from
the frame sent to the server's ``ack``. Reported: the 50th and 90th percentile and
the slowest of ``--moves`` moves.

Why: server bots think in worker threads (``tables._decide`` through
``asyncio.to_thread``), CPU-bound Python that shares the interpreter lock with the
event loop serving people. ``bench_server`` measures the loop with bot *clients*;
this measures what server bots cost the people at other tables.
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


async def _person_table(http: httpx.AsyncClient, busy: int, level: str) -> tuple[str, str]:
    for _ in range(busy):
        bots = [{"bot": level}, {"bot": level}]
        created = await http.post("/api/tables", json={**GOLF, "seats": bots})
        created.raise_for_status()
    person = [{"name": "Ann"}, {"bot": "easy"}]
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


async def _play(port: int, table: str, token: str, moves: int) -> list[float]:
    """Seconds from each move sent to its ack."""
    waits: list[float] = []
    sent: float | None = None
    latest: dict[str, Any] | None = None
    url = f"ws://127.0.0.1:{port}/ws/tables/{table}"
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while len(waits) < moves:
            message = json.loads(await asyncio.wait_for(ws.recv(), 60))
            kind = message.get("type")
            if kind in ("ack", "error") and sent is not None:
                waits.append(time.perf_counter() - sent)
                sent = None
            elif kind in ("state", "update"):
                latest = message
            if sent is not None or latest is None:
                continue
            frame = _next_frame(latest)
            if frame is not None:
                if frame["type"] == "action":
                    sent = time.perf_counter()
                await ws.send(json.dumps(frame))
                latest = None  # wait for the table's answer before the next decision
    return waits


async def _run(busy: int, level: str, moves: int) -> list[float]:
    port = _free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [GREENFELT, "serve", "--port", str(port), "--data", data, "--bot-delay", "0.3"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
                await _ready(http)
                table, token = await _person_table(http, busy, level)
            return await _play(port, table, token, moves)
        finally:
            server.terminate()
            server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", default="0,10,40", help="bot tables beside the person's")
    parser.add_argument("--level", default="expert", help="the bots' level at those tables")
    parser.add_argument("--moves", type=int, default=60, help="the person's moves timed")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    print(f"{args.moves} moves of a person; six-card bot tables of two {args.level} bots")
    for busy in (int(n) for n in args.busy.split(",")):
        waits = sorted(asyncio.run(_run(busy, args.level, args.moves)))
        p90 = waits[int(0.9 * (len(waits) - 1))]
        print(
            f"{busy:4d} bot tables: move to ack p50 {statistics.median(waits) * 1000:6.1f} ms, "
            f"p90 {p90 * 1000:6.1f} ms, slowest {waits[-1] * 1000:6.1f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
