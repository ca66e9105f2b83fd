"""STYLE 1: the core (cards, golf, spades, records, CLI) imports only the standard library."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "greenfelt"
CORE = [
    PACKAGE / "cards.py",
    PACKAGE / "errors.py",
    PACKAGE / "game.py",
    PACKAGE / "record.py",
    PACKAGE / "cli.py",
    *sorted((PACKAGE / "golf").glob("*.py")),
    *sorted((PACKAGE / "spades").glob("*.py")),
]


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_imports_only_the_standard_library(path: Path) -> None:
    outside = imported_roots(path) - set(sys.stdlib_module_names) - {"greenfelt", "__future__"}
    assert not outside, f"{path.name} imports {sorted(outside)}"


def test_engines_do_not_import_the_command_line_or_records() -> None:
    """Engines are the core; records and the CLI are their clients, never the reverse."""
    for path in [*(PACKAGE / "golf").glob("*.py"), *(PACKAGE / "spades").glob("*.py")]:
        if path.name == "cli.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert "greenfelt.cli" not in text and "greenfelt.record" not in text, path
