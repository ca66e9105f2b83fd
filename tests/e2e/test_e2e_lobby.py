"""The lobby in a real browser: options explained and checked before creating, the
server's own refusal shown inline, open tables listed, and a phone-sized table."""

from __future__ import annotations

from e2e_helpers import PHONE, TIMEOUT, create_in_lobby, golf_move, shot, wait_turn_or
from playwright.sync_api import expect


def test_lobby_explains_rules_and_lists_tables(server, pages):
    listed = server.create("golf", "nine-card", [{"name": "Cleo"}, {"bot": "expert"}])
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator(f"[data-table='{listed['id']}']")).to_contain_text("nine-card")
    expect(page.locator(f"[data-table='{listed['id']}'] a", has_text="Join")).to_be_visible()
    # Every option of /api/games has a control, a label, a rule id and a line of help.
    options = server.http.get("/api/games").json()["golf"]["options"]
    for option in options:
        row = page.locator(f".option[data-row='{option['name']}']")
        expect(row).to_have_count(1)
        expect(row.locator(".option-help")).not_to_be_empty()
    for group in ("Setup", "Turns", "Ending the round", "Scoring", "Specials", "Closer", "Match"):
        expect(page.locator("details.group summary", has_text=group)).to_have_count(1)
    page.fill("#my-name", "Ann")
    shot(page, "lobby", readme=True)

    # An impossible combination is explained before creating, with a fix.
    page.select_option("[data-option=layout]", "2x2")
    page.locator("details[data-group=turns] summary").click()
    page.select_option("[data-option=flip_after_discard]", "may")
    problem = page.locator(".option[data-row=flip_after_discard] .option-problem")
    expect(problem).to_contain_text("never turn face up")
    expect(page.locator("#create-table")).to_be_disabled()
    shot(page, "lobby-problem")
    page.locator(".problems button").first.click()
    expect(page.locator(".problems")).to_be_empty()
    expect(page.locator("#create-table")).to_be_enabled()

    # What only the server can judge comes back inline, in words.
    page.locator("details[data-group=scoring] summary").click()
    page.select_option("[data-option=values]", "__custom")
    page.fill(".option[data-row=values] .custom-text", "Z:3")
    page.click("#create-table")
    expect(page.locator(".problems")).to_contain_text("Those rules do not fit together")
    expect(page.locator(".problems")).not_to_contain_text("rules/invalid")


def test_phone_sized_table(server, pages):
    page = pages.open(viewport=PHONE, is_mobile=True, has_touch=True)
    create_in_lobby(page, server.url, "Ann", preset="six-card", seats=["greedy", "easy"])
    while wait_turn_or(page, ".round-end") == "turn":
        if golf_move(page) == "draw":
            break
    expect(page.locator(".pile.held.mine [data-card]")).to_be_visible(timeout=TIMEOUT)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table is wider than the phone: {width}px"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "phone", readme=True)
    shot(page, "phone-full", full=True)
    # The keys' help and the key hints are for keyboards; leaving is for everyone.
    expect(page.get_by_role("button", name="Keys ?")).to_be_hidden()
    hints = page.locator("#board .btn kbd")
    assert hints.count() > 0  # the Discard button carries its key, x
    for hint in hints.all():
        expect(hint).to_be_hidden()
    leave = page.get_by_role("button", name="Leave")
    expect(leave).to_be_visible()
    box = leave.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    leave.click()
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)


def test_a_friend_who_does_not_come_is_replaced_by_a_bot(server, pages):
    """The waiting table offers each open seat to a bot; the game starts once all are filled."""
    page = pages.open()
    table = create_in_lobby(page, server.url, "Ann", preset="six-card", seats=["friend", "friend"])
    expect(page.locator(".felt.waiting")).to_contain_text("Waiting for 2 more players")
    page.select_option("[data-fill-seat='1']", "greedy")
    expect(page.locator(".felt.waiting")).to_contain_text("Waiting for 1 more player")
    expect(page.locator(".table-seats")).to_contain_text("Greedy bot (bot)")
    expect(page.locator(".log-list li.seat").first).to_have_text("Seat 2 went to the Greedy bot.")
    shot(page, "waiting-fill-seat")
    page.select_option("[data-fill-seat='2']", "easy")
    expect(page.locator(".felt.waiting")).to_have_count(0, timeout=TIMEOUT)
    expect(page.locator("#board")).to_contain_text("Easy bot", timeout=TIMEOUT)
    seats = server.table(table)["seats"]
    assert [(s["name"], s["bot"]) for s in seats] == [
        ("Ann", None),
        ("Greedy bot", "greedy"),
        ("Easy bot", "easy"),
    ]


def test_seat_changes_are_told_in_the_table_talk(server, pages):
    """Who sat down, which seat went to a bot, who is away and back, in words."""
    page = pages.open()
    page.goto(f"{server.url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    lines = page.evaluate(
        """async () => {
            const {seatNews} = await import('/static/seatnews.js');
            const seat = (n, name, more) => ({seat: n, name, bot: null, taken: true,
                connected: true, stand_in: false, ...more});
            const before = [seat(0, 'Ann'), seat(1, 'Seat 2', {taken: false, connected: false}),
                seat(2, 'Cy'), seat(3, 'Dee'), seat(4, 'Eve', {stand_in: true}),
                seat(5, 'Seat 6', {taken: false, connected: false})];
            const after = [seat(0, 'Ann', {stand_in: true}), seat(1, 'Bob'),
                seat(2, 'Cy', {connected: false}), seat(3, 'Dee', {stand_in: true}),
                seat(4, 'Eve'), seat(5, 'Expert bot', {bot: 'expert'})];
            return {mine: seatNews(before, after, 0), watching: seatNews(before, after, null),
                none: seatNews(after, after, 0), first: seatNews(null, after, 0)};
        }"""
    )
    assert lines["mine"] == [
        "You are away: a bot plays for you.",
        "Bob took seat 2.",
        "Cy lost the connection.",
        "Dee is away: a bot plays for them.",
        "Eve is back.",
        "Seat 6 went to the Expert bot.",
    ]
    assert lines["watching"][0] == "Ann is away: a bot plays for them."
    assert lines["none"] == [] and lines["first"] == []
