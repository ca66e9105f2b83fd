"""Cards and notation (RULES C1-C4): spellings, round trips, errors, layouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from greenfelt.cards import (
    CARDS,
    JOKER,
    Card,
    Rank,
    Suit,
    card_texts,
    format_cards,
    make_deck,
    parse_card,
    parse_cards,
    shuffle,
    shuffled_deck,
)
from greenfelt.errors import NotationError
from greenfelt.golf.layout import LAYOUTS, format_layout, parse_layout, shape_of

cards_st = st.sampled_from(CARDS)
RANK_SPELLINGS = {
    Rank.ACE: ["A", "a"],
    **{Rank(r): [str(r)] for r in range(2, 10)},
    Rank.TEN: ["10", "T", "t"],
    Rank.JACK: ["J", "j"],
    Rank.QUEEN: ["Q", "q"],
    Rank.KING: ["K", "k"],
}
SUIT_SPELLINGS = {
    Suit.SPADES: ["♠", "s", "S"],
    Suit.HEARTS: ["♥", "h", "H"],
    Suit.DIAMONDS: ["♦", "d", "D"],
    Suit.CLUBS: ["♣", "c", "C"],
}


# ---- C1 decks ----------------------------------------------------------------


def test_c1_a_deck_is_52_distinct_cards() -> None:
    deck = make_deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert JOKER not in deck


@given(st.integers(0, 2**32), st.integers(0, 120))
def test_c1_shuffle_draws_the_standard_librarys_permutation(seed: int, size: int) -> None:
    """``cards.shuffle`` is ``random.Random.shuffle`` made faster: the same permutation
    and the same numbers drawn, so seeded deals (C1) and every seeded game stay as they were."""
    ours, theirs = list(range(size)), list(range(size))
    mine, library = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    library.shuffle(theirs)
    assert ours == theirs
    assert mine.random() == library.random()  # the generators drew alike


def test_c1_a_shuffled_deck_is_the_whole_deck_in_a_seeded_order() -> None:
    deck = shuffled_deck(random.Random(5), decks=2, jokers_per_deck=2)
    assert sorted(deck) == sorted(make_deck(2, 2))
    assert deck == shuffled_deck(random.Random(5), decks=2, jokers_per_deck=2)
    assert deck != shuffled_deck(random.Random(6), decks=2, jokers_per_deck=2)


def test_c1_jokers_and_several_decks() -> None:
    deck = make_deck(2, jokers_per_deck=2)
    assert len(deck) == 108
    assert deck.count(JOKER) == 4
    assert deck.count(parse_card("K♠")) == 2
    # Identical cards of two decks are equal in rank and suit (C1).
    first, second = (c for c in deck if c == parse_card("K♠"))
    assert (first.rank, first.suit) == (second.rank, second.suit)


# ---- C2 notation -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rank", "suit", "shown"),
    [
        ("10h", Rank.TEN, Suit.HEARTS, "10♥"),
        ("Td", Rank.TEN, Suit.DIAMONDS, "10♦"),
        ("K♠", Rank.KING, Suit.SPADES, "K♠"),
        ("ks", Rank.KING, Suit.SPADES, "K♠"),
        ("KS", Rank.KING, Suit.SPADES, "K♠"),
        ("2c", Rank.TWO, Suit.CLUBS, "2♣"),
        ("A♦", Rank.ACE, Suit.DIAMONDS, "A♦"),
        ("qH", Rank.QUEEN, Suit.HEARTS, "Q♥"),
        ("J♣", Rank.JACK, Suit.CLUBS, "J♣"),
    ],
)
def test_c2_accepted_spellings(text: str, rank: Rank, suit: Suit, shown: str) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert str(card) == shown
    assert repr(card) == shown


@pytest.mark.parametrize("text", ["JK", "🃏"])
def test_c2_joker_spellings(text: str) -> None:
    card = parse_card(text)
    assert card is JOKER
    assert card.is_joker
    assert card.rank == Rank.JOKER
    assert card.suit is None
    assert str(card) == "JK"


def test_c2_every_card_round_trips_through_its_text() -> None:
    for card in CARDS:
        assert parse_card(str(card)) is card


def test_c2_output_uses_suit_symbols() -> None:
    texts = card_texts(make_deck())
    assert all(t[-1] in "♠♥♦♣" for t in texts)
    assert "10♥" in texts
    assert not any(t.startswith("T") for t in texts)


@given(
    card=st.sampled_from(CARDS[:52]),
    data=st.data(),
)
@settings(max_examples=200)
def test_c2_any_accepted_spelling_parses_to_the_card(card: Card, data: st.DataObject) -> None:
    assert card.suit is not None
    rank = data.draw(st.sampled_from(RANK_SPELLINGS[card.rank]))
    suit = data.draw(st.sampled_from(SUIT_SPELLINGS[card.suit]))
    assert parse_card(rank + suit) is card


@given(st.lists(cards_st, max_size=30))
@settings(max_examples=150)
def test_c2_format_then_parse_is_identity(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == cards
    assert [str(c) for c in parse_cards(text)] == text.split()
    assert parse_cards(card_texts(cards)) == cards


@pytest.mark.parametrize(
    "token",
    ["1h", "11s", "Kx", "K", "♠", "X♠", "10", "ZZ", "JK♠", "0d", "K♠♠", "?", "KSS"],
)
def test_c2_bad_token_is_an_error_naming_it(token: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_card(token)
    assert repr(token) in str(caught.value)


def test_c2_bad_token_in_a_list_is_named() -> None:
    with pytest.raises(NotationError, match="'11h'"):
        parse_cards("K♠ 11h 2c")


def test_c2_errors_are_value_errors() -> None:
    with pytest.raises(ValueError, match="Q"):
        parse_card("Qx")


# ---- C4 matching means equal ranks -----------------------------------------


def test_c4_cards_match_by_rank_not_suit() -> None:
    assert parse_card("K♠").rank == parse_card("Kh").rank
    assert parse_card("K♠") != parse_card("Kh")
    assert parse_card("JK").rank == parse_card("🃏").rank


# ---- C3 layouts ----------------------------------------------------------------


def test_c3_six_card_example() -> None:
    shape = shape_of("2x3")
    cards = parse_layout("K♠ 6♠ K♥ / 4♦ 6♥ 2♣", shape)
    assert cards == parse_cards("K♠ 6♠ K♥ 4♦ 6♥ 2♣")
    # Positions are row-major from 0 (top-left).
    assert str(cards[0]) == "K♠"
    assert str(cards[3]) == "4♦"
    assert str(cards[5]) == "2♣"
    assert format_layout(cards, shape) == "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"


def test_c3_other_spellings_in_a_layout() -> None:
    cards = parse_layout("ks 6s kh/4d 6h 2c", shape_of("2x3"))
    assert format_layout(cards, shape_of("2x3")) == "K♠ 6♠ K♥ / 4♦ 6♥ 2♣"


def test_c3_unknown_card_is_none() -> None:
    shape = shape_of("3x3")
    cards = parse_layout("?? 5♠ ?? / 7h ?? JK / ?? ?? Td", shape)
    assert cards[0] is None
    assert cards[1] == parse_card("5♠")
    assert cards[5] is JOKER
    assert cards[8] == parse_card("10♦")
    assert sum(c is None for c in cards) == 5
    assert format_layout(cards, shape) == "?? 5♠ ?? / 7♥ ?? JK / ?? ?? 10♦"


def test_c3_hand4_is_four_cards_without_a_slash() -> None:
    shape = shape_of("hand4")
    cards = parse_layout("A♠ 2h ?? JK", shape)
    assert cards == [parse_card("A♠"), parse_card("2♥"), None, JOKER]
    assert format_layout(cards, shape) == "A♠ 2♥ ?? JK"


def test_c3_hand4_with_a_slash_is_an_error() -> None:
    with pytest.raises(NotationError, match="without '/'"):
        parse_layout("A♠ 2♥ / 3♦ 4♣", shape_of("hand4"))


@pytest.mark.parametrize(
    ("layout", "text", "message"),
    [
        ("2x3", "K♠ 6♠ K♥", r"1 row\(s\)"),
        ("2x3", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣ / A♠ A♥ A♦", r"3 row\(s\)"),
        ("3x3", "K♠ 6♠ K♥ / 4♦ 6♥ 2♣", r"2 row\(s\).*needs 3"),
        ("2x2", "K♠ 6♠ / 4♦", r"row 2 .* 1 card\(s\); expected 2"),
        ("2x3", "K♠ 6♠ K♥ 5♠ / 4♦ 6♥ 2♣", r"row 1 .* 4 card\(s\); expected 3"),
        ("hand4", "A♠ 2♥ 3♦", r"3 card\(s\); expected 4"),
        ("hand4", "A♠ 2♥ 3♦ 4♣ 5♠", r"5 card\(s\); expected 4"),
    ],
)
def test_c3_wrong_shape_is_an_error(layout: str, text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_layout(text, shape_of(layout))


def test_c3_bad_card_in_a_layout_names_the_token_and_row() -> None:
    with pytest.raises(NotationError) as caught:
        parse_layout("K♠ 6♠ K♥ / 4♦ 1x 2♣", shape_of("2x3"))
    message = str(caught.value)
    assert "'1x'" in message
    assert "row 2" in message


def test_c3_unknown_layout_name() -> None:
    with pytest.raises(NotationError, match="3x4"):
        shape_of("3x4")


@pytest.mark.parametrize(
    ("name", "rows", "cols", "size"),
    [
        ("2x2", 2, 2, 4),
        ("2x3", 2, 3, 6),
        ("3x3", 3, 3, 9),
        ("2x4", 2, 4, 8),
        ("2x5", 2, 5, 10),
        ("hand4", 1, 4, 4),
    ],
)
def test_g1_2_layout_shapes(name: str, rows: int, cols: int, size: int) -> None:
    shape = shape_of(name)
    assert (shape.rows, shape.cols, shape.size) == (rows, cols, size)
    assert shape.is_hand == (name == "hand4")
    assert name in LAYOUTS


@st.composite
def layouts_st(draw: st.DrawFn) -> tuple[str, list[Card | None]]:
    name = draw(st.sampled_from(LAYOUTS))
    size = shape_of(name).size
    cards = draw(st.lists(st.one_of(st.none(), cards_st), min_size=size, max_size=size))
    return name, cards


@given(layouts_st())
@settings(max_examples=200)
def test_c3_format_then_parse_layout_is_identity(case: tuple[str, list[Card | None]]) -> None:
    name, cards = case
    shape = shape_of(name)
    text = format_layout(cards, shape)
    assert parse_layout(text, shape) == cards
    assert ("/" in text) == (shape.rows > 1)
    assert text.count("/") == (0 if shape.is_hand else shape.rows - 1)
