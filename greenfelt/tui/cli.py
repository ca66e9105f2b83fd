"""`greenfelt play`: placeholder registration until the terminal client lands (issue 8)."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    """Add ``play`` to the command line (filled in by the terminal client)."""
