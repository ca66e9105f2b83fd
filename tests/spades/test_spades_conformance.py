"""Conformance suite and leak detector over random legal games (STYLE 12, 13).

Run over every combination of the options that change what a seat sees
(S2.4 ``discards`` and ``memory``).
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from greenfelt.cards import CARDS, Card, card_texts, parse_card, shuffled_deck
from greenfelt.spades.actions import parse_action
from greenfelt.spades.game import Phase, SpadesHand, deck_for_hands
from greenfelt.spades.rules import SpadesRules
from greenfelt.spades.scoring import score_hand

VARIANTS = [
    SpadesRules(),
    SpadesRules(memory=False),
    SpadesRules(discards="face_down"),
    SpadesRules(discards="face_down", memory=False),
]
VARIANT_IDS = ["face_up-memory", "face_up-no_memory", "face_down-memory", "face_down-no_memory"]
SEATS = (0, 1, None)


def random_hand(rules: SpadesRules, seed: int, steps: int | None = None) -> SpadesHand:
    """A hand after ``steps`` random legal actions (to the end when ``None``)."""
    rng = random.Random(seed)
    hand = SpadesHand(
        rules,
        rng.randrange(2),
        shuffled_deck(rng),
        bags=(rng.randrange(10), rng.randrange(10)),
        totals=(rng.randrange(-200, 400), rng.randrange(-200, 400)),
    )
    while not hand.is_over and (steps is None or len(hand.actions) < steps):
        hand.apply(rng.choice(hand.legal_actions()), hand.to_move)
    return hand


def hidden_from(hand: SpadesHand, seat: int | None) -> set[str]:
    """Texts of the cards ``seat`` must not see: the other hand, the stock (but the
    card it is drawing), and face-down discards it did not draw (S2.4)."""
    hidden: set[Card] = set(hand.stock)
    for other in (0, 1):
        if other != seat:
            hidden |= set(hand.hand_of(other))
    if hand.rules.discards == "face_down":
        non_dealer = 1 - hand.dealer
        for i, card in enumerate(hand.discard_pile):
            if (non_dealer if i % 2 == 0 else hand.dealer) != seat:
                hidden.add(card)
    if seat is not None and hand.phase is Phase.DRAW and hand.to_move == seat:
        hidden.discard(hand.stock[0])
    return set(card_texts(sorted(hidden)))


def check_invariants(hand: SpadesHand) -> None:
    # Card conservation: hands + discards + played + stock are the 52 cards, once each.
    everything = (
        hand.hand_of(0) + hand.hand_of(1) + hand.discard_pile + hand.played_cards + hand.stock
    )
    assert sorted(everything) == list(CARDS[:52])
    # S2.3: a draw step moves one card to a hand and one to the discards.
    assert len(hand.discard_pile) == hand.draw_steps
    assert len(hand.hand_of(0)) + len(hand.hand_of(1)) + len(hand.played_cards) == hand.draw_steps
    # Only the seat to move has actions, and it always has one until the end.
    mover = hand.to_move
    assert (mover is None) == hand.is_over
    for seat in (0, 1):
        legal = hand.legal_actions(seat)
        assert (len(legal) > 0) == (seat == mover)
        for action in legal:
            assert parse_action(str(action)) is action
    # Views are JSON and scan clean: no text of a card the seat may not know, anywhere.
    for viewer in SEATS:
        view = hand.view(viewer)
        text = json.dumps(view, ensure_ascii=False)
        assert json.loads(text) == view
        leaked = [card for card in hidden_from(hand, viewer) if card in text]
        assert not leaked, f"seat {viewer} sees {leaked}"
    assert hand.view(None)["hand"] is None


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_conformance_random_games(rules: SpadesRules) -> None:
    """Every step of random games: conservation, turns, notation, views; checked
    and unchecked paths agree; replay from the deck reaches the same state."""
    for seed in range(12):
        rng = random.Random(seed)
        hand = SpadesHand(rules, seed % 2, shuffled_deck(rng), bags=(seed % 10, 9))
        fast = hand.clone()
        while not hand.is_over:
            check_invariants(hand)
            action = rng.choice(hand.legal_actions())
            hand.apply(str(action), hand.to_move)
            fast.apply_unchecked(action)
            assert fast.view(None) == hand.view(None)
        check_invariants(hand)
        assert [fast.view(s) for s in SEATS] == [hand.view(s) for s in SEATS]
        # Replay the record: same deck, same action texts, same state.
        replay = SpadesHand(rules, hand.dealer, card_texts(hand.deck), bags=(seed % 10, 9))
        for seat, action in hand.actions:
            replay.apply(str(action), seat)
        assert [replay.view(s) for s in SEATS] == [hand.view(s) for s in SEATS]
        # S5 scores within bounds and equal to the pure scoring function.
        assert sum(hand.tricks_won) == 13 and len(hand.tricks) == 13
        assert hand.scores is not None and hand.results is not None
        for seat in (0, 1):
            assert -200 <= hand.scores[seat] <= 250
            bid = hand.bids[seat]
            assert bid is not None
            expected = score_hand(
                bid, bool(hand.blind_nil[seat]), hand.tricks_won[seat], hand.bags_before[seat]
            )
            assert hand.results[seat] == expected


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_step_count_is_exact(rules: SpadesRules) -> None:
    """STYLE 15: a hand is 2 declarations + 26 draw steps + 2 bids (minus blind nils) + 26 plays."""
    for seed in range(30):
        hand = random_hand(rules, seed)
        blind = sum(bool(b) for b in hand.blind_nil)
        assert len(hand.actions) == 2 + 26 + (2 - blind) + 26


def seen_from_scratch(hand: SpadesHand, seat: int) -> list[Card]:
    """The cards ``seat`` has seen, worked out from the whole hand: its hand, the
    cards played, the discards it may see (S2.4) and the card it is drawing (S2.2)."""
    seen = set(hand.hand_of(seat)) | set(hand.played_cards)
    non_dealer = 1 - hand.dealer
    for i, card in enumerate(hand.discard_pile):
        drawer = non_dealer if i % 2 == 0 else hand.dealer
        if hand.rules.discards == "face_up" or drawer == seat:
            seen.add(card)
    if hand.phase is Phase.DRAW and hand.to_move == seat:
        seen.add(hand.stock[0])
    return sorted(seen)


def voids_from_scratch(hand: SpadesHand, seat: int) -> int:
    """The suits ``seat`` has shown it lacks, worked out from every trick (S4.1, S4.2)."""
    void = 0
    broken = False
    plays = [(t.leader, t.lead, t.follow) for t in hand.tricks]
    plays += [(who, card, None) for who, card in hand.current_trick]
    for leader, lead, follow in plays:
        if leader == seat and lead < 13 and not broken:
            void |= 0b1110  # S4.2: led a spade before spades broke
        if follow is not None and leader != seat and follow // 13 != lead // 13:
            void |= 1 << (lead // 13)  # S4.1: did not follow
        broken = broken or lead < 13 or (follow is not None and follow < 13)
    return void


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_known_cards_and_voids_follow_every_step(rules: SpadesRules) -> None:
    """S2.2, S2.4, S4.1, S4.2: the seat's known cards (kept step by step for bots)
    and the voids shown are at every step what the whole hand says they are."""
    for seed in range(40):
        rng = random.Random(seed)
        hand = SpadesHand(rules, seed % 2, shuffled_deck(rng))
        while True:
            for seat in (0, 1):
                known = hand.known_cards(seat)
                assert known == seen_from_scratch(hand, seat)
                assert hand.known_mask(seat) == sum(1 << card for card in known)
                assert hand.voids[seat] == voids_from_scratch(hand, seat)
            if hand.is_over:
                break
            hand.apply_unchecked(rng.choice(hand.legal_tuple()))


def check_determinize(hand: SpadesHand, seat: int, rng: random.Random) -> SpadesHand:
    """determinize(seat) keeps the seat's view and is a legal full state."""
    sample = hand.determinize(seat, rng)
    assert sample.view(seat) == hand.view(seat)
    cards = (
        sample.hand_of(0)
        + sample.hand_of(1)
        + sample.discard_pile
        + sample.played_cards
        + sample.stock
    )
    assert sorted(cards) == list(CARDS[:52]) and sorted(sample.deck) == list(CARDS[:52])
    assert set(hand.known_cards(seat)) == set(sample.known_cards(seat))
    # A legal full state: its own deck and the same actions replay through the
    # checked path (so voids shown by not following are respected, S4.1, S4.2).
    replay = SpadesHand(
        hand.rules, hand.dealer, sample.deck, bags=hand.bags_before, totals=hand.totals_before
    )
    for who, action in sample.actions:
        replay.apply(action, who)
    for who in (0, 1):
        assert replay.hand_of(who) == sample.hand_of(who)
    assert replay.discard_pile == sample.discard_pile
    assert replay.view(None) == sample.view(None)
    # What each seat knows moved with the resampled cards: as if played from the start.
    for who in (0, 1):
        assert sample.known_cards(who) == replay.known_cards(who)
    # And every continuation is playable through the checked path.
    while not replay.is_over:
        replay.apply(rng.choice(replay.legal_actions()), replay.to_move)
    return sample


@settings(max_examples=120, deadline=None)
@given(
    rules=st.sampled_from(VARIANTS),
    seed=st.integers(0, 2**32 - 1),
    steps=st.integers(0, 56),
)
def test_leak_detector(rules: SpadesRules, seed: int, steps: int) -> None:
    """STYLE 13: resampling what a seat cannot know leaves its view unchanged."""
    hand = random_hand(rules, seed, steps)
    rng = random.Random(seed ^ 0x5EED)
    for seat in (0, 1):
        check_determinize(hand, seat, rng)


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_determinize_really_resamples(rules: SpadesRules) -> None:
    """The other hand and the stock change between samples while drawing."""
    hand = random_hand(rules, 11, steps=20)
    assert hand.phase is Phase.DRAW
    rng = random.Random(0)
    others = {tuple(sorted(hand.determinize(0, rng).hand_of(1))) for _ in range(20)}
    stocks = {tuple(hand.determinize(0, rng).stock) for _ in range(20)}
    assert len(others) > 1 and len(stocks) > 1


def test_s2_4_face_up_discards_reveal_the_other_hand() -> None:
    """S2.4: with face-up discards a player who remembers can deduce the other hand,
    so determinize keeps it as a set, even though memory hides old discards."""
    hand = random_hand(SpadesRules(memory=True), 5, steps=2 + 26 + 2)
    assert hand.phase is Phase.PLAY
    rng = random.Random(1)
    for _ in range(10):
        sample = hand.determinize(0, rng)
        assert sorted(sample.hand_of(1)) == sorted(hand.hand_of(1))
        assert sample.discard_pile == hand.discard_pile


def test_s2_4_face_down_discards_of_the_other_seat_are_resampled() -> None:
    hand = random_hand(SpadesRules(discards="face_down"), 5, steps=2 + 26 + 2)
    rng = random.Random(1)
    mine = hand.known_cards(0)
    piles = set()
    for _ in range(10):
        sample = hand.determinize(0, rng)
        piles.add(tuple(sample.discard_pile))
        non_dealer = 1 - hand.dealer
        for i, (old, new) in enumerate(zip(hand.discard_pile, sample.discard_pile, strict=True)):
            if (non_dealer if i % 2 == 0 else hand.dealer) == 0:
                assert old == new and old in mine  # seat 0 saw its own discards
    assert len(piles) > 1


NO_HEARTS_D = "A♠ K♠ Q♠ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦"
HEARTS_ND = "A♥ K♥ Q♥ J♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣"


@pytest.mark.parametrize("discards", ["face_up", "face_down"])
def test_determinize_respects_a_void_shown_by_not_following(discards: str) -> None:
    """S4.1: seat 0 did not follow ♥, so no sample gives it a ♥."""
    deck = deck_for_hands(HEARTS_ND.split(), NO_HEARTS_D.split())
    hand = SpadesHand(SpadesRules(discards=discards), 0, deck)
    for text in ["pass", "pass"] + ["keep"] * 26 + ["bid 3", "bid 3", "play A♥", "play 2♦"]:
        hand.apply(text)
    rng = random.Random(2)
    for _ in range(200):
        sample = check_determinize(hand, 1, rng)
        assert not any(card.suit == parse_card("2♥").suit for card in sample.hand_of(0))


def test_determinize_respects_a_spade_lead_before_spades_broke() -> None:
    """S4.2: seat 1 led a spade before spades broke, so it held nothing but spades."""
    spades = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"
    deck = deck_for_hands(spades.split(), HEARTS_ND.split())
    hand = SpadesHand(SpadesRules(discards="face_down"), 0, deck)
    for text in ["pass", "pass"] + ["keep"] * 26 + ["bid 3", "bid 3", "play 2♠"]:
        hand.apply(text)
    rng = random.Random(3)
    for _ in range(100):
        sample = check_determinize(hand, 0, rng)
        assert all(card < 13 for card in sample.hand_of(1))


def test_determinize_keeps_the_card_being_looked_at() -> None:
    """S2.2: the drawer has seen the top card; the other seat has not."""
    hand = random_hand(SpadesRules(), 4, steps=2 + 7)
    drawer = hand.to_move
    assert drawer is not None and hand.phase is Phase.DRAW
    rng = random.Random(4)
    top = hand.stock[0]
    assert all(hand.determinize(drawer, rng).stock[0] == top for _ in range(20))
    assert any(hand.determinize(1 - drawer, rng).stock[0] != top for _ in range(20))
