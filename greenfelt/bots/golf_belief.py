"""Believed worlds: a rival's hidden cards that it has seen and kept make a good hand.

:meth:`GolfRound.determinize` draws every card a seat cannot know from its pool
at random, as the rules alone allow. Where owners know their own hidden cards
(hand4 sees all four, G1.7; closed golf peeks and places, G8.2), that is a poor
guess of a rival's hand: every turn it could swap a high card away or make a pair,
so what it still holds scores low. Drawn at random, a four-in-hand rival holds about
18 points in every round; in greedy self-play it really holds 15 in the first, 9 in
the second and under 5 from the fourth (``./dev bench owner_known_share --gammas 6``),
and a search over random worlds expects a long round and is caught by an early knock.

:func:`believe` re-draws, in an imagined world, the rival cards their owner has
seen and the seat has not, by *sampling importance resampling*: it draws
``proposals`` hands for them from the same pool at random (the other cards the seat
cannot know, the stock's included) and keeps one with weight ``exp(-gamma *
score)`` (G5), ``gamma`` by round (``turns // players``), as the owner has had more
chances to improve. ``gamma`` 0 is the random draw itself. The draw reads only what
the seat knows (who saw which place is public; the cards moved are the imagined
world's own), so a search over believed worlds still never sees a hidden card. The
gammas are fitted so that, by round, a believed rival's mean score is the one rivals
really held in greedy self-play, one set per layout (:func:`gammas_for`); the expert
searches believed worlds by default where that has been measured to play better
(``ismcts.DEFAULT_BELIEF``: four-in-hand, on two seeds' deals against greedy, and
closed 2x2, on four).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from greenfelt.cards import Card
from greenfelt.golf.game import GolfRound
from greenfelt.golf.rules import GolfRules
from greenfelt.golf.scoring import card_kinds, score_layout

__all__ = ["CLOSED_GAMMAS", "HAND_GAMMAS", "PROPOSALS", "believe", "gammas_for", "unknown_places"]

PROPOSALS = 32
"""Random hands drawn per rival and world, of which one is kept."""
HAND_GAMMAS: tuple[float, ...] = (0.055, 0.186, 0.297, 0.477, 1.216, 8.0)
"""Four-in-hand: gamma by round (the last for every later round). Fitted on greedy
self-play over 1,000 deals (``./dev bench owner_known_share --gammas 6 --deals 1000``):
believed rivals then score 15.6, 9.2, 6.2, 4.4, 3.0 and 2.5 points in rounds 0-5 where
they held 15.3, 9.3, 6.3, 4.4, 3.1 and 1.1 (8 keeps about the best of the proposals)."""
CLOSED_GAMMAS: tuple[float, ...] = (0.044, 0.11, 0.196, 0.237, 0.3, 0.354, 0.481, 0.898)
"""Closed 2x2 golf (peek two, G1.7; placed cards lie face down, G2.4): gamma by round,
fitted the same way (``--gammas 8 --deals 1000 --preset four-card``). A rival's seen cards
count with its unseen ones, which score as drawn: believed, a rival scores 18.2, 15.1,
11.4, 9.7, 7.9, 6.6, 4.9 and 3.2 points in rounds 0-7 where it held 18.2, 14.4, 11.5,
9.5, 8.0, 6.5, 5.1 and 3.4, and 19.8 to 15.4 drawn at random. They serve every 2x2
rule set without powers (house values and matches unfitted), as ``HAND_GAMMAS`` every
hand4 one."""


_GAMMAS_BY_LAYOUT = {"hand4": HAND_GAMMAS, "2x2": CLOSED_GAMMAS}


def gammas_for(rules: GolfRules) -> tuple[float, ...] | None:
    """The fitted gammas for these rules' layout, or None where owners never keep hidden
    cards they have seen (open grids) or powers move cards unseen (G7)."""
    return _GAMMAS_BY_LAYOUT.get(rules.layout) if rules.powers == "off" else None


def unknown_places(
    world: GolfRound, seat: int
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """The places of cards ``seat`` cannot know: by rival, those whose owner saw the card
    (G1.7, G8.2); and all of them by pool tag (the deal, or a reshuffle, G2.4)."""
    cards, up, known, origin, size = world.cards, world.up, world.known, world.origin, world.size
    bit = 1 << seat
    kept: dict[int, list[int]] = {}
    pools: dict[int, list[int]] = {}
    for i, card in enumerate(cards):
        if card is None or up[i] or known[i] & bit:
            continue
        pools.setdefault(origin[i], []).append(i)
        owner = i // size
        if known[i] & (1 << owner):
            kept.setdefault(owner, []).append(i)
    return kept, pools


def believe(
    world: GolfRound,
    seat: int,
    rng: random.Random,
    gammas: Sequence[float],
    proposals: int = PROPOSALS,
    *,
    memo: dict[tuple[int, ...], int] | None = None,
) -> GolfRound:
    """``world`` (an imagined world of ``seat``, changed in place) with each rival's
    seen-and-kept cards re-drawn from their pool, low-scoring hands likelier.

    ``memo`` keeps the proposals' scores (G5) by the kinds of their cards
    (:func:`card_kinds`) for a caller that believes many worlds under one rule set:
    the same kinds of hand come up again and again, and scoring each afresh took
    most of the time belief cost a search.
    """
    gamma = gammas[min(world.turns // world.n, len(gammas) - 1)]
    if gamma == 0.0:
        return world
    kept, pools = unknown_places(world, seat)
    cards, origin, size = world.cards, world.origin, world.size
    stock, stock_tag = world.stock, world.stock_tag
    rules = world.rules
    kinds = card_kinds(rules)
    scored = {} if memo is None else memo
    fixed: set[int] = set()  # places already re-drawn for an earlier rival
    for owner, slots in kept.items():
        for tag in {origin[i] for i in slots}:
            group = [i for i in slots if origin[i] == tag]
            # The pool's free places (index -1 - k for the stock's k-th card).
            places = [p for p in pools[tag] if p not in fixed]
            if tag == stock_tag:
                places += [-1 - k for k in range(len(stock))]
            if len(places) <= len(group):
                continue
            base = cards[owner * size : (owner + 1) * size]
            offsets = [i - owner * size for i in group]
            draws: list[list[int]] = []
            scores: list[int] = []
            for _ in range(proposals):
                draw = rng.sample(places, len(group))
                layout = base[:]
                for offset, p in zip(offsets, draw, strict=True):
                    layout[offset] = cards[p] if p >= 0 else stock[-1 - p]
                draws.append(draw)
                key = tuple(-1 if c is None else kinds[c] for c in layout)
                score = scored.get(key)
                if score is None:
                    score = scored[key] = score_layout(layout, rules).total
                scores.append(score)
            low = min(scores)  # weights relative to the best, so none underflows
            weights = [math.exp(-gamma * (s - low)) for s in scores]
            _move(cards, stock, group, rng.choices(draws, weights)[0])
            fixed.update(group)
    return world


def _move(cards: list[Card | None], stock: list[Card], group: list[int], draw: list[int]) -> None:
    """Put the cards at ``draw`` (a place, or -1 - k for the stock's k-th card) into
    ``group``'s places, and the cards they held into the drawn places left empty: a
    permutation of the pool."""

    def get(p: int) -> Card:
        card = cards[p] if p >= 0 else stock[-1 - p]
        assert card is not None  # only places holding a card the seat cannot know
        return card

    def put(p: int, card: Card) -> None:
        if p >= 0:
            cards[p] = card
        else:
            stock[-1 - p] = card

    incoming = [get(p) for p in draw]
    inside = set(group)
    chosen = set(draw)
    vacated = [p for p in draw if p not in inside]
    leaving = [get(i) for i in group if i not in chosen]
    for p, card in zip(vacated, leaving, strict=True):
        put(p, card)
    for i, card in zip(group, incoming, strict=True):
        put(i, card)
