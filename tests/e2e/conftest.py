"""End-to-end fixtures: a real ``greenfelt serve`` per test and Debian's Chromium.

Chromium is Debian's package (``apt-get install -y chromium``), driven by Python
Playwright without ``playwright install``. Screenshots of every table state go
to ``artifacts/e2e/``; with ``GREENFELT_SCREENSHOTS=1`` the README's screenshots
in ``docs/screenshots/`` are refreshed too.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from e2e_helpers import CHROMIUM, CHROMIUM_ARGS, DESKTOP
from playwright.sync_api import Browser, Page, sync_playwright


def _greenfelt() -> str:
    beside = Path(sys.executable).with_name("greenfelt")
    if beside.exists():
        return str(beside)
    found = shutil.which("greenfelt")
    if found is None:
        pytest.fail("the greenfelt command is not installed: run ./dev setup")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A running ``greenfelt serve`` and a small client of its lobby API."""

    def __init__(self, url: str, process: subprocess.Popen[bytes], log: Path) -> None:
        self.url = url
        self.process = process
        self.log = log
        self.http = httpx.Client(base_url=url, timeout=10)

    def create(self, game: str, preset: str, seats: list[dict], **options: object) -> dict:
        response = self.http.post(
            "/api/tables",
            json={"game": game, "preset": preset, "options": options, "seats": seats},
        )
        response.raise_for_status()
        return response.json()

    def join(self, table: str, name: str, seat: int | None = None) -> dict:
        response = self.http.post(f"/api/tables/{table}/join", json={"name": name, "seat": seat})
        response.raise_for_status()
        return response.json()

    def table(self, table: str) -> dict:
        return self.http.get(f"/api/tables/{table}").json()

    def record(self, table: str) -> dict:
        return self.http.get(f"/api/tables/{table}/record").json()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """``greenfelt serve`` on a free port with its own data folder; killed afterwards."""
    port = _free_port()
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                _greenfelt(),
                "serve",
                "--port",
                str(port),
                "--data",
                str(tmp_path / "data"),
                "--bot-delay",
                "0.05",
                "--round-pause",
                "1",
            ],
            cwd=tmp_path,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if process.poll() is not None:
            pytest.fail(f"greenfelt serve exited at start:\n{log.read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                break
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            pytest.fail(f"greenfelt serve did not answer /api/health:\n{log.read_text()}")
        time.sleep(0.1)
    running = Server(url, process, log)
    try:
        yield running
    finally:
        running.http.close()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # Module scope, not session: Playwright's sync API holds an event loop while it
    # runs, and the asyncio tests of other folders need the thread's loop free.
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is missing at {CHROMIUM}: install Debian's package with "
            "`apt-get update && apt-get install -y chromium` (never `playwright install`)"
        )
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


class Pages:
    """Opens pages in fresh contexts (separate localStorage: separate players)."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser
        self.contexts: list = []
        self.errors: list[str] = []

    def open(self, viewport: dict | None = None, **kwargs: object) -> Page:
        context = self.browser.new_context(viewport=viewport or DESKTOP, **kwargs)
        self.contexts.append(context)
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page

    def close(self) -> None:
        for context in self.contexts:
            with contextlib.suppress(Exception):
                context.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[Pages]:
    opened = Pages(browser)
    try:
        yield opened
        assert not opened.errors, f"JavaScript errors in the page: {opened.errors}"
    finally:
        opened.close()
