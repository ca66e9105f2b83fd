"""The lab's PNGs: score distributions per bot, and the rule-set comparison (side by side,
and paired with the first rule set).

matplotlib is imported inside the functions, and only its object-oriented API
with the Agg canvas is used (never ``pyplot``): no display, no global backend
switch, nothing imported by the rest of the command line.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any

from greenfelt.lab import LabError

__all__ = ["plot_compare", "plot_paired", "plot_scores"]

_COLORS = ("#1b6e3a", "#c0392b", "#2e6fb7", "#d68910", "#7d3c98", "#5d6d7e", "#17a589", "#935116")


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure: Any, path: Path) -> None:
    try:
        figure.savefig(path, format="png")
    except OSError as error:
        raise LabError(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def plot_scores(
    points: Mapping[str, Sequence[float]], path: Path, *, title: str, xlabel: str, integer: bool
) -> None:
    """Overlaid histograms of each bot level's points (one value per seat-game)."""
    import numpy as np

    figure = _figure(8.0, 4.8)
    axes = figure.add_subplot()
    # As arrays: matplotlib keeps a list of millions of floats several times over.
    arrays = {level: np.asarray(data, dtype=float) for level, data in points.items()}
    filled = [a for a in arrays.values() if len(a)]
    if filled:
        low = min(float(a.min()) for a in filled)
        high = max(float(a.max()) for a in filled)
        if integer:
            bins: Any = [b - 0.5 for b in range(math.floor(low), math.ceil(high) + 2)]
        else:
            bins = 30 if high > low else [low - 0.5, low + 0.5]
        for i, (level, data) in enumerate(arrays.items()):
            if not len(data):
                continue
            mean = float(data.mean())
            color = _COLORS[i % len(_COLORS)]
            axes.hist(
                data,
                bins=bins,
                weights=np.full(len(data), 1.0 / len(data)),  # bar height = share of seat-games
                histtype="stepfilled",
                alpha=0.35,
                color=color,
                edgecolor=color,
                linewidth=1.2,
                label=f"{level} (mean {mean:.2f}, n={len(data)})",
            )
            axes.axvline(mean, color=color, linestyle="--", linewidth=1.0)
        axes.legend()
    axes.set_title(title)
    axes.set_xlabel(xlabel)
    axes.set_ylabel("share of seat-games")
    axes.grid(alpha=0.3)
    _save(figure, path)


_PANELS = (
    ("turns_per_hole", "turns per hole", 1.0),
    ("score_sd", "score spread in a hole (sd)", 1.0),
    ("mean_abs_difference", "mean |difference| between players", 1.0),
    ("lead_changes", "lead changes per match", 1.0),
    ("first_seat_advantage", "first-seat advantage (win %, pp)", 100.0),
    ("points", "mean points per hole", 1.0),
)


def plot_compare(rule_sets: Sequence[Mapping[str, Any]], path: Path, *, title: str) -> None:
    """One panel per measure, one bar per rule set (95% interval as an error bar); where
    the bots are of different levels, a panel more for the first level's share of the
    decided holes."""
    panels: list[tuple[Any, str, float, float | None]] = [
        (itemgetter(key), label, scale, None) for key, label, scale in _PANELS
    ]
    first = rule_sets[0]["measures"] if rule_sets else {}
    if first.get("bots"):
        level = first["bots"][0]
        even = 100.0 / first["players"]  # a seat's share if no level were better
        label = f"{level['level']} win % of decided holes"
        panels.append((lambda m: m["bots"][0]["win_rate_decided"], label, 100.0, even))
    columns = (len(panels) + 1) // 2
    figure = _figure(4.0 * columns, 7.0)
    figure.suptitle(title)
    names = [textwrap.fill(str(r["name"]), 24) for r in rule_sets]  # variants' names run long
    positions = list(range(len(names)))
    colors = [_COLORS[i % len(_COLORS)] for i in positions]
    for index, (measure_of, label, scale, even) in enumerate(panels):
        axes = figure.add_subplot(2, columns, index + 1)
        heights: list[float] = []
        below: list[float] = []
        above: list[float] = []
        for entry in rule_sets:
            measure = measure_of(entry["measures"])
            if isinstance(measure, Mapping):
                value = measure["value"]
                low, high = measure["low"], measure["high"]
            else:
                value, low, high = measure, None, None
            v = 0.0 if value is None else value * scale
            heights.append(v)
            below.append(0.0 if low is None else max(0.0, v - low * scale))
            above.append(0.0 if high is None else max(0.0, high * scale - v))
        errors = [below, above] if any(below) or any(above) else None
        axes.bar(positions, heights, color=colors, yerr=errors, capsize=4)
        axes.set_xticks(positions, names, rotation=20, ha="right")
        axes.set_title(label)
        axes.axhline(0.0, color="black", linewidth=0.6)
        if even is not None:
            axes.axhline(even, color="black", linestyle="--", linewidth=0.8)
        axes.grid(axis="y", alpha=0.3)
    _save(figure, path)


def plot_paired(rule_sets: Sequence[Mapping[str, Any]], path: Path, *, title: str) -> None:
    """Each rule set after the first less the first on the same deals (compare.json's
    ``paired``), one panel per measure: a point and its 95% interval, and a line at 0,
    so a rule set whose interval misses the line differs from the first."""
    others = rule_sets[1:]
    panels: list[tuple[Any, str, float]] = [
        (itemgetter(key), label, scale) for key, label, scale in _PANELS
    ]
    shares = others[0]["paired"].get("bots", ()) if others else ()
    if shares:
        label = f"{shares[0]['level']} win % of decided holes (pp)"
        panels.append((lambda p: p["bots"][0]["win_rate_decided"], label, 100.0))
    columns = (len(panels) + 1) // 2
    figure = _figure(4.0 * columns, 1.6 + 0.9 * max(1, len(others)) * 2)
    figure.suptitle(title)
    names = [textwrap.fill(str(r["name"]), 24) for r in others]
    positions = list(range(len(names)))[::-1]  # the first compared at the top
    colors = [_COLORS[(i + 1) % len(_COLORS)] for i in range(len(others))]  # compare.png's
    for index, (measure_of, label, scale) in enumerate(panels):
        axes = figure.add_subplot(2, columns, index + 1)
        for position, entry, color in zip(positions, others, colors, strict=True):
            est = measure_of(entry["paired"])
            if est["value"] is None:
                continue
            value = est["value"] * scale
            error = None
            if est["low"] is not None:
                error = [[value - est["low"] * scale], [est["high"] * scale - value]]
            axes.errorbar([value], [position], xerr=error, fmt="o", color=color, capsize=4)
        axes.axvline(0.0, color="black", linewidth=0.8)
        axes.set_yticks(positions, names)
        axes.set_ylim(-0.6, len(names) - 0.4)
        axes.set_title(label)
        axes.grid(axis="x", alpha=0.3)
    _save(figure, path)
