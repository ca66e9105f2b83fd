"""Golf in a real browser: a six-card round against bots, closed golf with a knock,
and a two-hole match played from the keyboard."""

from __future__ import annotations

import re

from e2e_helpers import (
    TIMEOUT,
    click_and_wait,
    create_in_lobby,
    golf_move,
    seq,
    shot,
    wait_turn_or,
)
from playwright.sync_api import expect

from greenfelt.record import replay


def engine_scores(server, table: str) -> list[int]:
    """The first round's scores the engine gives for the stored record, by match seat."""
    return replay(server.record(table)).match.round_scores()[0]


def shown_scores(page, seats: int) -> list[int]:
    return [int(page.locator(f"[data-testid=round-score-{s}]").inner_text()) for s in range(seats)]


def test_six_card_round_against_bots(server, pages):
    page = pages.open()
    table = create_in_lobby(
        page,
        server.url,
        "Ann",
        preset="six-card",
        seats=["greedy", "easy"],
        options={"end": "holes:1"},
    )
    moves = []
    while wait_turn_or(page, ".round-end") == "turn":
        move = golf_move(page)
        moves.append(move)
        if move == "draw":
            # Holding the drawn card: the card only this player sees, legal places lit up.
            expect(page.locator(".pile.held.mine [data-card]")).to_be_visible()
            expect(page.locator("button.card.legal.do-swap").first).to_be_visible()
            if moves.count("draw") == 2:
                shot(page, "six-card", readme=True)
    expect(page.locator(".round-end")).to_be_visible(timeout=TIMEOUT)
    shot(page, "round-end", readme=True, full=True)
    assert shown_scores(page, 3) == engine_scores(server, table)
    totals = [int(page.locator(f"[data-testid=total-{s}]").inner_text()) for s in range(3)]
    assert totals == engine_scores(server, table)
    assert moves.count("draw") >= 1 and any(m.startswith("flip") for m in moves)
    # Every card of every layout is face up and scored at the end (G3.4).
    expect(page.locator(".player .card.back")).to_have_count(0)


def test_closed_golf_round_with_a_knock(server, pages):
    page = pages.open()
    table = create_in_lobby(
        page, server.url, "Ann", preset="four-card", seats=["greedy"], options={"end": "holes:1"}
    )
    assert wait_turn_or(page, ".round-end") == "turn"
    first = page.locator("button.card.legal.do-peek").first
    key = first.get_attribute("data-key")
    click_and_wait(page, first)
    card = page.locator(f"[data-key='{key}']")
    # G8.2 memory: the peeked card shows for a moment, then it is face down again.
    expect(card).to_have_attribute("data-card", re.compile(r"."))
    shot(page, "four-card-peek")
    expect(card).to_have_attribute("aria-label", re.compile("^Face-down card"), timeout=TIMEOUT)
    while wait_turn_or(page, ".round-end") == "turn":
        knock = page.locator("button[data-action=knock]")
        if knock.count():
            shot(page, "four-card-turn")
            click_and_wait(page, knock)
            expect(page.locator(".log-list")).to_contain_text("You knocked")
            continue
        golf_move(page)
    expect(page.locator(".round-end")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".player.me .badge.closer")).to_have_text("knocked")
    shot(page, "four-card", readme=True, full=True)
    assert shown_scores(page, 2) == engine_scores(server, table)


def press_and_wait(page, key: str) -> None:
    before = seq(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.seq) > n",
        arg=before,
        timeout=TIMEOUT,
    )


def test_keyboard_next_hole_and_rematch(server, pages):
    """Played from the keyboard alone: peek (1, 2), knock (k), next hole (n), rematch (r)."""
    page = pages.open()
    create_in_lobby(
        page, server.url, "Ann", preset="four-card", seats=["easy"], options={"end": "holes:2"}
    )
    for hole in (1, 2):
        expect(page.locator("#topbar-info")).to_contain_text(f"Hole {hole} of 2", timeout=TIMEOUT)
        while wait_turn_or(page, ".round-end") == "turn":
            if page.locator("button.card.legal.do-peek").count():
                key = page.locator("button.card.legal.do-peek").first.get_attribute("data-key")
                press_and_wait(page, str(int(key.split("-")[1]) + 1))
            elif page.locator("button[data-action=knock]").count():
                press_and_wait(page, "k")
            else:
                golf_move(page)
        if hole == 1:
            expect(page.locator("[data-action=next]")).to_be_visible(timeout=TIMEOUT)
            page.keyboard.press("n")
    expect(page.locator(".round-end h2.champion")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(".sheet-table tbody tr")).to_have_count(2)
    page.keyboard.press("r")
    expect(page.locator(".log-list")).to_contain_text("A new match begins", timeout=TIMEOUT)
    expect(page.locator("#topbar-info")).to_contain_text("Hole 1 of 2")
    expect(page.locator(".sheet-table tbody tr")).to_have_count(1)
    expect(page.locator(".sheet-table tbody")).to_contain_text("No hole finished yet")
