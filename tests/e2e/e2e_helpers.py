"""Helpers for the browser tests: create tables through the UI, play by clicking, read the DOM."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
DOCS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("GREENFELT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
DESKTOP = {"width": 1360, "height": 900}
PHONE = {"width": 390, "height": 844}


TIMEOUT = 20_000
CARD = re.compile(r"(?<![\w♠♥♦♣])(?:10|[2-9AJQK])[♠♥♦♣]|\bJK\b")
WORDS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
SUITS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
NAMED = re.compile(r"\b(ace|king|queen|jack|10|[2-9]) of (spades|hearts|diamonds|clubs)\b", re.I)


def create_in_lobby(
    page: Page,
    url: str,
    name: str,
    *,
    game: str = "golf",
    preset: str | None = None,
    seats: list[str] | None = None,
    options: dict[str, str] | None = None,
) -> str:
    """Fill the lobby form like a person and create the table; returns its id.

    ``seats``: what each seat after yours is: "friend", "easy", "greedy" or "expert".
    ``options``: select values by option name (data-option), set before creating.
    """
    page.goto(f"{url}/#/")
    expect(page.locator("#create-table")).to_be_visible(timeout=TIMEOUT)
    page.fill("#my-name", name)
    if game != "golf":
        page.click(f"[data-game={game}]")
    if preset:
        page.locator(f".preset:has(input[value='{preset}'])").click()
    if seats is not None:
        while page.locator(".seat-row").count() < len(seats) + 1:
            page.click("#add-seat")
        for i, kind in enumerate(seats, start=1):
            page.select_option(f"[data-seat-kind='{i}']", kind)
    for option, value in (options or {}).items():
        control = page.locator(f"[data-option='{option}']")
        if option == "end" and game == "golf":
            kind, _, number = value.partition(":")
            control.select_option(kind)
            if number:
                page.fill("[aria-label='number of holes or target score']", number)
            continue
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    page.click("#create-table")
    expect(page.locator("#board")).to_be_visible(timeout=TIMEOUT)
    match = re.search(r"#/table/([0-9a-f]+)", page.url)
    assert match, page.url
    return match.group(1)


def seq(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-seq") or "0")


def click_and_wait(page: Page, locator: Any) -> None:
    """Click a move and wait until the table has moved on (a new event number)."""
    before = seq(page)
    locator.first.click()
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.seq) > n",
        arg=before,
        timeout=TIMEOUT,
    )


def my_turn(page: Page) -> bool:
    return page.locator("#status.tone-you").count() > 0


def wait_turn_or(page: Page, selector: str) -> str:
    """Wait until it is this page's turn or ``selector`` shows; returns "turn" or "other"."""
    page.wait_for_function(
        "sel => document.querySelector('#status.tone-you') || document.querySelector(sel)",
        arg=selector,
        timeout=TIMEOUT,
    )
    return "other" if page.locator(selector).count() else "turn"


def golf_move(page: Page) -> str:
    """Make one sensible Golf move by clicking what is lit up; returns the action clicked.

    Turn up or peek the first card offered; draw from the stock; swap the drawn card
    into a face-down place (so the round ends soon) or else discard it; skip a flip.
    """
    board = page.locator("#board")
    for selector in (
        "button.card.legal.do-flip",
        "button.card.legal.do-peek",
        "[data-action=draw]",
        "button.card.legal.do-swap.back",
        "button.card.legal.do-swap.known",
        "button.card[data-action=discard]",
        "button[data-action=pass]",
        "button.card.legal.do-swap",
    ):
        target = board.locator(selector)
        if target.count():
            action = target.first.get_attribute("data-action") or selector
            click_and_wait(page, target)
            return action
    raise AssertionError(f"nothing to click on this turn: {board.inner_text()}")


def dom_cards(page: Page) -> set[str]:
    """Every card text anywhere in the page: attributes, labels and visible text."""
    texts = page.evaluate(
        """() => {
            const out = [];
            for (const el of document.querySelectorAll('[data-card]')) out.push(el.dataset.card);
            for (const el of document.querySelectorAll('[aria-label],[title]')) {
                out.push(el.getAttribute('aria-label') || '');
                out.push(el.getAttribute('title') || '');
            }
            out.push(document.body.innerText);
            for (const el of document.querySelectorAll('input')) out.push(el.value);
            return out;
        }"""
    )
    found: set[str] = set()
    for text in texts:
        found.update(CARD.findall(text))
        for rank, suit in NAMED.findall(text):
            found.add(WORDS.get(rank.lower(), rank) + SUITS[suit.lower()])
    return found


def frame_cards(frames: list[str]) -> set[str]:
    """Every card text the server ever sent to this page (what this seat may know)."""
    found: set[str] = set()
    for frame in frames:
        found.update(CARD.findall(json.dumps(json.loads(frame), ensure_ascii=False)))
    return found


def capture_frames(page: Page) -> list[str]:
    """Collect the text frames this page's table socket receives."""
    frames: list[str] = []

    def on_socket(ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: frames.append(payload) if isinstance(payload, str) else None,
        )

    page.on("websocket", on_socket)
    return frames


def last_state(frames: list[str]) -> dict[str, Any]:
    for frame in reversed(frames):
        data = json.loads(frame)
        if data.get("type") in ("state", "update") and data.get("view"):
            return data
    raise AssertionError("no state frame received")


def shot(page: Page, name: str, readme: bool = False, full: bool = False) -> None:
    """Save a screenshot to artifacts/e2e (and docs/screenshots when asked to refresh them)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), animations="disabled", full_page=full)
    if readme and os.environ.get("GREENFELT_SCREENSHOTS"):
        DOCS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(DOCS / f"{name}.png"), animations="disabled", full_page=full)


def join_in_browser(page: Page, url: str, table: str, name: str) -> None:
    """Take a free seat at ``table`` through the join page, like a person."""
    page.goto(f"{url}/#/join/{table}")
    page.fill("#join-name", name)
    page.click("#join-button")
    expect(page.locator("#board")).to_be_visible(timeout=TIMEOUT)


def wait_seq_above(page: Page, before: int) -> None:
    """Wait until the table has moved on past event number ``before``."""
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.seq) > n",
        arg=before,
        timeout=TIMEOUT,
    )


# ---- two people at a power table (G7) ---------------------------------------------

MAX_DRAWS = 250
"""Draws before a wanted power card must have come: a rank has 4 cards in 52, so
250 draws miss it with a probability below 1e-8 (the server cannot stack a deck)."""


def press_and_wait(page: Page, key: str) -> None:
    """Press a key (no mouse) and wait until the table has moved on."""
    before = seq(page)
    page.keyboard.press(key)
    wait_seq_above(page, before)


def updates_since(frames: list[str], start: int) -> list[dict[str, Any]]:
    """The update frames a page received from frame number ``start`` on."""
    return [json.loads(f) for f in frames[start:] if json.loads(f).get("type") == "update"]


def key_of(locator: Any) -> tuple[int, int]:
    """A card's ``data-key`` ``L{seat}-{pos}`` as (table seat, position)."""
    key = locator.get_attribute("data-key") or ""
    match = re.fullmatch(r"L(\d+)-(\d+)", key)
    assert match, key
    return int(match.group(1)), int(match.group(2))


class PowerTable:
    """Ann and Bob at a Golf table with card powers, each in their own browser context.

    ``create(page, url) -> table id`` makes the table when the lobby's defaults for
    ``preset`` are not what a test needs.
    """

    def __init__(self, server: Any, pages: Any, preset: str, create: Any = None) -> None:
        self.ann = pages.open()
        self.bob = pages.open()
        self.frames = {0: capture_frames(self.ann), 1: capture_frames(self.bob)}
        if create is None:
            self.id = create_in_lobby(self.ann, server.url, "Ann", preset=preset, seats=["friend"])
        else:
            self.id = create(self.ann, server.url)
        join_in_browser(self.bob, server.url, self.id, "Bob")
        for page in (self.ann, self.bob):
            expect(page.locator(".felt.golf")).to_be_visible(timeout=TIMEOUT)
        self.pages = {0: self.ann, 1: self.bob}
        self.names = {0: "Ann", 1: "Bob"}

    def sync(self) -> dict[str, Any]:
        """Wait until both pages show the same event; returns the latest state."""
        target = max(seq(self.ann), seq(self.bob), 1)
        for page in (self.ann, self.bob):
            page.wait_for_function(
                "n => Number(document.querySelector('#board')?.dataset.seq) >= n",
                arg=target,
                timeout=TIMEOUT,
            )
        return last_state(self.frames[0])

    def mover(self) -> int:
        """The table seat to move (nobody knocks here, so the round cannot be over)."""
        state = self.sync()
        rv = state["view"]["round_view"]
        assert rv["phase"] != "over", "the round ended before a power card came"
        return int(state["view"]["seating"][rv["to_move"]])

    def play_until_power(self, verbs: set[str], keyboard: bool = False) -> int:
        """Peek, then draw and discard on both seats until a seat holds a power card whose
        prompt offers one of ``verbs``; returns that seat. Other power cards are discarded."""
        draws = 0
        while True:
            seat = self.mover()
            page = self.pages[seat]
            expect(page.locator("#status.tone-you")).to_be_visible(timeout=TIMEOUT)
            phase = last_state(self.frames[seat])["view"]["round_view"]["phase"]
            if phase == "reveal":  # peek at two of your own cards first
                target = page.locator("button.card.legal.do-peek")
                if keyboard:  # the digit of the place
                    press_and_wait(page, str(key_of(target.first)[1] + 1))
                else:
                    click_and_wait(page, target)
                continue
            assert phase == "turn", f"unexpected phase {phase}"
            assert draws < MAX_DRAWS, f"no power card for {verbs} in {MAX_DRAWS} draws"
            draws += 1
            if keyboard:
                press_and_wait(page, "d")
            else:
                click_and_wait(page, page.locator("button.btn[data-action=draw]"))
            prompt = page.locator(".power-prompt")
            if prompt.count() and prompt.get_attribute("data-verb") in verbs:
                return seat
            # Not the power wanted (or none): throw the card away without its power.
            if prompt.count():
                expect(page.locator("button.btn[data-action=discard]")).to_have_text(
                    re.compile("Discard without power")
                )
            if keyboard:
                press_and_wait(page, "x")
            else:
                click_and_wait(page, page.locator("button.btn[data-action=discard]"))
