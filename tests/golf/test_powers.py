"""Card powers (RULES G7): cambio, BGA's powers, cutthroat, jack skips.

Scenario tests from stacked decks for each power, and the conformance suite
and leak detector over the power presets (powers change who knows what, so
they test the information model to its core).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from greenfelt.cards import make_deck, parse_card, parse_cards
from greenfelt.errors import IllegalAction, RulesError
from greenfelt.golf import GolfMatch, find_preset, new_round, parse_action
from greenfelt.golf.actions import Kind
from greenfelt.record import dumps, match_record, replay

POWER_RULES = {
    "cambio": ("cambio", {}),
    "cambio-jokers": ("cambio", {"jokers_per_deck": 2}),
    "cambio-2x3": ("cambio", {"layout": "2x3"}),
    "bga-powers": ("bga", {"powers": "bga"}),
    "bga-powers-3x3": ("bga", {"powers": "bga", "layout": "3x3"}),
    "bga-powers-2x2": ("bga", {"powers": "bga", "layout": "2x2"}),
    "cutthroat-jacks": ("six-card", {"cutthroat": "on", "jack_skips": "on"}),
    "powers": ("powers", {}),
    "powers-3x3-jokers": ("powers", {"layout": "3x3", "jokers_per_deck": 2}),
}


def rules_of(name: str) -> Any:
    preset, options = POWER_RULES[name]
    return find_preset(preset).with_options(options) if options else find_preset(preset)


def stacked(rules: Any, players: int, layouts: list[str], discard: str, stock: str) -> list[Any]:
    """A deck dealing ``layouts`` (seat order, dealer 0), then the discard, then ``stock``."""
    size = rules.shape.size
    hands = [parse_cards(text.replace("/", " ")) for text in layouts]
    order = []
    for pos in range(size):
        for i in range(players):
            order.append(hands[(1 + i) % players][pos])
    order.append(parse_card(discard))
    order += parse_cards(stock)
    rest = Counter(make_deck(rules.deck_count(players), rules.jokers_per_deck))
    rest.subtract(Counter(order))
    return order + sorted(rest.elements())


def biased(game: Any, rng: random.Random) -> Any:
    """Random play that uses powers often, so the tests meet them."""
    legal = game.legal_actions()
    powers = [a for a in legal if a.kind is Kind.POWER]
    if powers and rng.random() < 0.7:
        return rng.choice(powers)
    if any(str(a) == "draw" for a in legal) and rng.random() < 0.8:
        return parse_action("draw")
    calm = [a for a in legal if str(a) != "knock"]  # knock now and then: long rounds
    return rng.choice(calm if calm and rng.random() < 0.95 else legal)


# ---- rules --------------------------------------------------------------------------


def test_g7_presets_and_knocking() -> None:
    """G7: with powers on, knocking is enabled in every layout; cambio is 2x2 peek 2."""
    cambio = find_preset("cambio")
    assert (cambio.layout, cambio.peeks, cambio.powers, cambio.knocking) == (
        "2x2",
        2,
        "cambio",
        True,
    )
    bga = find_preset("bga").with_options({"powers": "bga"})
    assert bga.knocking and bga.closes_by_layout  # G7: a face-up layout still closes
    assert not find_preset("bga").knocking


def test_g7_4_extended_powers_are_available() -> None:
    """G7.4: powers=powers is a real option (its own suite: test_powers_extended.py)."""
    rules = find_preset("six-card").with_options({"powers": "powers"})
    assert rules.closed and rules.knocking and not rules.closes_by_layout
    with pytest.raises(RulesError, match=r"G7\.4"):
        rules.with_options({"cutthroat": "on"})


def test_g7_powers_need_positions() -> None:
    with pytest.raises(RulesError, match="hand4"):
        find_preset("four-in-hand").with_options({"powers": "cambio"})


def test_g7_5_g7_6_values() -> None:
    """G7.5 kings 15 with cutthroat; G7.6 jacks 20 with jack skips."""
    rules = find_preset("six-card").with_options({"cutthroat": "on", "jack_skips": "on"})
    assert rules.card_values[parse_card("K♠")] == 15
    assert rules.card_values[parse_card("J♥")] == 20


# ---- scenarios -------------------------------------------------------------------------


def cambio_round(stock: str, **options: Any) -> Any:
    rules = find_preset("cambio").with_options(options) if options else find_preset("cambio")
    deck = stacked(rules, 2, ["A♠ 2♠ / 3♠ 4♠", "5♥ 6♥ / 7♥ 8♥"], "9♣", stock)
    game = new_round(rules, 2, 0, deck)
    for text in ("peek 0", "peek 1", "peek 2", "peek 3"):  # seat 1, then seat 0
        game.apply(text)
    return game


def test_g7_1_power_only_from_the_stock_and_optional() -> None:
    """G7.1: a power card drawn from the stock may be kept, discarded, or used."""
    game = cambio_round("J♦")
    game.apply("draw")  # seat 1 draws J♦
    legal = [str(a) for a in game.legal_actions()]
    assert "discard" in legal and "swap 0" in legal
    # J: your own face-down cards you have not seen yet (seat 1 peeked 0 and 1)
    assert {a for a in legal if a.startswith("power")} == {"power peek 1:2", "power peek 1:3"}


def test_g7_1_power_card_from_the_discard_pile_is_a_normal_card() -> None:
    game = cambio_round("2♦ Q♦")
    game.apply("draw")
    game.apply("discard")  # seat 1 puts 2♦ on the pile
    game.apply("take")  # seat 0 takes it: no power
    assert all(a.kind is not Kind.POWER for a in game.legal_actions())


def test_g7_2_cambio_jack_peeks_own_card() -> None:
    game = cambio_round("J♦")
    game.apply("draw")
    assert game.view(1)["layouts"][1]["cards"][2] == "??"  # seat 1 peeked 0 and 1
    game.apply("power peek 1:2")
    assert game.view(1)["layouts"][1]["cards"][2] == "7♥"
    assert game.view(0)["layouts"][1]["cards"][2] == "??"
    assert game.discard[-1] == parse_card("J♦")  # the power card is discarded
    assert game.to_move == 0


def test_g7_2_cambio_queen_peeks_an_opponent() -> None:
    game = cambio_round("Q♦")
    game.apply("draw")
    game.apply("power peek 0:3")
    assert game.view(1)["layouts"][0]["cards"][3] == "4♠"
    assert game.view(None)["layouts"][0]["cards"][3] == "??"


def test_g7_2_cambio_king_swaps_unseen_and_knowledge_follows_the_cards() -> None:
    game = cambio_round("K♦")
    game.apply("draw")  # seat 1 knows its 5♥ (position 0); seat 0 knows its 3♠ (2) and 4♠
    game.apply("power swap 1:0 0:2")
    assert game.layout(1)[0] == parse_card("3♠") and game.layout(0)[2] == parse_card("5♥")
    assert game.view(1)["layouts"][0]["cards"][2] == "5♥"  # seat 1 knows where its 5♥ went
    assert game.view(1)["layouts"][1]["cards"][0] == "??"  # but not what it received
    assert game.view(0)["layouts"][1]["cards"][0] == "3♠"  # seat 0 knows its 3♠ moved
    assert game.view(0)["layouts"][0]["cards"][2] == "??"


def test_g7_2_cambio_king_must_swap_with_an_opponent() -> None:
    game = cambio_round("K♦")
    game.apply("draw")
    with pytest.raises(IllegalAction):
        game.apply("power swap 1:0 1:1")


def test_g7_2_cambio_joker_shuffles_an_opponent_and_nobody_knows() -> None:
    game = cambio_round("JK", jokers_per_deck=2)
    game.apply("draw")
    before = sorted(game.layout(0))
    game.apply("power shuffle 0")
    assert sorted(game.layout(0)) == before
    assert len(game.shuffles) == 1
    assert game.view(0)["layouts"][0]["cards"] == ["??"] * 4  # seat 0 lost track


def test_g7_3_bga_king_swaps_any_two_cards_keeping_faces() -> None:
    rules = find_preset("bga").with_options({"powers": "bga"})
    deck = stacked(rules, 2, ["A♠ 2♠ 3♠ / 4♠ 5♠ 6♠", "5♥ 6♥ 7♥ / 8♥ 9♥ 10♥"], "9♣", "K♦")
    game = new_round(rules, 2, 0, deck)
    for text in ("flip 0", "flip 1", "flip 0", "flip 1"):
        game.apply(text)
    game.apply("draw")
    assert "power swap 0:0 0:5" in {str(a) for a in game.legal_actions()}  # same layout too
    game.apply("power swap 1:0 0:5")
    assert game.layout(1)[0] == parse_card("6♠") and game.layout(0)[5] == parse_card("5♥")
    assert game.view(0)["layouts"][0]["face_up"][5] is True  # the card kept its face
    assert game.view(1)["layouts"][1]["face_up"][0] is False
    assert game.view(1)["layouts"][1]["cards"][0] == "??"


def test_g4_3_knocker_layout_is_frozen() -> None:
    """G4.3: after a knock, no power may target the knocker's layout."""
    game = cambio_round("Q♦ K♦")
    game.apply("knock")  # seat 1 knocks
    game.apply("draw")  # seat 0 draws Q♦
    assert not any(a.kind is Kind.POWER for a in game.legal_actions())


def test_g7_5_cutthroat_king_for_a_face_up_card() -> None:
    rules = find_preset("six-card").with_options({"cutthroat": "on"})
    deck = stacked(rules, 2, ["A♠ 2♠ 3♠ / 4♠ 5♠ 6♠", "5♥ 6♥ 7♥ / 8♥ 9♥ 10♥"], "9♣", "K♦")
    game = new_round(rules, 2, 0, deck)
    for text in ("flip 0", "flip 1", "flip 0", "flip 1"):
        game.apply(text)
    game.apply("draw")  # seat 1 holds K♦
    legal = {str(a) for a in game.legal_actions()}
    assert "power give 0:0" in legal and "power give 0:2" not in legal  # face-up only
    game.apply("power give 0:1")
    assert game.layout(0)[1] == parse_card("K♦")
    assert game.held == parse_card("2♠")
    assert {str(a) for a in game.legal_actions()} == {f"swap {p}" for p in range(6)}
    game.apply("swap 3")
    assert game.layout(1)[3] == parse_card("2♠")


def test_g7_6_discarded_jack_skips_the_next_player() -> None:
    rules = find_preset("six-card").with_options({"jack_skips": "on"})
    deck = stacked(
        rules, 3, ["A♠ 2♠ 3♠ / 4♠ 5♠ 6♠", "5♥ 6♥ 7♥ / 8♥ 9♥ 10♥", "A♦ 2♦ 3♦ / 4♦ 5♦ 6♦"], "9♣", "J♣"
    )
    game = new_round(rules, 3, 0, deck)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    assert game.to_move == 1
    game.apply("draw")
    game.apply("discard")
    game.apply("pass")
    assert game.to_move == 0  # seat 2 lost its turn


# ---- conformance and leaks over every power rule set ---------------------------------------


@pytest.mark.parametrize("name", list(POWER_RULES))
@pytest.mark.parametrize("players", [2, 4])
def test_power_conformance_replay_and_leaks(name: str, players: int) -> None:
    """STYLE 12/13 over the power rules: conservation, legality, replay, no leak."""
    rules = rules_of(name).with_options({"end": "holes:2"})
    rng = random.Random(f"{name}:{players}")
    used = Counter()
    match = GolfMatch(rules, players)
    checked = 0
    while not match.is_over:
        match.start_round(rng=rng)
        game = match.current
        deck = Counter(game.deck)
        while not game.is_over:
            for seat in range(players):
                if seat != game.to_move:
                    assert game.legal_actions(seat) == []
                view = game.view(seat)
                twin = game.determinize(seat, random.Random(checked))
                assert twin.view(seat) == view, f"{name}: seat {seat} sees a difference"
                checked += 1
            cards = [c for c in game.cards if c is not None] + game.stock + game.discard
            cards += [game.held] if game.held is not None else []
            cards += [card for card, _ in game.choice]  # G7.4: an 8's offer
            assert Counter(cards) == deck
            action = biased(game, rng)
            assert parse_action(str(action)) == action
            if action.kind is Kind.POWER:
                used[action.power] += 1
            match.apply(str(action))
    assert used, "no power was used"
    again = replay(json.loads(dumps(match_record("golf", match))))
    assert again.totals == match.totals
    for seat in range(players):
        assert again.match.view(seat) == match.view(seat)
