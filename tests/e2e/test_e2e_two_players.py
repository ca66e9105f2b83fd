"""Two people at one table, each in their own browser: they see each other's moves
and never each other's hidden cards."""

from __future__ import annotations

from e2e_helpers import (
    TIMEOUT,
    capture_frames,
    create_in_lobby,
    dom_cards,
    frame_cards,
    golf_move,
    last_state,
    seq,
    shot,
)
from playwright.sync_api import Page, expect

from greenfelt.record import replay


def wait_seq(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.seq) >= n",
        arg=at_least,
        timeout=TIMEOUT,
    )


def check_no_leak(page: Page, frames: list[str], who: str) -> None:
    """Every card in this page's DOM came to this seat from the server, and the
    other player's face-down cards are drawn as backs."""
    shown = dom_cards(page)
    allowed = frame_cards(frames)
    assert shown <= allowed, f"{who} shows cards it was never sent: {shown - allowed}"
    state = last_state(frames)
    view = state["view"]["round_view"]
    other = 1 - state["seat"]
    hidden = sum(1 for c in view["layouts"][other]["cards"] if c == "??")
    backs = page.locator(f".player.opp[data-seat='{other}'] .card.back")
    expect(backs).to_have_count(hidden)


def test_two_players_see_each_other_but_not_each_others_cards(server, pages):
    ann = pages.open()
    bob = pages.open()
    ann_frames = capture_frames(ann)
    bob_frames = capture_frames(bob)
    table = create_in_lobby(
        ann, server.url, "Ann", preset="six-card", seats=["friend"], options={"end": "holes:1"}
    )
    link = ann.locator("#invite-link")
    expect(link).to_have_value(f"{server.url}/#/join/{table}")
    shot(ann, "two-players-waiting")

    bob.goto(link.input_value())
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    expect(bob.locator(".felt.golf")).to_be_visible(timeout=TIMEOUT)
    expect(ann.locator(".felt.golf")).to_be_visible(timeout=TIMEOUT)
    players = {0: (ann, ann_frames, "Ann"), 1: (bob, bob_frames, "Bob")}

    drawn_checked = False
    for _ in range(60):
        if ann.locator(".round-end").count() and bob.locator(".round-end").count():
            break
        state = last_state(ann_frames)
        view = state["view"]["round_view"]
        if view["phase"] == "over":
            expect(bob.locator(".round-end")).to_be_visible(timeout=TIMEOUT)
            continue
        mover = state["view"]["seating"][view["to_move"]]
        page, _, name = players[mover]
        other, _, other_name = players[1 - mover]
        expect(page.locator("#status.tone-you")).to_be_visible(timeout=TIMEOUT)
        action = golf_move(page)
        wait_seq(other, seq(page))
        if action == "draw" and not drawn_checked:
            # The drawn card: shown to its holder, a back to the other player.
            held = page.locator(".pile.held [data-card]").get_attribute("data-card")
            assert held
            assert held in dom_cards(page)
            assert held not in dom_cards(other)
            expect(other.locator(".pile.held .card.back")).to_be_visible()
            expect(other.locator(".log-list")).to_contain_text(f"{name} drew from the stock")
            shot(page, f"two-players-{name.lower()}-holds")
            shot(other, f"two-players-{other_name.lower()}-watches")
            drawn_checked = True
        for p, frames, label in players.values():
            check_no_leak(p, frames, label)
    expect(ann.locator(".round-end")).to_be_visible(timeout=TIMEOUT)
    expect(bob.locator(".round-end")).to_be_visible(timeout=TIMEOUT)
    assert drawn_checked
    # Both pages show the same scores, the engine's.
    scores = [ann.locator(f"[data-testid=round-score-{s}]").inner_text() for s in (0, 1)]
    assert scores == [bob.locator(f"[data-testid=round-score-{s}]").inner_text() for s in (0, 1)]
    assert [int(x) for x in scores] == replay(server.record(table)).match.round_scores()[0]
    shot(bob, "two-players-end", full=True)
