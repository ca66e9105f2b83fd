"""The terminal's move log: each move in words, naming only cards the seat may see (G8)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from greenfelt.cards import card_texts, make_deck
from greenfelt.golf import GolfMatch, find_preset
from greenfelt.golf.rules import PRESETS
from greenfelt.spades import SpadesMatch, SpadesRules
from greenfelt.tui.news import event_text, round_over_text, seat_news

CARD = re.compile(r"(?<![\w♠♥♦♣])(?:10|[2-9AJQK])[♠♥♦♣]|\bJK\b")


def _act(match: Any, action: str, seat: int, me: int = 0) -> str | None:
    match.apply(action, seat)
    return event_text({"kind": "action", "seat": seat, "action": action}, match.view(me), me)


def _golf(preset: str, top: str) -> GolfMatch:
    """A two-player round whose deck starts with ``top``; the other cards follow in order."""
    first = top.split()
    every = card_texts(make_deck())
    match = GolfMatch(find_preset(preset), names=["Ann", "Bo"])
    match.start_round(deck=first + [card for card in every if card not in first])
    return match


# The six-card deal of two (G1.5): Bo (left of the dealer Ann) gets the 1st, 3rd, ...
# card, Ann the 2nd, 4th, ...; then the discard, then the stock.
SIX = "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥"


def test_golf_moves_name_the_cards_they_showed() -> None:
    match = _golf("six-card", SIX)
    assert _act(match, "flip 0", 1) == "Bo turned up the 2♣ (place 0)."  # G1.7
    assert _act(match, "flip 1", 1) == "Bo turned up the 4♣ (place 1)."
    assert _act(match, "flip 0", 0) == "You turned up the 3♣ (place 0)."
    assert _act(match, "flip 4", 0) == "You turned up the J♣ (place 4)."
    # G2.1: the turn; the discard's top was A♥, the stock starts at 2♥.
    assert _act(match, "take", 1) == "Bo took the A♥ from the discard pile."
    assert _act(match, "swap 5", 1) == "Bo put the A♥ in place 5; the Q♣ goes to the discard pile."
    assert _act(match, "draw", 0) == "You drew the 2♥ from the stock."
    assert _act(match, "discard", 0) == "You discarded the 2♥."
    assert _act(match, "pass", 0) == "You chose not to turn a card up."  # G2.3
    assert _act(match, "draw", 1) == "Bo drew from the stock."  # its card is Bo's alone
    assert _act(match, "swap 2", 1) == "Bo put the 3♥ in place 2; the 6♣ goes to the discard pile."


def test_a_card_swapped_in_face_down_stays_a_card_and_a_peek_says_what_you_saw() -> None:
    """Closed golf (G1.7 peeks, G8): another seat's face-down card is never named."""
    match = _golf("four-card", SIX)
    for seat, place in ((1, 2), (1, 3), (0, 2)):
        line = _act(match, f"peek {place}", seat)
        assert line == f"{'Bo' if seat else 'You'} peeked at place {place}."
    seen = {"kind": "action", "seat": 0, "action": "peek 3", "seen": "9♣"}
    match.apply("peek 3", 0)
    assert event_text(seen, match.view(0), 0) == "You peeked at place 3. (you saw 9♣)"
    assert _act(match, "draw", 1) == "Bo drew from the stock."
    line = _act(match, "swap 0", 1)
    assert line == "Bo put a card in place 0; the 2♣ goes to the discard pile."


def test_spades_moves_name_the_public_cards_and_the_trick_winner() -> None:
    """S2 (keep or reject), S3 (bids), S4.3 (the trick's winner)."""
    rng = random.Random(5)
    match = SpadesMatch(SpadesRules(), names=("Ann", "Bo"))
    match.start_round(rng=rng)
    said: list[tuple[str, str | None]] = []
    while not match.rounds[-1].is_over:
        seat = match.to_move
        assert seat is not None
        action = str(rng.choice(match.legal_actions()))
        said.append((action, _act(match, action, seat)))
    assert any(
        a == "pass" and line and line.endswith("will not bid blind nil.") for a, line in said
    )
    keeps = [line for a, line in said if a == "keep"]
    assert keeps and all(line and "kept the drawn card" in line for line in keeps)
    rejects = [line for a, line in said if a == "reject"]
    assert rejects and all(line and "rejected the " in line for line in rejects)
    for action, line in said:
        if action.startswith("bid "):
            assert line is not None and f" bid {action[4:]}" in line
    plays = [(a, line) for a, line in said if a.startswith("play ")]
    assert len(plays) == 26
    for number, (action, line) in enumerate(plays, start=1):
        assert line is not None and f"played the {action[5:]}." in line
        if number % 2 == 0:  # the trick is complete: its winner is told
            assert line.endswith(("You win the trick.", "Bo wins the trick."))
        else:
            assert "the trick" not in line


def _no_unseen_card_told(match: Any, rng: random.Random, what: str) -> None:
    """Play the round in progress at random; after each move, every seat's line for it
    names only cards in that seat's view (G8), the proof the leak detector gives views."""
    assert match.current is not None, "a round must be in progress"
    while match.current is not None:
        seat = match.to_move
        assert seat is not None
        action = str(rng.choice(match.legal_actions()))
        match.apply(action, seat)
        for me in range(len(match.names)):
            view = match.view(me)
            line = event_text({"kind": "action", "seat": seat, "action": action}, view, me)
            assert line is not None
            shown = json.dumps(view, ensure_ascii=False)
            for card in CARD.findall(line):
                assert card in shown, f"{what}: seat {me} was told {card}: {line}"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_golf_line_names_no_card_its_seat_may_not_see(preset: str) -> None:
    rng = random.Random(preset)
    for _ in range(3):
        match = GolfMatch(find_preset(preset), names=["Ann", "Bo", "Cy"])
        match.start_round(rng=rng)
        _no_unseen_card_told(match, rng, preset)


@pytest.mark.parametrize("discards", ["face_up", "face_down"])
def test_a_spades_line_names_no_card_its_seat_may_not_see(discards: str) -> None:
    rng = random.Random(discards)
    match = SpadesMatch(SpadesRules(discards=discards), names=("Ann", "Bo"))
    match.start_round(rng=rng)
    _no_unseen_card_told(match, rng, discards)


def test_other_events() -> None:
    view = {"game": "golf", "names": ["Ann", "Bo"]}
    assert event_text({"kind": "deal"}, view, 0) == "A new round is dealt."
    spades = {"game": "spades", "names": ["Ann", "Bo"]}
    assert event_text({"kind": "deal"}, spades, 0) == "A new hand is dealt."
    # a view without a round in it still gets a line, not an error
    assert event_text({"kind": "action", "seat": 1, "action": "swap 2"}, view, 0) == (
        "Bo put a card in place 2; a card goes to the discard pile."
    )
    assert event_text({"kind": "start"}, view, 0) == "The match starts."
    assert event_text(None, view, 0) is None


def _played_out(match: Any, rng: random.Random) -> None:
    while match.current is not None:
        match.apply(rng.choice(match.legal_actions()))


def test_a_round_ends_with_each_players_points_a_playoff_with_the_tied_alone() -> None:
    """G9.2: a tie for the match is played off among the tied; its line names them only."""
    rules = find_preset("six-card").with_options({"end": "holes:1", "tiebreak": "playoff"})
    for seed in range(500):
        rng = random.Random(seed)
        match = GolfMatch(rules, names=["Ann", "Bo", "Cy"])
        match.start_round(rng=rng)
        assert round_over_text(match.view(0)) is None  # the round is still on
        _played_out(match, rng)
        first = match.rounds[0].scores
        said = round_over_text(match.view(0))
        assert said == f"Round 1 is over: Ann {first[0]:+d}, Bo {first[1]:+d}, Cy {first[2]:+d}."
        if match.is_over:
            continue
        match.start_round(rng=rng)
        _played_out(match, rng)
        names = [match.names[s] for s in match.seating(1)]
        playoff = match.rounds[1].scores
        assert len(names) == 2 and playoff is not None
        each = ", ".join(f"{n} {p:+d}" for n, p in zip(names, playoff, strict=True))
        assert round_over_text(match.view(1)) == f"Round 2 is over: {each}."
        return
    raise AssertionError("no playoff in 500 seeded matches")


def test_a_spades_hand_ends_with_each_players_points() -> None:
    """S5: the hand's points as scored, bags and all."""
    rng = random.Random(3)
    match = SpadesMatch(SpadesRules(), names=("Ann", "Bo"))
    hand = match.start_round(rng=rng)
    assert round_over_text(match.view(0)) is None
    _played_out(match, rng)
    ann, bo = hand.scores
    assert round_over_text(match.view(1)) == f"Hand 1 is over: Ann {ann:+d}, Bo {bo:+d}."


@pytest.mark.parametrize("preset", ["cambio", "powers"])
def test_powers_are_told_in_words_from_each_seats_side(preset: str) -> None:
    """G7: a power's line says what it did, seats numbered as the action texts do; a
    power of another seat's is "their" king or card, never "your"."""
    rng = random.Random(preset)
    told: dict[str, str] = {}
    for _ in range(20):
        match = GolfMatch(find_preset(preset), names=["Ann", "Bo"])
        match.start_round(rng=rng)
        while match.current is not None:
            seat = match.to_move
            assert seat is not None
            action = str(rng.choice(match.legal_actions()))
            match.apply(action, seat)
            if not action.startswith("power "):
                continue
            for me in (0, 1):
                line = event_text(
                    {"kind": "action", "seat": seat, "action": action}, match.view(me), me
                )
                assert line is not None
                who = "You" if seat == me else ["Ann", "Bo"][seat]
                assert line.startswith(f"{who} used a power: "), line
                if seat != me:
                    assert "your" not in line, line
                told[action.split()[1]] = line
    assert {"peek", "swap"} <= set(told), told  # the common powers were met and told


def test_seat_changes_in_words_as_the_browser_tells_them() -> None:
    def seat(n: int, name: str, **more: Any) -> dict[str, Any]:
        return {
            "seat": n,
            "name": name,
            "bot": None,
            "taken": True,
            "connected": True,
            "stand_in": False,
            **more,
        }

    before = [
        seat(0, "Ann"),
        seat(1, "Seat 2", taken=False, connected=False),
        seat(2, "Cy"),
        seat(3, "Dee"),
        seat(4, "Eve", stand_in=True),
        seat(5, "Seat 6", taken=False, connected=False),
    ]
    after = [
        seat(0, "Ann", stand_in=True),
        seat(1, "Bob"),
        seat(2, "Cy", connected=False),
        seat(3, "Dee", stand_in=True),
        seat(4, "Eve"),
        seat(5, "Expert bot", bot="expert"),
    ]
    assert seat_news(before, after, 0) == [
        "You are away: a bot plays for you.",
        "Bob took seat 2.",
        "Cy lost the connection.",
        "Dee is away: a bot plays for them.",
        "Eve is back.",
        "Seat 6 went to the Expert bot.",
    ]
    assert seat_news(before, after, None)[0] == "Ann is away: a bot plays for them."
    assert seat_news(after, after, 0) == [] and seat_news([], after, 0) == []
