"""GolfRules (RULES G1-G6, G8, G9 options) and the presets of G10."""

from __future__ import annotations

import json
from typing import Any

import pytest

from greenfelt.cards import parse_card
from greenfelt.errors import RulesError
from greenfelt.golf.game import new_round
from greenfelt.golf.match import GolfMatch
from greenfelt.golf.rules import (
    OPTIONS,
    PRESETS,
    GolfRules,
    find_preset,
    rules_from_json,
    rules_to_json,
)

DEFAULTS = GolfRules()


def value_of(rules: GolfRules, text: str) -> int:
    return rules.card_values[parse_card(text)]


# ---- defaults --------------------------------------------------------------------


def test_defaults_per_rules() -> None:
    """Every option's default as RULES G1-G9 gives it."""
    r = DEFAULTS
    assert r.layout == "2x3"  # G1.2 (the classic six-card game)
    assert r.decks == "auto"  # G1.3
    assert r.jokers_per_deck == 0  # G1.4
    assert r.flips == 2  # G1.7
    assert r.flip_constraint == "any"  # G1.7
    assert r.initial_peeks == 2  # G1.7
    assert r.peek_constraint == "any"  # G1.7
    assert r.flip_instead_of_draw is False  # G2.1
    assert r.after_discard == "may"  # G2.2 on 6-card
    assert r.final_turns is True  # G3.1
    assert r.final_turns_stock_only is False  # G3.2
    assert r.remove_matched_lines is False  # G3.5
    assert r.knocking is False  # G4.1 off on grids
    assert r.values == "standard"  # G5.1
    assert r.joker_points == -2  # G5.1
    assert r.joker_pair_value == 0  # G5.1
    assert r.bonus_rank is None
    assert r.bonus_value == -2  # G5.1
    assert r.queen_of_spades is None
    assert r.red_king is None
    assert r.matchers == ("column",)  # G5.3
    assert r.negative_pairs_keep_value is False  # G5.3
    assert r.diagonal_pairs is False  # G5.3
    assert r.block_score is None  # G5.4
    assert r.four_in_two_columns is False  # G5.5
    for special in (
        "four_kings_side",
        "straight_bonus",
        "shoot_the_moon",
        "four_of_a_kind_wins",
        "one_eyed_jacks_wild",
    ):
        assert getattr(r, special) is False, special  # G5.6
    assert r.closer_rule == "none"  # G6
    assert r.closer_tie_counts_as_lowest is True  # G6
    assert r.closer_bonus == "none"  # G6
    assert r.memory is True  # G8.2
    assert r.end == "holes:9"  # G9.1
    assert r.match_end == ("holes", 9)
    assert r.tiebreak == "share"  # G9.2


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        # rank:   A  2  3 .. 10                      J   Q   K  JK
        ("standard", [1, -2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, -2]),
        ("wikihow-basic", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, -2]),
        ("wikihow-hard", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, -2]),
        ("jqk-0-12-13", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 12, 13, -2]),
    ],
)
def test_g5_1_value_tables(table: str, expected: list[int]) -> None:
    rules = GolfRules(values=table)
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for suit in "♠♥♦♣":
        got = [value_of(rules, rank + suit) for rank in ranks]
        assert got == expected[:13], (table, suit)
    assert value_of(rules, "JK") == expected[13]


# ---- G10 presets -------------------------------------------------------------------

# Options each preset may set away from the defaults (what the G10 table names).
PRESET_CHANGES: dict[str, set[str]] = {
    "six-card": {"layout", "match"},
    "bga": {"layout", "decks", "match", "block_score"},
    "four-card": {"layout", "match", "knock", "values", "memory"},
    "four-in-hand": {"layout", "match", "knock", "values"},
    "nine-card": {"layout", "match"},
    "nine-card-wiki": {
        "layout",
        "match",
        "jokers_per_deck",
        "joker_value",
        "block_score",
        "flip_instead_of_draw",
        "final_turns",
        "end",
    },
    "eight-card": {"layout", "match"},
    "ten-card": {"layout", "match"},
}

# What G10 says, as resolved values.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "six-card": dict(
        layout="2x3",
        flips=2,
        peeks=0,
        matchers=("column",),
        knocking=False,
        values="standard",
        final_turns=True,
        after_discard="may",
        end="holes:9",
        block_score=None,
    ),
    "bga": dict(
        layout="2x3",
        flips=2,
        matchers=("lines",),
        knocking=False,
        values="standard",
        decks="bga",
        block_score=-20,
        final_turns=True,
    ),
    "four-card": dict(
        layout="2x2",
        flips=0,
        peeks=2,
        matchers=("pairs_in_line",),
        knocking=True,
        values="wikihow-basic",
        memory=True,
        closes_by_layout=False,
    ),
    "four-in-hand": dict(
        layout="hand4",
        flips=0,
        peeks=0,
        matchers=("any_pairs",),
        knocking=True,
        values="wikihow-basic",
        closes_by_layout=False,
    ),
    "nine-card": dict(
        layout="3x3",
        flips=3,
        matchers=("column",),
        knocking=False,
        final_turns=True,
        end="holes:9",
        values="standard",
    ),
    "nine-card-wiki": dict(
        layout="3x3",
        flips=3,
        matchers=("lines", "adjacent_pairs"),
        knocking=False,
        joker_points=-4,
        jokers_per_deck=2,
        block_score=-25,
        flip_instead_of_draw=True,
        final_turns=False,
        end="target:100",
    ),
    "eight-card": dict(
        layout="2x4",
        flips=2,
        matchers=("column",),
        knocking=False,
        values="standard",
        final_turns=True,
        after_discard="may",
        end="holes:9",
    ),
    "ten-card": dict(
        layout="2x5",
        flips=2,
        matchers=("column",),
        knocking=False,
        values="standard",
        final_turns=True,
        after_discard="may",
        end="holes:9",
    ),
}


def test_g10_every_preset_is_offered() -> None:
    """G10: every preset of the table, plus the power presets cambio and powers
    (G7.2, G7.4: test_powers.py, test_powers_extended.py)."""
    assert set(PRESETS) == {*PRESET_TABLE, "cambio", "powers"}


@pytest.mark.parametrize("name", list(PRESET_TABLE))
def test_g10_preset_has_the_table_options(name: str) -> None:
    rules = find_preset(name)
    assert rules.preset == name
    for option, expected in PRESET_TABLE[name].items():
        assert getattr(rules, option) == expected, (name, option)


@pytest.mark.parametrize("name", list(PRESET_CHANGES))
def test_g10_preset_changes_nothing_else(name: str) -> None:
    mine, base = find_preset(name).options(), DEFAULTS.options()
    changed = {k for k in mine if mine[k] != base[k]}
    assert changed <= PRESET_CHANGES[name], changed - PRESET_CHANGES[name]


def test_g10_find_preset_is_case_insensitive() -> None:
    assert find_preset(" Six-Card ") is PRESETS["six-card"]


def test_g10_find_preset_unknown_lists_names() -> None:
    with pytest.raises(RulesError) as caught:
        find_preset("seven-card")
    message = str(caught.value)
    assert "'seven-card'" in message
    for name in PRESETS:
        assert name in message


# ---- auto options resolve by layout -------------------------------------------


@pytest.mark.parametrize(
    ("layout", "flips", "peeks"),
    [("2x3", 2, 0), ("3x3", 3, 0), ("2x4", 2, 0), ("2x5", 2, 0), ("2x2", 0, 2), ("hand4", 0, 0)],
)
def test_g1_7_reveal_count_by_layout(layout: str, flips: int, peeks: int) -> None:
    rules = GolfRules(layout=layout)
    assert (rules.flips, rules.peeks) == (flips, peeks)


def test_g1_7_six_card_on_3x3_flips_three() -> None:
    assert find_preset("six-card").with_options({"layout": "3x3"}).flips == 3
    bga = find_preset("bga")
    assert bga.with_options({"layout": "3x3"}).flips == 3
    closed = bga.with_options({"layout": "2x2"})
    assert (closed.flips, closed.peeks, closed.knocking) == (0, 2, True)


def test_g1_7_explicit_flips_override_auto() -> None:
    assert GolfRules(layout="3x3", initial_flips=2).flips == 2
    assert GolfRules(initial_flips="4").flips == 4


@pytest.mark.parametrize(
    ("layout", "knocking"),
    [
        ("2x2", True),
        ("hand4", True),
        ("2x3", False),
        ("3x3", False),
        ("2x4", False),
        ("2x5", False),
    ],
)
def test_g4_1_knock_auto(layout: str, knocking: bool) -> None:
    assert GolfRules(layout=layout).knocking is knocking
    if layout not in ("2x2", "hand4"):
        assert GolfRules(layout=layout, knock="on").knocking is True


@pytest.mark.parametrize(
    ("layout", "after"),
    [("2x3", "may"), ("2x4", "may"), ("2x5", "may"), ("3x3", "no"), ("2x2", "no"), ("hand4", "no")],
)
def test_g2_2_flip_after_discard_auto(layout: str, after: str) -> None:
    assert GolfRules(layout=layout).after_discard == after


def test_g2_2_flip_after_discard_explicit() -> None:
    assert GolfRules(flip_after_discard="must").after_discard == "must"
    assert GolfRules(flip_after_discard="no").after_discard == "no"
    assert GolfRules(layout="3x3", flip_after_discard="may").after_discard == "may"


def test_g5_3_match_auto() -> None:
    assert GolfRules(layout="hand4").matchers == ("any_pairs",)
    assert GolfRules(layout="3x3").matchers == ("column",)


# G1.3: (layout, decks option, players, decks used)
DECK_TABLE = [
    *[("2x3", "auto", p, 1) for p in (2, 3)],
    *[("2x3", "auto", p, 2) for p in (4, 5, 6, 7)],
    ("2x3", "auto", 8, 3),
    *[("2x4", "auto", p, d) for p, d in ((2, 1), (3, 1), (4, 2), (7, 2), (8, 3))],
    *[("2x5", "auto", p, d) for p, d in ((2, 1), (3, 1), (4, 2), (7, 2), (8, 3))],
    *[("2x2", "auto", p, 1) for p in range(2, 8)],
    ("2x2", "auto", 8, 2),
    *[("hand4", "auto", p, 1) for p in range(2, 8)],
    ("hand4", "auto", 8, 2),
    *[("3x3", "auto", p, d) for p, d in ((2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 3), (8, 3))],
    # preset bga: BGA uses 1 deck up to 5 players in 6-card, 2 decks for 6-8.
    *[("2x3", "bga", p, 1) for p in (2, 3, 4, 5)],
    *[("2x3", "bga", p, 2) for p in (6, 7, 8)],
    # BGA 9-card: 1 deck for 2/3, 2 for 4/5/6, 3 for 7/8.
    *[("3x3", "bga", p, d) for p, d in ((2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (8, 3))],
    # BGA 4-card uses 1 deck.
    *[("2x2", "bga", p, 1) for p in range(2, 8)],
    # At 8 players RULES G1.3 gives 2x2 two decks; the engine keeps that for
    # decks=bga as well (BGA's own page says "1 deck"): the engine's choice.
    ("2x2", "bga", 8, 2),
    ("2x3", 2, 2, 2),
    ("2x3", "3", 4, 3),
]


@pytest.mark.parametrize(("layout", "decks", "players", "count"), DECK_TABLE)
def test_g1_3_deck_count(layout: str, decks: str | int, players: int, count: int) -> None:
    rules = GolfRules(layout=layout, decks=decks)
    assert rules.deck_count(players) == count
    rules.check_players(players)  # every row of the table can deal


def test_g1_3_bga_preset_decks() -> None:
    bga = find_preset("bga")
    assert [bga.deck_count(p) for p in range(2, 9)] == [1, 1, 1, 1, 2, 2, 2]
    six = find_preset("six-card")
    assert [six.deck_count(p) for p in range(2, 9)] == [1, 1, 2, 2, 2, 2, 3]


def test_g1_4_jokers_grow_the_deck() -> None:
    rules = find_preset("nine-card-wiki")
    assert rules.deck_size(2) == 54
    assert rules.deck_size(4) == 108


# ---- presets plus overrides, JSON -------------------------------------------------


def test_g10_preset_plus_override() -> None:
    rules = find_preset("six-card").with_options({"closer_rule": "add_lowest"})
    assert rules.closer_rule == "add_lowest"
    assert rules.preset == "six-card"
    assert rules.layout == "2x3"
    assert rules.matchers == ("column",)
    assert rules != find_preset("six-card")
    assert rules_to_json(rules) == {"preset": "six-card", "set": {"closer_rule": "add_lowest"}}


def test_g10_record_form_of_a_preset() -> None:
    assert rules_to_json(find_preset("bga")) == {"preset": "bga"}
    assert rules_from_json({"preset": "bga"}) == find_preset("bga")
    assert rules_from_json("bga") == find_preset("bga")
    assert rules_from_json(
        {"preset": "six-card", "set": {"closer_rule": "penalty_10"}}
    ) == find_preset("six-card").with_options({"closer_rule": "penalty_10"})


OVERRIDES: list[dict[str, Any]] = [
    {},
    {"closer_rule": "add_lowest"},
    {"closer_rule": "penalty_10", "closer_bonus": "zero", "closer_tie_counts_as_lowest": False},
    {"values": "Q:13,2:2", "end": "target:50"},
    {"values": {"Q": 20, "8": 0, "JK": -5}},
    {"values": "wikihow-hard", "tiebreak": "playoff"},
    {"bonus_rank": "2", "bonus_value": -3, "queen_of_spades": 40, "red_king": -1},
    {"bonus_rank": "one_eyed_jacks"},
    {"jokers_per_deck": 2, "joker_value": 15, "joker_pair_value": -5},
    {"end": "open", "memory": False},
    {"decks": 3},
]


@pytest.mark.parametrize("name", list(PRESETS))
@pytest.mark.parametrize("overrides", OVERRIDES, ids=[str(i) for i in range(len(OVERRIDES))])
def test_json_round_trip(name: str, overrides: dict[str, Any]) -> None:
    """G10 presets plus overrides survive rules_to_json / rules_from_json (issue 2 records)."""
    rules = find_preset(name).with_options(overrides)
    data = json.loads(json.dumps(rules_to_json(rules), ensure_ascii=False))
    back = rules_from_json(data)
    assert back == rules
    assert back.options() == rules.options()
    assert back.card_values == rules.card_values
    # The full option dict is JSON too, and reads back to the same rules.
    full = json.loads(json.dumps(rules.options()))
    assert rules_from_json(full) == rules


@pytest.mark.parametrize(
    "overrides",
    [
        {"layout": "3x3"},
        {"layout": "2x2", "match": "lines"},
        {"layout": "2x4", "four_kings_side": True},
        {"layout": "3x3", "straight_bonus": "on", "match": "lines+adjacent_pairs"},
        {"remove_matched_lines": True, "final_turns_stock_only": True},
        {"four_in_two_columns": True, "shoot_the_moon": True},
        {"flip_constraint": "different_columns", "flip_after_discard": "must"},
    ],
)
def test_json_round_trip_of_grid_overrides(overrides: dict[str, Any]) -> None:
    """G1-G6 options set on a preset survive the JSON round trip."""
    rules = find_preset("six-card").with_options(overrides)
    assert rules_from_json(json.loads(json.dumps(rules_to_json(rules)))) == rules
    assert rules_from_json(json.loads(json.dumps(rules.options()))) == rules


def test_json_round_trip_of_default_rules() -> None:
    """G10: rules without a preset round-trip too."""
    assert rules_from_json(rules_to_json(DEFAULTS)) == DEFAULTS
    custom = GolfRules(layout="2x2", peek_constraint="nearest_row", closer_rule="double_plus_5")
    assert rules_from_json(json.loads(json.dumps(rules_to_json(custom)))) == custom


# ---- command-line values ------------------------------------------------------------


@pytest.mark.parametrize(
    ("option", "text", "attribute", "expected"),
    [
        ("shoot_the_moon", "on", "shoot_the_moon", True),
        ("shoot_the_moon", "off", "shoot_the_moon", False),
        ("final_turns", "false", "final_turns", False),
        ("final_turns", "true", "final_turns", True),
        ("block_score", "-20", "block_score", -20),
        ("block_score", "off", "block_score", None),
        ("jokers_per_deck", "2", "jokers_per_deck", 2),
        ("joker_value", "-4", "joker_points", -4),
        ("decks", "2", "decks", 2),
        ("decks", "bga", "decks", "bga"),
        ("knock", "on", "knocking", True),
        ("flip_after_discard", "must", "after_discard", "must"),
        ("match", "lines+adjacent_pairs", "matchers", ("lines", "adjacent_pairs")),
        ("end", "holes:18", "match_end", ("holes", 18)),
        ("end", "target:50", "match_end", ("target", 50)),
        ("end", "open", "match_end", ("open", 0)),
        ("tiebreak", "playoff", "tiebreak", "playoff"),
        ("queen_of_spades", "40", "queen_of_spades", 40),
        ("red_king", "-1", "red_king", -1),
        ("initial_flips", "3", "flips", 3),
        ("memory", "off", "memory", False),
    ],
)
def test_command_line_values(option: str, text: str, attribute: str, expected: Any) -> None:
    """RULES G intro: numbers as numbers, switches on/off (true/false), choices by name."""
    rules = DEFAULTS.with_options({option: text})
    assert getattr(rules, attribute) == expected


def test_g5_1_values_as_rank_points_over_standard() -> None:
    rules = DEFAULTS.with_options({"values": "Q:13,2:2"})
    assert value_of(rules, "Q♠") == 13
    assert value_of(rules, "2♥") == 2
    assert value_of(rules, "K♦") == 0  # standard for the rest
    assert value_of(rules, "J♣") == 10
    assert value_of(rules, "A♠") == 1
    mapping = DEFAULTS.with_options({"values": {"8": 0, "Q": 20}})
    assert value_of(mapping, "8♠") == 0
    assert value_of(mapping, "Q♥") == 20
    assert value_of(mapping, "2♥") == -2


def test_g5_1_per_card_options() -> None:
    rules = GolfRules(
        jokers_per_deck=2, joker_value=15, queen_of_spades=40, red_king=-1, bonus_rank="5"
    )
    assert value_of(rules, "JK") == 15
    assert value_of(rules, "Q♠") == 40
    assert value_of(rules, "Q♥") == 10
    assert value_of(rules, "K♥") == -1
    assert value_of(rules, "K♦") == -1
    assert value_of(rules, "K♠") == 0
    assert value_of(rules, "5♣") == -2  # bonus_value default -2
    eyed = GolfRules(bonus_rank="one_eyed_jacks", bonus_value=-3)
    assert value_of(eyed, "J♠") == -3
    assert value_of(eyed, "J♥") == -3
    assert value_of(eyed, "J♦") == 10
    assert value_of(eyed, "J♣") == 10


def test_g5_1_values_text_reads_every_cards_points() -> None:
    """G5.1, G7.4: the card values people read (``greenfelt rules golf``, the terminal's
    help) name each rank's points and every card whose suit gives it others."""
    assert DEFAULTS.values_text() == (
        "A=1 2=-2 3=3 4=4 5=5 6=6 7=7 8=8 9=9 10=10 J=10 Q=10 K=0 JK=-2 (no jokers)"
    )
    rules = GolfRules(
        jokers_per_deck=2, joker_value=15, queen_of_spades=40, red_king=-1, bonus_rank="5"
    )
    assert rules.values_text() == (
        "A=1 2=-2 3=3 4=4 5=-2 6=6 7=7 8=8 9=9 10=10 J=10 Q=10 K=0 JK=15 Q♠=40 K♥/K♦=-1"
    )
    eyed = GolfRules(bonus_rank="one_eyed_jacks", bonus_value=-3).values_text()
    assert eyed.endswith(" J=10 Q=10 K=0 JK=-2 (no jokers) J♠/J♥=-3")
    # G7.4: the Powers preset's red kings are worth -1 without the red_king option.
    assert find_preset("powers").values_text().endswith(" K♥/K♦=-1")


def test_options_cover_every_field() -> None:
    """Every option names its rule id (G1-G9) and has a line of help."""
    names = {spec.name for spec in OPTIONS}
    assert names == set(DEFAULTS.options())
    for spec in OPTIONS:
        assert spec.rule.startswith("G"), spec
        assert spec.help


def test_unknown_option_is_an_error_listing_options() -> None:
    """STYLE 7: an unknown option is a RulesError naming it and the known ones."""
    with pytest.raises(RulesError, match=r"'flips'.*closer_rule"):
        DEFAULTS.with_options({"flips": 3})
    with pytest.raises(RulesError, match="'colour'"):
        rules_from_json({"preset": "six-card", "set": {"colour": "red"}})


# ---- impossible combinations --------------------------------------------------------

IMPOSSIBLE: list[tuple[dict[str, Any], str]] = [
    ({"layout": "hand4", "match": "lines"}, r"lines needs a grid.*hand4"),
    ({"layout": "hand4", "match": "column"}, r"needs a grid"),
    ({"layout": "hand4", "match": "pairs_in_line"}, r"needs a grid"),
    ({"layout": "2x2", "knock": "off"}, r"only by a knock"),
    ({"layout": "hand4", "knock": "off"}, r"only by a knock"),
    ({"layout": "2x2", "initial_flips": 2}, r"initial_flips"),
    ({"layout": "2x3", "initial_flips": 6}, r"initial_flips must be between 0 and 5"),
    ({"initial_flips": 3, "flip_constraint": "same_column"}, r"one column of 2"),
    ({"initial_flips": 4, "flip_constraint": "different_columns"}, r"different columns of 3"),
    ({"layout": "2x2", "initial_peeks": 5}, r"initial_peeks"),
    ({"layout": "2x2", "initial_peeks": 3, "peek_constraint": "nearest_row"}, r"at most 2"),
    ({"layout": "2x2", "flip_instead_of_draw": True}, r"G2.1"),
    ({"layout": "hand4", "flip_instead_of_draw": True}, r"G2.1"),
    ({"layout": "2x2", "flip_after_discard": "must"}, r"G2.2"),
    ({"layout": "hand4", "flip_after_discard": "may"}, r"G2.2"),
    ({"diagonal_pairs": True}, r"diagonal_pairs applies only with match=pairs_in_line"),
    ({"match": "pairs_in_line", "diagonal_pairs": True}, r"square"),
    ({"layout": "2x2", "remove_matched_lines": True, "match": "column"}, r"G3.5"),
    ({"match": "adjacent_pairs", "remove_matched_lines": True}, r"column or lines"),
    ({"layout": "hand4", "block_score": -20}, r"grid"),
    ({"layout": "3x3", "four_in_two_columns": True}, r"6, 8 and 10-card"),
    ({"four_kings_side": True}, r"2x4"),
    ({"straight_bonus": True}, r"3x3"),
    ({"four_of_a_kind_wins": True}, r"2x2 and hand4"),
    ({"layout": "hand4", "one_eyed_jacks_wild": True}, r"column"),
    ({"jokers_per_deck": 1}, r"0 or 2"),
    ({"decks": 0}, r"between 1 and 8"),
    ({"decks": 9}, r"between 1 and 8"),
    ({"match": "column+pairs_in_line"}, r"can be combined"),
    ({"match": "column+column"}, r"twice"),
    ({"match": "rows"}, r"'rows' is not one of"),
    ({"values": "Z:3"}, r"'Z' is not a rank"),
    ({"values": "huge"}, r"neither a table"),
    ({"end": "holes:0"}, r"holes:N"),
    ({"end": "forever"}, r"holes:N"),
    ({"closer_rule": "penalty_30"}, r"'penalty_30' is not one of"),
    ({"layout": "4x4"}, r"'4x4' is not one of"),
    ({"final_turns": "maybe"}, r"on or off"),
    ({"block_score": "lots"}, r"whole number"),
    ({"bonus_rank": "Z"}, r"bonus_rank"),
    ({"final_turns": False, "final_turns_stock_only": True}, r"G3.2"),
]


@pytest.mark.parametrize(("overrides", "message"), IMPOSSIBLE)
def test_impossible_combination_is_a_rules_error(overrides: dict[str, Any], message: str) -> None:
    """G1-G6: every impossible combination is a RulesError saying why."""
    with pytest.raises(RulesError, match=message):
        DEFAULTS.with_options(overrides)
    with pytest.raises(RulesError, match=message):
        GolfRules(**overrides)


@pytest.mark.parametrize(
    ("rules", "players", "message"),
    [
        (GolfRules(), 1, r"2 to 8 players, not 1 \(G1\.1\)"),
        (GolfRules(), 9, r"2 to 8 players, not 9 \(G1\.1\)"),
        (GolfRules(layout="2x5", decks=1), 6, r"1 deck\(s\) of 52 cards cannot deal 6 layouts"),
        (GolfRules(layout="3x3", decks=1), 6, r"56 cards"),
        (GolfRules(layout="2x3", decks=1), 9, r"2 to 8"),
        (find_preset("bga").with_options({"layout": "2x5"}), 5, None),
        (find_preset("bga").with_options({"layout": "2x5"}), 6, None),
    ],
)
def test_g1_1_g1_3_players_and_enough_decks(
    rules: GolfRules, players: int, message: str | None
) -> None:
    """G1.1: 2 to 8 players sit at a table; G1.3: their layouts need enough decks."""
    if message is None:
        rules.check_players(players)  # 5 x 10 + 2 = 52 fits one deck exactly
        return
    with pytest.raises(RulesError, match=message):
        rules.check_players(players)


def test_g1_3_rejected_before_any_card_is_dealt() -> None:
    rules = GolfRules(layout="2x5", decks=1)
    with pytest.raises(RulesError, match="use more decks"):
        new_round(rules, 6)
    with pytest.raises(RulesError, match="use more decks"):
        GolfMatch(rules, 6)
    rules.check_players(5)


def test_rules_are_frozen_and_hashable() -> None:
    """STYLE 2: rules are an immutable value."""
    rules = find_preset("six-card")
    with pytest.raises(AttributeError):
        rules.layout = "3x3"  # type: ignore[misc]
    assert hash(rules) == hash(find_preset("six-card").with_options({}))


def test_rules_from_json_rejects_malformed() -> None:
    """G10 record form: malformed rules are RulesErrors."""
    with pytest.raises(RulesError, match="preset name or an object"):
        rules_from_json(42)
    with pytest.raises(RulesError, match="unknown key"):
        rules_from_json({"preset": "bga", "colour": "red"})
    with pytest.raises(RulesError, match="'set' must be an object"):
        rules_from_json({"preset": "bga", "set": [1, 2]})
    with pytest.raises(RulesError, match="unknown Golf preset"):
        rules_from_json({"preset": "golf-9000"})
