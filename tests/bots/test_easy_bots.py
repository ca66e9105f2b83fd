"""The `easy` level (issue 4, levels people pick by name): a casual player of both games.

Golf scenarios are dealt from stacked decks (G1.5) as in the greedy tests; Spades
hands with every draw step kept. Each names the rule it exercises and the rule
of thumb it checks. The last tests place the level: it beats `random` and loses
to `greedy` in `greenfelt sim`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from test_greedy_golf import SIX, reveal, stacked
from test_greedy_spades import dealt

from greenfelt.bots import LEVELS, make_bot
from greenfelt.bots.golf_easy import easy_policy as golf_easy
from greenfelt.bots.golf_easy import visible_score
from greenfelt.bots.golf_sight import UNKNOWN, seat_sight
from greenfelt.bots.spades_easy import easy_bid
from greenfelt.bots.spades_easy import easy_policy as spades_easy
from greenfelt.cards import parse_card, parse_cards, shuffled_deck
from greenfelt.cli import main
from greenfelt.golf import PRESETS, find_preset, new_round
from greenfelt.golf.actions import DISCARD, DRAW, KNOCK, PASS, SWAP, TAKE, Kind
from greenfelt.golf.game import GolfRound, Phase
from greenfelt.spades import KEEP, REJECT, SpadesMatch, SpadesRules, bid, new_hand, play
from greenfelt.spades import PASS as SPADES_PASS
from tests.bots.helpers import golf_states, spades_states


def decide(rnd: GolfRound) -> Any:
    action = golf_easy(rnd, random.Random(0))
    assert action in rnd.legal_actions()
    return action


def test_easy_is_a_level_between_random_and_greedy() -> None:
    assert LEVELS.index("random") < LEVELS.index("easy") < LEVELS.index("greedy")
    assert make_bot("golf", "easy", 1).level == make_bot("spades", "Easy", 1).level == "easy"


@pytest.mark.parametrize("game", ["golf", "spades"])
def test_the_policy_reads_only_what_its_seat_may_know(game: str) -> None:
    """G8.1, S2.4: the policy itself (not only the bot, which decides on a sample and so
    would hide a policy that read hidden cards) moves the same when every card its seat
    cannot know is resampled."""
    states = (
        golf_states(80, 3)
        if game == "golf"
        else spades_states(60, 4, discards=["face_down"], moves=(28, 60))
    )
    policy = golf_easy if game == "golf" else spades_easy
    changed = 0
    for index, state in enumerate(states):
        twin = state.determinize(state.to_move, random.Random(700 + index))
        if game == "golf":
            changed += twin.cards != state.cards or twin.stock != state.stock
        else:
            changed += twin.deck != state.deck
        action = policy(state, random.Random(index))
        assert action == policy(twin, random.Random(index)), f"{game} state {index}"
        assert action in state.legal_actions()
    assert changed > len(states) // 2


# ---- Golf ------------------------------------------------------------------------------


def test_takes_a_discard_that_pairs_and_pairs_it() -> None:
    """G2.1, G5.3: 9♥ on the pile, 9♠ face up in an unpaired column: take it, pair the column."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "9♥")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    assert decide(rnd) == TAKE
    rnd.apply(TAKE, 1)
    assert decide(rnd) == SWAP[3]


def test_draws_when_the_discard_is_high_and_pairs_nothing() -> None:
    """G2.1: a queen that pairs nothing would not lower the layout's score: draw."""
    rnd = stacked(SIX, 2, {1: "9♠ 5♦ 7♣ / ?? ?? ??", 0: "3♠ 4♦ ?? / ?? ?? ??"}, "Q♥")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    assert decide(rnd) == DRAW


def test_a_drawn_low_card_replaces_the_highest_face_up_card() -> None:
    """G2.2: a drawn 3 goes over the face-up jack (saves 7), not over an unseen card."""
    rnd = stacked(SIX, 2, {1: "J♠ 4♦ ?? / ?? ?? ??", 0: "6♠ 8♦ ?? / ?? ?? ??"}, "Q♣", stock="3♦")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    rnd.apply(DRAW, 1)
    assert decide(rnd) == SWAP[0]


def test_a_drawn_card_that_helps_nowhere_is_discarded() -> None:
    """G2.2: a drawn queen is worse than any card it could replace: discard it."""
    rnd = stacked(SIX, 2, {1: "A♠ 4♦ ?? / ?? ?? ??", 0: "6♠ 8♦ ?? / ?? ?? ??"}, "J♣", stock="Q♦")
    reveal(rnd, {1: [0, 1], 0: [0, 1]})
    rnd.apply(DRAW, 1)
    assert decide(rnd) == DISCARD


def test_knocks_with_a_low_hand_and_not_with_a_high_one() -> None:
    """G4.1 (four-in-hand): A K K 2 (the kings pair off: 3 points) knocks; Q J 10 9 does not."""
    rules = find_preset("four-in-hand")
    assert decide(stacked(rules, 2, {1: "A♠ K♥ K♦ 2♣"}, "Q♣")) == KNOCK
    assert decide(stacked(rules, 2, {1: "Q♠ J♥ 10♦ 9♣"}, "5♣")) in (DRAW, TAKE)


def test_knocks_once_the_round_drags_on_whatever_its_hand() -> None:
    """G4.1: with Q J 10 9 it does not knock, until each seat has had twelve turns
    (every turn here a draw and a discard), so that two casual players end a round."""
    rules = find_preset("four-in-hand")
    rnd = stacked(rules, 2, {1: "Q♠ J♥ 10♦ 9♣", 0: "Q♥ J♠ 10♣ 9♦"}, "5♣")
    for turn in range(24):
        assert decide(rnd) != KNOCK, turn
        rnd.apply(DRAW)
        rnd.apply(DISCARD)
    assert decide(rnd) == KNOCK


def test_the_visible_score_counts_unseen_cards_at_the_decks_average() -> None:
    """G5.1, G5.3: a paired column scores 0, a lone 5 scores 5, four unseen cards the mean each."""
    cards = [parse_card(c) for c in ("9♠", "5♦")]
    own = [cards[0], cards[1], UNKNOWN, cards[0] + 13, UNKNOWN, UNKNOWN]  # 9♠ 9♥ pair
    mean = (1 - 2 + sum(range(3, 11)) + 10 + 10 + 0) / 13
    assert visible_score(SIX, own) == pytest.approx(5 + 3 * mean)


def _flip_columns(state: GolfRound, action: Any) -> bool:
    """Whether ``action`` turns up a card in a column where the seat has seen nothing."""
    seat = state.to_move
    assert seat is not None
    cells, _ = seat_sight(state, seat)
    own = cells[seat * state.size : (seat + 1) * state.size]
    line = next(line for line in state.rules.shape.column_lines if action.pos in line)
    return all(own[p] == UNKNOWN for p in line)


def test_reveals_in_columns_with_nothing_seen_yet() -> None:
    """G1.7: every reveal of the opening turns a card in a column with nothing face up,
    while such a column is left (six-card: two flips in two columns)."""
    for seed in range(20):
        rnd = new_round(SIX, 3, 0, rng=random.Random(seed))
        while rnd.phase is Phase.REVEAL:
            action = decide(rnd)
            assert action.kind is Kind.FLIP and _flip_columns(rnd, action), seed
            rnd.apply(action)


def test_never_flips_its_last_face_down_card_when_it_may_pass() -> None:
    """G2.2 (flip_after_discard=may): after a discard, flip while two or more cards are
    unseen; with one left, pass (checked at every flip step of random six-card rounds)."""
    seen = {"flip": 0, "pass": 0}
    for seed in range(60):
        rng = random.Random(seed)
        rnd = new_round(SIX, 2, 0, rng=rng)
        while not rnd.is_over:
            seat = rnd.to_move
            if rnd.phase is Phase.FLIP and seat is not None:
                cells, _ = seat_sight(rnd, seat)
                unseen = cells[seat * rnd.size : (seat + 1) * rnd.size].count(UNKNOWN)
                action = decide(rnd)
                assert action == PASS if unseen == 1 else action.kind is Kind.FLIP
                seen["pass" if action == PASS else "flip"] += 1
            rnd.apply_unchecked(rng.choice(rnd.legal_actions()))
    assert min(seen.values()) >= 10, seen


@pytest.mark.parametrize("preset", list(PRESETS))
def test_plays_whole_rounds_of_every_preset_legally(preset: str) -> None:
    """G1-G7: easy against greedy and random, every decision through the checked apply(),
    on every preset (card powers included: easy leaves them unused)."""
    rules = find_preset(preset)
    rng = random.Random(preset)
    for players in (2, 3):
        bots = [
            make_bot("golf", level, rng.randrange(99)) for level in ("easy", "greedy", "random")
        ]
        for dealer in range(players):
            rnd = new_round(rules, players, dealer, rng=rng)
            while not rnd.is_over:
                seat = rnd.to_move
                assert seat is not None
                rnd.apply(bots[seat].act(rnd, seat), seat)


# ---- Spades ----------------------------------------------------------------------------

HIGH = "A♠ K♠ Q♠ J♠ 10♠ 9♠ 8♠ 7♠ A♥ K♥ A♦ K♦ A♣"
LOW = "2♥ 3♥ 4♥ 5♥ 2♦ 3♦ 4♦ 5♦ 2♣ 3♣ 4♣ 5♣ 6♣"


@pytest.mark.parametrize(
    ("hand", "tricks"),
    [
        (HIGH, 12),  # 4 aces, 3 guarded kings, Q♠ with spades, 4 spades beyond the fourth
        ("A♥ K♥ 2♦ K♣ 3♠ 4♠ Q♠ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥", 3),  # A♥, K♥, Q♠; K♣ alone
        (LOW, 1),  # never nil: at least one
    ],
)
def test_bids_the_casual_count(hand: str, tricks: int) -> None:
    """S3.1: aces, kings with another card of their suit, Q♠ with two more spades, long spades."""
    assert easy_bid(parse_cards(hand)) == tricks


def test_never_bids_nil_or_blind_nil() -> None:
    """S2.1, S3.2: the casual player never declares blind nil, and bids 1 on a nil hand."""
    hand = new_hand(SpadesRules(), 0, shuffled_deck(random.Random(1)))
    assert hand.phase.value == "blind"
    assert spades_easy(hand, random.Random(0)) == SPADES_PASS
    assert spades_easy(dealt(LOW, HIGH), random.Random(0)) == bid(1)


@pytest.mark.parametrize(
    ("top", "expected"), [("K♦", KEEP), ("10♠", KEEP), ("9♠", REJECT), ("Q♥", REJECT)]
)
def test_draw_keeps_aces_kings_and_high_spades(top: str, expected: Any) -> None:
    """S2.2: the top card of the deck is the non-dealer's first look."""
    first = parse_card(top)
    deck = [first, *(c for c in shuffled_deck(random.Random(2)) if c != first)]
    hand = new_hand(SpadesRules(), 0, deck)
    hand.apply(SPADES_PASS, 1)
    hand.apply(SPADES_PASS, 0)
    assert spades_easy(hand, random.Random(0)) == expected


SEAT1 = "A♥ 8♥ 10♦ K♦ 2♣ 9♣ 10♣ J♣ Q♣ K♣ A♣ 6♠ 7♠"
SEAT0 = "2♥ 7♥ 9♥ J♥ 3♦ 9♦ Q♦ 3♣ 4♣ 5♣ 3♠ 9♠ Q♠"


def _playing(bids: tuple[int, int], seat0: str = SEAT0) -> Any:
    hand = dealt(SEAT1, seat0)
    hand.apply(bid(bids[1]), 1)
    hand.apply(bid(bids[0]), 0)
    return hand


def _plays(hand: Any, card: str) -> bool:
    action = spades_easy(hand, random.Random(0))
    assert action in hand.legal_actions()
    return bool(action == play(parse_card(card)))


def test_wins_with_the_lowest_card_that_beats_the_lead_while_it_needs_tricks() -> None:
    """S4.3: 8♥ led, bid not made: the 9♥ wins it, not the jack."""
    hand = _playing((4, 4))
    hand.apply(play(parse_card("8♥")), 1)
    assert _plays(hand, "9♥")


def test_plays_its_lowest_card_of_the_suit_when_it_cannot_win() -> None:
    """S4.1: A♥ led: follow with the 2♥."""
    hand = _playing((4, 4))
    hand.apply(play(parse_card("A♥")), 1)
    assert _plays(hand, "2♥")


def test_trumps_with_its_lowest_spade_when_void_and_needing_tricks() -> None:
    """S4.1, S4.3: no diamonds, K♦ led, bid not made: the 3♠."""
    hand = _playing((4, 4), seat0="2♥ 7♥ 9♥ J♥ 4♥ 5♥ 6♥ 3♣ 4♣ 5♣ 3♠ 9♠ Q♠")
    hand.apply(play(parse_card("K♦")), 1)
    assert _plays(hand, "3♠")


def test_leads_its_highest_side_card_while_it_needs_tricks() -> None:
    """S4.1, S4.2: seat 1 leads first, needing tricks: an ace of a side suit (A♥ or A♣)."""
    hand = _playing((4, 4))
    assert _plays(hand, "A♥") or _plays(hand, "A♣")


def test_plays_low_once_its_bid_is_made() -> None:
    """S5.1: seat 1 bid 1 and won the first trick with the A♣: now it leads its lowest, 2♣."""
    hand = _playing((4, 1))
    hand.apply(play(parse_card("A♣")), 1)
    hand.apply(play(parse_card("3♣")), 0)
    assert hand.to_move == 1
    assert _plays(hand, "2♣")


@pytest.mark.parametrize("discards", ["face_up", "face_down"])
def test_plays_whole_spades_games_legally(discards: str) -> None:
    """S2-S6: easy against greedy to a low target, every decision through the checked apply()."""
    rules = SpadesRules(discards=discards, target=200)
    rng = random.Random(discards)
    bots = [make_bot("spades", "easy", 1), make_bot("spades", "greedy", 2)]
    match = SpadesMatch(rules, dealer=0)
    while match.needs_deal and len(match.rounds) < 100:
        hand = match.start_round(rng=rng)
        while not hand.is_over:
            seat = hand.to_move
            assert seat is not None
            match.apply(bots[seat].act(hand, seat), seat)
    assert not match.needs_deal


# ---- where the level stands (greenfelt sim) -------------------------------------------


def _sim(tmp_path: Path, *argv: str) -> list[dict[str, Any]]:
    assert main(["sim", *argv, "--jobs", "1", "--quiet", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    bots: list[dict[str, Any]] = data["summary"]["bots"]
    return bots


@pytest.mark.parametrize(("game", "games"), [("golf", 60), ("spades", 12)])
def test_easy_beats_random(game: str, games: int, tmp_path: Path) -> None:
    easy, rand = _sim(tmp_path, game, "--bots", "easy,random", "--games", str(games))[:2]
    assert easy["level"] == "easy"
    assert easy["wins"] >= 0.9 * games > rand["wins"]


@pytest.mark.parametrize(("game", "games"), [("golf", 200), ("spades", 12)])
def test_greedy_beats_easy(game: str, games: int, tmp_path: Path) -> None:
    greedy, easy = _sim(tmp_path, game, "--bots", "greedy,easy", "--games", str(games))[:2]
    assert greedy["level"] == "greedy"
    assert greedy["wins"] > easy["wins"]
