"""The leak detector (STYLE 13, RULES G8): what each seat may know, and nothing more.

Over thousands of random states across presets:

* an independent model of who has seen which card (built only from the
  actions, per G1.7, G2.1-G2.4, G8.1) must agree with every seat's view, and every
  card text anywhere in the JSON of a view must be one that seat may know;
* ``determinize(seat, rng)`` must leave that seat's view unchanged, keep the
  cards of the decks, continue to a legal end, and actually resample.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field

import pytest

from greenfelt.golf.actions import GolfAction, Kind
from greenfelt.golf.game import GolfRound, new_round
from greenfelt.golf.rules import GolfRules, find_preset
from tests.golf.conftest import (
    CARD_TEXT,
    PRESET_NAMES,
    cards_in_play,
    full_deck,
    pick,
    play_out,
    stacked_round,
)

FACE_UP = -1


@dataclass
class Knowledge:
    """Who may know each layout card, from public actions alone (the test's own model)."""

    rules: GolfRules
    players: int
    seen: dict[tuple[int, int], set[int]] = field(default_factory=dict)
    held_from: str | None = None

    def __post_init__(self) -> None:
        size = self.rules.shape.size
        for seat in range(self.players):
            for pos in range(size):
                # G1.7: a hand4 player sees their four cards at all times.
                self.seen[seat, pos] = {seat} if self.rules.shape.is_hand else set()

    def apply(self, seat: int, action: GolfAction) -> None:
        kind = action.kind
        if kind is Kind.FLIP:
            assert action.pos is not None
            self.seen[seat, action.pos] = {FACE_UP}
        elif kind is Kind.PEEK:
            assert action.pos is not None
            self.seen[seat, action.pos].add(seat)
        elif kind is Kind.DRAW:
            self.held_from = "stock"
        elif kind is Kind.TAKE:
            self.held_from = "discard"
        elif kind is Kind.SWAP:
            assert action.pos is not None
            if self.rules.shape.is_grid and not self.rules.closed:
                self.seen[seat, action.pos] = {FACE_UP}  # G2.4 face up
            elif self.held_from == "discard":
                # Face down (or in the hand), but every player saw it on the pile (G8.1).
                self.seen[seat, action.pos] = set(range(self.players))
            else:
                self.seen[seat, action.pos] = {seat}  # G2.4 only the drawer saw it
            self.held_from = None
        elif kind is Kind.DISCARD:
            self.held_from = None

    def may_know(self, viewer: int | None, owner: int, pos: int) -> bool:
        who = self.seen[owner, pos]
        return FACE_UP in who or (viewer is not None and viewer in who)


def expected_cards(rnd: GolfRound, know: Knowledge, viewer: int | None) -> list[list[str | None]]:
    out = []
    for owner in range(rnd.n):
        row: list[str | None] = []
        for pos, card in enumerate(rnd.layout(owner)):
            if card is None:
                row.append(None)  # G3.5 removed
            elif rnd.is_over or know.may_know(viewer, owner, pos):
                row.append(str(card))
            else:
                row.append("??")
        out.append(row)
    return out


def check_views(rnd: GolfRound, know: Knowledge) -> None:
    """Every seat's view (and the spectator's) shows exactly what it may know."""
    discard = {str(c) for c in rnd.discard}
    for viewer in [*range(rnd.n), None]:
        view = rnd.view(viewer)
        cards = expected_cards(rnd, know, viewer)
        assert [layout["cards"] for layout in view["layouts"]] == cards, viewer
        allowed = discard | {c for row in cards for c in row if c is not None and c != "??"}
        if rnd.held is not None:
            sees_held = know.held_from == "discard" or viewer == rnd.to_move
            assert view["held"] == (str(rnd.held) if sees_held else "??")
            if sees_held:
                allowed.add(str(rnd.held))
        # Scan the whole message, not the fields we meant to fill.
        shown = set(CARD_TEXT.findall(json.dumps(view, ensure_ascii=False)))
        assert shown <= allowed, (viewer, shown - allowed)
        for owner, layout in enumerate(view["layouts"]):
            for pos, (text, up) in enumerate(zip(layout["cards"], layout["face_up"], strict=True)):
                assert up == (rnd.is_over or FACE_UP in know.seen[owner, pos] or text is None)
                if viewer is None:
                    assert up or text == "??"  # a spectator sees no face-down card


@dataclass
class Tally:
    states: int = 0
    samples: int = 0
    changed: int = 0
    held_changed: int = 0
    stock_changed: int = 0
    hidden_samples: int = 0
    reshuffles: int = 0


def check_determinize(rnd: GolfRound, rng: random.Random, tally: Tally, play: bool) -> None:
    deck = full_deck(rnd.rules, rnd.n)
    for seat in range(rnd.n):
        other = rnd.determinize(seat, rng)
        tally.samples += 1
        # The seat cannot tell the sample from the real state.
        assert other.view(seat) == rnd.view(seat)
        assert other.view(seat, recall=False) == rnd.view(seat, recall=False)
        # A complete state: the same cards, and the original is untouched.
        assert cards_in_play(other) == deck
        assert other.to_move == rnd.to_move
        assert other.legal_actions() == rnd.legal_actions()
        hidden = [
            (owner, pos)
            for owner in range(rnd.n)
            for pos, text in enumerate(rnd.view(seat)["layouts"][owner]["cards"])
            if text == "??"
        ]
        if hidden:
            tally.hidden_samples += 1
            if any(other.layout(o)[p] != rnd.layout(o)[p] for o, p in hidden):
                tally.changed += 1
        if rnd.held is not None and rnd.view(seat)["held"] == "??" and other.held != rnd.held:
            tally.held_changed += 1
        if rnd.stock != other.stock:
            tally.stock_changed += 1
        if play:
            play_out(other, rng)
            assert cards_in_play(other) == deck
            assert other.scores is not None


LEAK_SETS: dict[str, GolfRules] = {name: find_preset(name) for name in PRESET_NAMES} | {
    "bga-2x2": find_preset("bga").with_options({"layout": "2x2"}),
    "six-card+G3.5": find_preset("six-card").with_options({"remove_matched_lines": True}),
    "four-card-memory-off": find_preset("four-card").with_options({"memory": False}),
}
STATES = 400
"""States per rule set: eleven sets make thousands of states."""


@pytest.mark.parametrize("name", list(LEAK_SETS))
def test_views_and_determinize_over_random_states(name: str) -> None:
    """STYLE 13, G8.1/G8.2: views match the model and determinize is invisible to the seat."""
    rules = LEAK_SETS[name]
    rng = random.Random(f"leaks/{name}")
    tally = Tally()
    for game in itertools.count():
        if tally.states >= STATES:
            break
        players = (2, 2, 3, 4, 8)[game % 5]
        stubborn = 130 if game == 0 else 0  # run the stock out first: G2.5 pools
        rnd = new_round(rules, players, rng.randrange(players), rng=random.Random(rng.random()))
        know = Knowledge(rules, players)
        steps = 0
        while True:
            check_views(rnd, know)
            tally.states += 1
            check_determinize(rnd, rng, tally, play=steps % 23 == 5)
            if rnd.is_over:
                break
            seat = rnd.to_move
            assert seat is not None
            action = pick(rnd.legal_actions(), rng, stubborn=steps < stubborn)
            know.apply(seat, action)
            rnd.apply(action, seat)
            steps += 1
            assert steps < 3000
        tally.reshuffles += len(rnd.reshuffles)
    assert tally.states >= STATES
    assert tally.reshuffles > 0, tally
    # The detector could fail: resampling really moves hidden cards.
    assert tally.changed > tally.hidden_samples // 2, tally
    assert tally.stock_changed > tally.samples // 2, tally
    if rules.shape.is_grid and not rules.closed:
        assert tally.held_changed > 0, tally


# ---- targeted leak checks ---------------------------------------------------------------


def test_g8_1_own_unpeeked_cards_are_hidden_from_their_owner() -> None:
    rnd = stacked_round("four-card", 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠", 0: "A♥ 2♥ / 3♥ 4♥"})
    for action in ("peek 2", "peek 3", "peek 0", "peek 1"):
        rnd.apply(action)
    view = json.dumps(rnd.view(1), ensure_ascii=False)
    assert "A♠" not in view and "2♠" not in view  # never peeked by seat 1
    assert "3♠" in view and "4♠" in view
    assert "3♥" not in view and "4♥" not in view and "A♥" not in view and "2♥" not in view
    spectator = json.dumps(rnd.view(None), ensure_ascii=False)
    for text in ("A♠", "2♠", "3♠", "4♠", "A♥", "2♥", "3♥", "4♥"):
        assert text not in spectator


def test_g8_1_a_drawn_card_in_closed_golf_stays_private() -> None:
    rnd = stacked_round(
        "four-card", 2, 0, layouts={1: "A♠ 2♠ / 3♠ 4♠"}, discard="K♣", stock="Q♦ J♦"
    )
    for action in ("peek 2", "peek 3", "peek 2", "peek 3", "draw", "swap 0"):
        rnd.apply(action)
    assert "Q♦" in json.dumps(rnd.view(1), ensure_ascii=False)
    for seat in (0, None):
        assert "Q♦" not in json.dumps(rnd.view(seat), ensure_ascii=False)
    # Resampling for seat 0 moves the unknown Q♦; seat 1's sample keeps it.
    rng = random.Random(7)
    assert all(str(rnd.determinize(1, rng).layout(1)[0]) == "Q♦" for _ in range(20))
    assert any(str(rnd.determinize(0, rng).layout(1)[0]) != "Q♦" for _ in range(20))


def test_determinize_keeps_what_the_seat_knows() -> None:
    """G8.1: face-up cards stay, hidden ones are resampled (STYLE 13)."""
    rnd = stacked_round("six-card", 2, 0, layouts={1: "A♠ 2♠ 3♠ / 4♠ 5♠ 6♠"})
    for action in ("flip 0", "flip 4", "flip 0", "flip 1"):
        rnd.apply(action)
    rng = random.Random(3)
    samples = [rnd.determinize(0, rng) for _ in range(30)]
    for sample in samples:
        assert str(sample.layout(1)[0]) == "A♠"
        assert str(sample.layout(1)[4]) == "5♠"
        assert sample.discard == rnd.discard
        assert cards_in_play(sample) == full_deck(rnd.rules, 2)
    hidden = {tuple(str(c) for c in s.layout(1)) for s in samples}
    assert len(hidden) > 20
    # The real state is not touched by sampling.
    assert [str(c) for c in rnd.layout(1)] == ["A♠", "2♠", "3♠", "4♠", "5♠", "6♠"]
