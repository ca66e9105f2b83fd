"""``greenfelt play``: the terminal client, against bots or at a server's table.

Examples::

    greenfelt play golf --rules six-card --players 3 --bots expert,greedy
    greenfelt play golf --rules nine-card --set closer_rule=penalty_10 --save game.json
    greenfelt play spades --bot expert --set target=300
    greenfelt play --server http://localhost:8000 --table 3f9a0c2b1d4e --name Ann

Arguments are checked before the screen opens: a bad one raises a
GreenfeltError, which the shared frame prints as one line (exit status 2).
Textual is imported only once the game starts.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from greenfelt.bots import LEVELS
from greenfelt.tui.session import PlayError, Session

__all__ = ["build_session", "register"]

LOCAL_ONLY = ("rules", "set", "players", "bots", "seed", "save")


def _levels(text: str | None) -> list[str]:
    levels = [part.strip().lower() for part in (text or "greedy").split(",")]
    for level in levels:
        if level not in LEVELS:
            raise PlayError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    return levels


def _name(text: str | None) -> str:
    name = ("You" if text is None else text).strip()
    if not name or len(name) > 32:
        raise PlayError("--name must be 1 to 32 characters")
    return name


def build_session(args: argparse.Namespace) -> Session:
    """The session the arguments ask for; raises PlayError (or RulesError, BotError) if bad."""
    if args.server is not None:
        if args.game is not None:
            raise PlayError("play a game locally or join a table with --server, not both")
        used = [f"--{name}" for name in LOCAL_ONLY if getattr(args, name) not in (None, [])]
        if used:
            raise PlayError(f"{', '.join(used)} apply to local games; a server table has its own")
        if not args.table:
            raise PlayError("--server needs --table ID (the table's id from the lobby)")
        from greenfelt.tui.remote import RemoteSession

        return RemoteSession.join(
            args.server, args.table, _name(args.name), args.seat, ready=need_terminal
        )
    if args.table is not None or args.seat is not None:
        raise PlayError("--table and --seat need --server URL")
    if args.game is None:
        raise PlayError(
            "choose a game: greenfelt play golf, greenfelt play spades, "
            "or greenfelt play --server URL --table ID"
        )
    if args.delay < 0:
        raise PlayError(f"--delay {args.delay:g}: a delay cannot be negative")
    levels = _levels(args.bots)
    rules: Any
    if args.game == "golf":
        from greenfelt.golf.cli import rules_from_args

        rules = rules_from_args(args.rules or "six-card", args.set)
        if args.players is None:
            players = len(levels) + 1 if len(levels) > 1 else 2
        else:
            players = args.players
        rules.check_players(players)
        if len(levels) == 1:
            levels *= players - 1
        elif len(levels) != players - 1:
            raise PlayError(
                f"--players {players} seats {players - 1} bot(s): give one level for all "
                f"or {players - 1} levels, not {len(levels)} ({','.join(levels)})"
            )
    else:
        from greenfelt.spades.rules import find_preset, parse_settings, with_options

        rules = find_preset(args.rules or "two-player")
        if args.set:
            rules = with_options(rules, parse_settings(args.set))
        if args.players not in (None, 2):
            raise PlayError(f"two-player Spades is for 2 players, not {args.players} (S1.2)")
        if len(levels) != 1:
            raise PlayError(f"two-player Spades has one bot, not {len(levels)} ({args.bots})")
    from greenfelt.tui.local import LocalSession

    return LocalSession(
        args.game,
        rules,
        _name(args.name),
        levels,
        seed=args.seed,
        bot_delay=args.delay,
        save_path=args.save,
    )


def need_terminal() -> None:
    """Raise PlayError unless input and output are a terminal: the app draws a full
    screen and waits for keys, which a pipe or a file never sends (it would hang)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PlayError(
            "greenfelt play needs a terminal, and its input or output is not one (a pipe "
            "or a file): run it in a terminal window; `greenfelt sim` plays bots without one"
        )


def _play(args: argparse.Namespace) -> None:
    session = build_session(args)
    need_terminal()  # after the arguments' own errors, which say more
    from greenfelt.tui.app import PlayApp

    PlayApp(session).run()
    saved = getattr(session, "saved", None)
    if saved:
        print(f"greenfelt: the record is in {saved} (greenfelt replay {saved})")


def register(commands: Any) -> None:
    """Add ``play`` to the command line."""
    parser = commands.add_parser(
        "play",
        help="play Golf or Spades in the terminal, against bots or at a server",
        description=(
            "Play in a full-screen terminal: Golf (any preset and option) or two-player "
            "Spades against bots, or take a seat at a greenfelt server's table. "
            "You are seat 0 in a local game. Press ? in the game for the rules and keys."
        ),
        epilog=(
            "examples: greenfelt play golf --rules six-card --players 3 --bots expert,greedy | "
            "greenfelt play spades --bot expert | "
            "greenfelt play --server http://localhost:8000 --table ID --name Ann"
        ),
    )
    parser.add_argument(
        "game", nargs="?", choices=("golf", "spades"), help="the game to play against bots"
    )
    local = parser.add_argument_group("a local game")
    local.add_argument(
        "--rules", metavar="PRESET", help="preset (golf: six-card; spades: two-player)"
    )
    local.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="change an option (repeatable)"
    )
    local.add_argument("--players", type=int, metavar="N", help="players, you included (golf 2-8)")
    local.add_argument(
        "--bots",
        "--bot",
        dest="bots",
        metavar="LEVEL[,LEVEL...]",
        help="bot levels, one per bot seat or one for all: random, easy, greedy, expert (greedy)",
    )
    local.add_argument("--seed", type=int, metavar="N", help="shuffle seed (a repeatable game)")
    local.add_argument("--save", metavar="FILE", help="write the record here when the match ends")
    local.add_argument(
        "--delay", type=float, default=0.6, metavar="S", help="seconds a bot waits (0.6)"
    )
    remote = parser.add_argument_group("a seat at a server")
    remote.add_argument("--server", metavar="URL", help="e.g. http://localhost:8000")
    remote.add_argument("--table", metavar="ID", help="the table's id")
    remote.add_argument(
        "--seat", type=int, metavar="N", help="seat to take (first free if omitted)"
    )
    parser.add_argument("--name", metavar="NAME", help="your name at the table (You)")
    parser.set_defaults(func=_play)
