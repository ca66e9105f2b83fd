"""Table-driven scoring (RULES G5, G6): one row per rule, layouts in C3 notation."""

from __future__ import annotations

import random
from typing import Any

import pytest

from greenfelt.cards import CARDS, parse_card
from greenfelt.golf.layout import parse_layout
from greenfelt.golf.rules import PRESETS, GolfRules, find_preset
from greenfelt.golf.scoring import (
    Group,
    LayoutScore,
    RoundScore,
    card_kinds,
    describe_round,
    quick_scores,
    score_layout,
    score_round,
)


def rules_for(base: str | None, **options: Any) -> GolfRules:
    rules = find_preset(base) if base else GolfRules()
    return rules.with_options(options) if options else rules


def score(rules: GolfRules, text: str) -> LayoutScore:
    return score_layout(parse_layout(text, rules.shape), rules)


def round_of(rules: GolfRules, texts: list[str], closer: int | None = None) -> RoundScore:
    return score_round([parse_layout(t, rules.shape) for t in texts], rules, closer)


def groups_of(result: LayoutScore) -> set[tuple[str, str, tuple[int, ...], int]]:
    return {(g.rule, g.kind, g.positions, g.points) for g in result.groups}


# ---- G5.1 card values ---------------------------------------------------------------

# rank: standard, wikihow-basic, wikihow-hard, jqk-0-12-13 (the table of G5.1)
VALUE_TABLE = {
    "A": (1, 1, 1, 1),
    "2": (-2, 2, 2, 2),
    **{str(r): (r, r, r, r) for r in range(3, 11)},
    "J": (10, 10, 11, 0),
    "Q": (10, 10, 12, 12),
    "K": (0, 0, 13, 13),
    "JK": (-2, -2, -2, -2),
}
TABLES = ("standard", "wikihow-basic", "wikihow-hard", "jqk-0-12-13")
VALUE_ROWS = [
    (table, rank, points[column])
    for column, table in enumerate(TABLES)
    for rank, points in VALUE_TABLE.items()
]


@pytest.mark.parametrize(("table", "rank", "points"), VALUE_ROWS)
def test_g5_1_value_table_column(table: str, rank: str, points: int) -> None:
    """G5.1: one card alone (the other positions empty) scores its table value."""
    rules = GolfRules(values=table, match="none", jokers_per_deck=2)
    card = rank if rank == "JK" else rank + "♦"
    result = score(rules, f"{card} ?? ?? / ?? ?? ??")
    assert result.total == points
    assert result.points[0] == points


# ---- one row per rule: (rule, base preset, options, layout, total) ----------------

Row = tuple[str, str | None, dict[str, Any], str, int]

ROWS: list[Row] = [
    # G5.1 per-card options
    (
        "G5.1 joker_value -4",
        None,
        {"jokers_per_deck": 2, "joker_value": -4, "match": "none"},
        "JK 3♠ 4♠ / 5♠ 6♠ 7♠",
        21,
    ),
    (
        "G5.1 joker_value -5",
        None,
        {"jokers_per_deck": 2, "joker_value": -5},
        "JK 3♠ 4♠ / 5♠ 6♠ 7♠",
        20,
    ),
    (
        "G5.1 joker_value +15 single",
        None,
        {"jokers_per_deck": 2, "joker_value": 15, "joker_pair_value": -5},
        "JK 5♠ 6♠ / 4♠ 7♠ 8♠",
        45,
    ),
    (
        "G5.1 joker_pair_value -5",
        None,
        {"jokers_per_deck": 2, "joker_value": 15, "joker_pair_value": -5},
        "JK 5♠ 6♠ / JK 7♠ 8♠",
        21,
    ),
    ("G5.1 joker pair default 0", "six-card", {"jokers_per_deck": 2}, "JK 5♠ 6♠ / JK 7♠ 8♠", 26),
    (
        "G5.1 bonus_rank 2",
        None,
        {"values": "wikihow-basic", "bonus_rank": "2"},
        "2♠ 5♠ 6♠ / 3♠ 7♠ 8♠",
        27,
    ),
    (
        "G5.1 bonus_rank 2 worth -4",
        None,
        {"values": "wikihow-basic", "bonus_rank": "2", "bonus_value": -4},
        "2♠ 5♠ 6♠ / 3♠ 7♠ 8♠",
        25,
    ),
    (
        "G5.1 bonus_rank one_eyed_jacks",
        None,
        {"bonus_rank": "one_eyed_jacks"},
        "J♠ J♦ 4♠ / 3♠ 5♠ 6♠",
        26,
    ),
    (
        "G5.1 bonus_rank one_eyed_jacks J♥",
        None,
        {"bonus_rank": "one_eyed_jacks"},
        "J♥ J♣ 4♠ / 3♠ 5♠ 6♠",
        26,
    ),
    ("G5.1 queen_of_spades 40", None, {"queen_of_spades": 40}, "Q♠ Q♥ 4♠ / 3♠ 5♠ 6♠", 68),
    ("G5.1 red_king -1", None, {"red_king": -1}, "K♥ K♦ K♠ / 3♠ 5♠ 6♠", 12),
    ("G5.1 values mapping Q:13,2:2", None, {"values": "Q:13,2:2"}, "Q♠ 2♥ 4♠ / 3♠ 5♠ 6♠", 33),
    # G5.2 the sum of the values
    ("G5.2 plain sum", "six-card", {}, "A♠ 3♠ 5♠ / 7♠ 9♠ Q♠", 35),
    ("G5.2 seed six-card example", "six-card", {}, "K♠ 6♠ K♥ / 4♦ 6♥ 2♣", 2),
    # G5.3 column
    ("G5.3 column pair", "six-card", {}, "5♠ 9♠ Q♠ / 5♥ 3♠ 4♠", 26),
    ("G5.3 column: a row does not cancel", "six-card", {}, "5♠ 5♥ 5♦ / 3♠ 4♠ 6♠", 28),
    ("G5.3 column: matched 2s cancel to 0 (BGA)", "six-card", {}, "2♠ 9♠ Q♠ / 2♥ 3♠ 4♠", 26),
    (
        "G5.3 negative_pairs_keep_value",
        "six-card",
        {"negative_pairs_keep_value": True},
        "2♠ 9♠ Q♠ / 2♥ 3♠ 4♠",
        22,
    ),
    (
        "G5.3 negative_pairs_keep_value jokers",
        "six-card",
        {"jokers_per_deck": 2, "negative_pairs_keep_value": True},
        "JK 9♠ Q♠ / JK 3♠ 4♠",
        22,
    ),
    ("G5.3 column of three on 3x3", "nine-card", {}, "5♠ 9♠ Q♠ / 5♥ 3♠ 4♠ / 5♦ A♠ 6♠", 33),
    ("G5.3 two of three in a 3x3 column", "nine-card", {}, "5♠ 9♠ Q♠ / 5♥ 3♠ 4♠ / 6♦ A♠ 6♠", 49),
    ("G5.3 column on 2x5", "ten-card", {}, "5♠ 9♠ Q♠ 3♦ 3♥ / 5♥ 3♠ 4♠ 7♦ 7♥", 46),
    # G5.3 lines
    ("G5.3 lines: row on 2x3", None, {"match": "lines"}, "5♠ 5♥ 5♦ / 3♠ 4♠ 6♠", 13),
    ("G5.3 lines: column on 2x3", None, {"match": "lines"}, "5♠ 9♠ Q♠ / 5♥ 3♠ 4♠", 26),
    (
        "G5.3 lines: row on 3x3",
        None,
        {"layout": "3x3", "match": "lines"},
        "5♠ 5♥ 5♦ / 3♠ 4♠ 6♠ / A♠ 7♠ 8♠",
        29,
    ),
    (
        "G5.3 lines: column on 3x3",
        None,
        {"layout": "3x3", "match": "lines"},
        "5♠ 3♠ 4♠ / 5♥ 6♠ A♠ / 5♦ 7♠ 8♠",
        29,
    ),
    (
        "G5.3 lines: diagonal on 3x3",
        None,
        {"layout": "3x3", "match": "lines"},
        "5♠ 3♠ 4♠ / 6♠ 5♥ A♠ / 7♠ 8♠ 5♦",
        29,
    ),
    (
        "G5.3 lines: anti-diagonal on 3x3",
        None,
        {"layout": "3x3", "match": "lines"},
        "3♠ 4♠ 5♠ / 6♠ 5♥ A♠ / 5♦ 7♠ 8♠",
        29,
    ),
    (
        "G5.3 lines: row and column share a card",
        None,
        {"layout": "3x3", "match": "lines"},
        "5♠ 5♥ 5♦ / 5♣ 6♠ A♠ / 5♠ 7♠ 8♠",
        22,
    ),
    (
        "G5.3 lines: two in a 3x3 row do not cancel",
        None,
        {"layout": "3x3", "match": "lines"},
        "5♠ 5♥ 3♠ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        48,
    ),
    ("G5.3 lines: diagonal on 2x2", None, {"layout": "2x2", "match": "lines"}, "5♠ 3♠ / 4♠ 5♥", 7),
    ("G5.3 lines: no diagonal on 2x3", None, {"match": "lines"}, "5♠ 3♠ 4♠ / 6♠ 5♥ 7♠", 30),
    # G5.3 pairs_in_line (four-card: wikihow-basic values)
    ("G5.3 pairs_in_line: row pair", "four-card", {}, "5♠ 5♥ / 3♠ 4♠", 7),
    ("G5.3 pairs_in_line: column pair", "four-card", {}, "5♠ 3♠ / 5♥ 4♠", 7),
    ("G5.3 pairs_in_line: no diagonal by default", "four-card", {}, "5♠ 3♠ / 4♠ 5♥", 17),
    (
        "G5.3 pairs_in_line: diagonal_pairs",
        "four-card",
        {"diagonal_pairs": True},
        "5♠ 3♠ / 4♠ 5♥",
        7,
    ),
    (
        "G5.3 pairs_in_line: diagonal_pairs on 3x3",
        None,
        {"layout": "3x3", "match": "pairs_in_line", "diagonal_pairs": True},
        "5♠ 3♠ 4♠ / 6♠ 7♠ 8♠ / 9♠ A♠ 5♥",
        38,
    ),
    ("G5.3 pairs_in_line: three equal, third keeps value", "four-card", {}, "5♠ 5♥ / 5♦ 4♠", 9),
    ("G5.3 pairs_in_line: four equal, layout 0", "four-card", {}, "5♠ 5♥ / 5♦ 5♣", 0),
    (
        "G5.3 pairs_in_line: four kings at 13 score 0",
        "four-card",
        {"values": "wikihow-hard"},
        "K♠ K♥ / K♦ K♣",
        0,
    ),
    ("G5.3 pairs_in_line: two pairs", "four-card", {}, "5♠ 5♥ / 7♦ 7♣", 0),
    (
        "G5.3 pairs_in_line: 2s cancel to 0",
        None,
        {"layout": "2x2", "match": "pairs_in_line"},
        "2♠ 2♥ / 3♠ 4♠",
        7,
    ),
    (
        "G5.3 pairs_in_line: 2s keep value",
        None,
        {"layout": "2x2", "match": "pairs_in_line", "negative_pairs_keep_value": True},
        "2♠ 2♥ / 3♠ 4♠",
        3,
    ),
    # G5.3 adjacent_pairs
    (
        "G5.3 adjacent_pairs: horizontal",
        None,
        {"layout": "3x3", "match": "adjacent_pairs"},
        "5♠ 5♥ 3♠ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        38,
    ),
    (
        "G5.3 adjacent_pairs: vertical",
        None,
        {"layout": "3x3", "match": "adjacent_pairs"},
        "5♠ 3♠ 4♠ / 5♥ 6♠ 7♠ / 8♠ 9♠ A♠",
        38,
    ),
    (
        "G5.3 adjacent_pairs: apart in a row",
        None,
        {"layout": "3x3", "match": "adjacent_pairs"},
        "5♠ 3♠ 5♥ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        48,
    ),
    (
        "G5.3 adjacent_pairs: diagonal neighbours",
        None,
        {"layout": "3x3", "match": "adjacent_pairs"},
        "5♠ 3♠ 4♠ / 6♠ 5♥ 7♠ / 8♠ 9♠ A♠",
        48,
    ),
    (
        "G5.3 adjacent_pairs: an L of three",
        None,
        {"layout": "3x3", "match": "adjacent_pairs"},
        "5♠ 5♥ 3♠ / 5♦ 6♠ 7♠ / 8♠ 9♠ A♠",
        34,
    ),
    # G5.3 any_pairs (four-in-hand: wikihow-basic values)
    ("G5.3 any_pairs: a pair anywhere", "four-in-hand", {}, "5♠ 3♠ 5♥ 4♠", 7),
    ("G5.3 any_pairs: odd one out keeps value", "four-in-hand", {}, "5♠ 5♥ 5♦ 4♠", 9),
    ("G5.3 any_pairs: four equal", "four-in-hand", {}, "5♠ 5♥ 5♦ 5♣", 0),
    ("G5.3 any_pairs: two pairs", "four-in-hand", {}, "5♠ 9♥ 5♦ 9♣", 0),
    ("G5.3 any_pairs: 2s cancel (standard)", None, {"layout": "hand4"}, "2♠ 2♥ 3♠ 4♠", 7),
    (
        "G5.3 any_pairs: 2s keep value",
        None,
        {"layout": "hand4", "negative_pairs_keep_value": True},
        "2♠ 2♥ 3♠ 4♠",
        3,
    ),
    ("G5.3 any_pairs on a grid", None, {"match": "any_pairs"}, "5♠ 3♠ 4♠ / 6♠ 7♠ 5♥", 20),
    # G5.3 none
    ("G5.3 none", None, {"match": "none"}, "5♠ 9♠ Q♠ / 5♥ 3♠ 4♠", 36),
    # G5.3 combined lines + adjacent_pairs (nine-card-wiki)
    (
        "G5.3 lines+adjacent_pairs: a pair",
        "nine-card-wiki",
        {},
        "5♠ 5♥ 3♠ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        38,
    ),
    (
        "G5.3 lines+adjacent_pairs: a row",
        "nine-card-wiki",
        {},
        "5♠ 5♥ 5♦ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        35,
    ),
    (
        "G5.3 lines+adjacent_pairs: a diagonal",
        "nine-card-wiki",
        {},
        "5♠ 3♠ 4♠ / 6♠ 5♥ 7♠ / 8♠ 9♠ 5♦",
        37,
    ),
    (
        "G5.3 lines+adjacent_pairs: apart, no line",
        "nine-card-wiki",
        {},
        "5♠ 3♠ 5♥ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
        48,
    ),
    (
        "G5.3 lines+adjacent_pairs: jokers -4",
        "nine-card-wiki",
        {},
        "JK 3♠ 4♠ / 6♠ 7♠ 8♠ / 9♠ A♠ 10♠",
        44,
    ),
    # G5.3 the lowest pairing is used
    ("G5.3 lowest pairing: red kings", "four-card", {"red_king": -1}, "K♥ K♠ / K♦ 5♠", 4),
    (
        "G5.3 lowest pairing: queen of spades",
        "four-in-hand",
        {"queen_of_spades": 40},
        "Q♠ Q♥ Q♦ 5♠",
        15,
    ),
    (
        "G5.3 lowest pairing: queen of spades in a line",
        "four-card",
        {"queen_of_spades": 40},
        "Q♥ Q♠ / Q♦ 5♠",
        15,
    ),
    # G5.4 blocks
    ("G5.4 BGA block -20", "bga", {}, "5♠ 5♥ 9♦ / 5♦ 5♣ 9♣", -20),
    ("G5.4 block ignores bonus card values", "bga", {}, "2♠ 2♥ 9♦ / 2♦ 2♣ 4♣", -7),
    ("G5.4 block beats its lines", "bga", {}, "5♠ 5♥ 5♦ / 5♣ 5♠ 9♥", -6),
    ("G5.4 blocks may not overlap (2 decks)", "bga", {}, "5♠ 5♥ 5♦ / 5♣ 5♠ 5♥", -20),
    (
        "G5.4 two disjoint blocks on 2x4",
        None,
        {"layout": "2x4", "block_score": -20},
        "5♠ 5♥ 5♦ 5♣ / 5♠ 5♥ 5♦ 5♣",
        -40,
    ),
    (
        "G5.4 overlapping blocks on 2x4, one counts",
        None,
        {"layout": "2x4", "block_score": -20},
        "5♠ 5♥ 5♦ 3♣ / 5♣ 5♠ 5♥ 4♣",
        -13,
    ),
    (
        "G5.4 the lowest block choice",
        None,
        {"layout": "2x4", "match": "none", "block_score": -20, "red_king": -1},
        "K♥ K♠ K♦ 3♣ / K♦ K♣ K♠ 4♦",
        -15,
    ),
    ("G5.4 Wikipedia block -25", "nine-card-wiki", {}, "5♠ 5♥ 3♠ / 5♦ 5♣ 4♠ / 6♠ 7♠ 8♠", 3),
    ("G5.4 block on 2x2", "bga", {"layout": "2x2"}, "7♠ 7♥ / 7♦ 7♣", -20),
    # G5.6 specials
    (
        "G5.6 four_kings_side top row",
        "eight-card",
        {"four_kings_side": True},
        "K♠ K♥ K♦ K♣ / 3♠ 4♠ 5♠ 6♠",
        2,
    ),
    (
        "G5.6 four_kings_side bottom row",
        "eight-card",
        {"four_kings_side": True},
        "3♠ 4♠ 5♠ 6♠ / K♠ K♥ K♦ K♣",
        2,
    ),
    (
        "G5.6 four_kings_side needs four kings",
        "eight-card",
        {"four_kings_side": True},
        "K♠ K♥ K♦ Q♣ / 3♠ 4♠ 5♠ 6♠",
        28,
    ),
    ("G5.6 four_kings_side off", "eight-card", {}, "K♠ K♥ K♦ K♣ / 3♠ 4♠ 5♠ 6♠", 18),
    (
        "G5.6 straight_bonus A-9",
        "nine-card",
        {"straight_bonus": True},
        "A♠ 2♥ 3♦ / 4♣ 5♠ 6♥ / 7♦ 8♣ 9♠",
        -12,
    ),
    (
        "G5.6 straight_bonus 5-K",
        "nine-card",
        {"straight_bonus": True},
        "9♠ K♥ 7♦ / 8♣ 5♠ 10♥ / J♦ Q♣ 6♠",
        -12,
    ),
    (
        "G5.6 straight_bonus needs a run",
        "nine-card",
        {"straight_bonus": True},
        "A♠ 2♥ 3♦ / 4♣ 5♠ 6♥ / 7♦ 8♣ 10♠",
        42,
    ),
    (
        "G5.6 one_eyed_jacks_wild J♥",
        "six-card",
        {"one_eyed_jacks_wild": True},
        "J♥ 4♠ 5♠ / 7♣ 6♠ 8♠",
        23,
    ),
    (
        "G5.6 one_eyed_jacks_wild J♠ below",
        "six-card",
        {"one_eyed_jacks_wild": True},
        "4♠ 7♣ 5♠ / 6♠ J♠ 8♠",
        23,
    ),
    (
        "G5.6 two-eyed jack is not wild",
        "six-card",
        {"one_eyed_jacks_wild": True},
        "J♦ 4♠ 5♠ / 7♣ 6♠ 8♠",
        40,
    ),
    ("G5.6 one_eyed_jacks off", "six-card", {}, "J♥ 4♠ 5♠ / 7♣ 6♠ 8♠", 40),
    (
        "G5.6 one-eyed jack completes a 3x3 column",
        "nine-card",
        {"one_eyed_jacks_wild": True},
        "7♠ 3♠ 4♠ / 7♥ 5♠ 6♠ / J♠ 8♠ 9♠",
        35,
    ),
]


@pytest.mark.parametrize(
    ("rule", "base", "options", "layout", "total"), ROWS, ids=[row[0] for row in ROWS]
)
def test_score_layout_table(
    rule: str, base: str | None, options: dict[str, Any], layout: str, total: int
) -> None:
    """G5.1-G5.6: one row per rule, each layout in C3 notation."""
    rules = rules_for(base, **options)
    result = score(rules, layout)
    assert result.total == total, rule
    # A layout's total is its cards' own points plus what its groups add (G5.2).
    assert result.total == sum(result.points) + sum(g.points for g in result.groups)


# ---- G5.5, G5.6 effects on the other players ------------------------------------

RoundRow = tuple[str, str | None, dict[str, Any], list[str], list[int]]

ROUND_ROWS: list[RoundRow] = [
    (
        "G5.5 four_in_two_columns",
        "six-card",
        {"four_in_two_columns": True},
        ["5♠ 5♥ 9♦ / 5♦ 5♣ 8♣", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [17, 40],
    ),
    (
        "G5.5 four_in_two_columns, three players",
        "six-card",
        {"four_in_two_columns": True},
        ["A♠ 3♠ 4♠ / 6♠ 7♠ 9♠", "9♦ 5♠ 5♥ / 8♣ 5♦ 5♣", "K♠ 3♥ Q♠ / K♦ 4♣ 10♠"],
        [40, 17, 37],
    ),
    (
        "G5.5 four_in_two_columns needs adjacent columns",
        "six-card",
        {"four_in_two_columns": True},
        ["5♠ 9♦ 5♥ / 5♦ 8♣ 5♣", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [17, 30],
    ),
    ("G5.5 off", "six-card", {}, ["5♠ 5♥ 9♦ / 5♦ 5♣ 8♣", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"], [17, 30]),
    (
        "G5.5 on 2x5",
        "ten-card",
        {"four_in_two_columns": True},
        ["A♠ 3♠ 4♠ 8♥ 8♦ / 6♠ 7♠ 9♠ 8♠ 8♣", "A♥ 3♥ 4♥ 6♥ 7♥ / K♠ K♥ K♦ K♣ Q♥"],
        [30, 41],
    ),
    (
        "G5.6 shoot_the_moon",
        "six-card",
        {"shoot_the_moon": True},
        ["J♠ Q♠ J♥ / Q♥ J♦ Q♦", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [0, 90],
    ),
    (
        "G5.6 shoot_the_moon, three players",
        "six-card",
        {"shoot_the_moon": True},
        ["A♠ 3♠ 4♠ / 6♠ 7♠ 9♠", "10♠ J♠ 10♥ / J♥ 10♦ J♦", "K♠ K♥ Q♠ / K♦ K♣ 10♣"],
        [90, 0, 80],
    ),
    (
        "G5.6 shoot_the_moon needs the maximum",
        "six-card",
        {"shoot_the_moon": True},
        ["J♠ Q♠ J♥ / Q♥ J♦ 9♦", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [59, 30],
    ),
    (
        "G5.6 shoot_the_moon off",
        "six-card",
        {},
        ["J♠ Q♠ J♥ / Q♥ J♦ Q♦", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [60, 30],
    ),
    # Under wikihow-hard the highest a 2x3 layout can score is 75 (K K K / Q Q Q):
    # a fourth king must share a column with another, and a matched column is 0.
    (
        "G5.6 shoot_the_moon, wikihow-hard maximum",
        "six-card",
        {"shoot_the_moon": True, "values": "wikihow-hard"},
        ["K♠ K♥ K♦ / Q♠ Q♥ Q♦", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"],
        [0, 105],
    ),
]


@pytest.mark.parametrize(
    ("rule", "base", "options", "layouts", "scores"), ROUND_ROWS, ids=[r[0] for r in ROUND_ROWS]
)
def test_score_round_table(
    rule: str, base: str | None, options: dict[str, Any], layouts: list[str], scores: list[int]
) -> None:
    """G5.5/G5.6: effects of one layout on the other players' round scores."""
    result = round_of(rules_for(base, **options), layouts)
    assert list(result.scores) == scores, rule
    for seat, layout in enumerate(result.layouts):
        delta = sum(a.delta for a in result.adjustments[seat])
        assert result.scores[seat] == layout.total + delta


def test_g5_5_adjustments_name_the_rule() -> None:
    rules = rules_for("six-card", four_in_two_columns=True)
    result = round_of(rules, ["5♠ 5♥ 9♦ / 5♦ 5♣ 8♣", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"])
    assert result.adjustments[0] == ()
    (adjustment,) = result.adjustments[1]
    assert (adjustment.rule, adjustment.delta) == ("G5.5", 10)
    assert ("G5.5", "four in two columns", (0, 1, 3, 4), 0) in groups_of(result.layouts[0])
    assert result.layouts[0].others_penalty == 10


def test_g5_6_shoot_the_moon_breakdown() -> None:
    rules = rules_for("six-card", shoot_the_moon=True)
    result = round_of(rules, ["J♠ Q♠ J♥ / Q♥ J♦ Q♦", "A♠ 3♠ 4♠ / 6♠ 7♠ 9♠"])
    assert result.layouts[0].moon == 60
    assert [(a.rule, a.delta) for a in result.adjustments[0]] == [("G5.6", -60)]
    assert [(a.rule, a.delta) for a in result.adjustments[1]] == [("G5.6", 60)]


@pytest.mark.parametrize(
    ("base", "layout", "wins"),
    [
        ("four-card", "5♠ 5♥ / 5♦ 5♣", True),
        ("four-card", "5♠ 5♥ / 5♦ 4♣", False),
        ("four-in-hand", "K♠ K♥ K♦ K♣", True),
        ("four-in-hand", "K♠ K♥ 3♦ K♣", False),
    ],
)
def test_g5_6_four_of_a_kind_wins(base: str, layout: str, wins: bool) -> None:
    rules = rules_for(base, four_of_a_kind_wins=True)
    other = "A♠ 3♠ / 4♠ 6♠" if rules.shape.is_grid else "A♠ 3♠ 4♠ 6♠"
    result = round_of(rules, [other, layout])
    assert result.layouts[1].wins_match is wins
    assert result.layouts[0].wins_match is False
    assert result.match_winner == (1 if wins else None)


def test_g5_6_four_of_a_kind_needs_the_option() -> None:
    result = round_of(find_preset("four-card"), ["A♠ 3♠ / 4♠ 6♠", "5♠ 5♥ / 5♦ 5♣"])
    assert result.match_winner is None
    assert not result.layouts[1].wins_match


# ---- G6 closer rules -------------------------------------------------------------------

_CARD_OF = {-2: "2", 1: "A", 0: "K", **{v: str(v) for v in range(3, 11)}}


def worth(points: int) -> str:
    """A 2x3 layout worth ``points`` under standard values and match=none."""
    values: list[int] = []
    rest = points
    while rest < 0:
        values.append(-2)
        rest += 2
    while rest > 0:
        step = 1 if rest == 2 else min(10, rest)
        values.append(step)
        rest -= step
    assert len(values) <= 6, points
    values += [0] * (6 - len(values))
    texts = [_CARD_OF[v] + "♠♥♦♣"[i % 4] for i, v in enumerate(values)]
    return " ".join(texts[:3]) + " / " + " ".join(texts[3:])


CloserRow = tuple[str, dict[str, Any], list[int], int | None, list[int]]

CLOSER_ROWS: list[CloserRow] = [
    ("G6 none", {}, [17, 12], 0, [17, 12]),
    ("G6 penalty_10", {"closer_rule": "penalty_10"}, [17, 12], 0, [27, 12]),
    ("G6 penalty_10, closer lowest", {"closer_rule": "penalty_10"}, [12, 17], 0, [12, 17]),
    ("G6 penalty_20", {"closer_rule": "penalty_20"}, [17, 12], 0, [37, 12]),
    ("G6 penalty_20, second seat", {"closer_rule": "penalty_20"}, [12, 17, 20], 2, [12, 17, 40]),
    ("G6 add_lowest seed: 17 vs 12 ends 29", {"closer_rule": "add_lowest"}, [17, 12], 0, [29, 12]),
    ("G6 add_lowest, knocker second", {"closer_rule": "add_lowest"}, [12, 17], 1, [12, 29]),
    ("G6 add_lowest never lowers", {"closer_rule": "add_lowest"}, [5, -3], 0, [5, -3]),
    ("G6 add_lowest zero lowest", {"closer_rule": "add_lowest"}, [5, 0], 0, [5, 0]),
    ("G6 double_plus_5", {"closer_rule": "double_plus_5"}, [17, 12], 0, [39, 12]),
    ("G6 double_plus_5, closer lowest", {"closer_rule": "double_plus_5"}, [12, 17], 0, [12, 17]),
    # "a penalty never lowers a score" (decided under add_lowest); the engine applies
    # it to double_plus_5 too, so -10 stays -10 rather than becoming -15.
    ("G6 double_plus_5 never lowers", {"closer_rule": "double_plus_5"}, [-10, -12], 0, [-10, -12]),
    ("G6 double_plus_5, negative", {"closer_rule": "double_plus_5"}, [-2, -4], 0, [1, -4]),
    ("G6 take_highest", {"closer_rule": "take_highest"}, [17, 12, 25], 0, [25, 12, 25]),
    (
        "G6 take_highest, closer highest",
        {"closer_rule": "take_highest"},
        [25, 12, 17],
        0,
        [25, 12, 17],
    ),
    ("G6 add_twice_players", {"closer_rule": "add_twice_players"}, [17, 12, 25], 0, [23, 12, 25]),
    ("G6 add_twice_players, two", {"closer_rule": "add_twice_players"}, [17, 12], 0, [21, 12]),
    ("G6 tie counts as lowest", {"closer_rule": "penalty_10"}, [12, 12], 0, [12, 12]),
    (
        "G6 tie does not count",
        {"closer_rule": "penalty_10", "closer_tie_counts_as_lowest": False},
        [12, 12],
        0,
        [22, 12],
    ),
    ("G6 closer_bonus zero", {"closer_bonus": "zero"}, [12, 17], 0, [0, 17]),
    ("G6 closer_bonus zero keeps a negative", {"closer_bonus": "zero"}, [-3, 5], 0, [-3, 5]),
    ("G6 closer_bonus zero, not lowest", {"closer_bonus": "zero"}, [17, 12], 0, [17, 12]),
    (
        "G6 closer_bonus minus_players",
        {"closer_bonus": "minus_players"},
        [12, 17, 20],
        0,
        [9, 17, 20],
    ),
    (
        "G6 closer_bonus with tie not lowest",
        {"closer_bonus": "zero", "closer_tie_counts_as_lowest": False},
        [12, 12],
        0,
        [12, 12],
    ),
    (
        "G6 closer_bonus and penalty",
        {"closer_bonus": "zero", "closer_rule": "penalty_10"},
        [12, 17],
        0,
        [0, 17],
    ),
    ("G6 no closer, no penalty", {"closer_rule": "penalty_20"}, [17, 12], None, [17, 12]),
]


@pytest.mark.parametrize(
    ("rule", "options", "layout_scores", "closer", "scores"),
    CLOSER_ROWS,
    ids=[row[0] for row in CLOSER_ROWS],
)
def test_g6_closer_table(
    rule: str,
    options: dict[str, Any],
    layout_scores: list[int],
    closer: int | None,
    scores: list[int],
) -> None:
    rules = GolfRules(match="none").with_options(options)
    layouts = [worth(s) for s in layout_scores]
    result = round_of(rules, layouts, closer)
    assert [layout.total for layout in result.layouts] == layout_scores  # the helper is right
    assert list(result.scores) == scores, rule
    assert result.closer == closer
    others = [a for seat, adj in enumerate(result.adjustments) if seat != closer for a in adj]
    assert others == []
    if closer is not None and scores[closer] != layout_scores[closer]:
        (adjustment,) = result.adjustments[closer]
        assert adjustment.rule == "G6"
        assert adjustment.delta == scores[closer] - layout_scores[closer]


def test_g6_seed_example_through_the_six_card_preset() -> None:
    """wikiHow: the knocker scores 17, the lowest 12; under add_lowest 29 and 12."""
    rules = find_preset("six-card").with_options({"closer_rule": "add_lowest"})
    layouts = ["10♠ 7♠ K♠ / K♥ K♦ K♣", "10♥ 2♥ 4♥ / K♠ K♦ K♣"]
    result = round_of(rules, layouts, closer=0)
    assert [layout.total for layout in result.layouts] == [17, 12]
    assert list(result.scores) == [29, 12]


# ---- breakdowns name the rule -------------------------------------------------------


def test_breakdown_six_card_example() -> None:
    """G5.3 seed example: K♠ 6♠ K♥ / 4♦ 6♥ 2♣ scores 2; the 6s cancel by column."""
    result = score(find_preset("six-card"), "K♠ 6♠ K♥ / 4♦ 6♥ 2♣")
    assert result.total == 2
    assert groups_of(result) == {("G5.3", "column", (1, 4), 0)}
    assert result.points == (0, 0, 0, 4, 0, -2)


@pytest.mark.parametrize(
    ("base", "options", "layout", "groups"),
    [
        (
            "bga",
            {},
            "5♠ 5♥ 9♦ / 5♦ 5♣ 9♣",
            {("G5.4", "block", (0, 1, 3, 4), -20), ("G5.3", "column", (2, 5), 0)},
        ),
        (None, {"match": "lines"}, "5♠ 5♥ 5♦ / 3♠ 4♠ 6♠", {("G5.3", "row", (0, 1, 2), 0)}),
        (
            None,
            {"layout": "3x3", "match": "lines"},
            "5♠ 3♠ 4♠ / 6♠ 5♥ A♠ / 7♠ 8♠ 5♦",
            {("G5.3", "diagonal", (0, 4, 8), 0)},
        ),
        ("four-card", {}, "5♠ 5♥ / 3♠ 4♠", {("G5.3", "pair", (0, 1), 0)}),
        ("four-in-hand", {}, "5♠ 3♠ 5♥ 4♠", {("G5.3", "pair", (0, 2), 0)}),
        (
            None,
            {"layout": "3x3", "match": "adjacent_pairs"},
            "5♠ 5♥ 3♠ / 4♠ 6♠ 7♠ / 8♠ 9♠ A♠",
            {("G5.3", "adjacent pair", (0, 1), 0)},
        ),
        (
            None,
            {"jokers_per_deck": 2, "joker_value": 15, "joker_pair_value": -5},
            "JK 5♠ 6♠ / JK 7♠ 8♠",
            {("G5.3", "column", (0, 3), -5)},
        ),
        (
            "eight-card",
            {"four_kings_side": True},
            "K♠ K♥ K♦ K♣ / 3♠ 4♠ 5♠ 6♠",
            {("G5.6", "four kings on a side", (0, 1, 2, 3), -16)},
        ),
        (
            "nine-card",
            {"straight_bonus": True},
            "A♠ 2♥ 3♦ / 4♣ 5♠ 6♥ / 7♦ 8♣ 9♠",
            {("G5.6", "straight (hole in one)", tuple(range(9)), -12)},
        ),
        ("nine-card", {}, "A♠ 2♥ 3♦ / 4♣ 5♠ 6♥ / 7♦ 8♣ 9♠", set()),
    ],
)
def test_breakdown_groups_name_the_rule(
    base: str | None,
    options: dict[str, Any],
    layout: str,
    groups: set[tuple[str, str, tuple[int, ...], int]],
) -> None:
    """G5.3-G5.6: the breakdown names the rule that scored each group."""
    result = score(rules_for(base, **options), layout)
    assert groups_of(result) == groups
    for group in result.groups:
        assert isinstance(group, Group)
        for p in group.positions:
            assert result.points[p] == 0


def test_describe_round_is_readable() -> None:
    """G5/G6: the readable breakdown names rules and ends with the round scores."""
    rules = find_preset("six-card").with_options({"closer_rule": "add_lowest"})
    texts = ["10♠ 7♠ K♠ / K♥ K♦ K♣", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"]
    layouts = [parse_layout(t, rules.shape) for t in texts]
    result = score_round(layouts, rules, closer=0)
    lines = describe_round(result, layouts, rules, names=["Ann", "Bob"])
    text = "\n".join(lines)
    assert lines[0].startswith("Ann: 10♠ 7♠ K♠ / K♥ K♦ K♣")
    assert "Bob: K♠ 6♠ K♥ / 4♦ 6♥ 2♣" in text
    assert "(G5.3)" in text
    assert "(G6)" in text
    assert lines[-1].strip() == "round score: 2"
    assert "round score: 19" in text  # 17 + the lowest 2


def test_removed_cards_score_zero() -> None:
    """G3.5: a removed position (None) scores 0."""
    rules = find_preset("six-card").with_options({"remove_matched_lines": True})
    result = score(rules, "?? 9♠ Q♠ / ?? 3♠ 4♠")
    assert result.total == 26
    assert result.points[0] == result.points[3] == 0


# ---- the quick scorer: the same scores without the breakdown ----------------------

QUICK_RULES = [
    ("six-card", {}),
    ("nine-card", {}),
    ("eight-card", {}),
    ("ten-card", {"closer_rule": "double_plus_5"}),
    ("six-card", {"jokers_per_deck": 2, "joker_pair_value": -10, "closer_rule": "penalty_10"}),
    ("six-card", {"jokers_per_deck": 2, "negative_pairs_keep_value": True}),
    ("nine-card", {"values": "wikihow-hard", "closer_rule": "take_highest"}),
    ("six-card", {"remove_matched_lines": True, "closer_bonus": "zero"}),
    ("eight-card", {"closer_bonus": "minus_players", "closer_tie_counts_as_lowest": False}),
    ("six-card", {"closer_rule": "add_lowest", "bonus_rank": "5", "red_king": -1}),
]


def random_layouts(rules: GolfRules, rng: random.Random, n: int) -> list[list[int | None]]:
    """Layouts drawn from a few ranks, so that columns often match, with some removed cards
    (G3.5) where the rules remove matched lines."""
    pool = [c for c in range(52) if c % 13 in (0, 1, 4, 11, 12)]
    if rules.jokers_per_deck:
        pool += [52] * 6
    out: list[list[int | None]] = []
    for _ in range(n):
        cards: list[int | None] = [rng.choice(pool) for _ in range(rules.shape.size)]
        if rules.remove_matched_lines and rng.random() < 0.5:
            for p in rng.choice(rules.shape.column_lines):
                cards[p] = None
        out.append(cards)
    return out


@pytest.mark.parametrize(("base", "options"), QUICK_RULES)
def test_quick_scores_equal_the_full_scorer(base: str, options: dict[str, Any]) -> None:
    """G5.1, G5.3, G3.5, G6: the quick scorer gives score_round's scores on 600 random rounds
    of every closer and player count."""
    rules = rules_for(base, **options)
    assert rules.plain_columns
    rng = random.Random(base + str(sorted(options.items())))
    matched = 0
    for _ in range(600):
        n = rng.choice((2, 3, 4))
        layouts = random_layouts(rules, rng, n)
        closer = rng.choice([None, *range(n)])
        full = score_round(layouts, rules, closer)
        assert quick_scores(layouts, rules, closer) == full.scores, (layouts, closer)
        matched += any(full.layouts[s].groups for s in range(n))
    assert matched > 150  # the rounds exercise matched columns


@pytest.mark.parametrize(
    ("base", "options"),
    [
        ("bga", {}),
        ("four-card", {}),
        ("four-in-hand", {}),
        ("nine-card-wiki", {}),
        ("six-card", {"four_in_two_columns": True}),
        ("nine-card", {"straight_bonus": True}),
        ("six-card", {"shoot_the_moon": True}),
        ("eight-card", {"four_kings_side": True}),
        ("six-card", {"one_eyed_jacks_wild": True}),
    ],
)
def test_quick_scores_decline_rules_that_need_the_full_scorer(
    base: str, options: dict[str, Any]
) -> None:
    """G5.3-G5.6: lines, blocks, pairs, specials and wilds are left to score_round."""
    rules = rules_for(base, **options)
    layouts = [[0] * rules.shape.size, [13] * rules.shape.size]
    assert quick_scores(layouts, rules) is None


# ---- card kinds: what scoring reads of a card ---------------------------------------

KIND_RULES = [
    *((name, {}) for name in PRESETS),
    ("six-card", {"red_king": -1, "queen_of_spades": 40, "jokers_per_deck": 2}),
    ("six-card", {"bonus_rank": "one-eyed-jacks", "bonus_value": -5}),
    ("six-card", {"one_eyed_jacks_wild": True}),
    ("eight-card", {"four_kings_side": True, "four_in_two_columns": True}),
    ("nine-card", {"straight_bonus": True}),
]


@pytest.mark.parametrize(("base", "options"), KIND_RULES)
def test_cards_of_one_kind_score_alike(base: str, options: dict[str, Any]) -> None:
    """G5.1-G5.6: a layout scores the same, total and place by place, with each card
    swapped for another of its kind (``card_kinds``), so a memo of scores may key on
    kinds (believed worlds, ``golf_belief``)."""
    rules = rules_for(base, **options)
    kinds = card_kinds(rules)
    same_kind: dict[int, list[int]] = {}
    for code, kind in enumerate(kinds):
        same_kind.setdefault(kind, []).append(code)
    assert len(same_kind) < 53  # suits alone never make a kind
    rng = random.Random(f"kinds:{base}:{sorted(options.items())}")
    ranks = rng.sample(range(13), 4)  # few ranks, so that lines and pairs match
    pool = [c for c in range(52) if c % 13 in ranks] + [52] * rules.jokers_per_deck
    matched = 0
    for _ in range(300):
        cards = [CARDS[rng.choice(pool)] for _ in range(rules.shape.size)]
        twin = [CARDS[rng.choice(same_kind[kinds[c]])] for c in cards]
        first, second = score_layout(cards, rules), score_layout(twin, rules)
        assert (first.total, first.points) == (second.total, second.points), (cards, twin)
        matched += bool(first.groups)
    assert matched > 30


def test_card_kinds_part_cards_that_score_differently() -> None:
    """G5.1: a red king at -1 is not a black king; C4: a jack and a queen worth the same
    do not match, so they are not one kind either."""
    rules = rules_for("six-card", red_king=-1)
    kinds = card_kinds(rules)
    king_h, king_s = parse_card("Kh"), parse_card("Ks")
    assert kinds[king_h] != kinds[king_s]
    assert kinds[king_h] == kinds[parse_card("Kd")]
    jack, queen = parse_card("Jc"), parse_card("Qc")
    assert rules.card_values[jack] == rules.card_values[queen]
    assert kinds[jack] != kinds[queen]
