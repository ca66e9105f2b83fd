"""greenfelt: a card room for Golf in every variant and two-player Spades.

The core (``cards``, ``golf``, ``spades``, ``record``) uses only the standard
library; everything else is a client of it (see shared/DESIGN.md).
"""

from greenfelt.cards import Card, parse_card, parse_cards
from greenfelt.errors import (
    GreenfeltError,
    IllegalAction,
    NotationError,
    NotYourTurn,
    RecordError,
    RulesError,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "GreenfeltError",
    "IllegalAction",
    "NotYourTurn",
    "NotationError",
    "RecordError",
    "RulesError",
    "parse_card",
    "parse_cards",
]
