"""The ``greenfelt`` command: score, rules, replay (and more as they land).

Every game registers its own sub-commands (``greenfelt.golf.cli``,
``greenfelt.spades.cli``); this module owns only the shared frame and the
error contract: bad input exits with status 2 and one line on stderr, never a
traceback.
"""

from __future__ import annotations

import argparse
import io
import sys
from collections.abc import Sequence
from typing import NoReturn

from greenfelt import __version__
from greenfelt.errors import GreenfeltError

__all__ = ["UsageError", "build_parser", "main"]


class UsageError(GreenfeltError):
    """Command-line arguments that do not make sense."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (exit status 2) like every other bad input."""

    def error(self, message: str) -> NoReturn:
        # The root parser reports arguments no command took: "greenfelt: error:
        # greenfelt: ..." would say the program's name twice.
        where = "" if self.prog == "greenfelt" else f"{self.prog}: "
        raise UsageError(f"{where}{message} (try --help)")


def build_parser() -> argparse.ArgumentParser:
    from greenfelt import record
    from greenfelt.golf import cli as golf_cli
    from greenfelt.lab import cli as lab_cli
    from greenfelt.server import cli as server_cli
    from greenfelt.spades import cli as spades_cli
    from greenfelt.tui import cli as tui_cli

    parser = _Parser(
        prog="greenfelt",
        description="greenfelt: Golf in every variant and two-player Spades.",
    )
    parser.add_argument("--version", action="version", version=f"greenfelt {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    score = commands.add_parser(
        "score", help="score one round played with real cards", description="Score one round."
    )
    score_games = score.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    score_games.required = True

    rules = commands.add_parser(
        "rules", help="list presets and explain every option", description="Show rules."
    )
    rules_games = rules.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    rules_games.required = True

    golf_cli.register(score_games, rules_games)
    spades_cli.register(score_games, rules_games)
    record.register(commands)
    lab_cli.register(commands)
    server_cli.register(commands)
    tui_cli.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            # Suits are printed as ♠ ♥ ♦ ♣ whatever the locale says.
            stream.reconfigure(encoding="utf-8")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        status: int | None = args.func(args)
    except GreenfeltError as error:
        print(f"greenfelt: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # `greenfelt ... | head` is fine
        return 0
    except KeyboardInterrupt:
        return 130
    return status or 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
