"""Two-player Spades (RULES.md section S): rules, actions, a hand, scoring, a match.

Standard library only (STYLE 1). The command line lives in
:mod:`greenfelt.spades.cli`, which this package does not import.

>>> import random
>>> from greenfelt.cards import shuffled_deck
>>> hand = SpadesRules().new_hand(dealer=0, deck=shuffled_deck(random.Random(1)))
>>> hand.apply("pass", seat=1); hand.to_move
0
"""

from greenfelt.spades.actions import (
    BLIND_NIL,
    KEEP,
    PASS,
    REJECT,
    ActionKind,
    ActionTextError,
    SpadesAction,
    bid,
    format_action,
    parse_action,
    play,
)
from greenfelt.spades.game import (
    Phase,
    SpadesHand,
    Trick,
    deck_for_hands,
    new_hand,
    random_playout,
    trick_winner,
)
from greenfelt.spades.match import SpadesMatch, play_random_match
from greenfelt.spades.rules import (
    OPTION_HELP,
    PRESETS,
    SpadesRules,
    describe_rules,
    find_preset,
    rules_from_json,
    rules_to_json,
    with_options,
)
from greenfelt.spades.scoring import HandScore, score_hand

__all__ = [
    "BLIND_NIL",
    "KEEP",
    "OPTION_HELP",
    "PASS",
    "PRESETS",
    "REJECT",
    "ActionKind",
    "ActionTextError",
    "HandScore",
    "Phase",
    "SpadesAction",
    "SpadesHand",
    "SpadesMatch",
    "SpadesRules",
    "Trick",
    "bid",
    "deck_for_hands",
    "describe_rules",
    "find_preset",
    "format_action",
    "new_hand",
    "parse_action",
    "play",
    "play_random_match",
    "random_playout",
    "rules_from_json",
    "rules_to_json",
    "score_hand",
    "trick_winner",
    "with_options",
]
