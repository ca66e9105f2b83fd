"""Two-player Spades rule sets: options, presets, JSON (RULES S2.4, S6.2).

A :class:`SpadesRules` is an immutable value holding every option RULES.md
section S names. It is validated on construction, so a hand never meets a
rule set it cannot play, and it round-trips through the JSON form records
use: ``{"preset": "two-player", "set": {"target": 300}}``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from greenfelt.errors import RulesError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from greenfelt.cards import Card
    from greenfelt.spades.game import SpadesHand

__all__ = [
    "DISCARD_MODES",
    "OPTION_HELP",
    "PRESETS",
    "PRESET_HELP",
    "SpadesRules",
    "describe_rules",
    "find_preset",
    "parse_settings",
    "rules_from_json",
    "rules_to_json",
    "with_options",
]

DISCARD_MODES: Final = ("face_up", "face_down")
"""Values of option ``discards`` (S2.4)."""

OPTION_HELP: Final[dict[str, str]] = {
    "discards": (
        "who sees discarded cards: face_up, everyone; face_down, only the player whose "
        "draw step it was (S2.4) [face_up, face_down]"
    ),
    "target": "score that wins at the end of a hand; if both reach it, the higher (S6.1, S6.2)",
    "memory": (
        "on: views show only the top discard and players remember the rest; off: views "
        "list every discard the player has seen (S2.4)"
    ),
}
"""One line per option, for ``greenfelt rules spades``."""


@dataclass(frozen=True, slots=True)
class SpadesRules:
    """Every option of two-player Spades; the defaults are preset ``two-player``.

    Raises :class:`RulesError` when an option has a value the rules cannot play.

    >>> SpadesRules(target=300).target
    300
    """

    discards: str = "face_up"
    target: int = 500
    memory: bool = True

    def __post_init__(self) -> None:
        if self.discards not in DISCARD_MODES:
            raise RulesError(
                f"option discards={self.discards!r} is not one of {', '.join(DISCARD_MODES)} (S2.4)"
            )
        if type(self.target) is not int or self.target <= 0:
            raise RulesError(f"option target={self.target!r} must be a whole number above 0 (S6.2)")
        if type(self.memory) is not bool:
            raise RulesError(f"option memory={self.memory!r} must be on or off (S2.4)")

    def new_hand(
        self,
        dealer: int,
        deck: Sequence[Card],
        *,
        bags: Sequence[int] = (0, 0),
        totals: Sequence[int] = (0, 0),
    ) -> SpadesHand:
        """Start one hand under these rules (STYLE 2); see :class:`SpadesHand`."""
        from greenfelt.spades.game import SpadesHand

        return SpadesHand(self, dealer, deck, bags=bags, totals=totals)


PRESETS: Final[dict[str, SpadesRules]] = {"two-player": SpadesRules()}
"""The named rule sets people ask for (only one: RULES S as written)."""

PRESET_HELP: Final[dict[str, str]] = {
    "two-player": "hands built by drawing, blind nil, nil and moon, bags, to 500 (RULES S)",
}

_OPTIONS: Final = tuple(f.name for f in dataclasses.fields(SpadesRules))


def find_preset(name: str) -> SpadesRules:
    """The preset called ``name``; raises :class:`RulesError` listing the known names."""
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(PRESETS)
        raise RulesError(f"unknown spades preset {name!r}; known presets: {known}") from None


_TRUE: Final = frozenset({"on", "true", "yes", "1"})
_FALSE: Final = frozenset({"off", "false", "no", "0"})


def _coerce(name: str, value: object) -> object:
    """One option value from JSON or from command-line text (RULES: on/off, numbers, names)."""
    if name == "memory":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise RulesError(f"option memory={value!r} must be on or off (S2.4)")
    if name == "target":
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("+-").isdigit():
            return int(value)
        raise RulesError(f"option target={value!r} must be a whole number above 0 (S6.2)")
    # discards: accept the spelling people type on a command line (face-up, FACE_UP).
    if isinstance(value, str):
        return value.strip().lower().replace("-", "_")
    raise RulesError(f"option discards={value!r} is not one of {', '.join(DISCARD_MODES)} (S2.4)")


def with_options(rules: SpadesRules, settings: Mapping[str, object]) -> SpadesRules:
    """``rules`` with some options changed; values may be JSON values or command-line text.

    Raises :class:`RulesError` naming an unknown option or a bad value.

    >>> with_options(SpadesRules(), {"target": "300", "memory": "off"})
    SpadesRules(discards='face_up', target=300, memory=False)
    """
    changes: dict[str, Any] = {}
    for name, value in settings.items():
        if name not in _OPTIONS:
            raise RulesError(f"unknown spades option {name!r}; options: {', '.join(_OPTIONS)}")
        changes[name] = _coerce(name, value)
    return dataclasses.replace(rules, **changes)


def parse_settings(items: Sequence[str]) -> dict[str, str]:
    """``["target=300", "memory=off"]`` (``--set`` arguments) as a mapping; raises RulesError."""
    settings: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise RulesError(
                f"{item!r} is not an option setting: write name=value, e.g. target=300"
            )
        settings[name.strip()] = value.strip()
    return settings


def rules_from_json(obj: object) -> SpadesRules:
    """Rules from their JSON form ``{"preset": NAME, "set": {OPTION: VALUE}}``.

    ``preset`` defaults to ``two-player``; a bare preset name is accepted too.
    Raises :class:`RulesError` on anything else.
    """
    if isinstance(obj, str):
        return find_preset(obj)
    if not isinstance(obj, Mapping):
        raise RulesError(f"spades rules must be a JSON object, not {type(obj).__name__}")
    unknown = set(obj) - {"preset", "set"}
    if unknown:
        raise RulesError(
            f"unknown key(s) {', '.join(sorted(map(str, unknown)))} in spades rules; "
            "expected preset and set"
        )
    preset = obj.get("preset", "two-player")
    if not isinstance(preset, str):
        raise RulesError(f"spades rules: preset must be a name, not {preset!r}")
    settings = obj.get("set", {})
    if not isinstance(settings, Mapping):
        raise RulesError(f"spades rules: set must be an object of options, not {settings!r}")
    return with_options(find_preset(preset), settings)


def rules_to_json(rules: SpadesRules) -> dict[str, Any]:
    """The JSON form: the closest preset plus only the options that differ from it.

    ``"set"`` is left out when nothing differs, so the plain rules are written
    ``{"preset": "two-player"}`` as records pin it.
    """
    best_name = ""
    best_diff: dict[str, Any] = {}
    for name, preset in PRESETS.items():
        diff = {f: getattr(rules, f) for f in _OPTIONS if getattr(rules, f) != getattr(preset, f)}
        if not best_name or len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    out: dict[str, Any] = {"preset": best_name}
    if best_diff:
        out["set"] = best_diff
    return out


def _show(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def describe_rules(rules: SpadesRules) -> list[str]:
    """One line per option: ``name = value  meaning (rule id)``."""
    shown = {name: _show(getattr(rules, name)) for name in _OPTIONS}
    name_width = max(map(len, shown))
    value_width = max(map(len, shown.values()))
    return [
        f"{name:<{name_width}} = {value:<{value_width}}  {OPTION_HELP[name]}"
        for name, value in shown.items()
    ]
