"""Scenario tests of a Golf round and match from stacked decks (RULES G1-G4, G8, G9)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from typing import Any

import pytest

from greenfelt.cards import make_deck, parse_cards
from greenfelt.errors import IllegalAction, NotationError, NotYourTurn, RecordError
from greenfelt.golf.actions import DISCARD, DRAW, FLIP, KNOCK, PASS, PEEK, SWAP, TAKE, parse_action
from greenfelt.golf.game import GolfRound, new_round
from greenfelt.golf.match import GolfMatch
from greenfelt.golf.rules import GolfRules, find_preset
from tests.golf.conftest import (
    cards_in_play,
    deal_slots,
    full_deck,
    play,
    stacked_deck,
    stacked_round,
    texts_of,
)

SIX = find_preset("six-card")
FOUR = find_preset("four-card")
HAND = find_preset("four-in-hand")


def legal(rnd: GolfRound) -> list[str]:
    return [str(a) for a in rnd.legal_actions()]


def cards_seen(rnd: GolfRound, seat: int | None, owner: int) -> list[str | None]:
    return list(rnd.view(seat)["layouts"][owner]["cards"])


def reveal_all(rnd: GolfRound, positions: tuple[int, ...] = (0, 1)) -> None:
    """Every seat flips (or peeks at) ``positions`` in the reveal step (G1.7)."""
    verb = "peek" if rnd.rules.closed else "flip"
    while rnd.view(None)["phase"] == "reveal":
        seat = rnd.to_move
        assert seat is not None
        for p in positions:
            rnd.apply(f"{verb} {p}", seat)


def six_card_closing(rules: GolfRules = SIX) -> GolfRound:
    """Two players, dealer 0: seat 1 fills its layout face up in four turns."""
    return stacked_round(
        rules,
        2,
        0,
        layouts={1: "A♠ 2♠ 3♠ / 4♠ 5♠ 6♠", 0: "A♥ 2♥ 3♥ / 4♥ 5♥ 6♥"},
        discard="K♣",
        stock="7♣ 8♣ 9♣ 10♣ J♣ Q♣ 7♦ 8♦ 9♦ 10♦",
    )


def close_by_seat_one(rnd: GolfRound) -> None:
    """Seat 1 swaps into 2, 3, 4, 5 while seat 0 draws and discards."""
    play(rnd, [(1, "flip 0"), (1, "flip 1"), (0, "flip 0"), (0, "flip 1")])
    for pos in (2, 3, 4):
        play(rnd, [(1, "draw"), (1, f"swap {pos}"), (0, "draw"), (0, "discard"), (0, "pass")])
    play(rnd, [(1, "draw"), (1, "swap 5")])


# ---- G1.5 dealing -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (3, 1), (4, 3)])
def test_g1_5_exact_deal_from_an_unshuffled_deck(players: int, dealer: int) -> None:
    deck = make_deck(SIX.deck_count(players))
    rnd = new_round(SIX, players, dealer, deck)
    for seat in range(players):
        # One card at a time, clockwise from the dealer's left, row-major.
        offset = (seat - dealer - 1) % players
        expected = [deck[pos * players + offset] for pos in range(6)]
        assert rnd.layout(seat) == expected
    dealt = players * 6
    view = rnd.view(None)
    assert view["discard"] == [str(deck[dealt])]
    assert view["stock"] == len(deck) - dealt - 1
    assert rnd.deck == tuple(deck)
    # The stock's first card is drawn next.
    reveal_all(rnd)
    mover = rnd.to_move
    rnd.apply("draw", mover)
    assert rnd.view(mover)["held"] == str(deck[dealt + 1])


def test_g1_5_stacked_deck_helper_deals_what_it_is_asked() -> None:
    deck = stacked_deck(SIX, 3, 2, layouts={0: "K♠ ?? ?? / ?? ?? 2♣"}, discard="5♦", stock="9♥")
    assert sorted(deck) == sorted(make_deck())
    slots = deal_slots(SIX, 3, 2)
    assert slots[0] == (0, 0)  # seat 0 is left of dealer 2
    rnd = new_round(SIX, 3, 2, deck)
    assert str(rnd.layout(0)[0]) == "K♠"
    assert str(rnd.layout(0)[5]) == "2♣"
    assert rnd.view(None)["discard"] == ["5♦"]


def test_g1_5_a_deck_that_is_not_the_rules_decks_is_rejected() -> None:
    deck = make_deck()
    with pytest.raises(NotationError, match="51 cards"):
        new_round(SIX, 2, 0, deck[:-1])
    doubled = [*deck[:-1], deck[0]]
    with pytest.raises(NotationError, match=r"missing K♣.*extra A♠"):
        new_round(SIX, 2, 0, doubled)


# ---- G1.6, G1.7 who moves first, the reveal step ------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_g1_6_first_player_is_left_of_the_dealer(dealer: int) -> None:
    rnd = new_round(SIX, 4, dealer, make_deck(2))
    assert rnd.to_move == (dealer + 1) % 4
    reveal_all(rnd)
    assert rnd.view(None)["phase"] == "turn"
    assert rnd.to_move == (dealer + 1) % 4


def test_g1_7_reveal_in_turn_order() -> None:
    rnd = new_round(SIX, 3, 0, make_deck())
    order = []
    while rnd.view(None)["phase"] == "reveal":
        seat = rnd.to_move
        assert seat is not None
        order.append((seat, rnd.view(seat)["reveal_left"]))
        rnd.apply(f"flip {3 - len(order) % 2 * 3}", seat)
    assert order == [(1, 2), (1, 1), (2, 2), (2, 1), (0, 2), (0, 1)]
    assert rnd.to_move == 1
    for seat in range(3):
        assert rnd.view(None)["layouts"][seat]["face_up"] == [True, False, False] * 2


def test_g1_7_nine_card_flips_three() -> None:
    rnd = new_round(find_preset("nine-card"), 2, 0, make_deck())
    for _ in range(3):
        assert rnd.to_move == 1
        rnd.apply(rnd.legal_actions()[0])
    assert rnd.to_move == 0
    assert sum(rnd.view(None)["layouts"][1]["face_up"]) == 3


@pytest.mark.parametrize(
    ("constraint", "first", "allowed"),
    [
        ("any", 0, ["flip 1", "flip 2", "flip 3", "flip 4", "flip 5"]),
        ("same_column", 0, ["flip 3"]),
        ("same_column", 4, ["flip 1"]),
        ("different_columns", 0, ["flip 1", "flip 2", "flip 4", "flip 5"]),
        ("different_columns", 5, ["flip 0", "flip 1", "flip 3", "flip 4"]),
    ],
)
def test_g1_7_flip_constraint(constraint: str, first: int, allowed: list[str]) -> None:
    rules = SIX.with_options({"flip_constraint": constraint})
    rnd = new_round(rules, 2, 0, make_deck())
    assert len(rnd.legal_actions()) == 6
    rnd.apply(f"flip {first}", 1)
    assert legal(rnd) == allowed
    forbidden = sorted(set(range(6)) - {first} - {int(a.split()[1]) for a in allowed})
    for pos in forbidden:
        with pytest.raises(IllegalAction, match=f"flip_constraint={constraint}"):
            rnd.apply(f"flip {pos}", 1)
    # The constraint starts afresh for the next player.
    rnd.apply(allowed[0], 1)
    assert rnd.to_move == 0
    assert len(rnd.legal_actions()) == 6


def test_g1_7_different_columns_on_3x3() -> None:
    rules = find_preset("nine-card").with_options({"flip_constraint": "different_columns"})
    rnd = new_round(rules, 2, 0, make_deck())
    play(rnd, [(1, "flip 0"), (1, "flip 4")])
    assert legal(rnd) == ["flip 2", "flip 5", "flip 8"]


def test_g1_7_closed_golf_peeks_stay_face_down() -> None:
    rnd = stacked_round(FOUR, 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    assert legal(rnd) == ["peek 0", "peek 1", "peek 2", "peek 3"]
    rnd.apply("peek 1", 1)
    assert legal(rnd) == ["peek 0", "peek 2", "peek 3"]
    with pytest.raises(IllegalAction, match="already peeked at position 1"):
        rnd.apply("peek 1", 1)
    assert cards_seen(rnd, 1, 1) == ["??", "2♠", "??", "??"]
    assert cards_seen(rnd, 0, 1) == ["??"] * 4
    assert cards_seen(rnd, None, 1) == ["??"] * 4
    assert rnd.view(1)["layouts"][1]["face_up"] == [False] * 4
    rnd.apply("peek 2", 1)
    assert rnd.to_move == 0
    play(rnd, [(0, "peek 0"), (0, "peek 3")])
    assert rnd.view(None)["phase"] == "turn"
    assert rnd.to_move == 1
    assert cards_seen(rnd, 0, 0) == ["A♥", "??", "??", "4♥"]
    assert cards_seen(rnd, 1, 0) == ["??"] * 4


def test_g1_7_peek_constraint_nearest_row() -> None:
    rules = FOUR.with_options({"peek_constraint": "nearest_row"})
    rnd = new_round(rules, 2, 0, make_deck())
    assert legal(rnd) == ["peek 2", "peek 3"]
    with pytest.raises(IllegalAction, match="nearest_row"):
        rnd.apply("peek 0", 1)
    rnd.apply("peek 3", 1)
    assert legal(rnd) == ["peek 2"]


def test_g1_7_hand4_sees_all_four_at_once() -> None:
    rnd = stacked_round(HAND, 2, 0, layouts={1: "A♠ 2♠ 3♠ 4♠", 0: "A♥ 2♥ 3♥ 4♥"})
    assert rnd.view(None)["phase"] == "turn"
    assert rnd.to_move == 1
    assert cards_seen(rnd, 1, 1) == ["A♠", "2♠", "3♠", "4♠"]
    assert cards_seen(rnd, 0, 0) == ["A♥", "2♥", "3♥", "4♥"]
    assert cards_seen(rnd, 0, 1) == ["??"] * 4
    assert cards_seen(rnd, None, 0) == ["??"] * 4


# ---- G2 a turn ----------------------------------------------------------------------


def test_g2_1_turn_options() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    assert legal(rnd) == ["draw", "take"]
    knocking = six_card_closing(SIX.with_options({"knock": "on"}))
    reveal_all(knocking)
    assert legal(knocking) == ["draw", "take", "knock"]


def test_g2_1_flip_instead_of_draw() -> None:
    rules = find_preset("nine-card-wiki")
    rnd = new_round(rules, 2, 0, make_deck(1, 2))
    reveal_all(rnd, (0, 1, 2))
    assert legal(rnd) == ["draw", "take", *[f"flip {p}" for p in range(3, 9)]]
    before = rnd.view(None)
    rnd.apply("flip 8", 1)
    after = rnd.view(None)
    assert after["layouts"][1]["face_up"][8] is True
    assert after["layouts"][1]["cards"][8] == str(rnd.layout(1)[8])
    assert after["stock"] == before["stock"]
    assert after["discard"] == before["discard"]
    assert rnd.to_move == 0


def test_g2_1_flip_instead_of_draw_off() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    with pytest.raises(IllegalAction, match="flipping instead of drawing is off"):
        rnd.apply("flip 3", 1)


def test_g2_2_swap_keeps_the_position_and_discards_face_up() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    play(rnd, [(1, "draw")])
    assert rnd.view(1)["held"] == "7♣"
    assert rnd.view(1)["held_from"] == "stock"
    rnd.apply("swap 4", 1)
    view = rnd.view(0)
    assert view["layouts"][1]["cards"][4] == "7♣"
    assert view["layouts"][1]["face_up"][4] is True
    assert view["discard"] == ["K♣", "5♠"]
    assert view["held"] is None
    assert rnd.to_move == 0
    # A face-up card may be swapped too.
    play(rnd, [(0, "draw"), (0, "swap 0")])
    assert rnd.view(None)["layouts"][0]["cards"][0] == "8♣"
    assert rnd.view(None)["discard"][-1] == "A♥"


def test_g2_2_flip_after_discard_may() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    play(rnd, [(1, "draw"), (1, "discard")])
    view = rnd.view(1)
    assert view["phase"] == "flip"
    assert view["discard"][-1] == "7♣"
    assert view["legal"] == ["flip 2", "flip 3", "flip 4", "flip 5", "pass"]
    assert rnd.to_move == 1
    rnd.apply("pass", 1)
    assert rnd.to_move == 0
    assert rnd.view(None)["layouts"][1]["face_up"] == [True, True, False, False, False, False]
    play(rnd, [(0, "draw"), (0, "discard"), (0, "flip 4")])
    assert rnd.view(None)["layouts"][0]["face_up"] == [True, True, False, False, True, False]
    assert rnd.view(None)["layouts"][0]["cards"][4] == "5♥"
    assert rnd.to_move == 1


def test_g2_2_flip_after_discard_must() -> None:
    rnd = six_card_closing(SIX.with_options({"flip_after_discard": "must"}))
    reveal_all(rnd)
    play(rnd, [(1, "draw"), (1, "discard")])
    assert legal(rnd) == ["flip 2", "flip 3", "flip 4", "flip 5"]
    with pytest.raises(IllegalAction, match="pass is not possible during the flip after a discard"):
        rnd.apply("pass", 1)
    rnd.apply("flip 2", 1)
    assert rnd.to_move == 0


def test_g2_2_flip_after_discard_no() -> None:
    rnd = six_card_closing(SIX.with_options({"flip_after_discard": "no"}))
    reveal_all(rnd)
    play(rnd, [(1, "draw"), (1, "discard")])
    assert rnd.to_move == 0
    assert rnd.view(None)["phase"] == "turn"
    assert legal(rnd) == ["draw", "take"]


def test_g2_3_a_taken_card_cannot_be_discarded() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    rnd.apply("take", 1)
    view = rnd.view(0)
    assert view["held"] == "K♣"  # everyone saw it (G2.1)
    assert view["held_from"] == "discard"
    assert view["discard"] == []
    assert legal(rnd) == [f"swap {p}" for p in range(6)]
    with pytest.raises(IllegalAction, match=r"must be swapped into your layout \(G2.3\)"):
        rnd.apply("discard", 1)
    rnd.apply("swap 5", 1)
    assert rnd.view(0)["discard"] == ["6♠"]
    assert rnd.view(0)["layouts"][1]["cards"][5] == "K♣"


def test_g2_4_closed_golf_places_face_down() -> None:
    rnd = stacked_round(
        FOUR,
        2,
        0,
        layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"},
        discard="K♣",
        stock="Q♦ J♦ 9♦",
    )
    reveal_all(rnd, (2, 3))
    play(rnd, [(1, "draw"), (1, "swap 0")])
    own = rnd.view(1)["layouts"][1]
    assert own["cards"] == ["Q♦", "??", "3♠", "4♠"]
    assert own["face_up"] == [False] * 4
    assert cards_seen(rnd, 0, 1) == ["??"] * 4
    assert rnd.view(0)["discard"] == ["K♣", "A♠"]
    # A card from the discard pile was seen by all (G8.1): it goes face down,
    # and every seat may know it (the engine's reading).
    play(rnd, [(0, "take"), (0, "swap 1")])
    assert rnd.view(0)["layouts"][0]["cards"][1] == "A♠"
    assert rnd.view(1)["layouts"][0]["cards"][1] == "A♠"
    assert rnd.view(1)["layouts"][0]["face_up"] == [False] * 4
    # G8.2 memory on: the interface stops showing a face-down card to its owner.
    assert rnd.view(1, recall=False)["layouts"][1]["cards"] == ["??"] * 4


def test_g2_4_hand4_card_joins_the_hand() -> None:
    rnd = stacked_round(
        HAND,
        2,
        0,
        layouts={1: "A♠ 2♠ 3♠ 4♠", 0: "A♥ 2♥ 3♥ 4♥"},
        discard="K♣",
        stock="Q♦ J♦",
    )
    play(rnd, [(1, "draw")])
    assert legal(rnd) == ["swap 0", "swap 1", "swap 2", "swap 3", "discard"]
    rnd.apply("swap 2", 1)
    assert cards_seen(rnd, 1, 1) == ["A♠", "2♠", "Q♦", "4♠"]
    assert cards_seen(rnd, 0, 1) == ["??"] * 4
    assert rnd.view(0)["discard"] == ["K♣", "3♠"]
    with pytest.raises(IllegalAction, match="position 4 is outside a hand of 4"):
        play(rnd, [(0, "draw"), (0, "swap 4")])


def four_card_long_game() -> tuple[GolfRound, list[Any]]:
    """Two players only draw and discard until the stock has been reshuffled twice."""
    rnd = new_round(FOUR, 2, 0, make_deck())
    reveal_all(rnd, (2, 3))
    while len(rnd.reshuffles) < 2:
        seat = rnd.to_move
        assert seat is not None
        play(rnd, [(seat, "draw"), (seat, "discard")])
    return rnd, rnd.actions


def test_g2_5_stock_exhausted_reshuffles_the_discard_pile() -> None:
    rnd = new_round(FOUR, 2, 0, make_deck())
    reveal_all(rnd, (2, 3))
    assert rnd.view(None)["stock"] == 43
    for _ in range(43):
        seat = rnd.to_move
        assert seat is not None
        play(rnd, [(seat, "draw"), (seat, "discard")])
    before = rnd.view(None)
    assert before["stock"] == 0
    assert len(before["discard"]) == 44
    assert rnd.reshuffles == []
    seat = rnd.to_move
    assert seat is not None
    rnd.apply("draw", seat)
    assert len(rnd.reshuffles) == 1
    order = rnd.reshuffles[0]
    # Everything but the top card of the pile became the new stock...
    assert Counter(str(c) for c in order) == Counter(before["discard"][:-1])
    after = rnd.view(seat)
    assert after["discard"] == before["discard"][-1:]
    assert after["stock"] == 42
    assert after["reshuffles"] == 1
    # ... in the recorded order, top first.
    assert after["held"] == str(order[0])
    assert cards_in_play(rnd) == full_deck(FOUR, 2)


def test_g2_5_recorded_reshuffles_replay_exactly() -> None:
    rnd, actions = four_card_long_game()
    replay = new_round(FOUR, 2, 0, rnd.deck, reshuffles=rnd.reshuffles)
    play(replay, [(seat, str(a)) for seat, a in actions])
    assert replay.reshuffles == rnd.reshuffles
    for seat in (0, 1, None):
        assert replay.view(seat) == rnd.view(seat)


def test_g2_5_a_reshuffle_that_does_not_fit_is_a_record_error() -> None:
    rnd, actions = four_card_long_game()
    assert rnd.deck is not None
    bad = [list(rnd.reshuffles[0][:-1])]  # one card short
    replay = new_round(FOUR, 2, 0, rnd.deck, reshuffles=bad)
    done = 0
    with pytest.raises(RecordError, match="recorded reshuffle 1 is not the discard pile"):
        for seat, action in actions:
            replay.apply(str(action), seat)
            done += 1
    # The draw that needed the reshuffle changed nothing.
    assert len(replay.actions) == done
    assert replay.view(None)["stock"] == 0
    assert replay.reshuffles == []


# ---- G3 closing ----------------------------------------------------------------------


def test_g3_1_closing_and_final_turns() -> None:
    rnd = six_card_closing()
    close_by_seat_one(rnd)
    view = rnd.view(None)
    assert view["closer"] == 1
    assert view["phase"] == "turn"
    assert view["final_turns_left"] == 1
    assert rnd.to_move == 0
    assert not rnd.is_over
    assert legal(rnd) == ["draw", "take"]
    play(rnd, [(0, "draw"), (0, "swap 2")])
    assert rnd.is_over
    assert rnd.to_move is None
    assert rnd.legal_actions() == []
    # seat 1: A♠ 2♠ 7♣ / 9♣ J♣ 7♦ (the 7s cancel) = 18; seat 0: A♥ 2♥ 8♦ / 4♥ 5♥ 6♥ = 22.
    assert rnd.scores == [22, 18]
    assert rnd.result is not None
    assert rnd.result.closer == 1


def test_g3_1_final_turns_off_ends_at_once() -> None:
    rnd = six_card_closing(SIX.with_options({"final_turns": False}))
    close_by_seat_one(rnd)
    assert rnd.is_over
    assert rnd.scores == [17, 18]
    assert rnd.result is not None and rnd.result.closer == 1


def test_g3_1_every_other_player_has_exactly_one_more_turn() -> None:
    rnd = new_round(SIX, 3, 0, make_deck())
    reveal_all(rnd)
    turns: list[int] = []
    while rnd.view(None)["closer"] is None:
        seat = rnd.to_move
        assert seat is not None
        if seat == 2:
            down = rnd.view(None)["layouts"][2]["face_up"].index(False)
            play(rnd, [(2, "draw"), (2, f"swap {down}")])
        else:
            play(rnd, [(seat, "draw"), (seat, "discard"), (seat, "pass")])
    assert rnd.view(None)["closer"] == 2
    while not rnd.is_over:
        seat = rnd.to_move
        assert seat is not None
        turns.append(seat)
        play(rnd, [(seat, "draw"), (seat, "discard"), (seat, "pass")])
    assert turns == [0, 1]


def test_g3_1_closing_by_the_flip_after_a_discard() -> None:
    rnd = six_card_closing()
    play(rnd, [(1, "flip 0"), (1, "flip 1"), (0, "flip 0"), (0, "flip 1")])
    for pos in (2, 3, 4):
        play(rnd, [(1, "draw"), (1, f"swap {pos}"), (0, "draw"), (0, "discard"), (0, "pass")])
    play(rnd, [(1, "draw"), (1, "discard")])
    assert legal(rnd) == ["flip 5", "pass"]
    rnd.apply("flip 5", 1)
    assert rnd.view(None)["closer"] == 1
    assert rnd.to_move == 0


def test_g3_2_final_turns_stock_only() -> None:
    rnd = six_card_closing(SIX.with_options({"final_turns_stock_only": True}))
    close_by_seat_one(rnd)
    assert legal(rnd) == ["draw"]
    with pytest.raises(IllegalAction, match=r"only draw from the stock \(G3.2\)"):
        rnd.apply("take", 0)
    play(rnd, [(0, "draw"), (0, "discard"), (0, "pass")])
    assert rnd.is_over


def test_g3_2_take_allowed_before_the_close() -> None:
    rnd = six_card_closing(SIX.with_options({"final_turns_stock_only": True}))
    reveal_all(rnd)
    assert legal(rnd) == ["draw", "take"]


def test_g3_3_closed_golf_closes_only_by_a_knock() -> None:
    rnd = stacked_round(FOUR, 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    reveal_all(rnd, (2, 3))
    for pos in range(4):
        play(rnd, [(1, "draw"), (1, f"swap {pos}"), (0, "draw"), (0, "discard")])
    assert not rnd.is_over
    assert rnd.view(None)["closer"] is None
    assert legal(rnd) == ["draw", "take", "knock"]
    rnd.apply("knock", 1)
    assert rnd.view(None)["closer"] == 1
    assert rnd.view(None)["knocked"] is True
    play(rnd, [(0, "draw"), (0, "discard")])
    assert rnd.is_over
    assert rnd.result is not None and rnd.result.closer == 1


def test_g3_3_hand4_closes_only_by_a_knock() -> None:
    rnd = new_round(HAND, 3, 1, make_deck())
    for _ in range(4):
        for seat in (2, 0, 1):
            play(rnd, [(seat, "draw"), (seat, "swap 0")])
    assert not rnd.is_over
    play(rnd, [(2, "knock"), (0, "take"), (0, "swap 1"), (1, "draw"), (1, "discard")])
    assert rnd.is_over
    assert rnd.result is not None and rnd.result.closer == 2


def test_g3_4_every_card_face_up_after_the_round() -> None:
    rnd = stacked_round(FOUR, 3, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠"})
    reveal_all(rnd, (2, 3))
    play(rnd, [(1, "knock"), (2, "draw"), (2, "discard"), (0, "draw"), (0, "discard")])
    assert rnd.is_over
    for seat in (0, 1, 2, None):
        view = rnd.view(seat)
        assert view["phase"] == "over"
        for owner in range(3):
            assert view["layouts"][owner]["face_up"] == [True] * 4
            assert view["layouts"][owner]["cards"] == texts_of(rnd.layout(owner))
        assert rnd.view(seat, recall=False)["layouts"] == view["layouts"]
        assert view["scores"] == rnd.scores
        assert [b["score"] for b in view["breakdown"]] == rnd.scores
    # "A♠ 2♠ / 3♠ 4♠" in four-card: wikihow-basic, no pairs.
    assert rnd.scores is not None and rnd.scores[1] == 10


def test_g3_5_remove_matched_lines() -> None:
    rules = SIX.with_options({"remove_matched_lines": True})
    rnd = stacked_round(
        rules,
        2,
        0,
        layouts={1: "7♠ 3♦ 4♦ / 9♠ ?? ??"},
        discard="K♣",
        stock="7♥ 8♣ Q♦",
    )
    reveal_all(rnd)
    play(rnd, [(1, "draw"), (1, "swap 3")])
    # The column 7♠ / 7♥ is a face-up match: it leaves for the bottom of the pile.
    assert rnd.layout(1)[0] is None
    assert rnd.layout(1)[3] is None
    view = rnd.view(0)
    assert view["layouts"][1]["cards"][:4] == [None, "3♦", "??", None]
    assert view["layouts"][1]["face_up"][0] is True
    assert view["layouts"][1]["face_up"][3] is True
    assert sorted(view["discard"][:2]) == ["7♠", "7♥"]
    assert view["discard"][2:] == ["K♣", "9♠"]
    assert cards_in_play(rnd) == full_deck(rules, 2)
    play(rnd, [(0, "draw"), (0, "discard"), (0, "pass"), (1, "draw")])
    assert legal(rnd) == ["swap 1", "swap 2", "swap 4", "swap 5", "discard"]
    with pytest.raises(IllegalAction, match=r"position 0 is empty.*\(G3.5\)"):
        rnd.apply("swap 0", 1)


def test_g3_5_removed_positions_score_zero_and_count_face_up() -> None:
    rules = SIX.with_options({"remove_matched_lines": True, "final_turns": False})
    rnd = stacked_round(
        rules,
        2,
        0,
        layouts={1: "7♠ 3♦ 4♦ / 9♠ 5♣ 6♣"},
        discard="K♣",
        stock="7♥ 8♣ 3♥ 2♣ 10♣ 4♥ 8♥",
    )
    reveal_all(rnd, (0, 1))
    play(rnd, [(1, "draw"), (1, "swap 3"), (0, "draw"), (0, "discard"), (0, "pass")])
    # 3♥ under 3♦: the column leaves too.
    play(rnd, [(1, "draw"), (1, "swap 4"), (0, "draw"), (0, "discard"), (0, "pass")])
    assert texts_of(rnd.layout(1)) == [None, None, "4♦", None, None, "6♣"]
    play(rnd, [(1, "draw"), (1, "swap 2"), (0, "draw"), (0, "discard"), (0, "pass")])
    assert not rnd.is_over
    play(rnd, [(1, "draw"), (1, "swap 5")])  # 8♥ for 6♣: all face up, closes
    assert rnd.is_over
    assert texts_of(rnd.layout(1)) == [None, None, "10♣", None, None, "8♥"]
    assert rnd.scores is not None and rnd.scores[1] == 18


# ---- G4 knocking ---------------------------------------------------------------------


def test_g4_1_knock_then_one_more_turn_each() -> None:
    rules = SIX.with_options({"knock": "on"})
    rnd = new_round(rules, 3, 0, make_deck())
    reveal_all(rnd)
    rnd.apply("knock", 1)
    view = rnd.view(None)
    assert (view["closer"], view["knocked"], view["final_turns_left"]) == (1, True, 2)
    assert rnd.to_move == 2  # the knocker takes no other action
    assert legal(rnd) == ["draw", "take"]  # G4.2
    with pytest.raises(IllegalAction, match=r"already knocked this round \(G4.2\)"):
        rnd.apply("knock", 2)
    play(rnd, [(2, "draw"), (2, "discard"), (2, "pass")])
    assert not rnd.is_over
    play(rnd, [(0, "take"), (0, "swap 3")])
    assert rnd.is_over
    assert rnd.result is not None and rnd.result.closer == 1


def test_g4_1_knocking_off() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    with pytest.raises(IllegalAction, match=r"knocking is off in these rules \(G4.1\)"):
        rnd.apply("knock", 1)


def test_g4_1_no_knock_while_closing() -> None:
    rnd = six_card_closing(SIX.with_options({"knock": "on"}))
    close_by_seat_one(rnd)
    assert legal(rnd) == ["draw", "take"]
    with pytest.raises(IllegalAction, match="already closing"):
        rnd.apply("knock", 0)


def test_g4_1_knocker_gets_the_closer_rule() -> None:
    rules = FOUR.with_options({"closer_rule": "penalty_10", "initial_peeks": 0})
    rnd = stacked_round(rules, 2, 0, layouts={1: "10♠ 9♠ / A♠ 3♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    play(rnd, [(1, "knock"), (0, "draw"), (0, "discard")])
    assert rnd.scores == [10, 33]


# ---- G8 information ------------------------------------------------------------------


def test_g8_1_drawn_card_seen_only_by_the_drawer() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    for seat in (0, 1, None):
        assert "7♣" not in json.dumps(rnd.view(seat), ensure_ascii=False)  # the stock is secret
    rnd.apply("draw", 1)
    assert rnd.view(1)["held"] == "7♣"
    for seat in (0, None):
        view = rnd.view(seat)
        assert view["held"] == "??"
        assert view["held_from"] == "stock"
        assert "7♣" not in json.dumps(view, ensure_ascii=False)
    rnd.apply("discard", 1)
    for seat in (0, 1, None):
        assert rnd.view(seat)["discard"][-1] == "7♣"


def test_g8_1_the_whole_discard_history_is_shown() -> None:
    rnd = six_card_closing()
    close_by_seat_one(rnd)
    # K♣, then 3♠ 8♣ 4♠ 10♣ 5♠ Q♣ 6♠ in the order they were discarded.
    assert rnd.view(0)["discard"] == ["K♣", "3♠", "8♣", "4♠", "10♣", "5♠", "Q♣", "6♠"]


def test_g8_1_face_down_cards_of_others_are_hidden() -> None:
    rnd = six_card_closing()
    reveal_all(rnd)
    assert cards_seen(rnd, 0, 1) == ["A♠", "2♠", "??", "??", "??", "??"]
    assert cards_seen(rnd, 1, 1) == ["A♠", "2♠", "??", "??", "??", "??"]
    assert cards_seen(rnd, None, 0) == ["A♥", "2♥", "??", "??", "??", "??"]


def four_card_revealed(memory: bool) -> GolfRound:
    rules = FOUR.with_options({"memory": memory})
    rnd = stacked_round(rules, 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    reveal_all(rnd, (2, 3))
    return rnd


def test_g8_2_memory_on_hides_own_cards_after_the_reveal_step() -> None:
    rnd = four_card_revealed(memory=True)
    assert rnd.view(1, recall=False)["layouts"][1]["cards"] == ["??"] * 4
    assert rnd.view(0, recall=False)["layouts"][0]["cards"] == ["??"] * 4
    # Bots keep perfect recall.
    assert rnd.view(1)["layouts"][1]["cards"] == ["??", "??", "3♠", "4♠"]
    assert rnd.view(1, recall=True)["layouts"][1]["cards"] == ["??", "??", "3♠", "4♠"]


def test_g8_2_memory_off_keeps_showing_seen_cards() -> None:
    rnd = four_card_revealed(memory=False)
    assert rnd.view(1, recall=False)["layouts"][1]["cards"] == ["??", "??", "3♠", "4♠"]
    assert rnd.view(0, recall=False)["layouts"][0]["cards"] == ["??", "??", "3♥", "4♥"]


def test_g8_2_peeked_card_is_shown_during_the_reveal_step() -> None:
    """G8.2: only *after* the reveal step is a face-down card not shown again."""
    rules = FOUR
    rnd = stacked_round(rules, 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    rnd.apply("peek 2", 1)
    assert rnd.view(None)["phase"] == "reveal"
    assert rnd.view(1, recall=False)["layouts"][1]["cards"] == ["??", "??", "3♠", "??"]


# ---- illegal actions ------------------------------------------------------------------


def turn_position() -> GolfRound:
    rnd = six_card_closing()
    reveal_all(rnd)
    return rnd


@pytest.mark.parametrize(
    ("setup", "seat", "action", "error", "message"),
    [
        ([(1, "draw")], 1, "swap 7", IllegalAction, r"position 7 is outside a 2x3 layout"),
        ([(1, "draw")], 1, "swap 16", IllegalAction, r"position 16 is outside a 2x3 layout"),
        ([], 0, "draw", NotYourTurn, r"it is seat 1's turn, not seat 0's"),
        ([], 1, "discard", IllegalAction, r"discard is not possible during the start of a turn"),
        ([], 1, "swap 2", IllegalAction, r"start of a turn; legal: draw, take"),
        ([(1, "draw")], 1, "take", IllegalAction, r"holding a card drawn from the stock"),
        (
            [(1, "draw"), (1, "discard")],
            1,
            "flip 0",
            IllegalAction,
            r"position 0 is already face up",
        ),
        ([(1, "draw"), (1, "discard")], 1, "draw", IllegalAction, r"the flip after a discard"),
        ([(1, "take")], 1, "draw", IllegalAction, r"holding a card taken from the discard pile"),
        ([], 1, "peek 2", IllegalAction, r"not possible during the start of a turn"),
        ([], 1, "pass", IllegalAction, r"pass is not possible"),
        ([], 1, "jump", IllegalAction, r"unknown action 'jump'"),
        ([], 1, "swap", IllegalAction, r"needs one position"),
    ],
)
def test_illegal_actions_raise_with_a_readable_message(
    setup: list[tuple[int, str]], seat: int, action: str, error: type[Exception], message: str
) -> None:
    """STYLE 7/9, G2: illegal actions name the reason or the phase and change nothing."""
    rnd = turn_position()
    play(rnd, setup)
    before = {s: rnd.view(s) for s in (0, 1, None)}
    with pytest.raises(error, match=message):
        rnd.apply(action, seat)
    # Nothing changed.
    assert {s: rnd.view(s) for s in (0, 1, None)} == before
    assert len(rnd.actions) == 4 + len(setup)


def test_not_your_turn_is_an_illegal_action() -> None:
    """STYLE 7: NotYourTurn is an IllegalAction."""
    rnd = turn_position()
    with pytest.raises(IllegalAction):
        rnd.apply(DRAW, 0)


def test_reveal_step_illegal_actions() -> None:
    """G1.7: only flips of face-down cards during the reveal step."""
    rnd = new_round(SIX, 2, 0, make_deck())
    with pytest.raises(IllegalAction, match=r"draw is not possible during the reveal step"):
        rnd.apply("draw", 1)
    rnd.apply("flip 2", 1)
    with pytest.raises(IllegalAction, match="position 2 is already face up"):
        rnd.apply("flip 2", 1)
    with pytest.raises(IllegalAction, match="position 6 is outside a 2x3 layout"):
        rnd.apply("flip 6", 1)


def test_no_action_after_the_round() -> None:
    """G3.4: nothing can be applied once the round is over."""
    rnd = six_card_closing(SIX.with_options({"final_turns": False}))
    close_by_seat_one(rnd)
    with pytest.raises(IllegalAction, match="the round is over"):
        rnd.apply("draw")


def test_apply_takes_action_values_and_text() -> None:
    """Pinned action text forms (issue 2): apply takes the value or its text."""
    rnd = turn_position()
    rnd.apply(DRAW, 1)
    rnd.apply(SWAP[3])
    assert rnd.actions[-2:] == [(1, DRAW), (1, SWAP[3])]
    assert rnd.to_move == 0


def test_apply_rejects_a_value_that_is_not_an_action() -> None:
    """STYLE 6/7 and DESIGN: malformed input is an IllegalAction, never an AttributeError."""
    rnd = turn_position()
    with pytest.raises(IllegalAction):
        rnd.apply(42)  # type: ignore[arg-type]


# ---- parse_action ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("flip 3", FLIP[3]),
        ("peek 0", PEEK[0]),
        ("swap 9", SWAP[9]),
        ("draw", DRAW),
        ("take", TAKE),
        ("discard", DISCARD),
        ("knock", KNOCK),
        ("pass", PASS),
        ("  Swap   4 ", SWAP[4]),
        ("DRAW", DRAW),
    ],
)
def test_parse_action_pinned_forms(text: str, action: Any) -> None:
    """The pinned action texts (issue 2): parse(format(a)) is a (STYLE 5)."""
    assert parse_action(text) is action
    assert parse_action(str(action)) is action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"empty action"),
        ("   ", r"empty action"),
        ("jump 3", r"unknown action 'jump'"),
        ("swap", r"swap needs one position"),
        ("flip 1 2", r"flip needs one position"),
        ("swap x", r"position 'x' .* is not a number"),
        ("swap -1", r"position '-1' .* is not a number"),
        ("draw 3", r"draw takes no position"),
        ("knock now", r"knock takes no position"),
    ],
)
def test_parse_action_errors(text: str, message: str) -> None:
    """STYLE 7: a malformed action says what is wrong."""
    with pytest.raises(IllegalAction, match=message):
        parse_action(text)


def test_parse_action_rejects_non_text() -> None:
    """STYLE 7: only text is parsed."""
    with pytest.raises(IllegalAction, match="not int"):
        parse_action(3)  # type: ignore[arg-type]


# ---- exact counts (STYLE 15) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "options", "reveal", "moves", "count"),
    [
        ("six-card", {}, None, [], 6),
        ("six-card", {}, None, [(1, "flip 0")], 5),
        ("six-card", {}, (0, 1), [], 2),
        ("six-card", {}, (0, 1), [(1, "draw")], 7),
        ("six-card", {}, (0, 1), [(1, "take")], 6),
        ("six-card", {}, (0, 1), [(1, "draw"), (1, "discard")], 5),
        ("six-card", {"flip_after_discard": "must"}, (0, 1), [(1, "draw"), (1, "discard")], 4),
        ("six-card", {"knock": "on"}, (0, 1), [], 3),
        ("bga", {}, None, [], 6),
        ("bga", {"layout": "3x3"}, (0, 1, 2), [(1, "draw")], 10),
        ("nine-card", {}, None, [], 9),
        ("nine-card", {}, (0, 1, 2), [(1, "draw"), (1, "discard")], 2),
        ("nine-card-wiki", {}, (0, 1, 2), [], 8),
        ("eight-card", {}, (0, 1), [(1, "draw")], 9),
        ("ten-card", {}, (0, 1), [(1, "draw")], 11),
        ("ten-card", {}, (0, 1), [(1, "draw"), (1, "discard")], 9),
        ("four-card", {}, None, [], 4),
        ("four-card", {}, (2, 3), [], 3),
        ("four-card", {}, (2, 3), [(1, "draw")], 5),
        ("four-card", {}, (2, 3), [(1, "take")], 4),
        ("four-card", {}, (2, 3), [(1, "knock")], 2),
        ("four-in-hand", {}, None, [], 3),
        ("four-in-hand", {}, None, [(1, "draw")], 5),
    ],
)
def test_exact_legal_action_counts(
    preset: str,
    options: dict[str, Any],
    reveal: tuple[int, ...] | None,
    moves: list[tuple[int, str]],
    count: int,
) -> None:
    """STYLE 15, G1.7/G2.1-G2.3/G4.1: exact numbers of legal actions at fixed positions."""
    rules = find_preset(preset).with_options(options)
    rnd = new_round(rules, 2, 0, make_deck(1, rules.jokers_per_deck))
    if reveal is not None:
        reveal_all(rnd, reveal)
    play(rnd, moves)
    assert len(rnd.legal_actions()) == count
    assert len(set(rnd.legal_actions())) == count
    other = 1 - (rnd.to_move or 0)
    assert rnd.legal_actions(other) == []


def count_sequences(rnd: GolfRound, depth: int) -> int:
    if depth == 0 or rnd.is_over:
        return 1
    total = 0
    for action in rnd.legal_actions():
        child = rnd.clone()
        child.apply(action)
        total += count_sequences(child, depth - 1)
    return total


def test_perft_six_card_after_the_reveal() -> None:
    """STYLE 15: from the first turn of two-player six-card, 2, 13 and 29 sequences.

    Depth 2: draw then 6 swaps or discard (7), take then 6 swaps (6).
    Depth 3: after a swap the other seat draws or takes (2 x 12); after a
    discard the player flips one of four face-down cards or passes (5).
    """
    rnd = turn_position()
    assert [count_sequences(rnd, d) for d in (1, 2, 3)] == [2, 13, 29]


def test_perft_reveal_step() -> None:
    """STYLE 15, G1.7: two players each flip two of six, 6*5 orders each: 900."""
    rnd = new_round(SIX, 2, 0, make_deck())
    assert count_sequences(rnd, 4) == 900
    # Distinct positions: C(6,2) choices for each seat.
    states = set()
    for first in itertools.permutations(range(6), 2):
        for second in itertools.permutations(range(6), 2):
            child = rnd.clone()
            play(child, [(1, f"flip {first[0]}"), (1, f"flip {first[1]}")])
            play(child, [(0, f"flip {second[0]}"), (0, f"flip {second[1]}")])
            view = child.view(None)
            states.add(json.dumps([view["layouts"], view["phase"], view["to_move"]]))
    assert len(states) == 225


def test_clone_is_independent() -> None:
    """DESIGN: clone() copies the state; playing on the copy leaves the original (G2.2)."""
    rnd = turn_position()
    copy = rnd.clone()
    copy.apply("draw", 1)
    copy.apply("swap 3", 1)
    assert rnd.view(None)["layouts"][1]["face_up"][3] is False
    assert rnd.to_move == 1
    assert len(copy.actions) == len(rnd.actions) + 2


# ---- G9 a match -------------------------------------------------------------------------

QUICK = FOUR.with_options({"initial_peeks": 0})
"""Closed golf without peeks: the first player knocks, the others draw and discard."""


def worth(points: int, suit: str, exclude: str = "") -> str:
    """A 2x2 layout of four distinct ranks of ``suit`` worth ``points`` (wikihow-basic)."""
    values = {"K": 0, "A": 1, **{str(r): r for r in range(2, 11)}, "J": 10, "Q": 10}
    ranks = [r for r in values if r not in exclude.split()]
    for combo in itertools.combinations(ranks, 4):
        if sum(values[r] for r in combo) == points:
            a, b, c, d = (r + suit for r in combo)
            return f"{a} {b} / {c} {d}"
    raise AssertionError(f"no layout worth {points}")


def quick_round(match: GolfMatch, layouts: dict[int, str]) -> GolfRound:
    """Deal the match's next round so that match seat ``s`` gets ``layouts[s]``; play it out."""
    seating = match.next_seating()
    dealer = match.next_dealer
    round_layouts = {seating.index(s): text for s, text in layouts.items() if s in seating}
    deck = stacked_deck(match.rules, len(seating), seating.index(dealer), layouts=round_layouts)
    rnd = match.start_round(deck, dealer)
    assert match.to_move == seating[(seating.index(dealer) + 1) % len(seating)]  # G1.6
    match.apply("knock", match.to_move)
    while not rnd.is_over:
        mover = match.to_move
        match.apply("draw", mover)
        match.apply("discard", mover)
    return rnd


SUITS = "♠♥♦♣"


def scored_round(match: GolfMatch, scores: list[int]) -> GolfRound:
    seats = match.next_seating()
    layouts = {s: worth(scores[i], SUITS[s]) for i, s in enumerate(seats)}
    rnd = quick_round(match, layouts)
    assert rnd.scores == scores
    return rnd


def test_g9_1_holes_dealer_rotation_and_totals() -> None:
    match = GolfMatch(QUICK.with_options({"end": "holes:4"}), ["Ann", "Bob", "Cy"])
    dealers = []
    for scores in ([10, 12, 20], [15, 6, 7], [9, 9, 9], [6, 30, 10]):
        assert match.needs_deal
        assert not match.is_over
        dealers.append(match.next_dealer)
        scored_round(match, scores)
    assert dealers == [0, 1, 2, 0]  # G1.6: the deal passes clockwise
    assert match.round_scores() == [[10, 12, 20], [15, 6, 7], [9, 9, 9], [6, 30, 10]]
    assert match.totals == [40, 57, 46]
    assert match.is_over
    assert not match.needs_deal
    assert match.winners == [0]
    with pytest.raises(IllegalAction, match="the match is over"):
        match.start_round(make_deck())


def test_g9_1_holes_default_nine() -> None:
    match = GolfMatch(QUICK, 2)
    for hole in range(9):
        assert not match.is_over, hole
        scored_round(match, [10 + hole, 12])
    assert match.is_over
    assert match.totals == [sum(range(10, 19)), 108]
    assert match.winners == [1]


def test_g1_6_wrong_dealer_is_a_record_error() -> None:
    match = GolfMatch(QUICK, 3, dealer=2)
    assert match.next_dealer == 2
    with pytest.raises(RecordError, match=r"deal passes to seat 2 \(G1.6\)"):
        match.start_round(make_deck(), dealer=0)
    scored_round(match, [10, 12, 20])
    assert match.next_dealer == 0


def test_g9_round_in_progress() -> None:
    match = GolfMatch(QUICK, 2)
    match.start_round(make_deck())
    assert not match.needs_deal
    with pytest.raises(IllegalAction, match="a round is in progress"):
        match.start_round(make_deck())
    assert match.to_move == 1
    with pytest.raises(NotYourTurn, match="seat 1"):
        match.apply("draw", 0)
    assert match.totals == [0, 0]


def test_g9_1_target() -> None:
    match = GolfMatch(QUICK.with_options({"end": "target:30"}), 2)
    scored_round(match, [20, 10])
    assert not match.is_over
    assert match.needs_deal
    scored_round(match, [10, 12])
    assert match.totals == [30, 22]
    assert match.is_over
    assert match.winners == [1]


def test_g9_1_open_until_stopped() -> None:
    match = GolfMatch(QUICK.with_options({"end": "open"}), 2)
    for _ in range(10):
        scored_round(match, [10, 12])
    assert not match.is_over
    match.start_round(make_deck())
    match.stop()
    assert not match.is_over  # the round in progress is finished first
    match.apply("knock")
    match.apply("draw")
    match.apply("discard")
    assert match.is_over
    assert len(match.round_scores()) == 11


def test_g9_2_equal_lowest_totals_share_the_win() -> None:
    match = GolfMatch(QUICK.with_options({"end": "holes:2"}), 3)
    scored_round(match, [10, 12, 20])
    scored_round(match, [12, 10, 6])
    assert match.totals == [22, 22, 26]
    assert match.is_over
    assert match.winners == [0, 1]


def test_g9_2_playoff_among_the_tied() -> None:
    match = GolfMatch(QUICK.with_options({"end": "holes:1", "tiebreak": "playoff"}), 3)
    scored_round(match, [10, 20, 10])
    assert match.totals == [10, 20, 10]
    assert not match.is_over
    assert match.winners == []
    assert match.needs_deal
    assert match.next_seating() == (0, 2)
    assert match.next_dealer in (0, 2)
    playoff = scored_round(match, [14, 9])  # round seats 0, 1 are match seats 0, 2
    assert playoff.n == 2
    assert match.is_over
    assert match.winners == [2]
    assert match.totals == [10, 20, 10]  # a playoff decides, it does not add


def test_g9_2_playoff_tied_again_plays_again() -> None:
    match = GolfMatch(QUICK.with_options({"end": "holes:1", "tiebreak": "playoff"}), 2)
    scored_round(match, [10, 10])
    scored_round(match, [12, 12])
    assert not match.is_over
    scored_round(match, [12, 11])
    assert match.is_over
    assert match.winners == [1]


def test_g5_6_four_of_a_kind_wins_the_match() -> None:
    match = GolfMatch(QUICK.with_options({"four_of_a_kind_wins": True}), 3)
    layouts = {0: worth(10, "♠", "5"), 1: "5♠ 5♥ / 5♦ 5♣", 2: worth(6, "♥", "5")}
    quick_round(match, layouts)
    assert match.is_over
    assert match.winners == [1]
    assert len(match.round_scores()) == 1
    assert not match.needs_deal


def test_g9_totals_are_the_sum_of_round_scores() -> None:
    match = GolfMatch(QUICK.with_options({"end": "holes:3"}), 4)
    for scores in ([10, 12, 20, 7], [15, 6, 7, 39], [9, 8, 11, 10]):
        scored_round(match, scores)
    sums = [sum(col) for col in zip(*match.round_scores(), strict=True)]
    assert match.totals == sums == [34, 26, 38, 56]
    assert match.winners == [1]


def test_g9_round_record() -> None:
    match = GolfMatch(QUICK, ["Ann", "Bob"])
    rnd = scored_round(match, [10, 12])
    record = json.loads(json.dumps(match.round_record(0), ensure_ascii=False))
    assert record["dealer"] == 0
    assert record["deck"] == [str(c) for c in rnd.deck or ()]
    assert record["actions"] == [[1, "knock"], [0, "draw"], [0, "discard"]]
    replay = new_round(QUICK, 2, record["dealer"], parse_cards(record["deck"]))
    play(replay, [(s, a) for s, a in record["actions"]])
    assert replay.scores == rnd.scores
