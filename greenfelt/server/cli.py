"""`greenfelt serve`: the card room on an embedded SQLite file, or PostgreSQL by URL."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from greenfelt.bots.steady import BOT_TIMEOUT_S
from greenfelt.errors import GreenfeltError

__all__ = ["register"]


class ServeError(GreenfeltError):
    """Bad server settings."""


def _shard(text: str) -> tuple[int, int]:
    k, sep, n = text.partition("/")
    if not sep or not k.isdigit() or not n.isdigit() or not 0 <= int(k) < int(n):
        raise argparse.ArgumentTypeError(f"{text!r} is not K/N with 0 <= K < N (e.g. 0/2)")
    return int(k), int(n)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0 (e.g. 30)")
    return value


def _count(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number, 0 or more (e.g. 3)")
    return int(text)


def _serve(args: argparse.Namespace) -> None:
    import logging

    import uvicorn

    from greenfelt.server.app import create_app
    from greenfelt.server.protocol import MAX_MESSAGE_BYTES
    from greenfelt.server.store import Store, database_url
    from greenfelt.server.tables import Settings
    from greenfelt.server.thinking import default_processes

    settings = Settings(
        bot_delay=args.bot_delay,
        round_pause=args.round_pause,
        takeover_after=args.takeover_after,
        bot_timeout=args.bot_timeout,
        bot_processes=default_processes() if args.bot_processes is None else args.bot_processes,
    )
    url = database_url(args.db or os.environ.get("GREENFELT_DB"), Path(args.data))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    app = create_app(Store(url), settings, args.shard)
    where = (
        "PostgreSQL" if url.startswith("postgresql") else url.removeprefix("sqlite+aiosqlite:///")
    )
    print(f"greenfelt: serving on http://{args.host}:{args.port}/ (storage: {where})", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=4 * MAX_MESSAGE_BYTES,  # larger frames close the socket (1009)
        ws_ping_interval=20.0,
        access_log=False,  # never log URLs or tokens per request
        log_level="info",
    )


def register(commands: Any) -> None:
    """Add ``serve`` to the command line."""
    parser = commands.add_parser(
        "serve",
        help="run the card room: web lobby and tables",
        description=(
            "Run the greenfelt server. Storage is an SQLite file in --data by default; "
            "--db postgresql://user@host/db (or GREENFELT_DB) uses PostgreSQL. "
            "Example: greenfelt serve --port 8000"
        ),
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", metavar="URL", help="database URL (default: SQLite in --data)")
    parser.add_argument(
        "--data", default="data", metavar="DIR", help="data folder (default ./data)"
    )
    parser.add_argument(
        "--bot-delay", type=float, default=0.6, metavar="S", help="seconds a bot waits"
    )
    parser.add_argument(
        "--round-pause", type=float, default=6.0, metavar="S", help="pause between rounds"
    )
    parser.add_argument(
        "--takeover-after",
        type=float,
        default=45.0,
        metavar="S",
        help="seconds before a bot plays for a disconnected player",
    )
    parser.add_argument(
        "--bot-timeout",
        type=_seconds,
        default=BOT_TIMEOUT_S,
        metavar="S",
        help="seconds a bot may think before its seat plays a random move (a bot that hangs)",
    )
    parser.add_argument(
        "--bot-processes",
        type=_count,
        default=None,
        metavar="N",
        help="worker processes the bots think in, so people's moves never wait on them "
        "(default: one per core but one, at most 8; 0: threads of the server's process)",
    )
    parser.add_argument(
        "--shard", type=_shard, default=(0, 1), metavar="K/N", help="serve shard K of N"
    )
    parser.set_defaults(func=_serve)
