"""The help screen (``?``): the keys, and the rules of the preset being played.

Golf lists every option of :data:`greenfelt.golf.rules.OPTIONS` with its value
in these rules and its meaning; Spades summarises RULES S and lists its
options with :func:`greenfelt.spades.describe_rules`.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from greenfelt.cards import Rank
from greenfelt.golf.powers import EXTENDED_HELP, POWER_HELP, POWER_SETS
from greenfelt.golf.rules import OPTIONS, PRESET_NOTES, GolfRules
from greenfelt.spades.rules import PRESET_HELP, SpadesRules, describe_rules, rules_to_json

__all__ = ["golf_help", "help_text", "option_value", "power_help", "spades_help"]

_COMMON_KEYS = (
    ("?", "this help (Esc closes it)"),
    (": or Enter", "type an action in the engine's words (e.g. swap 4), then Enter"),
    ("n", "next round once a round is over"),
    ("s", "save the game as a record (local games)"),
    ("q / Ctrl-C", "leave"),
)

_GOLF_KEYS = (
    ("0-9", "a position of your layout: flip, peek or swap it, as the phase asks"),
    ("d", "draw from the stock"),
    ("t", "take the top of the discard pile"),
    ("x", "discard the card you drew"),
    ("p", "pass (decline the flip after a discard)"),
    ("k", "knock"),
)

_POWER_KEYS = (
    ("0-2", "an 8's offer is open: keep that card (power keep N)"),
    ("p", "a 2's second power: pass (use none)"),
    (": power …", "any other power, typed as the list above says (e.g. power peek 1:3)"),
)

# The action texts of the cambio / bga powers (G7.2, G7.3).
_POWER_VERBS = {
    "peek_own": "power peek S:P",
    "peek_other": "power peek S:P",
    "swap_own_other": "power swap S:P T:Q",
    "swap_any": "power swap S:P T:Q",
    "shuffle_other": "power shuffle S",
}

_SPADES_KEYS = (
    ("b / p", "blind nil / pass, before the first draw"),
    ("k / r", "keep / reject the card you drew"),
    ("0-9", "bid (0 is nil); type 'bid 10' to 'bid 13'"),
    ("a-m", "play the card at that place in your hand"),
)

_SPADES_SUMMARY = (
    "S1  One deck; A high, 2 low; spades are always trump. The deal alternates each hand.",
    "S2  No deal: players draw in turn. Look at the top card and keep it (the next one",
    "    goes to the discard pile), or reject it and keep the next one. 13 cards each.",
    "    Before the first draw either player may declare blind nil (non-dealer first).",
    "S3  Bid 0 (nil) to 13 tricks; non-dealer bids first. 13 is shooting the moon.",
    "S4  Follow the led suit if you can. Spades may not be led until broken (unless you",
    "    hold only spades). The highest spade wins, else the highest card of the led suit.",
    "S5  Made bid b: 10 x b plus 1 per overtrick (bag); failed: -10 x b. Nil +100,",
    "    blind nil +200, moon +250; a failed nil or moon scores its tricks as bags.",
    "    Every 10 bags cost 100 points.",
    "S6  First to the target at the end of a hand wins; both: the higher score.",
)


def _keys(title: str, rows: tuple[tuple[str, str], ...]) -> Text:
    out = Text(f"{title}\n", style="bold underline")
    width = max(len(k) for k, _ in rows)
    for key, meaning in rows:
        out.append(f"  {key:<{width}}  ", style="bold cyan")
        out.append(f"{meaning}\n")
    return out


def option_value(rules: GolfRules, name: str) -> str:
    """An option's value as ``greenfelt rules golf`` writes it (``auto`` with what it means)."""
    return rules.option_text(name)


def golf_help(rules: GolfRules, players: int | None = None) -> Text:
    """Every option of these Golf rules: name, value, meaning, rule id, choices."""
    out = Text()
    name = rules.preset or "custom"
    note = PRESET_NOTES.get(rules.preset or "", "a custom rule set")
    out.append(f"Golf: preset {name}\n", style="bold")
    out.append(f"{note}\n\n")
    out.append("Options (name = value: meaning, rule):\n", style="bold underline")
    width = max(len(spec.name) for spec in OPTIONS)
    for spec in OPTIONS:
        value = option_value(rules, spec.name)
        if spec.name == "decks" and players is not None:
            value += f" ({rules.deck_count(players)} for {players} players)"
        out.append(f"  {spec.name:<{width}} = ", style="bold")
        out.append(f"{value}", style="cyan")
        out.append(f"  {spec.help} ({spec.rule})")
        if spec.choices:
            out.append(f" [{', '.join(spec.choices)}]", style="dim")
        out.append("\n")
    out.append("  card values: " + rules.values_text() + "\n\n")
    powers = power_help(rules)
    if powers is not None:
        out.append(powers)
        out.append("\n")
    keys = _GOLF_KEYS + (_POWER_KEYS if rules.powers == "powers" else ()) + _COMMON_KEYS
    out.append(_keys("Keys", keys))
    return out


def power_help(rules: GolfRules) -> Text | None:
    """The card powers of these rules (G7) and the action texts that use them, if any."""
    if rules.powers == "powers":
        out = Text("Card powers (G7.4)\n", style="bold underline")
        out.append(
            "  Draw from the stock (no taking the discard pile). Then 'swap P' puts the card in\n"
            "  unseen (the card it replaces is discarded face up), 'discard' drops it, or use its\n"
            f"  power. S is a seat (0-based), P a position: 0-{rules.shape.size - 1} the grid, "
            f"then up to {rules.extra_slots} added cards.\n"
        )
        width = max(len(card) for card in EXTENDED_HELP)
        for card, (texts, meaning) in EXTENDED_HELP.items():
            out.append(f"  {card:<{width}}  ", style="bold cyan")
            out.append(f"{meaning}: ")
            out.append(f"{texts}\n", style="bold")
        out.append(
            "  A shield (5) blocks the next place/rows/cols/swap/show/shuffle/add aimed at you;\n"
            "  the knocker's layout is frozen (G4.3); a black king turned up by a 4 while a\n"
            "  knock stands cancels it too.\n"
        )
        return out
    table = POWER_SETS.get(rules.powers) or {}
    if not table and not rules.cutthroat:
        return None
    out = Text(f"Card powers (G7, {rules.powers}), from the stock only\n", style="bold underline")
    for rank, power in table.items():
        out.append(f"  {Rank(rank).symbol:<2}  ", style="bold cyan")
        out.append(f"{POWER_HELP[power]}: {_POWER_VERBS[power]}\n")
    if rules.cutthroat:
        out.append("  K   ", style="bold cyan")
        out.append(f"cutthroat (G7.5): {POWER_HELP['give']}: power give S:P\n")
    return out


def spades_help(rules: SpadesRules) -> Text:
    """Two-player Spades in brief, and every option with its value and meaning."""
    out = Text()
    preset = str(rules_to_json(rules).get("preset", "two-player"))
    out.append(f"Two-player Spades: preset {preset}\n", style="bold")
    out.append(f"{PRESET_HELP.get(preset, '')}\n\n")
    out.append("The rules (RULES S):\n", style="bold underline")
    for line in _SPADES_SUMMARY:
        out.append(f"  {line}\n")
    out.append("\nOptions (name = value: meaning):\n", style="bold underline")
    for line in describe_rules(rules):
        out.append(f"  {line}\n")
    out.append("\n")
    out.append(_keys("Keys", _SPADES_KEYS + _COMMON_KEYS))
    return out


def help_text(game: str, rules: Any, players: int | None = None) -> Text:
    """The help for ``game`` played under ``rules``."""
    if game == "golf":
        return golf_help(rules, players)
    return spades_help(rules)
