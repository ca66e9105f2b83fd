"""Golf's command-line commands: ``score golf`` and ``rules golf``.

``score golf`` is the scorekeeper for a round played with real cards: one
layout per seat in C3 notation; its last line (pinned) is the round scores in
seat order.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

from greenfelt.cards import Card, Rank, make_deck
from greenfelt.errors import NotationError, RulesError
from greenfelt.golf.layout import parse_layout
from greenfelt.golf.powers import EXTENDED_HELP, POWER_HELP, POWER_SETS
from greenfelt.golf.rules import OPTIONS, PRESET_NOTES, PRESETS, GolfRules, find_preset
from greenfelt.golf.scoring import describe_round, score_round

__all__ = ["parse_overrides", "register", "rules_from_args"]


def parse_overrides(items: Sequence[str] | None) -> dict[str, str]:
    """``["closer_rule=add_lowest", ...]`` as a dict; raises RulesError on a malformed item."""
    out: dict[str, str] = {}
    for item in items or ():
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesError(f"--set {item!r}: expected OPTION=VALUE, e.g. closer_rule=penalty_10")
        out[name.strip()] = value.strip()
    return out


def rules_from_args(preset: str, overrides: Sequence[str] | None) -> GolfRules:
    """A preset with ``--set`` overrides applied, validated."""
    rules = find_preset(preset)
    changes = parse_overrides(overrides)
    return rules.with_options(changes) if changes else rules


def _check_supply(layouts: Sequence[Sequence[Card | None]], rules: GolfRules) -> None:
    """Cards on the table must exist in the rules' decks (a typo often repeats a card)."""
    decks = rules.deck_count(max(len(layouts), 2))
    supply = Counter(make_deck(decks, rules.jokers_per_deck))
    used = Counter(c for layout in layouts for c in layout if c is not None)
    for card, count in sorted(used.items()):
        if count > supply[card]:
            raise NotationError(
                f"{card} appears {count} times but {decks} deck(s) of these rules hold "
                f"{supply[card]} (set decks=N or jokers_per_deck=2 if that is your table)"
            )


def _score(args: argparse.Namespace) -> None:
    rules = rules_from_args(args.rules, args.set)
    layouts = []
    for seat, text in enumerate(args.layouts):
        try:
            cards = parse_layout(text, rules.shape)
        except NotationError as error:
            raise NotationError(f"seat {seat}: {error}") from None
        if any(c is None for c in cards):
            raise NotationError(f"seat {seat}: every card must be face up to score ('??' found)")
        layouts.append(cards)
    if args.closer is not None and not 0 <= args.closer < len(layouts):
        raise RulesError(f"--closer {args.closer} is not a seat (0-{len(layouts) - 1})")
    _check_supply(layouts, rules)
    result = score_round(layouts, rules, args.closer, decks=rules.deck_count(max(len(layouts), 2)))
    for line in describe_round(result, layouts, rules):
        print(line)
    print(" ".join(str(s) for s in result.scores))


def _rules(args: argparse.Namespace) -> None:
    if args.rules is not None:
        if args.preset is not None and args.preset != args.rules:
            raise RulesError(f"name one preset: {args.preset!r} or --rules {args.rules!r}")
        args.preset = args.rules
    if args.preset is None:
        if args.set:
            raise RulesError("--set needs a preset to change, e.g. rules golf six-card --set ...")
        print("Golf presets (RULES G10):")
        width = max(len(name) for name in PRESETS)
        for name in PRESETS:
            print(f"  {name:<{width}}  {PRESET_NOTES[name]}")
        print("Show one with: greenfelt rules golf PRESET [--set OPTION=VALUE]...")
        return
    rules = rules_from_args(args.preset, args.set)
    print(f"Golf preset {rules.preset}: {PRESET_NOTES[rules.preset or ''].rstrip('.')}")
    width = max(len(spec.name) for spec in OPTIONS)
    for spec in OPTIONS:
        value = rules.option_text(spec.name)
        choices = f" [{', '.join(spec.choices)}]" if spec.choices else ""
        print(f"  {spec.name:<{width}} = {value:<14} {spec.help} ({spec.rule}){choices}")
    sizes = ", ".join(f"{n}: {rules.deck_count(n)}" for n in range(2, 9))
    print(f"  decks by players: {sizes}")
    print("  card values: " + rules.values_text())
    for line in _power_lines(rules):
        print(line)


def _power_lines(rules: GolfRules) -> list[str]:
    """The card powers of these rules and the action texts that use them (G7)."""
    if rules.powers == "powers":
        width = max(len(card) for card in EXTENDED_HELP)
        lines = [
            "  card powers (G7.4): draw from the stock (no taking the discard pile), then "
            "'swap P' puts the card in unseen (the replaced card is discarded face up), "
            "'discard' drops it, or discard it to use its power. S is a seat, P a position "
            f"(0-{rules.shape.size - 1} the grid, then up to {rules.extra_slots} added cards):"
        ]
        for card, (texts, meaning) in EXTENDED_HELP.items():
            lines.append(f"    {card:<{width}}  {meaning}: {texts}")
        lines.append(
            "    a shield (5) blocks the next place/rows/cols/swap/show/shuffle/add aimed at "
            "you; the knocker's layout is frozen (G4.3); a black king turned up by a 4 "
            "while a knock stands cancels it too"
        )
        return lines
    table = POWER_SETS[rules.powers]
    lines = []
    if table:
        lines.append(f"  card powers (G7, {rules.powers}), from the stock only:")
        verbs = {
            "peek_own": "power peek S:P",
            "peek_other": "power peek S:P",
            "swap_own_other": "power swap S:P T:Q",
            "swap_any": "power swap S:P T:Q",
            "shuffle_other": "power shuffle S",
        }
        for rank, power in table.items():
            lines.append(f"    {Rank(rank).symbol:<2}  {POWER_HELP[power]}: {verbs[power]}")
    if rules.cutthroat:
        lines.append(f"  cutthroat (G7.5): K  {POWER_HELP['give']}: power give S:P")
    return lines


def register(score: Any, rules: Any) -> None:
    """Add ``golf`` to the ``score`` and ``rules`` commands."""
    parser = score.add_parser(
        "golf",
        help="score one Golf round from the layouts on the table",
        description=(
            "Score one Golf round: one layout per seat in seat order, all cards face up, "
            "rows separated by '/' (e.g. 'K♠ 6♠ K♥ / 4♦ 6♥ 2♣'; a hand4 hand has no '/'). "
            "The last line printed is the round scores in seat order."
        ),
    )
    parser.add_argument("--rules", default="six-card", metavar="PRESET", help="preset (six-card)")
    parser.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="override an option (repeatable)"
    )
    parser.add_argument("--closer", type=_seat, metavar="SEAT", help="seat that closed or knocked")
    parser.add_argument("layouts", nargs="+", metavar="LAYOUT")
    parser.set_defaults(func=_score)

    explain = rules.add_parser(
        "golf",
        help="list Golf presets or explain one preset's options",
        description="List the Golf presets, or print one preset's every option with its meaning.",
    )
    explain.add_argument("preset", nargs="?", metavar="PRESET")
    explain.add_argument("--rules", metavar="PRESET", help="the preset (same as PRESET)")
    explain.add_argument("--set", action="append", metavar="OPTION=VALUE", help="override")
    explain.set_defaults(func=_rules)


def _seat(text: str) -> int:
    if not text.strip().isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a seat number")
    return int(text)
