"""Two-player Spades in a real browser: a whole hand from the draw to the score."""

from __future__ import annotations

import random

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


def _view_after_a_trick_won_by(winner: int, seed: int = 1) -> dict:
    """Seat 0's view, by random legal play, just after the first trick ``winner`` took."""
    rng = random.Random(seed)
    match = SpadesMatch(SpadesRules(), names=("Ann", "Bob"))
    match.start_round(rng=rng)
    while True:
        view = match.view(0)
        hand = view["hand"]
        just_won = hand["phase"] == "play" and not hand["trick"] and hand["tricks"]
        if just_won and hand["tricks"][-1]["winner"] == winner:
            return view
        if hand["phase"] == "over":
            raise AssertionError(f"seed {seed}: seat {winner} took no trick")
        match.apply(rng.choice(match.legal_actions()))


@pytest.mark.parametrize("winner", [0, 1])
def test_a_won_trick_lingers_as_the_trick_just_counted(server, pages, winner):
    """A trick stays on the felt a moment after it is won (S4.3): its caption counts it
    and names its winner, and the "last trick" strip waits until it is cleared, for
    seat 0 as for seat 1 (seat 0 once read as "no winner" and showed both)."""
    view = _view_after_a_trick_won_by(winner)
    finished = len(view["hand"]["tricks"])
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    out = page.evaluate(
        """async ({view, until}) => {
            const s = await import('/static/spades.js');
            const read = (lastTrickUntil) => {
                const ctx = {view, me: 0, seats: [{}, {}], rules: {discards: 'face_up'},
                    lastTrickUntil, act: () => {}, later: () => {}};
                const {felt} = s.renderSpades(ctx);
                document.body.appendChild(felt);
                const caption = felt.querySelector('.trick-area .explain').textContent;
                const strip = felt.querySelectorAll('.last-trick').length;
                const shown = [...felt.querySelectorAll('.trick [data-card]')].length;
                felt.remove();
                return {caption, strip, shown};
            };
            return {lingering: read(Date.now() + until), cleared: read(0)};
        }""",
        {"view": view, "until": 600_000},
    )
    who = "You win" if winner == 0 else "Bob wins"
    assert out["lingering"] == {
        "caption": f"Trick {finished} of 13 · {who} the trick",
        "strip": 0,
        "shown": 2,
    }
    assert out["cleared"]["caption"].startswith(f"Trick {finished + 1} of 13 · ")
    assert out["cleared"]["strip"] == 1
    assert out["cleared"]["shown"] == 0
