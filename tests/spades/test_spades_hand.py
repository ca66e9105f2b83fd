"""One hand of two-player Spades on stacked decks: S1-S5 step by step."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from greenfelt.cards import JOKER, make_deck, parse_card, parse_cards
from greenfelt.errors import IllegalAction, NotYourTurn, RecordError, RulesError
from greenfelt.spades.actions import BIDS, KEEP, PLAYS, REJECT
from greenfelt.spades.game import (
    Phase,
    SpadesHand,
    Trick,
    deck_for_hands,
    new_hand,
    sort_cards,
    trick_winner,
)
from greenfelt.spades.rules import SpadesRules

# Dealer 0, so seat 1 is the non-dealer: it declares, draws, bids and leads first (S1.2).
ND_CARDS = "A♥ K♥ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 2♠ 3♠ 4♠ 5♠"
D_CARDS = "7♥ 9♦ 10♦ J♦ Q♦ K♦ A♦ 2♦ 3♦ 4♦ 5♦ 6♦ A♠"
ALL_SPADES = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠"
NO_SPADES = "A♥ K♥ Q♥ J♥ 10♥ 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥"


def phase(hand: SpadesHand) -> Phase:
    """The phase, read through a call so the type checker does not pin it between steps."""
    return hand.phase


def texts(actions: Sequence[object]) -> list[str]:
    return [str(a) for a in actions]


def drawn_hand(
    nd_cards: str = ND_CARDS,
    d_cards: str = D_CARDS,
    *,
    dealer: int = 0,
    blind: tuple[bool, bool] = (False, False),
    rules: SpadesRules | None = None,
) -> SpadesHand:
    """A hand after declarations and 26 `keep` steps, dealing these cards."""
    hand = SpadesHand(
        rules or SpadesRules(), dealer, deck_for_hands(nd_cards.split(), d_cards.split())
    )
    for seat in (1 - dealer, dealer):
        hand.apply("blind nil" if blind[seat] else "pass", seat)
    for _ in range(26):
        hand.apply("keep", hand.to_move)
    return hand


def bid_both(hand: SpadesHand, nd_bid: str = "bid 3", d_bid: str = "bid 3") -> SpadesHand:
    nd = 1 - hand.dealer
    hand.apply(nd_bid, nd)
    hand.apply(d_bid, hand.dealer)
    return hand


# ------------------------------------------------------------------ S1 cards


@pytest.mark.parametrize(
    ("leader", "lead", "follow", "winner"),
    [
        (0, "K♥", "A♥", 1),  # S1.1: the ace is high
        (0, "A♥", "K♥", 0),
        (0, "10♥", "2♠", 1),  # S4.3: any spade beats the led suit
        (0, "2♠", "A♥", 0),  # an off-suit card never wins
        (0, "10♥", "A♣", 0),
        (1, "3♠", "2♠", 1),  # S4.3: the highest spade
        (1, "2♠", "A♠", 0),
        (1, "10♦", "J♦", 0),
        (0, "9♣", "10♣", 1),  # ten above nine
    ],
)
def test_s4_3_trick_winner(leader: int, lead: str, follow: str, winner: int) -> None:
    assert trick_winner(leader, parse_card(lead), parse_card(follow)) == winner


def test_s1_1_sort_order_spades_first_high_to_low() -> None:
    cards = parse_cards("2♠ A♠ 10♥ K♣ J♥ 3♦")
    assert [str(c) for c in sort_cards(cards)] == ["A♠", "2♠", "J♥", "10♥", "3♦", "K♣"]


# ---------------------------------------------------------------- the deck


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        (make_deck()[:51], "this one has 51"),
        ([*make_deck()[:51], parse_card("7♥")], "holds 7♥ twice and lacks K♣"),
        ([*make_deck()[:51], JOKER], "no jokers"),
        (["zz", *(str(c) for c in make_deck()[1:])], "deck card 0 ('zz') is not a card"),
    ],
)
def test_s1_1_deck_must_be_one_standard_deck(deck: list[object], message: str) -> None:
    with pytest.raises(RecordError) as info:
        SpadesHand(SpadesRules(), 0, deck)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_deck_texts_accepted_and_bad_dealer_rejected() -> None:
    hand = new_hand(SpadesRules(), 1, [str(c) for c in make_deck()])
    assert hand.deck == tuple(make_deck())
    with pytest.raises(RulesError, match="dealer is seat 0 or 1"):
        SpadesHand(SpadesRules(), 2, make_deck())


# ---------------------------------------------------------- S2.1 blind nil


def test_s2_1_blind_nil_declared_before_any_card_is_seen() -> None:
    """S2.1/S1.2: non-dealer declares first, then dealer, having seen nothing."""
    hand = SpadesHand(SpadesRules(), 0, make_deck())
    assert phase(hand) is Phase.BLIND and hand.to_move == 1
    assert texts(hand.legal_actions()) == ["blind nil", "pass"]
    assert hand.legal_actions(0) == []
    for seat in (0, 1):
        view = hand.view(seat)
        assert view["hand"] == [] and view["drawn"] is None and view["discard_top"] is None
    with pytest.raises(NotYourTurn, match="it is seat 1's turn to declare blind nil or pass"):
        hand.apply("pass", 0)
    with pytest.raises(IllegalAction, match="keep is not possible in the blind phase"):
        hand.apply("keep", 1)
    hand.apply("blind nil", 1)
    assert hand.to_move == 0 and hand.blind_nil == [None, True]
    hand.apply("pass", 0)
    assert phase(hand) is Phase.DRAW and hand.to_move == 1
    assert hand.blind_nil == [False, True] and hand.bids == [None, 0]


def test_s3_1_blind_nil_player_does_not_bid_and_s5_3_scores_200() -> None:
    """Seat 1 (non-dealer) declares blind nil: only the dealer bids; seat 1 still leads."""
    hand = drawn_hand(NO_SPADES, ALL_SPADES, blind=(False, True))
    assert phase(hand) is Phase.BID and hand.to_move == 0  # S3.1: skipped to the dealer
    with pytest.raises(NotYourTurn, match="it is seat 0's turn to bid"):
        hand.apply("bid 3", 1)
    hand.apply("bid 13", 0)
    assert phase(hand) is Phase.PLAY and hand.to_move == 1  # S4.1: non-dealer leads
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0], hand.to_move)
    assert hand.tricks_won == [13, 0]
    assert hand.scores == [250, 200]  # moon made, blind nil made (S5.3)
    assert hand.results is not None and "blind nil" in hand.results[1].breakdown


def test_s2_1_both_blind_nil_skips_bidding() -> None:
    hand = drawn_hand(blind=(True, True))
    assert phase(hand) is Phase.PLAY and hand.to_move == 1 and hand.bids == [0, 0]


def test_s3_1_dealer_blind_nil_only_non_dealer_bids() -> None:
    hand = drawn_hand(blind=(True, False))
    assert phase(hand) is Phase.BID and hand.to_move == 1
    hand.apply("bid 4", 1)
    assert phase(hand) is Phase.PLAY and hand.bids == [0, 4]


# ------------------------------------------------------- S2.2-S2.3 drawing


def test_s2_2_keep_and_reject_on_a_stacked_deck() -> None:
    """keep: the next card is discarded face up; reject: the card is discarded and
    the next one kept with no further action (S2.2)."""
    hand = SpadesHand(SpadesRules(), 0, make_deck())  # A♠ 2♠ 3♠ ... top first
    hand.apply("pass", 1)
    hand.apply("pass", 0)
    assert hand.view(1)["drawn"] == "A♠"  # the drawer looks at the top card
    assert hand.view(0)["drawn"] is None and hand.view(None)["drawn"] is None
    hand.apply("keep", 1)
    assert hand.hand_of(1) == parse_cards("A♠") and hand.discard_pile == parse_cards("2♠")
    assert hand.view(0)["discard_top"] == "2♠"  # S2.2: both see it
    assert hand.to_move == 0 and hand.view(0)["drawn"] == "3♠"
    hand.apply("reject", 0)
    assert hand.hand_of(0) == parse_cards("4♠")
    assert hand.discard_pile == parse_cards("2♠ 3♠")
    assert hand.view(1)["discard_top"] == "3♠" and hand.to_move == 1
    assert hand.view(0)["hand"] == ["4♠"]


def test_s2_3_twenty_six_steps_leave_thirteen_each() -> None:
    """S2.3: 26 alternating steps use the whole deck; non-dealer draws first (S1.2)."""
    deck = make_deck()
    hand = SpadesHand(SpadesRules(), 1, deck)
    hand.apply("pass", 0)
    hand.apply("pass", 1)
    pattern = [KEEP, REJECT, REJECT, KEEP] * 6 + [KEEP, REJECT]
    expected: list[list[object]] = [[], []]
    for step, action in enumerate(pattern):
        drawer = 0 if step % 2 == 0 else 1  # dealer 1: seat 0 draws first
        assert hand.to_move == drawer and phase(hand) is Phase.DRAW
        assert hand.draw_steps == step and len(hand.stock) == 52 - 2 * step
        expected[drawer].append(deck[2 * step + (0 if action is KEEP else 1)])
        hand.apply(action, drawer)
    assert [hand.hand_of(0), hand.hand_of(1)] == expected
    assert [len(hand.hand_of(s)) for s in (0, 1)] == [13, 13]
    assert len(hand.discard_pile) == 26 and hand.stock == []
    assert phase(hand) is Phase.BID and hand.to_move == 0
    view = hand.view(1)
    assert view["stock"] == 0 and view["discard_count"] == 26 and view["draw_steps"] == 26


def test_s2_4_face_down_discards_are_seen_by_the_drawer_only() -> None:
    rules = SpadesRules(discards="face_down", memory=False)
    hand = SpadesHand(rules, 0, make_deck())
    hand.apply("pass", 1)
    hand.apply("pass", 0)
    hand.apply("keep", 1)  # 2♠ discarded, seen by seat 1 only
    hand.apply("reject", 0)  # 3♠ discarded, seen by seat 0 only
    assert hand.view(1)["discards"] == ["2♠", "??"]
    assert hand.view(0)["discards"] == ["??", "3♠"]
    assert hand.view(None)["discards"] == ["??", "??"]
    assert hand.view(1)["discard_top"] == "??" and hand.view(0)["discard_top"] == "3♠"


def test_s2_4_memory_on_shows_only_the_top_discard() -> None:
    for memory, shown in ((True, None), (False, ["2♠", "3♠"])):
        hand = SpadesHand(SpadesRules(memory=memory), 0, make_deck())
        for action in ("pass", "pass", "keep", "reject"):
            hand.apply(action)
        for seat in (0, 1, None):
            assert hand.view(seat)["discards"] == shown
            assert hand.view(seat)["discard_top"] == "3♠"


# ------------------------------------------------------------------ S3 bids


def test_s3_1_non_dealer_bids_first_and_nil_is_zero() -> None:
    hand = drawn_hand()
    assert phase(hand) is Phase.BID and hand.to_move == 1
    assert texts(hand.legal_actions()) == ["bid nil"] + [f"bid {n}" for n in range(1, 14)]
    with pytest.raises(NotYourTurn, match="seat 1's turn"):
        hand.apply("bid 4", 0)
    with pytest.raises(IllegalAction, match="play 2♠ is not possible in the bid phase"):
        hand.apply("play 2♠", 1)
    hand.apply("bid 0", 1)  # S3.2: nil
    hand.apply("bid nil", 0)
    assert hand.bids == [0, 0] and hand.actions[-1] == (0, BIDS[0])
    assert phase(hand) is Phase.PLAY and hand.to_move == 1


# ------------------------------------------------------------------ S4 play


def test_s4_1_must_follow_suit() -> None:
    hand = bid_both(drawn_hand())
    hand.apply("play A♥", 1)  # S4.1: non-dealer leads
    assert texts(hand.legal_actions(0)) == ["play 7♥"]  # exactly one way to follow
    with pytest.raises(IllegalAction) as info:
        hand.apply("play A♠", 0)
    assert str(info.value) == "you must follow ♥: you hold 7♥ (S4.1)"
    with pytest.raises(IllegalAction, match="you do not hold K♥"):
        hand.apply("play K♥", 0)  # seat 1 holds it; the message does not say so
    hand.apply("play 7♥", 0)
    assert hand.tricks == [Trick(1, parse_card("A♥"), parse_card("7♥"), 1)]


def test_s4_1_void_may_play_anything_and_s4_2_spade_breaks() -> None:
    hand = bid_both(drawn_hand())
    hand.apply("play A♥", 1)
    hand.apply("play 7♥", 0)
    hand.apply("play K♥", 1)
    assert len(hand.legal_actions(0)) == 12  # S4.1: void in ♥, any card
    assert not hand.spades_broken
    hand.apply("play A♠", 0)  # S4.2: a spade on another suit's lead breaks spades
    assert hand.spades_broken and hand.tricks_won == [1, 1] and hand.to_move == 0
    hand.apply("play 2♦", 0)
    hand.apply("play 2♠", 1)  # seat 1 is void in ♦ and trumps (S4.3)
    assert hand.tricks_won == [1, 2] and hand.to_move == 1
    assert "play 3♠" in texts(hand.legal_actions())  # broken: spades may be led
    hand.apply("play 3♠", 1)


def test_s4_2_no_spade_lead_before_broken() -> None:
    hand = bid_both(drawn_hand())
    legal = texts(hand.legal_actions())
    assert len(legal) == 9 and not any(t.endswith("♠") for t in legal)
    with pytest.raises(IllegalAction) as info:
        hand.apply("play 2♠", 1)
    assert "spades are not broken yet (S4.2)" in str(info.value)


def test_s4_2_leader_holding_only_spades_may_lead_them() -> None:
    hand = bid_both(drawn_hand(ALL_SPADES, NO_SPADES))
    assert len(hand.legal_actions()) == 13  # S4.2: only spades, so spades may be led
    hand.apply("play 2♠", 1)
    assert hand.spades_broken  # S4.2: led by a player holding only spades
    hand.apply("play 2♥", 0)
    assert hand.tricks_won == [0, 1]


def test_s4_3_winner_leads_and_thirteen_tricks_end_the_hand() -> None:
    hand = bid_both(drawn_hand(ALL_SPADES, NO_SPADES), "bid 13", "bid nil")
    while not hand.is_over:
        seat = hand.to_move
        assert seat == 1 or hand.current_trick  # seat 1 wins every trick and leads again
        hand.apply(hand.legal_actions()[0], seat)
    assert len(hand.tricks) == 13 and hand.tricks_won == [0, 13]
    assert hand.to_move is None and phase(hand) is Phase.OVER and hand.legal_actions() == []
    assert hand.scores == [100, 250]  # S5.3: nil made, moon made
    with pytest.raises(IllegalAction, match="the hand is over"):
        hand.apply("play 2♠", 1)


def test_s5_scores_in_the_hand_carry_bags() -> None:
    """S5.4 inside a hand: bags carried in decide the penalty of this hand."""
    deck = deck_for_hands(ALL_SPADES.split(), NO_SPADES.split())
    hand = SpadesHand(SpadesRules(), 0, deck, bags=(0, 5), totals=(10, 20))
    for action in ["pass", "pass"] + ["keep"] * 26 + ["bid 4", "bid 1"]:
        hand.apply(action)
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    assert hand.results is not None
    assert hand.scores == [-10, 40 + 9 - 100]  # seat 1: 9 bags on top of 5 -> -100, 4 left
    assert hand.results[1].bags == 4 and hand.results[1].penalty == -100
    view = hand.view(None)
    assert view["bags"] == [0, 5] and view["totals"] == [10, 20]
    assert view["result"][1]["points"] == -51


def test_checked_apply_changes_nothing_when_it_raises() -> None:
    hand = bid_both(drawn_hand())
    before = [hand.view(s) for s in (0, 1, None)]
    for text, seat in [("play 2♠", 1), ("play A♥", 0), ("bid 3", 1), ("fold", 1), ("keep", 1)]:
        with pytest.raises(IllegalAction):
            hand.apply(text, seat)
    assert [hand.view(s) for s in (0, 1, None)] == before
    with pytest.raises(IllegalAction, match="no seat 5"):
        hand.apply("play A♥", 5)
    with pytest.raises(IllegalAction, match="is not a spades action"):
        hand.apply(3)  # type: ignore[arg-type]


def test_apply_accepts_equal_actions_and_stores_interned_ones() -> None:
    from greenfelt.spades.actions import ActionKind, SpadesAction

    hand = bid_both(drawn_hand())
    hand.apply(SpadesAction(ActionKind.PLAY, card=parse_card("A♥")), 1)
    assert hand.actions[-1][1] is PLAYS[parse_card("A♥")]


# ------------------------------------------------------------------ views


def test_views_show_own_hand_only() -> None:
    hand = bid_both(drawn_hand())
    mine = hand.view(1)
    assert mine["hand"] == ["5♠", "4♠", "3♠", "2♠", "A♥", "K♥"] + [f"{r}♣" for r in "8765432"]
    assert mine["hand_sizes"] == [13, 13] and mine["legal"][0].startswith("play ")
    theirs = hand.view(0)
    assert theirs["legal"] == [] and theirs["hand"][-1] == "2♦"
    spectator = hand.view(None)
    assert spectator["hand"] is None and spectator["legal"] == []
    with pytest.raises(IllegalAction, match="no seat 2"):
        hand.view(2)


def test_clone_is_independent() -> None:
    hand = bid_both(drawn_hand())
    copy = hand.clone()
    copy.apply("play A♥", 1)
    assert hand.to_move == 1 and hand.current_trick == [] and len(hand.actions) == 30
    assert copy.current_trick == [(1, parse_card("A♥"))] and len(copy.actions) == 31
