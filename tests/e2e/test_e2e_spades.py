"""Two-player Spades in a real browser: a whole hand from the draw to the score."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from e2e_helpers import TIMEOUT, click_and_wait, create_in_lobby, shot, wait_turn_or
from playwright.sync_api import expect

from greenfelt.record import replay
from greenfelt.spades.match import SpadesMatch
from greenfelt.spades.rules import SpadesRules


def test_spades_hand_from_draw_to_score(server, pages):
    page = pages.open()
    table = create_in_lobby(
        page, server.url, "Ann", game="spades", seats=["greedy"], options={"target": "300"}
    )
    board = page.locator("#board")
    seen: list[str] = []
    draws = 0
    while wait_turn_or(page, ".sheet-table tbody tr th") == "turn":
        if board.locator("[data-action=pass]").count():
            seen.append("blind")
            click_and_wait(page, board.locator("[data-action=pass]"))
        elif board.locator("[data-action=keep]").count():
            # The drawn card is shown to its drawer before keeping or rejecting it (S2.2).
            expect(board.locator(".pile.held.mine [data-card]")).to_be_visible()
            if "draw" not in seen:
                seen.append("draw")
                shot(page, "spades-draw")
            draws += 1
            choice = "keep" if draws % 2 else "reject"
            click_and_wait(page, board.locator(f"[data-action={choice}]"))
        elif board.locator("[data-action^='bid ']").count():
            seen.append("bid")
            expect(board.locator(".my-hand .card")).to_have_count(13)
            shot(page, "spades-bid")
            click_and_wait(page, board.locator("[data-action='bid 3']"))
            expect(page.locator("[data-testid=bid-0]")).to_have_text("3")
        else:
            legal = board.locator(".my-hand button.card.legal")
            expect(legal.first).to_be_visible()
            if "play" not in seen:
                seen.append("play")
            if page.locator(".my-hand .card").count() == 8:
                shot(page, "spades", readme=True)
            click_and_wait(page, legal)
    assert seen[:4] == ["blind", "draw", "bid", "play"] or seen[:3] == ["draw", "bid", "play"]
    assert draws == 13
    shot(page, "spades-end", full=True)
    hand = replay(server.record(table)).match.rounds[0]
    sheet = page.locator(".sheet-table tbody tr").first.locator("td")
    expect(sheet).to_have_text([str(s) for s in hand.scores], timeout=TIMEOUT)


def _seat0_view_when(stop: Callable[[dict], bool], seed: int = 1) -> dict:
    """Seat 0's view of the first position of a random legal game where ``stop(hand)``."""
    rng = random.Random(seed)
    match = SpadesMatch(SpadesRules(), names=("Ann", "Bob"))
    match.start_round(rng=rng)
    while True:
        view = match.view(0)
        if stop(view["hand"]):
            return view
        if view["hand"]["phase"] == "over":
            raise AssertionError(f"seed {seed}: the hand ended before the position sought")
        match.apply(rng.choice(match.legal_actions()))


def _render(server, pages, view: dict, linger_ms: int = 0) -> dict:
    """Draw ``view`` with the table's own module, as seat 0 (with a won trick lingering
    ``linger_ms`` more), and read what a player sees."""
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    return page.evaluate(
        """async ({view, linger}) => {
            const s = await import('/static/spades.js');
            const ctx = {view, me: 0, seats: [{}, {}], rules: {discards: 'face_up'},
                frame: {match: 1}, lastTrickUntil: linger ? Date.now() + linger : 0,
                act: () => {}, later: () => {}};
            const {felt} = s.renderSpades(ctx);
            const text = (selector) => felt.querySelector(selector)?.textContent ?? null;
            return {caption: text('.trick-area .explain'), strip: felt.querySelectorAll('.last-trick').length,
                shown: felt.querySelectorAll('.trick [data-card]').length, hand: text('.my-hand'),
                scores: [...felt.querySelectorAll('.round-end tbody tr')].map(
                    (tr) => [...tr.children].map((c) => c.textContent))};
        }""",
        {"view": view, "linger": linger_ms},
    )


@pytest.mark.parametrize("winner", [0, 1])
def test_a_won_trick_lingers_as_the_trick_just_counted(server, pages, winner):
    """A trick stays on the felt a moment after it is won (S4.3): its caption counts it
    and names its winner, and the "last trick" strip waits until it is cleared, for
    seat 0 as for seat 1 (seat 0 once read as "no winner" and showed both)."""
    view = _seat0_view_when(
        lambda hand: (
            hand["phase"] == "play"
            and not hand["trick"]
            and bool(hand["tricks"])
            and hand["tricks"][-1]["winner"] == winner
        )
    )
    finished = len(view["hand"]["tricks"])
    who = "You win" if winner == 0 else "Bob wins"
    lingering = _render(server, pages, view, linger_ms=600_000)
    assert (lingering["caption"], lingering["strip"], lingering["shown"]) == (
        f"Trick {finished} of 13 · {who} the trick",
        0,
        2,
    )
    cleared = _render(server, pages, view)
    assert cleared["caption"].startswith(f"Trick {finished + 1} of 13 · ")
    assert (cleared["strip"], cleared["shown"]) == (1, 0)


def test_a_finished_hand_shows_each_score_and_no_empty_hand_notice(server, pages):
    """Hand over (S5): each player's bid, tricks, how the hand scored and its points, and
    an empty hand that says why (every card played), not "No cards yet"."""
    view = _seat0_view_when(lambda hand: hand["phase"] == "over")
    shown = _render(server, pages, view)
    assert shown["hand"] == "Every card of this hand is played."
    result = view["hand"]["result"]
    assert [row[0] for row in shown["scores"]] == ["Ann (you)", "Bob"]
    for seat, row in enumerate(shown["scores"]):
        assert row[2] == str(view["hand"]["tricks_won"][seat])
        assert row[3:5] == [result[seat]["breakdown"], str(result[seat]["points"])]
