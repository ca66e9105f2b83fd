"""Golf in every variant of RULES.md: rules, scoring, rounds and matches."""

from greenfelt.golf.actions import GolfAction, Kind, parse_action
from greenfelt.golf.game import GolfRound, Phase, new_round
from greenfelt.golf.layout import format_layout, parse_layout, shape_of
from greenfelt.golf.match import GolfMatch
from greenfelt.golf.rules import PRESETS, GolfRules, find_preset, rules_from_json, rules_to_json
from greenfelt.golf.scoring import score_layout, score_round

__all__ = [
    "PRESETS",
    "GolfAction",
    "GolfMatch",
    "GolfRound",
    "GolfRules",
    "Kind",
    "Phase",
    "find_preset",
    "format_layout",
    "new_round",
    "parse_action",
    "parse_layout",
    "rules_from_json",
    "rules_to_json",
    "score_layout",
    "score_round",
    "shape_of",
]
