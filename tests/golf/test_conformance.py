"""Conformance over every preset (STYLE 12): random legal games checked at every step.

At 2, 4 and 8 players: cards are conserved (C1, G1.5, G2.5, G3.5), seats not to
move have no legal actions, every action's text round-trips, every view is JSON,
replaying the deck, the actions and the recorded reshuffles reaches the same
views, and scores stay within bounds. A match per preset is played to its end.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from greenfelt.cards import parse_card, parse_cards
from greenfelt.golf.actions import parse_action
from greenfelt.golf.game import FACE_DOWN, REMOVED, GolfRound, new_round
from greenfelt.golf.match import GolfMatch
from greenfelt.golf.rules import GolfRules, find_preset
from tests.golf.conftest import PRESET_NAMES, cards_in_play, full_deck, pick

# Variants beyond the presets that change what moves cards around.
VARIANTS: dict[str, GolfRules] = {
    "six-card+G3.5+knock": find_preset("six-card").with_options(
        {"remove_matched_lines": True, "knock": "on", "jokers_per_deck": 2}
    ),
    "bga-3x3+G3.5": find_preset("bga").with_options(
        {"layout": "3x3", "remove_matched_lines": True, "flip_constraint": "different_columns"}
    ),
    "bga-2x2": find_preset("bga").with_options({"layout": "2x2", "peek_constraint": "nearest_row"}),
    "six-card-must-stock-only": find_preset("six-card").with_options(
        {"flip_after_discard": "must", "final_turns_stock_only": True, "closer_rule": "add_lowest"}
    ),
    "four-card-closer": find_preset("four-card").with_options(
        {"closer_rule": "double_plus_5", "closer_bonus": "minus_players", "memory": False}
    ),
}
RULE_SETS: dict[str, GolfRules] = {name: find_preset(name) for name in PRESET_NAMES} | VARIANTS
CONFIGS = [(name, players) for name in RULE_SETS for players in (2, 4, 8)]


def score_bounds(rules: GolfRules) -> tuple[int, int]:
    """Loose but finite bounds on a layout's total (G5)."""
    values = rules.card_values
    size = rules.shape.size
    low = size * min(0, *values) + min(0, rules.block_score or 0) * (size // 4) - 16 * 2 - 12
    high = size * max(values) + max(0, rules.joker_pair_value)
    return low, high


def check_public_tallies(rnd: GolfRound, rules: GolfRules) -> None:
    """The kept public tallies agree with the table recounted (G5.1 points, G8.1)."""
    values = rules.card_values
    assert rnd.pile_points == sum(values[c] for c in rnd.discard)
    if rules.closed or rules.shape.is_hand or rules.has_powers:
        assert rnd.face is None  # a seat may know a face-down card: no common face
        return
    table = [
        REMOVED if card is None else card if up else FACE_DOWN
        for card, up in zip(rnd.cards, rnd.up, strict=True)
    ]
    assert rnd.face == table
    assert rnd.face_points == sum(values[c] for c in table if c < FACE_DOWN)
    # It is what every seat's view shows (G8.1).
    codes = {None: REMOVED, "??": FACE_DOWN}
    for seat in range(rnd.n):
        shown = [t for layout in rnd.view(seat)["layouts"] for t in layout["cards"]]
        assert [codes[t] if t in codes else parse_card(t) for t in shown] == rnd.face


def check_step(rnd: GolfRound, rules: GolfRules, players: int) -> None:
    """Every invariant that holds after every action."""
    # C1/G1.5/G2.5/G3.5: every card is somewhere, once (removed cards are in the pile).
    assert cards_in_play(rnd) == full_deck(rules, players)
    check_public_tallies(rnd, rules)
    mover = rnd.to_move
    for seat in range(players):
        if seat != mover:
            assert rnd.legal_actions(seat) == []
    for action in rnd.legal_actions():
        assert parse_action(str(action)) is action
    if mover is not None:
        assert rnd.legal_actions(mover) == rnd.legal_actions()
    for seat in [*range(players), None]:
        view = rnd.view(seat)
        assert json.loads(json.dumps(view)) == view
        if seat is not None and seat != mover:
            assert view["legal"] == []


def replay(rnd: GolfRound, upto: int | None = None) -> GolfRound:
    """The same rules, deck, recorded reshuffles and (the first ``upto``) actions as text."""
    assert rnd.deck is not None
    copy = new_round(rnd.rules, rnd.n, rnd.dealer, list(rnd.deck), reshuffles=rnd.reshuffles)
    for seat, action in rnd.actions[:upto]:
        copy.apply(str(action), seat)
    return copy


def play_game(
    rules: GolfRules, players: int, rng: random.Random, stubborn_steps: int
) -> tuple[GolfRound, list[dict[str, Any]]]:
    dealer = rng.randrange(players)
    rnd = new_round(rules, players, dealer, rng=random.Random(rng.random()))
    middle: list[dict[str, Any]] = []
    steps = 0
    check_step(rnd, rules, players)
    while not rnd.is_over:
        assert steps < 4000, f"no end after {steps} actions"
        action = pick(rnd.legal_actions(), rng, stubborn=steps < stubborn_steps)
        rnd.apply(str(action), rnd.to_move)
        steps += 1
        check_step(rnd, rules, players)
        if steps == 7:
            middle.append({"at": steps, "views": [rnd.view(s) for s in [*range(players), None]]})
    return rnd, middle


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_random_games_conform(name: str, players: int) -> None:
    """STYLE 12: random legal games of one rule set (C1, G1-G6, G8), checked at every step."""
    rules = RULE_SETS[name]
    rng = random.Random(f"{name}/{players}")
    low, high = score_bounds(rules)
    reshuffled = 0
    # Plain random games, then games whose first actions run the stock out.
    for stubborn_steps in (0, 0, 0, 120 * players):
        rnd, middle = play_game(rules, players, rng, stubborn_steps)
        reshuffled += len(rnd.reshuffles)
        assert rnd.scores is not None
        result = rnd.result
        assert result is not None
        assert tuple(rnd.scores) == result.scores  # the quick scorer agrees with the breakdown
        for seat, score in enumerate(rnd.scores):
            layout = result.layouts[seat]
            assert low <= layout.total <= high, (seat, layout)
            assert score == layout.total + sum(a.delta for a in result.adjustments[seat])
            assert abs(score) <= 2 * max(high, -low) + 10 * players
        # G3.4: all face up at the end.
        for owner in range(players):
            assert all(rnd.view(None)["layouts"][owner]["face_up"])
        # Replay reaches the same state, for every seat.
        again = replay(rnd)
        assert again.scores == rnd.scores
        assert again.reshuffles == rnd.reshuffles
        for seat in [*range(players), None]:
            assert again.view(seat) == rnd.view(seat)
        for snapshot in middle:
            part = replay(rnd, snapshot["at"])
            assert [part.view(s) for s in [*range(players), None]] == snapshot["views"]
    if players == 2 and rules.deck_count(2) == 1 and rules.after_discard != "must":
        assert reshuffled > 0  # the stubborn game exercised G2.5


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_match_to_the_end(name: str) -> None:
    """G9: a match of random rounds; totals are the sums of the round scores."""
    rules = RULE_SETS[name]
    rng = random.Random(name)
    match = GolfMatch(rules, ["Ann", "Bob", "Cy"])
    dealers: list[int] = []
    steps = 0
    while not match.is_over:
        assert steps < 20000
        if match.needs_deal:
            dealers.append(match.next_dealer)
            match.start_round(rng=random.Random(rng.random()))
            continue
        mover = match.to_move
        assert mover is not None
        assert match.legal_actions(mover)
        for seat in range(3):
            if seat != mover:
                assert match.legal_actions(seat) == []
        match.apply(str(rng.choice(match.legal_actions())), mover)
        steps += 1
    assert dealers == [(i % 3) for i in range(len(dealers))]
    rows = match.round_scores()
    assert len(rows) == len(match.rounds)
    assert match.totals == [sum(row[s] for row in rows) for s in range(3)]
    kind, number = rules.match_end
    if kind == "holes":
        assert len(rows) == number
    else:
        assert max(match.totals) >= number
        before = [sum(row[s] for row in rows[:-1]) for s in range(3)]
        assert max(before) < number
    best = min(match.totals)
    assert match.winners == [s for s in range(3) if match.totals[s] == best]
    json.dumps(match.view(0))
    # Every round's record round-trips through JSON and replays to the same scores.
    for index, rnd in enumerate(match.rounds):
        record = json.loads(json.dumps(match.round_record(index), ensure_ascii=False))
        assert record["dealer"] == dealers[index]
        copy = new_round(
            rules,
            3,
            record["dealer"],
            parse_cards(record["deck"]),
            reshuffles=[parse_cards(order) for order in record.get("reshuffles", [])],
        )
        for seat, text in record["actions"]:
            copy.apply(text, seat)
        assert copy.is_over
        assert copy.scores == rnd.scores
