"""The ``powers`` preset (RULES G7.4, the extended set) in a real browser.

A round against the greedy bot, every power that comes used by clicking what the
prompt lights up, to a knock and the scored hole; an 8's offer seen face up only by
its drawer (G8); a 4's ``show`` and a 7's ``rows`` picked on the cards; the extra
positions an ace adds and the shields drawn beside a layout.

The server deals at random and cannot stack the deck, so the two-player tests draw
and discard on both seats until the wanted card comes (bounded: a rank has 4 cards in
52, and 250 draws miss it with a probability below 1e-8). Nobody knocks there, and a
``powers`` round ends only by a knock (G7.4), so it cannot end before the card comes.
"""

from __future__ import annotations

import re

from e2e_helpers import (
    TIMEOUT,
    PowerTable,
    capture_frames,
    click_and_wait,
    create_in_lobby,
    dom_cards,
    frame_cards,
    key_of,
    last_state,
    seq,
    shot,
    updates_since,
    wait_seq_above,
)
from playwright.sync_api import Page, expect

MAX_MOVES = 400
KNOCK_AFTER = 8  # own turns before knocking (the bot may knock first)


def assert_only_what_was_sent(page: Page, frames: list[str]) -> None:
    """G8: every card in the page's DOM is one the server sent this seat."""
    leaked = dom_cards(page) - frame_cards(frames)
    assert not leaked, f"cards in the page that the server never sent it: {leaked}"


def test_a_powers_round_against_the_bot_to_a_knock_and_a_score(server, pages):
    """Every power that comes is used by clicking what the prompt lights up."""
    page = pages.open()
    frames = capture_frames(page)
    create_in_lobby(
        page,
        server.url,
        "Ann",
        preset="powers",
        seats=["greedy"],
        options={"end": "holes:1"},
    )
    expect(page.locator(".felt.golf.layout-2x3")).to_be_visible(timeout=TIMEOUT)
    board = page.locator("#board")
    turns = 0
    used: list[str] = []
    for _ in range(MAX_MOVES):
        if page.locator(".round-end").count():
            break
        state = wait_turn_or_end(page)
        if state == "over":
            break
        assert_only_what_was_sent(page, frames)
        # The grid is 2x3 whatever was added beside it.
        expect(board.locator(".player.me .layout.grid > .slot")).to_have_count(6)
        rv = last_state(frames)["view"]["round_view"]
        phase = rv["phase"]
        prompt = board.locator(".power-prompt")
        if phase == "turn":
            turns += 1
            if turns > KNOCK_AFTER and board.locator("button[data-action=knock]").count():
                click_and_wait(page, board.locator("button[data-action=knock]"))
            else:
                click_and_wait(page, board.locator("button.btn[data-action=draw]"))
        elif phase == "choose":
            click_and_wait(page, board.locator(".offer button.card.do-keep").last)
        elif prompt.count() and prompt.get_attribute("data-mode") == "power":
            verb = prompt.get_attribute("data-verb") or ""
            used.append(verb)
            text = prompt.locator(".power-text").inner_text()
            assert "“" not in text, f"a power prompt in raw words: {text}"
            plain = prompt.locator(".power-plain button")
            if plain.count():
                click_and_wait(page, plain.first)
            else:
                use_by_clicks(page)
        elif phase in ("drawn", "taken"):
            mine = board.locator(".player.me button.card.legal.do-swap")
            if mine.count():
                click_and_wait(page, mine.nth(turns % mine.count()))
            else:
                click_and_wait(page, board.locator("button.btn[data-action=discard]"))
        elif phase == "second":
            click_and_wait(page, board.locator("button.btn[data-action=pass]"))
        else:
            click_and_wait(page, board.locator("button.card.legal").first)
    else:
        raise AssertionError(f"the round did not end in {MAX_MOVES} moves")

    end = page.locator(".round-end")
    expect(end).to_be_visible(timeout=TIMEOUT)
    final = last_state(frames)["view"]
    rv = final["round_view"]
    assert rv["phase"] == "over" and rv["closer"] is not None and rv["knocked"]
    # The deal is not stacked, so equal totals (a shared win) happen.
    winners = final["winners"]
    assert winners, "the match is over but names no winner"
    expect(end).to_contain_text("share the win" if len(winners) > 1 else "wins the match")
    for seat in (0, 1):
        score = rv["scores"][final["seating"].index(seat)]
        expect(page.locator(f"[data-testid=hole-score-{seat}]")).to_have_text(str(score))
    expect(page.locator(".log-list")).to_contain_text("knocked!")
    shot(page, "powers-round-over", full=True)


def wait_turn_or_end(page: Page) -> str:
    page.wait_for_function(
        "document.querySelector('#status.tone-you') || document.querySelector('.round-end')",
        timeout=60_000,
    )
    return "over" if page.locator(".round-end").count() else "turn"


def use_by_clicks(page: Page) -> None:
    """Click lit targets of the open power until the move is sent."""
    before = seq(page)
    for _ in range(3):
        target = page.locator("button.card.legal.do-power")
        assert target.count(), page.locator(".power-prompt").inner_text()
        target.first.click()
        if seq(page) > before or page.locator("#board.pending").count():
            break
        page.wait_for_timeout(50)
        if not page.locator(".card.selected").count():
            break
    wait_seq_above(page, before)


def test_an_eights_offer_is_face_up_only_for_its_drawer(server, pages):
    table = PowerTable(server, pages, "powers")
    seat = table.play_until_power({"draw2"})
    me, other = table.pages[seat], table.pages[1 - seat]
    prompt = me.locator(".power-prompt")
    button = prompt.locator(".power-plain button[data-action='power draw2']")
    expect(button).to_have_text("8: draw two more cards and keep one (or the 8)")
    expect(prompt.locator(".power-text")).to_contain_text("Eight: draw two more cards")
    other_start = len(table.frames[1 - seat])
    click_and_wait(me, button)
    table.sync()

    rv = last_state(table.frames[seat])["view"]["round_view"]
    assert rv["phase"] == "choose"
    offer = rv["offer"]
    assert len(offer) == 3 and offer[0].startswith("8") and "??" not in offer
    drawn = offer[1:]
    # The drawer: three faces, each a button that keeps it; the status says so.
    cards = me.locator(".offer .card")
    expect(cards).to_have_count(3)
    for k, text in enumerate(offer):
        expect(cards.nth(k)).to_have_attribute("data-card", text)
        expect(cards.nth(k)).to_have_attribute("data-action", f"power keep {k}")
    expect(me.locator("#status")).to_contain_text("Your 8's offer: click the card to keep")
    shot(me, "powers-offer-drawer")
    # The other player: the 8 (public) and two backs; the drawn cards nowhere.
    theirs = other.locator(".offer .card")
    expect(theirs).to_have_count(3)
    expect(theirs.nth(0)).to_have_attribute("data-card", offer[0])
    for k in (1, 2):
        expect(theirs.nth(k)).to_have_class(re.compile(r"\bback\b"))
    expect(other.locator(".offer button")).to_have_count(0)
    expect(other.locator("#status")).to_contain_text("is choosing which card of the 8's offer")
    for card in drawn:
        assert card not in dom_cards(other), f"{card} of the offer leaked into the other page"
        assert card not in frame_cards(table.frames[1 - seat][other_start:])
    shot(other, "powers-offer-other")

    # Keep drawn card 2 (key 3); the drawer then puts it in, the rest is discarded.
    before = seq(me)
    me.keyboard.press("3")
    wait_seq_above(me, before)
    table.sync()
    rv = last_state(table.frames[seat])["view"]["round_view"]
    assert rv["phase"] == "taken" and rv["held"] == drawn[1]
    expect(me.locator("[data-key=held]")).to_have_attribute("data-card", drawn[1])
    expect(me.locator(".pile.held .pile-label")).to_contain_text("kept from the 8's offer")
    expect(other.locator("[data-key=held]")).to_have_class(re.compile(r"\bback\b"))
    assert drawn[1] not in dom_cards(other)
    expect(other.locator(".log-list")).to_contain_text(
        f"{table.names[seat]} kept drawn card 2; the rest of the offer was discarded."
    )
    click_and_wait(me, me.locator(".player.me button.card.legal.do-swap"))
    table.sync()
    assert_only_what_was_sent(other, table.frames[1 - seat])


def test_a_fours_show_is_picked_on_the_cards(server, pages):
    table = PowerTable(server, pages, "powers")
    seat = table.play_until_power({"show"})
    me, other = table.pages[seat], table.pages[1 - seat]
    them = 1 - seat
    text = me.locator(".power-prompt .power-text")
    expect(text).to_have_text(
        f"Four: turn one of {table.names[them]}'s face-down cards face up for everyone "
        "to see: click it"
    )
    targets = me.locator("button.card.legal.do-power")
    expect(targets).to_have_count(6)
    for i in range(6):
        expect(targets.nth(i)).to_have_attribute("aria-label", re.compile("turn it face up"))
        assert key_of(targets.nth(i))[0] == them
    shot(me, "powers-show-prompt")
    target = targets.nth(4)
    _, pos = key_of(target)
    click_and_wait(me, target)
    state = table.sync()
    rv = state["view"]["round_view"]
    layout = rv["layouts"][state["view"]["seating"].index(them)]
    face = layout["cards"][pos]
    assert layout["face_up"][pos] and face != "??", layout
    # Face up on both tables, and said in both logs.
    for page in (me, other):
        expect(page.locator(f"[data-key='L{them}-{pos}']")).to_have_attribute("data-card", face)
    expect(other.locator(".log-list")).to_contain_text(
        f"turned up your card {pos + 1}: the {face}."
    )
    expect(me.locator(".log-list")).to_contain_text(
        f"turned up {table.names[them]}'s card {pos + 1}: the {face}."
    )
    expect(me.locator(".power-prompt")).to_have_count(0)


def test_a_sevens_rows_light_whole_rows(server, pages):
    table = PowerTable(server, pages, "powers")
    seat = table.play_until_power({"rows"})
    me = table.pages[seat]
    them = 1 - seat
    prompt = me.locator(".power-prompt")
    expect(prompt.locator(".power-text")).to_have_text(
        f"Seven: swap two rows of {table.names[them]}'s cards (each card keeps its face): "
        "click a card in one row, then one in another"
    )
    # Both verbs of the 7 are offered in words.
    expect(prompt.locator("[data-power-verb]")).to_have_text(["Swap two rows", "Swap two columns"])
    expect(me.locator(".player.opp button.card.do-power")).to_have_count(6)
    expect(me.locator(".player.me button.card.do-power")).to_have_count(0)
    # Pick the bottom row by its middle card: the whole row is selected.
    start = len(table.frames[seat])
    me.locator(f"[data-key='L{them}-4']").click()
    for p in (3, 4, 5):
        expect(me.locator(f"[data-key='L{them}-{p}']")).to_have_class(re.compile(r"\bselected\b"))
    expect(me.locator(".card.selected")).to_have_count(3)
    expect(prompt.locator(".power-text")).to_contain_text(
        f"now click a card in another row of the same cards to swap with {table.names[them]}'s row 2"
    )
    expect(me.locator("button.card.do-power")).to_have_count(3)  # the top row
    shot(me, "powers-rows-first-pick")
    # Escape lets go; pick again, then the top row sends the move.
    me.keyboard.press("Escape")
    expect(me.locator(".card.selected")).to_have_count(0)
    me.locator(f"[data-key='L{them}-5']").click()
    click_and_wait(me, me.locator(f"[data-key='L{them}-0']"))
    table.sync()
    actions = [
        u["event"]["action"]
        for u in updates_since(table.frames[seat], start)
        if u.get("event") and u["event"].get("kind") == "action"
    ]
    assert actions and actions[0] == f"power rows {them}:0 {them}:1", actions
    expect(me.locator(".log-list")).to_contain_text(
        f"swapped rows 1 and 2 of {table.names[them]}'s cards."
    )


def test_added_cards_shields_and_the_second_power_are_drawn(server, pages):
    """A made-up view through the page's own modules: extra positions beside the grid
    (empty ones hidden), shield badges with counts, a 2's second power with its pass."""
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    out = page.evaluate(
        """async () => {
            const g = await import('/static/golf.js');
            const down = Array(12).fill(false);
            const layouts = [
                {cards: ['??', '??', '??', '??', '??', '??', '??', null, null, null, null, null],
                 face_up: down},
                {cards: ['??', null, '??', '??', '??', '??', '??', '??', '7♣', null, null, null],
                 face_up: [false, true, false, false, false, false, false, false, true,
                           true, true, true]}];
            const view = {names: ['Ann', 'Bob'], seating: [0, 1], round: 1, totals: [0, 0],
                scoresheet: [], winners: [], over: false, round_view: {
                    layout: '2x3', phase: 'second', to_move: 0, dealer: 1, layouts,
                    stock: 30, discard: ['2♠'], held: null, held_from: null,
                    reveal_left: 0, closer: null, knocked: false, final_turns_left: 0,
                    shields: [2, 0], offer: [], lent: ['6'],
                    legal: ['power shield', 'power shuffle 1', 'pass']}};
            const sent = [];
            const ctx = {view, me: 0, seats: [{}, {}], rules: {powers: 'powers', memory: true},
                frame: {match: 1}, seen: new Map(), peeks: new Map(), power: null,
                act: (a) => sent.push(a), later: () => {}, choosePower: () => {}};
            const {felt} = g.renderGolf(ctx);
            document.body.appendChild(felt);
            const mine = felt.querySelector('.player.me');
            const bob = felt.querySelector('.player.opp');
            const prompt = felt.querySelector('.power-prompt');
            const result = {
                myGrid: mine.querySelectorAll('.layout.grid > .slot').length,
                myExtras: [...mine.querySelectorAll('.layout.extras .card')].map(
                    c => c.dataset.key),
                bobGrid: bob.querySelectorAll('.layout.grid > .slot').length,
                bobEmptyInGrid: bob.querySelectorAll('.layout.grid .card.empty').length,
                bobExtras: [...bob.querySelectorAll('.layout.extras .card')].map(
                    c => c.dataset.key),
                bobExtrasLabel: bob.querySelector('.layout.extras').getAttribute('aria-label'),
                shield: mine.querySelector('.badge.shield')?.getAttribute('aria-label'),
                shieldText: mine.querySelector('.badge.shield')?.textContent,
                bobShield: bob.querySelectorAll('.badge.shield').length,
                title: prompt.querySelector('.power-title').textContent,
                note: prompt.querySelector('.power-note').textContent,
                text: prompt.querySelector('.power-text').textContent,
                verbs: [...prompt.querySelectorAll('[data-power-verb]')].map(b => b.textContent),
                plain: [...prompt.querySelectorAll('.power-plain button')].map(b => b.textContent),
                pass: felt.querySelector('button.btn[data-action=pass]')?.textContent,
            };
            prompt.querySelector('.power-plain button').click();
            result.sent = sent;
            felt.remove();
            return result;
        }"""
    )
    assert out["myGrid"] == 6 and out["bobGrid"] == 6
    assert out["myExtras"] == ["L0-6"]
    assert out["bobEmptyInGrid"] == 1  # a removed card leaves its grid place empty
    assert out["bobExtras"] == ["L1-6", "L1-7", "L1-8"]  # empty extra places are not drawn
    assert out["bobExtrasLabel"] == "Bob's added cards (3, beyond the grid)"
    assert out["shield"] == "You have 2 shields: each blocks one attack (G7.4 5)"
    assert out["shieldText"] == "5×2"
    assert out["bobShield"] == 0
    assert out["title"].startswith("Second power of the 2")
    assert "The 2 lent the 6's power first" in out["note"]
    assert out["text"].startswith("Two, second power: raise a shield")
    assert out["verbs"] == ["Raise a shield", "Shuffle a layout"]
    assert out["plain"] == [
        "5 (lent by the 2): raise a shield: it blocks the next attack on your cards"
    ]
    assert out["pass"].startswith("Pass: no second power")
    assert out["sent"] == ["power shield"]
