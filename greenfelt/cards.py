"""Cards, their text notation (RULES C1-C4) and decks.

A :class:`Card` is an ``int`` subclass with exactly one instance per distinct
card (52 suited cards and the joker), so engines can keep cards in plain lists,
compare them with ``==`` and index lookup tables by them at C speed, while
``repr`` and ``str`` still show the notation people read (``K♠``, ``10♥``, ``JK``).
Two physical cards from different decks that share rank and suit are equal
(C1: distinct objects of equal rank and suit).
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from typing import Any

from greenfelt.errors import NotationError

__all__ = [
    "CARDS",
    "JOKER",
    "Card",
    "Rank",
    "Suit",
    "card_texts",
    "format_cards",
    "make_deck",
    "parse_card",
    "parse_cards",
    "shuffle",
    "shuffled_deck",
]


class Suit(enum.IntEnum):
    """The four suits, in the order used by card codes (C2)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")


class Rank(enum.IntEnum):
    """Card ranks by face value (A low); the joker is rank 0 (C1)."""

    JOKER = 0
    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]


_RANK_SYMBOLS = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class Card(int):
    """One card. Use :func:`parse_card` or :data:`CARDS`; never construct directly.

    The integer code is ``suit * 13 + rank - 1`` for suited cards, 52 for the joker.

    >>> parse_card("10h"), parse_card("Td") == parse_card("10♦"), parse_card("🃏")
    (10♥, True, JK)
    """

    __slots__ = ()

    @property
    def rank(self) -> Rank:
        return _RANK_OF[self]

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a joker."""
        return _SUIT_OF[self]

    @property
    def is_joker(self) -> bool:
        return self == 52

    def __repr__(self) -> str:
        return _TEXT[self]

    __str__ = __repr__

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickle by notation so worker processes get the interned instance back.
        return (parse_card, (_TEXT[self],))


def _build() -> tuple[tuple[Card, ...], tuple[str, ...], tuple[Rank, ...], tuple[Suit | None, ...]]:
    texts: list[str] = []
    ranks: list[Rank] = []
    suits: list[Suit | None] = []
    for suit in Suit:
        for rank in range(1, 14):
            texts.append(_RANK_SYMBOLS[rank] + suit.symbol)
            ranks.append(Rank(rank))
            suits.append(suit)
    texts.append("JK")
    ranks.append(Rank.JOKER)
    suits.append(None)
    cards = tuple(int.__new__(Card, code) for code in range(53))
    return cards, tuple(texts), tuple(ranks), tuple(suits)


CARDS, _TEXT, _RANK_OF, _SUIT_OF = _build()
"""Every distinct card, indexed by its code."""
JOKER: Card = CARDS[52]

_RANK_TOKENS = {sym: rank for rank, sym in enumerate(_RANK_SYMBOLS) if rank}
_RANK_TOKENS["T"] = 10
_SUIT_TOKENS = {
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
    "S": Suit.SPADES,
    "H": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "C": Suit.CLUBS,
}
_PARSED: dict[str, Card] = {}


def parse_card(token: str) -> Card:
    """Parse one card in C2 notation (``K♠``, ``10h``, ``Td``, ``JK``, ``🃏``).

    Raises :class:`NotationError` naming the bad token.
    """
    card = _PARSED.get(token)
    if card is not None:
        return card
    text = token.strip().upper().replace("\ufe0f", "")
    if text in ("JK", "🃏", "JOKER"):
        card = JOKER
    else:
        rank = _RANK_TOKENS.get(text[:-1])
        suit = _SUIT_TOKENS.get(text[-1:])
        if rank is None or suit is None:
            raise NotationError(
                f"{token!r} is not a card: expected a rank (A 2-10 J Q K, T for 10) "
                "and a suit (♠ ♥ ♦ ♣ or s h d c), or JK for a joker"
            )
        card = CARDS[suit * 13 + rank - 1]
    if len(_PARSED) < 4096:  # cache the spellings actually used
        _PARSED[token] = card
    return card


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse space-separated cards, or an iterable of card tokens."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(_TEXT[c] for c in cards)


def make_deck(decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """The unshuffled cards of ``decks`` standard decks with their jokers (C1)."""
    one = list(CARDS[:52]) + [JOKER] * jokers_per_deck
    return one * decks


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place: the permutation ``rng.shuffle(items)`` gives, for the
    same generator state, in half the time.

    This is ``random.Random.shuffle``'s own algorithm (Fisher-Yates, each index drawn
    from ``getrandbits`` with rejection), with its per-card method calls inlined. A
    search imagines a world at every iteration and a simulated hole at every move, so
    the shuffle of the unseen cards is on every bot's hot path; drawing the same
    numbers keeps every seeded game, record and measurement as it was (a test checks
    it against the standard library).
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def shuffled_deck(rng: random.Random, decks: int = 1, jokers_per_deck: int = 0) -> list[Card]:
    """A shuffled deck, top card first: the one chance event of a deal."""
    deck = make_deck(decks, jokers_per_deck)
    shuffle(deck, rng)
    return deck


def card_texts(cards: Sequence[Card]) -> list[str]:
    """Cards as notation strings, for JSON."""
    return [_TEXT[c] for c in cards]
