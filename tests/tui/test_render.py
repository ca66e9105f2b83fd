"""The pure pieces of the terminal client: renderers, keys, help, against known views."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from greenfelt.golf import GolfMatch, find_preset
from greenfelt.golf.rules import OPTIONS
from greenfelt.spades import SpadesMatch, SpadesRules
from greenfelt.tui.helptext import golf_help, option_value, spades_help
from greenfelt.tui.keys import action_for_key, key_for, moves
from greenfelt.tui.render import (
    BACK,
    card,
    golf_breakdown,
    golf_layout,
    golf_table,
    match_result,
    moves_text,
    plain,
    scoresheet,
    spades_table,
    status_line,
    table_panel,
)

# ---- cards and layouts -------------------------------------------------------------------


def test_a_card_shows_its_text_in_its_suits_colour() -> None:
    heart = card("10♥")
    assert heart.plain == "[10♥]"
    assert any("red" in str(span.style) for span in heart.spans)
    spade = card("K♠")
    assert spade.plain == "[ K♠]"
    assert not any("red" in str(span.style) for span in spade.spans)
    assert "red" in str(card("2♦").spans[0].style)


def test_a_face_down_card_is_a_back_never_its_text() -> None:
    assert card("??").plain == f"[{BACK}]"
    assert "??" not in card("??").plain
    assert card(None).plain == "[   ]"  # an empty place (G3.5)


def test_a_layout_with_face_down_cards_shows_backs() -> None:
    cards = ["K♠", "??", "??", "??", "4♦", "??"]
    face_up = [True, False, False, False, True, False]
    text = golf_layout(cards, face_up, "2x3").plain
    assert text.count(BACK) == 4
    assert "??" not in text
    assert text.splitlines() == [f"  [ K♠] [{BACK}] [{BACK}]", f"  [{BACK}] [ 4♦] [{BACK}]"]


def test_numbered_layouts_put_each_position_above_its_card() -> None:
    text = golf_layout(["A♠"] * 6, [True] * 6, "2x3", numbered=True).plain.splitlines()
    assert [int(n) for n in text[0].split()] == [0, 1, 2]
    assert [int(n) for n in text[2].split()] == [3, 4, 5]
    for label, cards in ((text[0], text[1]), (text[2], text[3])):
        for match in re.finditer(r"\d", label):
            assert cards[match.start()] in "[ A"


def test_a_peeked_face_down_card_is_shown_dimmed() -> None:
    text = golf_layout(["Q♥", "??", "??", "??"], [False, False, False, False], "2x2")
    assert "Q♥" in text.plain
    assert any("dim" in str(span.style) for span in text.spans)


# ---- whole views -------------------------------------------------------------------------


def _golf_match(seed: int, players: int = 3, **options: Any) -> GolfMatch:
    rules = find_preset("six-card").with_options({"end": "holes:1", **options})
    match = GolfMatch(rules, ["Ann", "Bo", "Cy"][:players])
    match.start_round(rng=random.Random(seed))
    return match


def _play(match: Any, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if match.current is None:
            return
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("seed", range(8))
def test_the_golf_table_shows_only_what_the_view_contains(seed: int) -> None:
    """One deck, three players: every card is unique, so a hidden card must not appear."""
    match = _golf_match(seed)
    rng = random.Random(seed)
    _play(match, rng, 6 + seed * 3)
    rnd = match.current
    assert rnd is not None
    view = match.view(0, recall=False)
    text = plain(golf_table(view, ["", "greedy bot", "expert bot"]))
    assert "??" not in text
    hidden = [str(c) for c in rnd.stock]
    shown_backs = 0
    for seat in range(3):
        layout = view["round_view"]["layouts"][seat]
        shown_backs += layout["cards"].count("??")
        for p, c in enumerate(rnd.layout(seat)):
            if layout["cards"][p] == "??":
                hidden.append(str(c))
    if rnd.held is not None and view["round_view"]["held"] == "??":
        hidden.append(str(rnd.held))
    assert text.count(BACK) == shown_backs + (view["round_view"]["held"] == "??")
    for c in hidden:
        assert not re.search(rf"(?<![0-9]){re.escape(c)}", text), c
    assert "Bo (greedy bot)" in text and "Ann (you)" in text


def test_the_golf_table_marks_whose_turn_and_the_held_card() -> None:
    match = _golf_match(1, players=2)
    while match.current.phase.value == "reveal":  # type: ignore[union-attr]
        match.apply(match.legal_actions()[0])
    mover = match.to_move
    assert mover is not None
    match.apply("draw")
    mine = plain(golf_table(match.view(mover)))
    held = str(match.current.held)  # type: ignore[union-attr]
    assert f"You hold [{held.rjust(3)}] from the stock" in mine
    other = plain(golf_table(match.view(1 - mover)))
    assert f"holds [{BACK}] from the stock" in other
    marked = [line for line in mine.splitlines() if line.startswith("▶")]
    assert len(marked) == 1 and match.names[mover] in marked[0]
    assert "your turn" in plain(status_line(match.view(mover)))
    assert f"{match.names[mover]} to move" in plain(status_line(match.view(1 - mover)))


KNOWN_ROUND = {
    "game": "golf",
    "names": ["Ann", "Bo"],
    "seat": 0,
    "round": 1,
    "seating": [0, 1],
    "scoresheet": [[20, 4]],
    "totals": [20, 4],
    "over": True,
    "winners": [1],
    "round_view": {
        "phase": "over",
        "layout": "2x3",
        "to_move": None,
        "dealer": 1,
        "closer": 0,
        "knocked": False,
        "final_turns_left": 0,
        "stock": 30,
        "discard": ["5♣", "9♦"],
        "held": None,
        "held_from": None,
        "legal": [],
        "layouts": [
            {"cards": ["K♠", "6♠", "K♥", "K♦", "4♦", "2♣"], "face_up": [True] * 6},
            {"cards": ["3♠", "3♥", "A♣", "3♦", "3♣", "A♦"], "face_up": [True] * 6},
        ],
        "breakdown": [
            {
                "layout": 10,
                "points": [0, 6, 0, 0, 4, -2],
                "groups": [
                    {"rule": "G5.3", "kind": "column", "positions": [0, 3], "points": 0},
                ],
                "adjustments": [
                    {"rule": "G6", "reason": "closer is not lowest: penalty 10", "delta": 10}
                ],
                "score": 20,
            },
            {
                "layout": 4,
                "points": [0, 0, 1, 0, 0, 1],
                "groups": [
                    {"rule": "G5.4", "kind": "block", "positions": [0, 1, 3, 4], "points": -20},
                ],
                "adjustments": [],
                "score": 4,
            },
        ],
        "scores": [20, 4],
    },
}


def test_the_breakdown_names_each_rule_and_the_closer_penalty() -> None:
    text = plain(golf_breakdown(KNOWN_ROUND)).splitlines()
    assert text == [
        "Round 1 breakdown",
        "Ann closed the round.",
        "Ann: K♠ 6♠ K♥ / K♦ 4♦ 2♣",
        "  counted: 6♠=6 K♥=0 4♦=4 2♣=-2",
        "  column [0,3] K♠ K♦ = 0 (G5.3)",
        "  layout: 10",
        "  +10: closer is not lowest: penalty 10 (G6)",
        "  round score: 20",
        "Bo: 3♠ 3♥ A♣ / 3♦ 3♣ A♦",
        "  counted: A♣=1 A♦=1",
        "  block [0,1,3,4] 3♠ 3♥ 3♦ 3♣ = -20 (G5.4)",
        "  layout: 4",
        "  round score: 4",
        "",
    ]


def test_the_breakdown_of_a_played_round_matches_the_engine() -> None:
    match = _golf_match(5, closer_rule="penalty_10")
    _play(match, random.Random(5), 10_000)
    rnd = match.rounds[-1]
    assert rnd.result is not None
    text = plain(golf_breakdown(match.view(0)))
    assert [int(s) for s in re.findall(r"round score: (-?\d+)", text)] == rnd.scores
    for layout in rnd.result.layouts:
        for group in layout.groups:
            assert f"{group.kind} [{','.join(map(str, group.positions))}]" in text
    assert golf_breakdown(_golf_match(5).view(0)) is None  # not over yet


def test_the_scoresheet_and_the_winner() -> None:
    sheet = plain(scoresheet(KNOWN_ROUND))
    assert re.search(r"1\s*│\s*20\s*│\s*4", sheet)
    assert re.search(r"Total\s*│\s*20\s*│\s*4", sheet)
    assert plain(match_result(KNOWN_ROUND)).strip() == "Match over: Bo wins the match with 4."
    shared = {**KNOWN_ROUND, "winners": [0, 1], "totals": [4, 4]}
    assert "Ann and Bo share the win with 4" in plain(match_result(shared))
    assert match_result({**KNOWN_ROUND, "over": False, "winners": []}) is None
    assert "The match is over" in plain(moves_text(KNOWN_ROUND))
    assert plain(table_panel(None)).startswith("Waiting for the match to start")


def _spades_in(phase: str, seed: int = 4) -> SpadesMatch:
    match = SpadesMatch(SpadesRules(), ("Ann", "Bo"))
    match.start_round(rng=random.Random(seed))
    rng = random.Random(seed)
    while match.current is not None and match.current.phase.value != phase:
        legal = [a for a in match.legal_actions() if str(a) != "blind nil"]
        match.apply(rng.choice(legal))
    return match


def test_the_spades_table_shows_my_hand_with_letters_and_never_the_other() -> None:
    match = _spades_in("play")
    hand = match.current
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    view = match.view(seat)
    text = plain(spades_table(view, ["", "expert bot"]))
    mine = view["hand"]["hand"]
    for i, c in enumerate(mine):
        assert f"{'abcdefghijklm'[i]}[{c.rjust(3)}]" in text
    for c in hand._hands[1 - seat]:
        assert not re.search(rf"(?<![0-9]){re.escape(str(c))}", text)
    assert f"{match.names[seat]} (you" in text
    assert "Trick:" in text


def test_the_spades_draw_shows_the_drawn_card_only_to_the_drawer() -> None:
    match = _spades_in("draw")
    hand = match.current
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    drawn = match.view(seat)["hand"]["drawn"]
    assert f"You drew [{drawn.rjust(3)}]" in plain(spades_table(match.view(seat)))
    assert "You drew" not in plain(spades_table(match.view(1 - seat)))
    assert "[k] keep  [r] reject" in plain(moves_text(match.view(seat)))


# ---- keys ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phase", "layout", "key", "action"),
    [
        ("reveal", "2x3", "4", "flip 4"),
        ("reveal", "2x2", "1", "peek 1"),
        ("turn", "2x3", "d", "draw"),
        ("turn", "2x3", "t", "take"),
        ("turn", "2x2", "k", "knock"),
        ("turn", "3x3", "7", "flip 7"),
        ("drawn", "2x3", "5", "swap 5"),
        ("drawn", "2x3", "x", "discard"),
        ("taken", "hand4", "3", "swap 3"),
        ("flip", "2x3", "2", "flip 2"),
        ("flip", "2x3", "p", "pass"),
        ("over", "2x3", "d", None),
        ("over", "2x3", "1", None),
        ("turn", "2x3", "z", None),
    ],
)
def test_golf_keys(phase: str, layout: str, key: str, action: str | None) -> None:
    view = {"game": "golf", "round_view": {"phase": phase, "layout": layout}}
    assert action_for_key(view, key) == action
    if action is not None:
        assert key_for(view, action) == key


@pytest.mark.parametrize(
    ("phase", "key", "action"),
    [
        ("blind", "b", "blind nil"),
        ("blind", "p", "pass"),
        ("draw", "k", "keep"),
        ("draw", "r", "reject"),
        ("bid", "0", "bid nil"),
        ("bid", "7", "bid 7"),
        ("play", "a", "play A♠"),
        ("play", "c", "play 10♥"),
        ("play", "d", None),
        ("draw", "b", None),
    ],
)
def test_spades_keys(phase: str, key: str, action: str | None) -> None:
    view = {"game": "spades", "hand": {"phase": phase, "hand": ["A♠", "2♠", "10♥"]}}
    assert action_for_key(view, key) == action
    if action is not None:
        assert key_for(view, action) == key


def test_big_bids_are_typed() -> None:
    view = {"game": "spades", "hand": {"phase": "bid", "legal": ["bid nil", "bid 9", "bid 12"]}}
    assert moves(view) == [("0", "bid nil"), ("9", "bid 9"), (None, "bid 12")]
    assert "type: bid 12" in plain(moves_text({**view, "names": ["A", "B"], "totals": [0, 0]}))


# ---- help ----------------------------------------------------------------------------------


def test_golf_help_lists_every_option_with_value_and_meaning() -> None:
    rules = find_preset("nine-card-wiki").with_options({"closer_rule": "double_plus_5"})
    text = plain(golf_help(rules, players=3), width=300)
    assert "Golf: preset nine-card-wiki" in text
    for spec in OPTIONS:
        line = next(line for line in text.splitlines() if line.strip().startswith(spec.name))
        assert f"= {option_value(rules, spec.name)}" in line and spec.help in line
    assert re.search(r"closer_rule\s+= double_plus_5", text)
    assert re.search(r"final_turns\s+= off", text)
    assert re.search(r"decks\s+= auto \(1 for 3 players\)", text)
    assert "JK=-4" in text


def test_spades_help_summarises_the_rules_and_lists_the_options() -> None:
    text = plain(spades_help(SpadesRules(discards="face_down")), width=200)
    assert "S5" in text and "blind nil +200" in text
    assert re.search(r"discards\s+= face_down", text)
    assert re.search(r"memory\s+= on", text)
