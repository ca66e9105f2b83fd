"""A dropped connection comes back by itself to the same table state; a stale move
is answered with a resync; a reload keeps the seat."""

from __future__ import annotations

import re

from e2e_helpers import TIMEOUT, click_and_wait, create_in_lobby, golf_move, seq, shot, wait_turn_or
from playwright.sync_api import Page, expect


def my_cards(page: Page) -> list[str | None]:
    cards = page.locator(".player.me .layout .card")
    return [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]


def in_sync(page: Page, server, table: str) -> None:
    """The page shows the table at the server's latest event."""
    expect(page.locator("#board")).to_have_attribute(
        "data-seq", str(server.table(table)["seq"]), timeout=TIMEOUT
    )


def test_reconnects_and_resyncs(server, pages):
    page = pages.open()
    table = create_in_lobby(
        page, server.url, "Ann", preset="six-card", seats=["greedy"], options={"end": "holes:1"}
    )
    # Turn up two cards, then stop at the start of a turn.
    while wait_turn_or(page, ".round-end") == "turn" and page.locator(".do-flip").count():
        golf_move(page)
    expect(page.locator("[data-action=draw]").first).to_be_visible(timeout=TIMEOUT)
    before = my_cards(page)
    assert sum(card is not None for card in before) == 2

    # 1. The socket drops: the page says so, reconnects with backoff, says hello again.
    page.evaluate("window.greenfelt.socket.drop()")
    expect(page.locator(".conn-banner")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".conn-banner")).to_contain_text("reconnecting")
    shot(page, "reconnecting")
    expect(page.locator("#conn")).to_have_text(re.compile("live"), timeout=TIMEOUT)
    expect(page.locator(".conn-banner")).to_be_hidden()
    in_sync(page, server, table)
    assert my_cards(page) == before
    expect(page.locator(".log-list")).to_contain_text("Connection restored")

    # 2. The network goes away and comes back.
    page.context.set_offline(True)
    page.evaluate("window.greenfelt.socket.drop()")
    expect(page.locator(".conn-banner")).to_be_visible(timeout=TIMEOUT)
    page.context.set_offline(False)
    expect(page.locator("#conn")).to_have_text(re.compile("live"), timeout=TIMEOUT)
    in_sync(page, server, table)
    assert my_cards(page) == before

    # 3. A stale move (made against an old event) changes nothing; the resync keeps the page right.
    at = seq(page)
    page.evaluate("window.greenfelt.socket.action('draw', 0)")
    expect(page.locator(".toast", has_text="The table moved on")).to_be_visible(timeout=TIMEOUT)
    in_sync(page, server, table)
    assert seq(page) == at and server.table(table)["seq"] == at
    expect(page.locator(".pile.held .card.placeholder")).to_be_visible()

    # 4. A reload finds the seat again through the token kept in localStorage.
    page.reload()
    expect(page.locator(".player.me .pname")).to_have_text("Ann (you)", timeout=TIMEOUT)
    in_sync(page, server, table)
    assert my_cards(page) == before
    click_and_wait(page, page.locator("[data-action=draw]"))
    expect(page.locator(".pile.held.mine [data-card]")).to_be_visible()
    shot(page, "reconnected")
