"""``greenfelt score spades`` and ``greenfelt rules spades``.

The scorekeeper for hands played with real cards (RULES S5) and the
explanation of every option. Bad input raises a GreenfeltError, which the
shared frame in :mod:`greenfelt.cli` turns into one line and exit status 2.
"""

from __future__ import annotations

import argparse
from typing import Any

from greenfelt.errors import GreenfeltError
from greenfelt.spades.rules import (
    PRESET_HELP,
    PRESETS,
    SpadesRules,
    describe_rules,
    find_preset,
    parse_settings,
    with_options,
)
from greenfelt.spades.scoring import BAG_LIMIT, MOON, score_hand

__all__ = ["SpadesUsageError", "register"]


class SpadesUsageError(GreenfeltError):
    """Command-line numbers that cannot describe a Spades hand."""


def register(
    score: argparse._SubParsersAction[Any], rules: argparse._SubParsersAction[Any]
) -> None:
    """Add ``spades`` to the ``score`` and ``rules`` sub-command sets."""
    scorer = score.add_parser(
        "spades",
        help="score one hand of two-player Spades (S5)",
        description=(
            "Score one hand of two-player Spades (RULES S5): made bids 10 per trick bid plus "
            "1 per overtrick (bag), failed bids -10 per trick bid, nil +100, blind nil +200, "
            "moon (13) +250, a failed nil or moon scores its tricks as bags; every 10 bags "
            "cost 100. The last line printed is the two new scores."
        ),
        epilog=(
            "example: greenfelt score spades --bids 6,5 --tricks 7,6  (last line: 61 51). "
            "Write negative scores with '=': --scores=-40,120"
        ),
    )
    scorer.add_argument(
        "--bids",
        required=True,
        metavar="B0,B1",
        help="each player's bid: 0-13, nil (= 0), blind (blind nil) or moon (= 13)",
    )
    scorer.add_argument(
        "--tricks", required=True, metavar="T0,T1", help="tricks each player took (sum 13)"
    )
    scorer.add_argument(
        "--bags", default="0,0", metavar="G0,G1", help="bags carried in, 0-9 each (default 0,0)"
    )
    scorer.add_argument(
        "--scores", default="0,0", metavar="S0,S1", help="scores before this hand (default 0,0)"
    )
    scorer.set_defaults(func=_score)

    explain = rules.add_parser(
        "spades",
        help="two-player Spades presets and options",
        description="List the presets of two-player Spades, or show one preset's options.",
    )
    explain.add_argument("preset", nargs="?", help=f"a preset: {', '.join(PRESETS)}")
    explain.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change an option, e.g. --set target=300 --set discards=face_down",
    )
    explain.set_defaults(func=_rules)


def _pair(flag: str, text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise SpadesUsageError(f"{flag} needs two values separated by a comma, not {text!r}")
    return parts


def _number(flag: str, token: str, low: int, high: int | None, what: str) -> int:
    try:
        value = int(token)
    except ValueError:
        raise SpadesUsageError(f"{flag}: {token!r} is not a number ({what})") from None
    if value < low or (high is not None and value > high):
        raise SpadesUsageError(f"{flag}: {value} is out of range ({what})")
    return value


def _parse_bid(token: str) -> tuple[int, bool]:
    word = token.lower()
    if word == "blind":
        return 0, True
    if word == "nil":
        return 0, False
    if word == "moon":
        return MOON, False
    return _number("--bids", token, 0, MOON, "a bid is 0-13, nil, blind or moon (S3.1)"), False


def _score(args: argparse.Namespace) -> int:
    bids = [_parse_bid(b) for b in _pair("--bids", args.bids)]
    tricks = [
        _number("--tricks", t, 0, 13, "0-13 tricks each") for t in _pair("--tricks", args.tricks)
    ]
    if sum(tricks) != 13:
        raise SpadesUsageError(
            f"--tricks {tricks[0]},{tricks[1]} adds up to {sum(tricks)}; "
            "a hand has 13 tricks (S4.3)"
        )
    bags = [
        _number("--bags", g, 0, BAG_LIMIT - 1, "bags carried in are 0-9: S5.4 removes every 10")
        for g in _pair("--bags", args.bags)
    ]
    before = [
        _number("--scores", s, -(10**9), None, "a score") for s in _pair("--scores", args.scores)
    ]
    after = []
    for seat in (0, 1):
        (bid, blind), took = bids[seat], tricks[seat]
        result = score_hand(bid, blind, took, bags[seat])
        after.append(before[seat] + result.points)
        print(f"seat {seat}: {result.breakdown}; score {before[seat]} -> {after[seat]}")
    print(f"{after[0]} {after[1]}")
    return 0


def _rules(args: argparse.Namespace) -> int:
    settings = parse_settings(args.set)
    if args.preset is None and not settings:
        print("Spades presets (RULES S):")
        width = max(map(len, PRESETS))
        for name in PRESETS:
            print(f"  {name:<{width}}  {PRESET_HELP[name]}")
        print("Options:")
        for line in describe_rules(SpadesRules()):
            print(f"  {line}")
        print("Show one with: greenfelt rules spades PRESET [--set OPTION=VALUE]...")
        return 0
    name = args.preset or "two-player"
    rules = with_options(find_preset(name), settings)
    changed = f" with {', '.join(f'{k}={v}' for k, v in settings.items())}" if settings else ""
    print(f"Spades preset {name}{changed}: {PRESET_HELP[name]}")
    for line in describe_rules(rules):
        print(f"  {line}")
    return 0
