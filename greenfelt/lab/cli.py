"""`greenfelt sim`: placeholder registration until the lab lands (issue 4)."""

from __future__ import annotations

from typing import Any


def register(commands: Any) -> None:
    """Add ``sim`` to the command line (filled in by the lab)."""
