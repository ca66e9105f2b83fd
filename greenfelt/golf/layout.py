"""Layout shapes (G1.2) and the grid notation (C3).

A :class:`Shape` holds the geometry every other module asks about: positions,
rows, columns, scoring lines, adjacent pairs and 2x2 squares, computed once per
shape so scoring and the round never recompute them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from greenfelt.cards import Card, parse_card
from greenfelt.errors import NotationError

__all__ = ["LAYOUTS", "Shape", "format_layout", "parse_layout", "shape_of"]

LAYOUTS = ("2x2", "2x3", "3x3", "2x4", "2x5", "hand4")

UNKNOWN = "??"


class Shape:
    """The geometry of one layout; positions are row-major from 0 (C3).

    Immutable; every derived tuple is computed once, at construction.
    """

    __slots__ = (
        "adjacent_pairs",
        "bottom_row",
        "cols",
        "column_lines",
        "diagonal_lines",
        "is_grid",
        "is_hand",
        "is_square",
        "name",
        "row_lines",
        "rows",
        "size",
        "squares",
    )

    def __init__(self, name: str, rows: int, cols: int, is_hand: bool) -> None:
        self.name = name
        self.rows = rows
        self.cols = cols
        self.is_hand = is_hand
        self.is_grid = not is_hand
        self.size = rows * cols
        self.is_square = self.is_grid and rows == cols
        self.row_lines: tuple[tuple[int, ...], ...] = tuple(
            tuple(r * cols + c for c in range(cols)) for r in range(rows)
        )
        self.column_lines: tuple[tuple[int, ...], ...] = tuple(
            tuple(r * cols + c for r in range(rows)) for c in range(cols)
        )
        self.diagonal_lines: tuple[tuple[int, ...], ...] = (
            (
                tuple(i * rows + i for i in range(rows)),
                tuple(i * rows + (rows - 1 - i) for i in range(rows)),
            )
            if self.is_square
            else ()
        )
        pairs: list[tuple[int, int]] = []
        for pos in range(self.size):
            r, c = divmod(pos, cols)
            if c + 1 < cols:
                pairs.append((pos, pos + 1))
            if r + 1 < rows:
                pairs.append((pos, pos + cols))
        self.adjacent_pairs: tuple[tuple[int, int], ...] = tuple(pairs)
        """Horizontally or vertically adjacent positions."""
        self.squares: tuple[tuple[int, int, int, int], ...] = tuple(
            (p, p + 1, p + cols, p + cols + 1)
            for r in range(rows - 1)
            for c in range(cols - 1)
            for p in (r * cols + c,)
        )
        """Every 2x2 square of positions (G5.4 blocks, G5.5)."""
        self.bottom_row: tuple[int, ...] = self.row_lines[-1]
        """The row nearest the player (G1.7 `nearest_row`)."""

    def row_of(self, pos: int) -> int:
        return pos // self.cols

    def col_of(self, pos: int) -> int:
        return pos % self.cols

    def describe(self) -> str:
        return "four cards in the hand" if self.is_hand else f"a {self.rows}x{self.cols} layout"

    def __repr__(self) -> str:
        return f"Shape({self.name!r})"


@cache
def shape_of(name: str) -> Shape:
    """The shape called ``name`` (one of :data:`LAYOUTS`)."""
    if name == "hand4":
        return Shape("hand4", 1, 4, True)
    if name not in LAYOUTS:
        raise NotationError(f"unknown layout {name!r}: choose one of {', '.join(LAYOUTS)}")
    rows, cols = (int(x) for x in name.split("x"))
    return Shape(name, rows, cols, False)


def parse_layout(text: str, shape: Shape) -> list[Card | None]:
    """Parse a layout in C3 notation for ``shape``; ``??`` stands for an unknown card.

    Unknown cards come back as ``None``. Raises NotationError saying which row
    or card is wrong.
    """
    if shape.is_hand:
        if "/" in text:
            raise NotationError(f"a hand4 hand is four cards without '/': {text!r}")
        rows = [text]
        expected_rows, per_row = 1, 4
    else:
        rows = text.split("/")
        expected_rows, per_row = shape.rows, shape.cols
    if len(rows) != expected_rows:
        raise NotationError(
            f"layout {text!r} has {len(rows)} row(s); {shape.describe()} needs {expected_rows}"
        )
    cards: list[Card | None] = []
    for number, row in enumerate(rows, start=1):
        tokens = row.split()
        if len(tokens) != per_row:
            where = "the hand" if shape.is_hand else f"row {number}"
            raise NotationError(
                f"{where} of layout {text!r} has {len(tokens)} card(s); expected {per_row}"
            )
        for token in tokens:
            if token == UNKNOWN:
                cards.append(None)
                continue
            try:
                cards.append(parse_card(token))
            except NotationError as error:
                where = "the hand" if shape.is_hand else f"row {number}"
                raise NotationError(f"in {where} of layout {text!r}: {error}") from None
    return cards


def format_layout(
    cards: Sequence[Card | None] | Sequence[str | None], shape: Shape, missing: str = UNKNOWN
) -> str:
    """Write a layout in C3 notation; ``None`` is written ``missing`` (``??``: unknown)."""
    texts = [missing if c is None else str(c) for c in cards]
    if shape.is_hand:
        return " ".join(texts)
    grid = " / ".join(
        " ".join(texts[r * shape.cols : (r + 1) * shape.cols]) for r in range(shape.rows)
    )
    # G7.4: cards an ace added lie beyond the grid (empty extra places are not written).
    extra = [str(c) for c in cards[shape.size :] if c is not None]
    return f"{grid} + {' '.join(extra)}" if extra else grid
