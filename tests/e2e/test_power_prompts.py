"""Golf card powers (RULES G7) in a real browser: the prompt names the power in words,
targets are picked by clicking (or from the keyboard), a peeked card is shown to its
seat alone (G8), and a two-click swap updates both players' tables.

The server deals from ``random.SystemRandom`` and offers no way to stack the deck, so
the tests play ``draw`` and ``discard`` on both seats until the wanted power card comes
from the stock (bounded; cambio's 2x2 round only ends by a knock, and nobody knocks).
"""

from __future__ import annotations

import re

from e2e_helpers import (
    TIMEOUT,
    PowerTable,
    click_and_wait,
    dom_cards,
    frame_cards,
    key_of,
    seq,
    shot,
    updates_since,
)
from playwright.sync_api import Page, expect


def create_without_memory(page: Page, url: str) -> str:
    """The cambio preset from the lobby with option memory off (G8.2: seen cards stay shown)."""
    page.goto(f"{url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    page.fill("#my-name", "Ann")
    page.locator(".preset:has(input[value='cambio'])").click()
    page.select_option("[data-seat-kind='1']", "friend")
    memory = page.locator("input[data-option=memory]")
    expect(memory).to_be_checked()
    memory.uncheck(force=True)
    expect(memory).not_to_be_checked()
    page.click("#create-table")
    expect(page.locator("#board")).to_be_visible(timeout=TIMEOUT)
    match = re.search(r"#/table/([0-9a-f]+)", page.url)
    assert match, page.url
    return match.group(1)


def test_peek_by_click_is_shown_only_to_the_peeker(server, pages):
    table = PowerTable(server, pages, "cambio")
    seat = table.play_until_power({"peek"})
    me, other = table.pages[seat], table.pages[1 - seat]
    name = table.names[seat]

    # The prompt says what the power does, in words built from the legal actions.
    prompt = me.locator(".power-prompt")
    expect(prompt).to_have_attribute("data-mode", "power")
    expect(prompt.locator(".power-title")).to_contain_text(re.compile(r"Power card: (Jack|Queen)"))
    text = prompt.locator(".power-text")
    expect(text).to_contain_text(re.compile(r"^(Jack|Queen): look at one of .+ cards: click it$"))
    expect(me.locator("#status")).to_have_text(text.inner_text())
    targets = me.locator("button.card.legal.do-power")
    assert targets.count() >= 1
    for i in range(targets.count()):
        expect(targets.nth(i)).to_have_attribute("aria-label", re.compile("look at it"))
    # Keep it / discard without power stay on offer.
    expect(me.locator("button[data-power=toggle]")).to_contain_text("Keep the")
    expect(me.locator("button.btn[data-action=discard]")).to_have_text(
        re.compile("Discard without power")
    )
    # The other player sees only that a card is being decided on.
    expect(other.locator(".power-prompt")).to_have_count(0)
    shot(me, "power-peek-prompt")

    target = targets.first
    owner, pos = key_of(target)
    other_start = len(table.frames[1 - seat])
    mine_start = len(table.frames[seat])
    click_and_wait(me, target)
    table.sync()

    # The peeker's page shows the face, marked, and it is the card the server sent it.
    seen_events = [u["event"] for u in updates_since(table.frames[seat], mine_start) if u["event"]]
    peek = [e for e in seen_events if str(e.get("action", "")).startswith("power peek")]
    assert peek and peek[0].get("seen"), f"the server sent the peeker no card: {seen_events}"
    card = peek[0]["seen"]
    shown = me.locator(f"[data-key='L{owner}-{pos}']")
    expect(shown).to_have_attribute("data-card", card)
    expect(shown).to_have_class(re.compile(r"\bpeeked\b"))
    expect(shown).to_have_attribute("aria-label", re.compile("you are looking at it now"))
    # ... while the other page marks the place as looked at, for a moment.
    expect(other.locator(f"[data-key='L{owner}-{pos}']")).to_have_class(re.compile(r"\beyed\b"))
    assert card in dom_cards(me)
    shot(me, "power-peek-seen")

    # The other page never gets the card, neither in its DOM nor from the server,
    # and is told only that a peek happened.
    assert card not in dom_cards(other), f"{card} leaked into the other page"
    assert card not in frame_cards(table.frames[1 - seat][other_start:])
    for u in updates_since(table.frames[1 - seat], other_start):
        assert "seen" not in (u.get("event") or {}), u
    expect(other.locator(".log-list")).to_contain_text(
        re.compile(rf"{name} discarded the .+ and looked at one of (your|their own) cards")
    )
    shot(other, "power-peek-other")

    # Memory is on in cambio (G8.2): the face goes away after a moment and the place
    # stays marked as seen; nothing else shows the card any more.
    expect(shown).to_have_class(re.compile(r"\bremembered\b"), timeout=10_000)
    expect(shown).not_to_have_attribute("data-card", card)
    expect(shown).to_have_attribute("aria-label", re.compile("you looked at it with a power"))
    assert card not in dom_cards(me)
    # A few more turns: still never in the other page.
    for _ in range(2):
        mover = table.mover()
        page = table.pages[mover]
        click_and_wait(page, page.locator("button.btn[data-action=draw]"))
        click_and_wait(page, page.locator("button.btn[data-action=discard]"))
        table.sync()
        assert card not in dom_cards(other)
    expect(me.locator(f"[data-key='L{owner}-{pos}']")).to_have_class(re.compile(r"\bpeeked\b"))


def test_swap_by_two_clicks_updates_both_pages(server, pages):
    table = PowerTable(server, pages, "cambio", create=create_without_memory)
    seat = table.play_until_power({"swap"})
    me, other = table.pages[seat], table.pages[1 - seat]
    them = 1 - seat
    text = me.locator(".power-prompt .power-text")
    expect(text).to_have_text(
        f"King: swap one of your cards with one of {table.names[them]}'s: click yours, then theirs"
    )
    # First pick: one of my cards that I know (memory off shows it); it is highlighted.
    mine = me.locator(".player.me button.card.do-power[data-card]")
    assert mine.count() >= 1, "no known card of mine to swap"
    first = mine.first
    _, p = key_of(first)
    a = first.get_attribute("data-card")
    assert a
    # Only my cards are offered first; theirs are not yet clickable.
    expect(me.locator(".player.opp button.card.do-power")).to_have_count(0)
    first.click()
    picked = me.locator(f"[data-key='L{seat}-{p}']")
    expect(picked).to_have_class(re.compile(r"\bselected\b"))
    expect(picked).to_have_attribute("aria-pressed", "true")
    expect(text).to_contain_text(f"now click one of {table.names[them]}'s")
    expect(text).to_contain_text(f"to swap with your card {p + 1}")
    expect(me.locator(".player.opp button.card.do-power")).to_have_count(4)
    shot(me, "power-swap-first-pick")
    # Escape lets go of it.
    me.keyboard.press("Escape")
    expect(me.locator(".card.selected")).to_have_count(0)
    expect(text).to_contain_text("click yours, then theirs")
    expect(me.locator(".player.opp button.card.do-power")).to_have_count(0)

    # Pick again, then one of their cards that they know (so both tables change visibly).
    me.locator(f"[data-key='L{seat}-{p}']").click()
    known = other.locator(".player.me .card[data-card]")
    assert known.count() >= 1, "the other player knows none of their cards"
    _, q = key_of(known.first)
    b = known.first.get_attribute("data-card")
    assert b and b != a
    click_and_wait(me, me.locator(f"[data-key='L{them}-{q}']"))
    table.sync()

    # My page: my known card is now at their place; my place holds a card I never saw.
    expect(me.locator(f"[data-key='L{them}-{q}']")).to_have_attribute("data-card", a)
    expect(me.locator(f"[data-key='L{seat}-{p}']")).to_have_class(re.compile(r"\bback\b"))
    # Their page: their known card is now in my layout; their place is unknown to them.
    expect(other.locator(f"[data-key='L{seat}-{p}']")).to_have_attribute("data-card", b)
    expect(other.locator(f"[data-key='L{them}-{q}']")).to_have_class(re.compile(r"\bback\b"))
    assert a not in dom_cards(other) and b not in dom_cards(me)
    expect(other.locator(".log-list")).to_contain_text(f"{table.names[seat]} discarded the ")
    expect(other.locator(".log-list")).to_contain_text(
        f"swapped their own card {p + 1} with your card {q + 1}."
    )
    expect(me.locator(".log-list")).to_contain_text(
        f"swapped your card {p + 1} with {table.names[them]}'s card {q + 1}."
    )
    expect(me.locator(".power-prompt")).to_have_count(0)
    shot(other, "power-swap-other")


def test_power_used_from_the_keyboard_only(server, pages):
    table = PowerTable(server, pages, "cambio")
    seat = table.play_until_power({"peek", "swap"}, keyboard=True)
    me = table.pages[seat]
    prompt = me.locator(".power-prompt")
    verb = prompt.get_attribute("data-verb")
    # The keyboard lands on a lit target at once.
    focused = "document.activeElement && document.activeElement.matches('button.card.do-power')"
    me.wait_for_function(focused, timeout=TIMEOUT)
    # u: keep the card instead (own cards become places for it), u again: back to the power.
    me.keyboard.press("u")
    expect(prompt).to_have_attribute("data-mode", "keep")
    expect(me.locator("button.card.do-power")).to_have_count(0)
    expect(me.locator(".player.me button.card.do-swap")).to_have_count(4)
    me.keyboard.press("u")
    expect(prompt).to_have_attribute("data-mode", "power")
    me.wait_for_function(focused, timeout=TIMEOUT)
    # Tab walks on to another lit target (when there is one); Enter picks.
    first_key = me.evaluate("document.activeElement.dataset.key")
    if me.locator("button.card.do-power").count() > 1:
        for _ in range(30):
            me.keyboard.press("Tab")
            if me.evaluate(f"{focused} && document.activeElement.dataset.key !== '{first_key}'"):
                break
        else:
            raise AssertionError("Tab never reached a second lit target")
    me.wait_for_function(focused, timeout=TIMEOUT)
    start = len(table.frames[seat])
    before = seq(me)
    me.keyboard.press("Enter")
    if verb == "swap":
        # The first pick is held (no move yet); Escape lets go, Enter picks again.
        me.wait_for_function(
            "document.querySelector('.card.selected[aria-pressed=true]')", timeout=TIMEOUT
        )
        me.keyboard.press("Escape")
        expect(me.locator(".card.selected")).to_have_count(0)
        me.wait_for_function(focused, timeout=TIMEOUT)
        me.keyboard.press("Enter")
        me.wait_for_function(
            "document.querySelector('.card.selected[aria-pressed=true]')", timeout=TIMEOUT
        )
        me.wait_for_function(focused, timeout=TIMEOUT)
        assert seq(me) == before
        me.keyboard.press("Enter")
    me.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.seq) > n",
        arg=before,
        timeout=TIMEOUT,
    )
    table.sync()
    actions = [
        u["event"]["action"]
        for u in updates_since(table.frames[seat], start)
        if u.get("event") and u["event"].get("kind") == "action"
    ]
    assert actions and actions[0].startswith(f"power {verb} "), actions
    words = "looked at" if verb == "peek" else "swapped"
    expect(me.locator(".log-list li").first).to_contain_text("You discarded the ")
    expect(me.locator(".log-list li").first).to_contain_text(words)
    expect(table.pages[1 - seat].locator(".log-list li").first).to_contain_text(
        f"{table.names[seat]} discarded the "
    )


def test_lobby_offers_card_powers_with_explanations(server, pages):
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    preset = page.locator(".preset:has(input[value='cambio'])")
    expect(preset).to_contain_text("J/Q/K/joker powers")
    preset.click()
    group = page.locator("details[data-group=powers]")
    expect(group).to_have_attribute("open", "")
    expect(group.locator("summary")).to_contain_text("Card powers")
    control = page.locator("select[data-option=powers]")
    expect(control).to_have_value("cambio")
    values = control.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert {"off", "cambio", "bga", "powers"} <= set(values), values
    help_line = page.locator(".option[data-row=powers] .option-help")
    expect(help_line).to_contain_text("Cambio (G7.2): J: look at one of your cards")
    control.select_option("bga")
    expect(help_line).to_contain_text("Board Game Arena (G7.3)")
    control.select_option("powers")
    expect(help_line).to_contain_text("The extended set (G7.4)")
    for option in ("cutthroat", "jack_skips"):
        expect(page.locator(f".option[data-row={option}] .option-help")).not_to_be_empty()
    # Powers need layout places: a hand of four is refused before asking the server.
    control.select_option("cambio")
    page.select_option("[data-option=layout]", "hand4")
    expect(page.locator(".option[data-row=powers] .option-problem")).to_contain_text(
        "Card powers point at places"
    )
    expect(page.locator("#create-table")).to_be_disabled()
    shot(page, "lobby-powers")


def test_unknown_power_verbs_get_a_prompt(server, pages):
    """A verb this client does not know (a new power set's) still gets a prompt: the
    power named and one button per legal action, in the action's own words, that
    sends that action; known verbs are picked on the cards, in either order where
    the server lists a pair only once (BGA's king)."""
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    out = page.evaluate(
        """async () => {
            const m = await import('/static/powers.js');
            const g = await import('/static/golf.js');
            const layouts = [
                {cards: ['??', '??', '??', '??'], face_up: [false, false, false, false]},
                {cards: ['5♥', '??', '??', '??'], face_up: [true, false, false, false]}];
            const view = {names: ['Ann', 'Bob'], seating: [0, 1], round: 1, totals: [0, 0],
                scoresheet: [], winners: [], over: false, round_view: {
                    layout: '2x2', phase: 'drawn', to_move: 0, dealer: 1, layouts,
                    stock: 30, discard: ['4♣'], held: '9♦', held_from: 'stock',
                    reveal_left: 0, closer: null, knocked: false, final_turns_left: 0,
                    legal: ['swap 0', 'swap 1', 'swap 2', 'swap 3', 'discard',
                            'power teleport 1:2', 'power teleport 1:3', 'power zap']}};
            const sent = [];
            const ctx = {view, me: 0, seats: [{}, {}], rules: {powers: 'powers', memory: true},
                frame: {match: 1}, seen: new Map(), peeks: new Map(), power: null,
                act: (a) => sent.push(a), later: () => {}, choosePower: () => {}};
            const {felt} = g.renderGolf(ctx);
            document.body.appendChild(felt);
            const prompt = felt.querySelector('.power-prompt');
            const buttons = [...prompt.querySelectorAll('.power-plain button')];
            const before = {text: prompt.querySelector('.power-text').textContent,
                verbs: [...prompt.querySelectorAll('[data-power-verb]')].map(b => b.textContent),
                buttons: buttons.map(b => b.textContent),
                lit: felt.querySelectorAll('button.card.do-power').length};
            buttons[1].click();
            felt.remove();
            const run = (actions, held, picks = []) => {
                const powers = actions.map(m.parsePower);
                const plan = m.powerPlan(powers, {verb: powers[0].verb, picks}, [4, 4]);
                return {text: m.powerPrompt(plan, powers, view, 0, held).text,
                        targets: [...plan.targets.keys()], clickable: plan.clickable,
                        done: [...plan.targets.values()].map(t => t.action || null)};
            };
            const any = [];
            const cells = ['0:0', '0:1', '1:0', '1:1'];
            for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++)
                any.push(`power swap ${cells[i]} ${cells[j]}`);
            return {
                before, sent,
                rows: run(['power rows 1:0 1:1'], '7♠'),
                anyFirst: run(any, 'K♣'),
                anyLast: run(any, 'K♣', [[1, 1]]),
            };
        }"""
    )
    before = out["before"]
    assert before["text"] == "Nine's power “teleport”: choose one of the moves below"
    assert before["verbs"] == ["Power “teleport”", "Power “zap”"]
    assert before["buttons"] == ["power teleport 1:2", "power teleport 1:3"]
    assert before["lit"] == 0  # an unknown verb's "1:2" may not be a card: no card is lit
    assert out["sent"] == ["power teleport 1:3"]
    # "S:A" of an unknown verb is not taken for a card place.
    assert not out["rows"]["clickable"] and out["rows"]["targets"] == []
    assert "power rows 1:0 1:1" in out["rows"]["text"]
    # BGA's king: any two cards, picked in either order.
    assert (
        out["anyFirst"]["text"]
        == "King: swap any two cards on the table: click one, then the other"
    )
    assert sorted(out["anyFirst"]["targets"]) == ["0:0", "0:1", "1:0", "1:1"]
    assert sorted(out["anyLast"]["targets"]) == ["0:0", "0:1", "1:0"]
    assert "power swap 0:0 1:1" in out["anyLast"]["done"]
