"""Shared helpers for the Golf tests: stacked decks, scripted play, random play.

Everything here goes through the public interface of the engine: ``new_round``,
``GolfRound.apply`` / ``legal_actions`` / ``view`` and the C3 notation.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from greenfelt.cards import Card, make_deck, parse_card, parse_cards
from greenfelt.golf.actions import DISCARD, DRAW, PASS, GolfAction
from greenfelt.golf.game import GolfRound, new_round
from greenfelt.golf.layout import parse_layout
from greenfelt.golf.rules import PRESETS, GolfRules, find_preset

PRESET_NAMES: tuple[str, ...] = tuple(name for name, r in PRESETS.items() if not r.has_powers)
"""Every non-power preset of G10 (the power presets have their own suite: test_powers.py)."""

CARD_TEXT = re.compile(r"JK|(?:10|[2-9AJQK])[♠♥♦♣]")
"""Any card in output notation (C2), to scan whole JSON documents for cards."""


def deal_slots(rules: GolfRules, players: int, dealer: int) -> list[tuple[int, int]]:
    """(seat, position) of each deck index of the deal, in order (G1.5)."""
    size = rules.shape.size
    return [((dealer + 1 + i) % players, pos) for pos in range(size) for i in range(players)]


def stacked_deck(
    rules: GolfRules | str,
    players: int,
    dealer: int = 0,
    *,
    layouts: Mapping[int, str] | None = None,
    discard: str | None = None,
    stock: str | Sequence[str] = (),
) -> list[Card]:
    """A whole deck, top card first, that deals exactly the cards asked for (G1.5).

    ``layouts`` maps a seat to its layout in C3 notation, where ``??`` leaves a
    position to the filler; ``discard`` is the first discard and ``stock`` the
    first stock cards (top first). Every other slot is filled, in deck order,
    with the cards the decks of ``rules`` still have.
    """
    if isinstance(rules, str):
        rules = find_preset(rules)
    full = make_deck(rules.deck_count(players), rules.jokers_per_deck)
    pool = Counter(full)
    slots: list[Card | None] = [None] * len(full)

    def put(index: int, card: Card) -> None:
        if pool[card] <= 0:
            raise ValueError(f"the deck has no more {card} to stack")
        pool[card] -= 1
        slots[index] = card

    where = {slot: index for index, slot in enumerate(deal_slots(rules, players, dealer))}
    for seat, text in (layouts or {}).items():
        for pos, card in enumerate(parse_layout(text, rules.shape)):
            if card is not None:
                put(where[seat, pos], card)
    first_free = players * rules.shape.size
    if discard is not None:
        put(first_free, parse_card(discard))
    for k, card in enumerate(parse_cards(stock)):
        put(first_free + 1 + k, card)
    rest: list[Card] = []
    for card in full:
        if pool[card] > 0:
            pool[card] -= 1
            rest.append(card)
    filler = iter(rest)
    return [card if card is not None else next(filler) for card in slots]


def stacked_round(
    rules: GolfRules | str,
    players: int,
    dealer: int = 0,
    *,
    layouts: Mapping[int, str] | None = None,
    discard: str | None = None,
    stock: str | Sequence[str] = (),
) -> GolfRound:
    """A round dealt from :func:`stacked_deck`."""
    if isinstance(rules, str):
        rules = find_preset(rules)
    deck = stacked_deck(rules, players, dealer, layouts=layouts, discard=discard, stock=stock)
    return new_round(rules, players, dealer, deck)


def play(rnd: GolfRound, moves: Iterable[tuple[int, str]]) -> None:
    """Apply ``(seat, text)`` moves through the checked path, as a record would."""
    for seat, text in moves:
        rnd.apply(text, seat)


def cards_in_play(rnd: GolfRound) -> Counter[Card]:
    """Every card of the round: layouts, stock, discard pile and a held card (C1)."""
    out: Counter[Card] = Counter()
    for seat in range(rnd.n):
        out.update(c for c in rnd.layout(seat) if c is not None)
    out.update(rnd.stock)
    out.update(rnd.discard)
    if rnd.held is not None:
        out[rnd.held] += 1
    return out


def full_deck(rules: GolfRules, players: int) -> Counter[Card]:
    return Counter(make_deck(rules.deck_count(players), rules.jokers_per_deck))


def random_step(rnd: GolfRound, rng: random.Random) -> None:
    """One random legal action by the seat to move."""
    rnd.apply(rng.choice(rnd.legal_actions()), rnd.to_move)


def pick(actions: Sequence[GolfAction], rng: random.Random, stubborn: bool) -> GolfAction:
    """A random action; a stubborn player draws and discards to run the stock out (G2.5)."""
    if stubborn:
        for action in (DRAW, DISCARD, PASS):
            if action in actions:
                return action
    return rng.choice(list(actions))


def play_out(rnd: GolfRound, rng: random.Random, limit: int = 5000) -> None:
    """Random legal actions until the round is over (fails if it never ends)."""
    for _ in range(limit):
        if rnd.is_over:
            return
        random_step(rnd, rng)
    raise AssertionError(f"round not over after {limit} random actions: {rnd!r}")


def texts_of(layout: Sequence[Card | None]) -> list[str | None]:
    return [None if c is None else str(c) for c in layout]
