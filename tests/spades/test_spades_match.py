"""A game of Spades: dealer rotation (S1.2), bags across hands (S5.4), the end (S6)."""

from __future__ import annotations

import json
import random

import pytest

from greenfelt.cards import card_texts, make_deck, parse_card, parse_cards, shuffled_deck
from greenfelt.errors import IllegalAction, RecordError, RulesError
from greenfelt.spades.game import deck_for_hands, random_playout
from greenfelt.spades.match import SpadesMatch, play_random_match
from greenfelt.spades.rules import SpadesRules

ALL_SPADES = parse_cards("A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠")
NO_SPADES = parse_cards("A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥")


def play_hand(match: SpadesMatch, nd: str, dealer: str) -> None:
    """One hand where the non-dealer holds every spade and so takes all 13 tricks.

    ``nd`` and ``dealer`` are what each says: ``blind`` or a bid text.
    """
    hand = match.start_round(deck_for_hands(ALL_SPADES, NO_SPADES))
    order = (1 - hand.dealer, hand.dealer)
    for seat, said in zip(order, (nd, dealer), strict=True):
        match.apply("blind nil" if said == "blind" else "pass", seat)
    for _ in range(26):
        match.apply("keep")
    for seat, said in zip(order, (nd, dealer), strict=True):
        if said != "blind":
            match.apply(said, seat)
    while not hand.is_over:
        match.apply(hand.legal_actions()[0], hand.to_move)


def test_s1_2_the_deal_alternates() -> None:
    match = SpadesMatch(SpadesRules(), names=["Ann", "Bo"], dealer=1)
    assert match.names == ["Ann", "Bo"] and match.next_dealer == 1 and match.needs_deal
    play_hand(match, "bid 13", "bid nil")
    assert match.rounds[0].dealer == 1 and match.next_dealer == 0
    play_hand(match, "bid 13", "bid nil")
    assert match.rounds[1].dealer == 0 and match.next_dealer == 1


def test_s1_2_a_record_with_the_wrong_dealer_is_refused() -> None:
    match = SpadesMatch(SpadesRules())
    with pytest.raises(RecordError, match=r"dealt by seat 0 .* alternates each hand \(S1.2\)"):
        match.start_round(make_deck(), dealer=1)
    match.start_round(make_deck(), dealer=0)
    with pytest.raises(IllegalAction, match="still in progress"):
        match.start_round(make_deck())


def test_totals_and_bags_carry_between_hands() -> None:
    """S5.4: bags stay with the player; every 10 cost 100 in the hand they reach 10."""
    match = SpadesMatch(SpadesRules(target=10_000))
    play_hand(match, "bid 6", "bid nil")  # dealer 0; seat 1 takes 13: 60 + 7 bags
    assert match.totals == [100, 67] and match.bags == [0, 7]
    play_hand(match, "bid 9", "bid nil")  # dealer 1; seat 0 takes 13: 90 + 4 bags
    assert match.totals == [194, 167] and match.bags == [4, 7]
    play_hand(match, "bid 10", "bid nil")  # dealer 0; seat 1: 100 + 3 bags -> 10: -100
    assert match.totals == [294, 167 + 103 - 100] and match.bags == [4, 0]
    assert match.rounds[2].bags_before == (4, 7)
    assert not match.is_over and match.winners == []


def test_s6_1_first_to_reach_the_target_wins() -> None:
    match = SpadesMatch(SpadesRules(target=250))
    play_hand(match, "bid 13", "blind")  # seat 1 moon 250, seat 0 blind nil 200
    assert match.totals == [200, 250]
    assert match.is_over and match.winners == [1] and not match.needs_deal
    with pytest.raises(IllegalAction, match="the game is over: B won 250 to 200"):
        match.start_round(make_deck())
    with pytest.raises(IllegalAction, match="the game is over"):
        match.apply("pass")


def test_s6_1_both_reach_it_the_higher_wins_and_a_tie_plays_on() -> None:
    match = SpadesMatch(SpadesRules(target=450))
    play_hand(match, "bid 13", "blind")  # dealer 0: seat 1 +250, seat 0 +200
    play_hand(match, "bid 13", "blind")  # dealer 1: seat 0 +250, seat 1 +200
    assert match.totals == [450, 450]
    assert not match.is_over and match.needs_deal  # S6.1 decided here: equal -> another hand
    play_hand(match, "bid 13", "bid nil")  # dealer 0: seat 1 +250, seat 0 +100
    assert match.totals == [550, 700]
    assert match.is_over and match.winners == [1]  # both over: the higher wins


def test_s6_2_target_is_an_option() -> None:
    match = SpadesMatch(SpadesRules(target=100))
    play_hand(match, "bid 10", "bid nil")  # seat 1: 103, seat 0: 100 -> both reach, 103 wins
    assert match.totals == [100, 103] and match.winners == [1]


def test_round_record_replays() -> None:
    """The record of each hand (dealer, deck top first, actions) replays to the same totals."""
    rng = random.Random(7)
    match = SpadesMatch(SpadesRules(target=200), names=("Ann", "Bo"))
    for _ in range(3):
        hand = match.start_round(shuffled_deck(rng))
        while not hand.is_over:
            match.apply(rng.choice(hand.legal_actions()), hand.to_move)
    records = [json.loads(json.dumps(match.round_record(i))) for i in range(len(match.rounds))]
    assert records[0]["dealer"] == 0 and records[1]["dealer"] == 1
    assert records[0]["deck"] == card_texts(match.rounds[0].deck)
    replay = SpadesMatch(SpadesRules(target=200), names=("Ann", "Bo"))
    for record in records:
        replay.start_round(record["deck"], dealer=record["dealer"])
        for seat, text in record["actions"]:
            replay.apply(text, seat)
    assert replay.totals == match.totals and replay.bags == match.bags
    assert replay.rounds[-1].is_over and replay.view(0) == match.view(0)


def test_match_rejects_bad_setup_and_actions_between_hands() -> None:
    with pytest.raises(RulesError, match="exactly two names"):
        SpadesMatch(SpadesRules(), names=("A", "B", "C"))
    with pytest.raises(RulesError, match="first dealer"):
        SpadesMatch(SpadesRules(), dealer=3)
    match = SpadesMatch(SpadesRules())
    with pytest.raises(IllegalAction, match="deal the next hand first"):
        match.apply("pass")
    with pytest.raises(RecordError):
        match.start_round([parse_card("A♠")] * 52)
    assert match.rounds == () and match.needs_deal  # nothing was dealt


def test_play_random_match_reaches_the_end() -> None:
    """Random games end by S6.1 (a low target keeps them short) with one winner."""
    ended = 0
    for seed in range(20):
        match = play_random_match(SpadesRules(target=100), random.Random(seed), max_hands=200)
        if match.is_over:
            ended += 1
            (winner,) = match.winners
            assert match.totals[winner] >= 100 and match.totals[winner] > match.totals[1 - winner]
        assert all(0 <= b < 10 for b in match.bags)
        assert sum(h.scores[0] for h in match.rounds if h.scores) == match.totals[0]
    assert ended > 0


def test_random_playout_counts_steps() -> None:
    match = SpadesMatch(SpadesRules())
    hand = match.start_round(shuffled_deck(random.Random(3)))
    steps = random_playout(hand, random.Random(3))
    assert steps == len(hand.actions) and 54 <= steps <= 56  # 2 + 26 + 0..2 + 26
