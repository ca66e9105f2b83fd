"""SpadesRules: options S2.4 (discards, memory) and S6.2 (target), presets and JSON."""

from __future__ import annotations

import json

import pytest

from greenfelt.errors import RulesError
from greenfelt.spades.rules import (
    OPTION_HELP,
    PRESETS,
    SpadesRules,
    describe_rules,
    find_preset,
    parse_settings,
    rules_from_json,
    rules_to_json,
    with_options,
)


def test_defaults_are_the_source_rules() -> None:
    """S2.4 discards face up with memory on; S6.2 target 500."""
    rules = SpadesRules()
    assert (rules.discards, rules.target, rules.memory) == ("face_up", 500, True)
    assert find_preset("two-player") == rules == PRESETS["two-player"]


def test_find_preset_lists_known_names() -> None:
    with pytest.raises(RulesError, match="known presets: two-player"):
        find_preset("four-player")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"discards": "sideways"}, "discards='sideways' is not one of face_up, face_down"),
        ({"target": 0}, "target=0 must be a whole number above 0"),
        ({"target": True}, "target=True"),
        ({"memory": "yes please"}, "memory='yes please' must be on or off"),
    ],
)
def test_validated_on_construction(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as info:
        SpadesRules(**options)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_frozen() -> None:
    rules = SpadesRules()
    with pytest.raises(AttributeError):
        rules.target = 300  # type: ignore[misc]


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ({"target": "300"}, SpadesRules(target=300)),
        ({"target": 250}, SpadesRules(target=250)),
        ({"memory": "off"}, SpadesRules(memory=False)),
        ({"memory": "TRUE"}, SpadesRules(memory=True)),
        ({"memory": False}, SpadesRules(memory=False)),
        ({"discards": "face-down"}, SpadesRules(discards="face_down")),
        ({"discards": "face_down", "target": "1000"}, SpadesRules("face_down", 1000)),
    ],
)
def test_with_options_accepts_json_and_command_line_values(
    settings: dict[str, object], expected: SpadesRules
) -> None:
    assert with_options(SpadesRules(), settings) == expected


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"trump": "hearts"}, "unknown spades option 'trump'; options: discards, target, memory"),
        ({"target": "lots"}, "target='lots'"),
        ({"target": "-5"}, "target=-5"),
        ({"target": 300.5}, "target=300.5"),
        ({"memory": 1}, "memory=1"),
        ({"discards": 3}, "discards=3"),
    ],
)
def test_with_options_rejects(settings: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as info:
        with_options(SpadesRules(), settings)
    assert message in str(info.value)


def test_json_round_trip_and_pinned_form() -> None:
    """Records write the plain rules as {"preset": "two-player"} (issue 3)."""
    assert rules_to_json(SpadesRules()) == {"preset": "two-player"}
    changed = SpadesRules(discards="face_down", target=300, memory=False)
    obj = rules_to_json(changed)
    assert obj == {
        "preset": "two-player",
        "set": {"discards": "face_down", "target": 300, "memory": False},
    }
    assert rules_from_json(json.loads(json.dumps(obj))) == changed
    assert rules_from_json({"preset": "two-player", "set": {"target": 300}}).target == 300
    assert rules_from_json({"set": {"memory": "off"}}) == SpadesRules(memory=False)
    assert rules_from_json("two-player") == SpadesRules()


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "must be a JSON object"),
        ({"preset": "nope"}, "known presets: two-player"),
        ({"preset": 3}, "preset must be a name"),
        ({"set": ["target"]}, "set must be an object"),
        ({"preset": "two-player", "options": {}}, "unknown key(s) options"),
        ({"set": {"target": "x"}}, "target='x'"),
    ],
)
def test_rules_from_json_rejects(obj: object, message: str) -> None:
    with pytest.raises(RulesError) as info:
        rules_from_json(obj)
    assert message in str(info.value)


def test_parse_settings() -> None:
    assert parse_settings(["target=300", " memory = off "]) == {"target": "300", "memory": "off"}
    with pytest.raises(RulesError, match="write name=value"):
        parse_settings(["target"])


def test_every_option_is_explained() -> None:
    """One line per option for `greenfelt rules spades`, citing its rule id."""
    lines = describe_rules(SpadesRules(memory=False))
    assert len(lines) == len(OPTION_HELP) == 3
    assert lines[0].startswith("discards = face_up")
    assert lines[2].startswith("memory   = off    ")
    assert all("S2.4" in OPTION_HELP[n] for n in ("discards", "memory"))
    assert "S6.2" in OPTION_HELP["target"]


def test_new_hand_from_rules() -> None:
    """STYLE 2: the rules value creates the state, which knows its rules."""
    from greenfelt.cards import make_deck

    rules = SpadesRules(target=300)
    hand = rules.new_hand(dealer=1, deck=make_deck())
    assert hand.rules is rules and hand.dealer == 1 and hand.to_move == 0
