"""Two-player Spades in a real browser: a whole hand from the draw to the score."""

from __future__ import annotations

from e2e_helpers import TIMEOUT, click_and_wait, create_in_lobby, shot, wait_turn_or
from playwright.sync_api import expect

from greenfelt.record import replay


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
