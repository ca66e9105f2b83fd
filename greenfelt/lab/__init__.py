"""The simulation lab (``greenfelt sim``): bots playing many games, statistics, comparisons, plots.

- :mod:`greenfelt.lab.runner` plays mirrored deals in parallel, deterministically;
- :mod:`greenfelt.lab.stats` holds the pure statistics (t and Wilson intervals, lead changes);
- :mod:`greenfelt.lab.report` turns game results into summaries, tables, JSON and CSV;
- :mod:`greenfelt.lab.plot` draws the PNGs (matplotlib, imported only when a plot is drawn);
- :mod:`greenfelt.lab.cli` is the ``sim`` command.

Importing this package imports nothing outside the standard library, so the
rest of the command line stays fast and free of plotting libraries.
"""

from __future__ import annotations

from greenfelt.errors import GreenfeltError

__all__ = ["LabError"]


class LabError(GreenfeltError, ValueError):
    """A simulation that cannot run as asked: bad bots, counts, or an unwritable output folder."""
