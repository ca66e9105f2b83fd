"""The extended Powers set (RULES G7.4, ``powers=powers``) and its preset ``powers``.

A stacked-deck scenario per power, what each seat knows after it (G8), illegal
uses rejected with a reason, records that replay, and bots that play the preset.
The conformance/replay/leak checks over random play are in test_powers.py
(``POWER_RULES["powers"]``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from greenfelt.bots import make_bot
from greenfelt.bots.golf_greedy import greedy_policy
from greenfelt.bots.ismcts import ExpertBot
from greenfelt.cards import parse_card, parse_cards
from greenfelt.cli import main
from greenfelt.errors import IllegalAction, RulesError
from greenfelt.golf import PRESETS, GolfMatch, find_preset, new_round, parse_action, score_layout
from greenfelt.golf.actions import POWER_VERBS, Kind
from greenfelt.golf.game import GolfRound, Phase
from greenfelt.golf.layout import format_layout
from greenfelt.record import dumps, match_record, replay
from tests.golf.conftest import stacked_deck

POWERS = find_preset("powers")
SEAT0 = "A♠ 2♠ 3♠ / 4♠ 5♠ 6♠"
SEAT1 = "5♥ 6♥ 7♥ / 8♥ 9♥ 10♥"
SEAT2 = "A♦ K♠ 3♦ / 4♣ 5♦ 6♦"


def start(stock: str, players: int = 2, **options: Any) -> GolfRound:
    """A powers round, dealer 0, after the reveal: every seat peeked at positions 3 and 4.

    Seat 0 holds ``SEAT0`` (knows 4♠ 5♠), seat 1 ``SEAT1`` (knows 8♥ 9♥), seat 2
    ``SEAT2`` (knows 4♣ 5♦); seat 1 moves first and draws the first ``stock`` card.
    """
    rules = POWERS.with_options(options) if options else POWERS
    layouts = {0: SEAT0, 1: SEAT1, 2: SEAT2}
    deck = stacked_deck(
        rules,
        players,
        0,
        layouts={s: layouts[s] for s in range(players)},
        discard="9♣",
        stock=stock,
    )
    game = new_round(rules, players, 0, deck)
    for _ in range(players):
        game.apply("peek 3")
        game.apply("peek 4")
    assert game.phase is Phase.TURN and game.to_move == 1
    return game


def cells(game: GolfRound, viewer: int | None, seat: int) -> list[str | None]:
    return list(game.view(viewer)["layouts"][seat]["cards"])


def legal(game: GolfRound) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def powers_of(game: GolfRound) -> set[str]:
    return {str(a) for a in game.legal_actions() if a.kind is Kind.POWER}


def assert_sound(game: GolfRound) -> None:
    """Every seat's view survives determinize (no leak) and every card is somewhere once."""
    for seat in range(game.n):
        view = game.view(seat)
        for k in range(3):
            assert game.determinize(seat, random.Random(k)).view(seat) == view
    cards = [c for c in game.cards if c is not None] + game.stock + game.discard
    cards += [game.held] if game.held is not None else []
    cards += [c for c, _ in game.choice]
    assert game.deck is not None
    assert Counter(cards) == Counter(game.deck)


# ---- rules and the preset (G10, G7.4) ---------------------------------------------------


def test_g10_powers_preset() -> None:
    """G10: powers is 2x3, peek 2, column matching, knock on, powers=powers."""
    assert "powers" in PRESETS
    rules = find_preset("powers")
    assert (rules.layout, rules.peeks, rules.matchers, rules.knocking, rules.powers) == (
        "2x3",
        2,
        ("column",),
        True,
        "powers",
    )
    assert rules.closed and not rules.closes_by_layout  # G3.3: only a knock ends it
    assert rules.slots == 12 and rules.extra_slots == 6


def test_g7_4_red_king_minus_one_black_king_zero() -> None:
    """G7.4 table: red K worth -1 (also without the preset's red_king option)."""
    for rules in (POWERS, find_preset("six-card").with_options({"powers": "powers"})):
        values = rules.card_values
        assert values[parse_card("K♥")] == values[parse_card("K♦")] == -1
        assert values[parse_card("K♠")] == values[parse_card("K♣")] == 0


def test_g7_4_rules_errors() -> None:
    with pytest.raises(RulesError, match="hand4"):
        find_preset("four-in-hand").with_options({"powers": "powers"})
    with pytest.raises(RulesError, match="knock"):
        POWERS.with_options({"knock": "off"})
    with pytest.raises(RulesError, match=r"G7\.5"):
        POWERS.with_options({"cutthroat": True})


def test_g7_4_action_texts_round_trip() -> None:
    texts = [
        "power peek 1:3",
        "power place 0:4",
        "power draw2",
        "power keep 2",
        "power rows 0:0 0:1",
        "power cols 1:0 1:2",
        "power swap 0:2 1:3",
        "power shield",
        "power show 1:0",
        "power hide 0:5",
        "power shuffle 1",
        "power add 1",
        "power remove 0:3",
        "power cancel",
    ]
    for text in texts:
        action = parse_action(text)
        assert str(action) == text and parse_action(str(action)) == action
    assert set(POWER_VERBS) >= {parse_action(t).power for t in texts}
    for bad, why in [
        ("power shield 1", "no target"),
        ("power keep 0:1", "card on offer"),
        ("power add 1:2", "a seat"),
        ("power rows 0:0", "2 target"),
        ("power fly 1", "a power is one of"),
    ]:
        with pytest.raises(IllegalAction, match=why):
            parse_action(bad)


# ---- a turn (G7.4) -------------------------------------------------------------------------


def test_g7_4_a_turn_draws_from_the_stock_never_takes() -> None:
    """G7.4, decided here: no taking the discard pile."""
    game = start("Q♦")
    assert legal(game) == {"draw", "knock"}
    with pytest.raises(IllegalAction, match=r"draws from the stock.*G7\.4"):
        game.apply("take")


def test_g7_4_swap_puts_the_card_in_unseen_and_the_old_one_is_discarded_face_up() -> None:
    game = start("Q♦")
    game.apply("draw")
    assert powers_of(game) == set()  # Q: a dud
    assert {"discard", "swap 0", "swap 5"} <= legal(game) and "swap 6" not in legal(game)
    game.apply("swap 0")
    assert game.discard[-1] == parse_card("5♥")  # public now
    assert cells(game, 1, 1)[0] == "Q♦" and cells(game, 0, 1)[0] == "??"
    assert game.view(1)["layouts"][1]["face_up"][0] is False
    assert_sound(game)


# ---- every power of the table -------------------------------------------------------------------


def test_g7_4_jack_peeks_one_of_your_own_unknown_cards() -> None:
    game = start("J♦")
    game.apply("draw")
    assert powers_of(game) == {f"power peek 1:{p}" for p in (0, 1, 2, 5)}  # 3, 4 are known
    with pytest.raises(IllegalAction, match="one of your own cards"):
        game.apply("power peek 0:0")
    game.apply("power peek 1:2")
    assert cells(game, 1, 1)[2] == "7♥" and cells(game, 0, 1)[2] == "??"
    assert game.discard[-1] == parse_card("J♦") and game.to_move == 0
    assert_sound(game)


def test_g7_4_ten_peeks_an_opponents_card_for_this_seat_only() -> None:
    game = start("10♦")
    game.apply("draw")
    assert "power peek 0:0" in powers_of(game) and "power peek 1:0" not in powers_of(game)
    with pytest.raises(IllegalAction, match="an opponent's card"):
        game.apply("power peek 1:0")
    game.apply("power peek 0:0")
    assert cells(game, 1, 0)[0] == "A♠"
    assert cells(game, 0, 0)[0] == "??" and cells(game, None, 0)[0] == "??"
    assert_sound(game)


def test_g7_4_nine_takes_an_opponents_card_place() -> None:
    game = start("9♦")
    game.apply("draw")
    assert "power place 1:0" not in powers_of(game)
    with pytest.raises(IllegalAction, match="opponent's layout, not yours"):
        game.apply("power place 1:0")
    game.apply("power place 0:3")  # seat 0's 4♠, which it knew
    assert game.layout(0)[3] == parse_card("9♦")
    assert game.discard[-1] == parse_card("4♠")
    for viewer in (0, 1):  # a used power card is shown: every player knows the 9
        assert cells(game, viewer, 0)[3] == "9♦"
        assert game.view(viewer)["layouts"][0]["face_up"][3] is False
    assert_sound(game)


def test_g7_4_eight_draws_two_and_keeps_one() -> None:
    game = start("8♦ K♣ 3♦")
    game.apply("draw")
    game.apply("power draw2")
    assert game.phase is Phase.CHOOSE
    assert game.view(1)["offer"] == ["8♦", "K♣", "3♦"]
    assert game.view(0)["offer"] == ["8♦", "??", "??"]  # the drawn cards: the drawer only
    assert legal(game) == {"power keep 0", "power keep 1", "power keep 2"}
    assert_sound(game)
    with pytest.raises(IllegalAction, match="an 8 offers cards to keep: power keep 0"):
        game.apply("swap 0")
    game.apply("power keep 2")
    assert game.held == parse_card("3♦") and legal(game) == {f"swap {p}" for p in range(6)}
    assert game.view(0)["held"] == "??"
    game.apply("swap 0")
    assert game.discard[-3:] == parse_cards("8♦ K♣ 5♥")
    assert cells(game, 1, 1)[0] == "3♦" and cells(game, 0, 1)[0] == "??"
    assert game.to_move == 0
    assert_sound(game)


def test_g7_4_eight_kept_is_known_to_everyone() -> None:
    game = start("8♦ K♣ 3♦")
    game.apply("draw")
    game.apply("power draw2")
    game.apply("power keep 0")
    assert game.view(0)["held"] == "8♦"
    game.apply("swap 5")
    assert cells(game, 0, 1)[5] == "8♦"
    assert_sound(game)


def test_g7_4_seven_swaps_rows_or_columns_and_knowledge_follows() -> None:
    game = start("7♦ 7♣")
    game.apply("draw")
    assert {"power rows 0:0 0:1", "power cols 0:0 0:2"} <= powers_of(game)
    assert not any(" 1:" in a for a in powers_of(game))  # never your own layout
    game.apply("power rows 0:0 0:1")
    assert format_layout(game.layout(0), POWERS.shape) == "4♠ 5♠ 6♠ / A♠ 2♠ 3♠"
    assert cells(game, 0, 0)[:6] == ["4♠", "5♠", "??", "??", "??", "??"]
    game.apply("draw")  # seat 0: 7♣
    game.apply("power cols 1:0 1:2")
    assert format_layout(game.layout(1), POWERS.shape) == "7♥ 6♥ 5♥ / 10♥ 9♥ 8♥"
    assert cells(game, 1, 1)[:6] == ["??", "??", "??", "??", "9♥", "8♥"]
    assert_sound(game)


def test_g7_4_six_swaps_yours_with_an_opponents() -> None:
    game = start("6♦")
    game.apply("draw")
    with pytest.raises(IllegalAction, match="one of your cards with one of an opponent's"):
        game.apply("power swap 1:0 1:1")
    game.apply("power swap 0:3 1:3")  # either order names the same swap
    assert game.layout(1)[3] == parse_card("4♠") and game.layout(0)[3] == parse_card("8♥")
    assert cells(game, 1, 0)[3] == "8♥" and cells(game, 1, 1)[3] == "??"  # it moved, unseen
    assert cells(game, 0, 1)[3] == "4♠" and cells(game, 0, 0)[3] == "??"
    assert_sound(game)


def test_g7_4_five_shield_blocks_the_next_attack_not_a_peek() -> None:
    game = start("5♦ 10♣ Q♦ 9♦")
    game.apply("draw")
    game.apply("power shield")
    assert game.view(0)["shields"] == [0, 1]
    assert game.discard[-1] == parse_card("5♦")
    game.apply("draw")  # seat 0: 10♣, a peek is no attack
    game.apply("power peek 1:0")
    assert cells(game, 0, 1)[0] == "5♥" and game.view(0)["shields"] == [0, 1]
    game.apply("draw")  # seat 1
    game.apply("discard")
    game.apply("draw")  # seat 0: 9♦ on seat 1's 5♥: blocked
    before = game.layout(1)
    game.apply("power place 1:0")
    assert game.layout(1) == before
    assert game.view(1)["shields"] == [0, 0]
    assert game.discard[-1] == parse_card("9♦")  # the 9 is spent
    assert_sound(game)


def test_g7_4_four_shows_an_opponents_card_or_hides_your_own() -> None:
    game = start("4♦ 4♣")
    game.apply("draw")
    with pytest.raises(IllegalAction, match="opponent's layout, not yours"):
        game.apply("power show 1:0")
    assert not any(a.startswith("power hide") for a in powers_of(game))  # nothing face up
    game.apply("power show 0:0")
    for viewer in (0, 1, None):
        assert cells(game, viewer, 0)[0] == "A♠"
        assert game.view(viewer)["layouts"][0]["face_up"][0] is True
    game.apply("draw")  # seat 0: 4♣
    assert "power hide 0:0" in powers_of(game)
    game.apply("power hide 0:0")
    assert game.view(1)["layouts"][0]["face_up"][0] is False
    assert cells(game, 1, 0)[0] == "A♠"  # everyone saw it: everyone still knows it
    assert_sound(game)


def test_g7_4_a_card_put_in_where_a_four_turned_one_up_lies_face_down() -> None:
    game = start("4♦ Q♣")
    game.apply("draw")
    game.apply("power show 0:0")
    game.apply("draw")  # seat 0: Q♣
    game.apply("swap 0")
    assert game.view(0)["layouts"][0]["face_up"][0] is False
    assert cells(game, 1, 0)[0] == "??" and cells(game, 0, 0)[0] == "Q♣"


def test_g7_4_three_shuffles_an_opponent_a_recorded_chance_event() -> None:
    game = start("3♦")
    game.apply("draw")
    game.supply_shuffle([5, 4, 3, 2, 1, 0])  # as a server or a replay does
    game.apply("power shuffle 0")
    assert format_layout(game.layout(0), POWERS.shape) == "6♠ 5♠ 4♠ / 3♠ 2♠ A♠"
    assert game.shuffles == [[5, 4, 3, 2, 1, 0]]
    assert cells(game, 0, 0)[:6] == ["??"] * 6  # seat 0 lost track of 4♠ and 5♠
    assert_sound(game)


def test_g7_4_two_lends_two_different_powers() -> None:
    game = start("2♦")
    game.apply("draw")
    offered = powers_of(game)
    assert {"power peek 0:0", "power peek 1:0", "power shield", "power draw2"} <= offered
    assert not any(a.split()[1] in ("place", "add", "remove", "cancel") for a in offered)
    game.apply("power peek 0:0")  # the 10's power
    assert game.phase is Phase.SECOND and game.to_move == 1
    assert game.view(0)["lent"] == ["10"] and game.discard[-1] == parse_card("2♦")
    assert "pass" in legal(game) and "power peek 1:0" in legal(game)  # the J's: different
    with pytest.raises(IllegalAction, match="already lent the 10's power"):
        game.apply("power peek 0:1")
    game.apply("power shield")
    assert game.view(0)["shields"] == [0, 1] and game.to_move == 0
    assert game.view(0)["lent"] is None
    assert_sound(game)


def test_g7_4_two_with_an_eight_then_pass() -> None:
    game = start("2♦ K♣ 3♦")
    game.apply("draw")
    game.apply("power draw2")
    assert game.view(1)["offer"] == ["K♣", "3♦"]  # no 8 to keep through a 2
    game.apply("power keep 1")
    game.apply("swap 2")
    assert game.phase is Phase.SECOND and "power draw2" not in legal(game)
    game.apply("pass")
    assert game.to_move == 0 and game.phase is Phase.TURN
    assert_sound(game)


def test_g7_4_ace_adds_an_unknown_card_beyond_the_grid() -> None:
    game = start("A♣ Q♣")
    game.apply("draw")
    assert {"power add 0", "power remove 1:0"} <= powers_of(game)
    game.apply("power add 0")
    assert game.layout(0)[6] == parse_card("Q♣")
    for viewer in (0, 1, None):
        assert cells(game, viewer, 0)[6] == "??"  # unknown to all, its owner too
    assert cells(game, 0, 0)[7] is None
    game.apply("draw")  # seat 0 may put a card there too
    assert "swap 6" in legal(game)
    assert_sound(game)


def test_g7_4_added_cards_score_alone() -> None:
    """Decided here: cards beyond the grid are outside every column pair."""
    layout = [*parse_cards("5♠ 5♥ 3♠ 5♦ 5♣ 3♥ K♥ 3♦"), None, None, None, None]
    result = score_layout(layout, POWERS)
    assert result.total == -1 + 3  # three matched columns, then K♥ and 3♦ alone
    assert result.points[6:8] == (-1, 3)


def test_g7_4_ace_removes_one_of_your_cards() -> None:
    game = start("A♣")
    game.apply("draw")
    game.apply("power remove 1:3")
    assert game.layout(1)[3] is None and game.discard[-1] == parse_card("8♥")
    assert cells(game, 0, 1)[3] is None
    game.apply("draw")
    game.apply("discard")
    game.apply("draw")  # seat 1 again
    assert "swap 3" not in legal(game)
    with pytest.raises(IllegalAction, match="position 3 is empty"):
        game.apply("swap 3")
    assert_sound(game)


def test_g7_4_black_king_from_the_stock_cancels_a_knock() -> None:
    game = start("K♠ K♥")
    game.apply("knock")  # seat 1
    game.apply("draw")  # seat 0: K♠
    assert powers_of(game) == {"power cancel"}
    game.apply("power cancel")
    assert not game.knocked and game.closer is None and not game.is_over
    assert game.to_move == 1 and "knock" in legal(game)  # as if nobody had knocked
    game.apply("draw")  # seat 1: K♥, a red king has no power
    assert powers_of(game) == set()
    with pytest.raises(IllegalAction, match="no power"):
        game.apply("power cancel")


def test_g7_4_black_king_without_a_knock_is_a_plain_card() -> None:
    game = start("K♣")
    game.apply("draw")
    assert powers_of(game) == set()
    with pytest.raises(IllegalAction, match="nobody has knocked"):
        game.apply("power cancel")


def test_g7_4_black_king_turned_up_by_a_four_cancels_a_knock() -> None:
    """A black king shown (4) in a layout while a knock stands: as if nobody had knocked."""
    game = start("Q♣ 4♦", players=3)
    game.apply("knock")  # seat 1 knocks
    game.apply("draw")  # seat 2: Q♣
    game.apply("discard")
    game.apply("draw")  # seat 0: 4♦
    assert not any(a.startswith("power show 1:") for a in powers_of(game))  # G4.3 frozen
    game.apply("power show 2:1")  # seat 2's K♠
    assert not game.knocked and game.closer is None and game.to_move == 1
    assert cells(game, 0, 2)[1] == "K♠"
    assert_sound(game)


def test_g7_4_any_other_card_turned_up_leaves_the_knock_standing() -> None:
    game = start("Q♣ 4♦", players=3)
    game.apply("knock")
    game.apply("draw")
    game.apply("discard")
    game.apply("draw")
    game.apply("power show 2:0")  # seat 2's A♦
    assert game.is_over and game.result is not None and game.result.closer == 1


def test_g4_3_the_knockers_layout_is_frozen() -> None:
    game = start("9♦")
    game.apply("knock")
    game.apply("draw")  # seat 0: 9♦, and seat 1 knocked
    assert powers_of(game) == set()
    with pytest.raises(IllegalAction, match=r"frozen \(G4\.3\)"):
        game.apply("power place 1:0")


def test_g7_4_a_power_needs_a_card_drawn_now() -> None:
    game = start("Q♣")
    with pytest.raises(IllegalAction, match="drawn from the stock"):
        game.apply("power shield")
    game.apply("draw")
    with pytest.raises(IllegalAction, match="no power"):
        game.apply("power shield")


def test_g3_3_only_a_knock_ends_the_round() -> None:
    game = start("Q♣ J♣ Q♦")
    game.apply("knock")
    game.apply("draw")
    game.apply("discard")
    assert game.is_over and game.scores is not None and game.result is not None
    assert game.result.closer == 1


# ---- records, CLI and bots ------------------------------------------------------------------


def _play(players: int, seed: int) -> GolfMatch:
    rng = random.Random(seed)
    match = GolfMatch(POWERS.with_options({"end": "holes:2"}), players)
    while not match.is_over:
        match.start_round(rng=rng)
        while match.current is not None:
            acts = match.legal_actions()
            powers = [a for a in acts if a.kind is Kind.POWER]
            calm = [a for a in acts if str(a) != "knock"] or acts
            pick = rng.choice(powers if powers and rng.random() < 0.8 else calm)
            if "knock" in map(str, acts) and rng.random() < 0.05:
                pick = parse_action("knock")
            match.apply(pick)
    return match


@pytest.mark.parametrize("players", [2, 3])
def test_records_replay_exactly(players: int, tmp_path: Path, capsys: Any) -> None:
    match = _play(players, players)
    record = match_record("golf", match)
    assert record["rules"] == {"preset": "powers", "set": {"end": "holes:2"}}
    text = dumps(record)
    again = replay(text)
    assert again.totals == match.totals
    assert match_record("golf", again.match) == record
    for seat in (None, *range(players)):
        assert again.match.view(seat) == match.view(seat)
    path = tmp_path / "powers.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == " ".join(map(str, match.totals))


def test_rules_golf_explains_the_powers(capsys: Any) -> None:
    assert main(["rules", "golf", "--rules", "powers"]) == 0
    out = capsys.readouterr().out
    for text in (
        "power place S:P",
        "power draw2",
        "power keep N",
        "power rows S:R S:R2",
        "power shield",
        "power show S:P",
        "power hide S:P",
        "power shuffle S",
        "power add S",
        "power remove S:P",
        "power cancel",
        "(G7.4)",
        "K♥/K♦=-1",
    ):
        assert text in out, text


@pytest.mark.parametrize("players", [2, 4])
def test_bots_play_whole_rounds(players: int) -> None:
    """Random, greedy and expert (small budget) finish rounds of the preset, legally."""
    rng = random.Random(players)
    expert = ExpertBot("golf", rng=1, iterations=8)
    seats: list[Any] = [make_bot("golf", "random", 2), make_bot("golf", "greedy", 3), expert]
    for game in range(3):
        rnd = new_round(POWERS, players, game % players, rng=rng)
        steps = 0
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            bot = seats[(seat + game) % len(seats)]
            rnd.apply(bot.act(rnd, seat), seat)
            steps += 1
            assert steps < 2000
        assert rnd.scores is not None


def test_greedy_rounds_end_and_use_powers() -> None:
    used: Counter[str] = Counter()
    rng = random.Random(5)
    for game in range(30):
        rnd = new_round(POWERS, 2 + game % 3, 0, rng=rng)
        while not rnd.is_over:
            action = greedy_policy(rnd, rng)
            assert action in rnd.legal_actions()
            if action.kind is Kind.POWER:
                used[action.power or ""] += 1
            rnd.apply(action)
    assert {"peek", "remove"} <= set(used), used


def test_greedy_decides_from_the_view_alone() -> None:
    """The greedy decision is the same on any determinization of its seat (G8)."""
    rng = random.Random(11)
    checked = 0
    for _ in range(10):
        rnd = new_round(POWERS, 3, 0, rng=rng)
        while not rnd.is_over:
            seat = rnd.to_move
            assert seat is not None
            action = greedy_policy(rnd, random.Random(0))
            twin = rnd.determinize(seat, random.Random(checked))
            assert greedy_policy(twin, random.Random(0)) == action
            checked += 1
            rnd.apply(action)
    assert checked > 100


def test_json_views() -> None:
    game = start("8♦ K♣ 3♦")
    game.apply("draw")
    game.apply("power draw2")
    for seat in (None, 0, 1):
        view = game.view(seat)
        assert json.loads(json.dumps(view)) == view
