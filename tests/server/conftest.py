"""Fixtures of the server tests (the tools themselves live in ``helpers.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from greenfelt.server.store import Store
from tests.server.helpers import FAST, LiveServer, sqlite_url


@pytest.fixture
async def live(tmp_path: Path) -> AsyncIterator[LiveServer]:
    """The real app on SQLite, served on a loopback port in the test's event loop."""
    async with LiveServer(Store(sqlite_url(tmp_path / "db")), FAST) as server:
        yield server


@pytest.fixture
async def http(live: LiveServer) -> AsyncIterator[httpx.AsyncClient]:
    async with live.http() as client:
        yield client
