"""From game results to summaries, tables, JSON and CSV.

**Rows are bot entries.** Entry ``i`` is position ``i`` of ``--bots`` (its seat
before rotation); each entry has a row, so ``--bots random,random`` is an A/A
test of the lab itself (each entry should win half the decided holes). A level
that fills several entries (``--bots expert,greedy,greedy``) also gets a
*pooled* row (entries ``2+3``) over all its seat-games, whose win rate is the
share of those seat-games it won (even strength: ``1/players``). Options are
given per level (``--bot-option``), so entries of one level are the same kind
of player.

**Intervals (95%).** The mirrored games of a deal share their cards, so they are
not independent; deals are. Means (points, round length, spreads) therefore
take one value per deal (the average over its rotations and the level's seats)
and report a Student-t interval over deals. Win rates report Wilson score
intervals over seat-games; mirroring makes those a little conservative (a
lucky deal is lucky for each bot once per rotation).

**Golf wins.** A bot wins a hole when it has the strictly lowest score; a shared
lowest is a tie for those seats. *Decided* holes are those with one winner, and
"win % of decided" is wins over decided holes (the issue's strength bars).

**Spades.** A game is a whole game to the target (S6); points are per hand
(a game's final total over its hands); a game stopped at ``--max-hands`` goes to
the higher total (equal totals: no winner), and the count of such games is
reported.

**First seat** is the seat left of the dealer, the first to play (for Spades,
of the first hand). Its advantage is its win rate minus the average seat's.

**Lead changes** (``sim compare``): consecutive deals ``k*H .. k*H+H-1`` of one
rotation form a real ``H``-hole match (same seating, the deal passing
clockwise); after each hole the leader is the seat with the strictly lowest
running total, and a change is counted when a seat takes the sole lead from a
different seat that last held it (see :func:`greenfelt.lab.stats.lead_changes`).
"""

from __future__ import annotations

import csv
import io
import json
from array import array
from collections import defaultdict
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, NamedTuple

from greenfelt.lab import LabError
from greenfelt.lab.runner import Results, Spec
from greenfelt.lab.stats import (
    Estimate,
    lead_changes,
    mean,
    mean_abs_difference,
    mean_interval,
    paired_difference,
    pstdev,
    wilson_interval,
)

__all__ = [
    "COMPARE_METHOD",
    "FORMAT",
    "METHOD",
    "compare_csv",
    "compare_lines",
    "compare_measures",
    "compare_paired",
    "compare_reading",
    "dumps_json",
    "json_pieces",
    "paired_lines",
    "points_by_level",
    "results_csv",
    "results_csv_pieces",
    "summarize",
    "summary_lines",
    "write_text",
]

FORMAT = "greenfelt-sim/1"
COMPARE_FORMAT = "greenfelt-compare/1"

METHOD = {
    "rows": (
        "one row per bot entry (its position in --bots), plus a pooled row per level that "
        "fills several entries"
    ),
    "points": "Golf: the hole's score; Spades: a game's final total over its hands",
    "means": "95% Student-t interval over deals (each deal's mirrored games averaged first)",
    "win_rates": "95% Wilson score interval over seat-games",
    "golf_win": "strictly lowest score in the hole; a shared lowest is a tie",
    "spades_win": "the game's winner (S6); a game stopped at max_hands goes to the higher total",
    "first_seat": "the seat left of the dealer (first to play); advantage = its win rate - average",
    "lead_change": (
        "in an H-hole match (consecutive deals of one rotation), a seat takes the sole lead "
        "(strictly lowest running total) from a different seat that last held it"
    ),
}

COMPARE_METHOD = {
    **METHOD,
    "paired": (
        "each rule set after the first less the first, on the same deals: a measure is a ratio "
        "of sums over units (deals; whole matches for lead changes), paired unit by unit, its "
        "interval the delta method's linearization with a 95% t interval over units"
    ),
    "in_short": (
        "each measure's highest and lowest rule set; their paired difference is called clear "
        "where its interval excludes 0 at 1 - 0.05/pairs (Bonferroni over all pairs of rule sets)"
    ),
}


def _points(game: Mapping[str, Any], seat: int, kind: str) -> float:
    """A seat's points in a game: Golf hole score; Spades points per hand."""
    score = float(game["scores"][seat])
    return score if kind == "golf" else score / max(1, game["length"])


def _outcome(game: Mapping[str, Any], seat: int) -> str:
    winners = game["winners"]
    if seat in winners:
        return "win" if len(winners) == 1 else "tie"
    return "tie" if not winners else "loss"


class _OutOfOrder(Exception):
    """A deal came after a later one: the tables read the games again, sorted by deal."""


class _PerDeal:
    """The mean of the deals' means, with its interval (deals are the unit: the mirrored
    games of one deal share its luck).

    The games come in deal order, so a deal's mean is taken when the next deal begins:
    8 bytes a deal, where keeping every value took 16 a seat-game. A run of millions of
    holes keeps its tables' working memory to tens of megabytes. A deal coming after a
    later one raises :class:`_OutOfOrder` (:func:`_tables` then sorts the games); the
    numbers do not depend on the order (a deal's values are summed exactly, ``fsum``).
    """

    __slots__ = ("_deal", "_means", "_open")

    def __init__(self) -> None:
        self._means: array[float] = array("d")
        self._deal = -1
        self._open: list[float] = []

    def add(self, deal: int, value: float) -> None:
        if deal != self._deal:
            if deal < self._deal:
                raise _OutOfOrder
            self._close()
            self._deal = deal
        self._open.append(value)

    def _close(self) -> None:
        if self._open:
            self._means.append(mean(self._open))
            self._open = []

    def estimate(self) -> Estimate:
        self._close()
        return mean_interval(self._means)


def _pct(k: int, n: int) -> float | None:
    return k / n if n else None


class _Tally:
    """One row of the bots' table: the seat-games of bot ``entries`` (one entry, or a
    pooled level)."""

    __slots__ = (
        "closed",
        "decided",
        "entries",
        "first_games",
        "first_wins",
        "points",
        "seat_games",
        "ties",
        "wins",
    )

    def __init__(self, entries: Sequence[int]) -> None:
        self.entries = list(entries)
        self.points = _PerDeal()
        self.seat_games = self.wins = self.ties = self.decided = 0
        self.first_games = self.first_wins = self.closed = 0

    def row(self, spec: Spec) -> dict[str, Any]:
        level = spec.bots[self.entries[0]]
        seat_games = self.seat_games
        win = wilson_interval(self.wins, seat_games)
        first = wilson_interval(self.first_wins, self.first_games)
        row: dict[str, Any] = {
            "level": level,
            "entries": [e + 1 for e in self.entries],
            "pooled": len(self.entries) > 1,
            "options": dict(spec.options.get(level, {})),
            "seat_games": seat_games,
            "points": self.points.estimate().to_json(),
            "wins": self.wins,
            "ties": self.ties,
            "losses": seat_games - self.wins - self.ties,
            "tie_rate": _pct(self.ties, seat_games),
            "win_rate": win.to_json(),
            "decided": self.decided,
            "win_rate_decided": wilson_interval(self.wins, self.decided).to_json(),
            "first_seat_games": self.first_games,
            "first_seat_wins": self.first_wins,
            "first_seat_win_rate": first.to_json(),
            "first_seat_advantage": (
                None if first.value is None or win.value is None else first.value - win.value
            ),
        }
        if spec.game == "golf":
            row["closed"] = self.closed
            row["closed_rate"] = _pct(self.closed, seat_games)
        return row


class _Tables:
    """What the tables count, in one pass over the games: a run's games are rebuilt from
    its columns each time they are read (:class:`~greenfelt.lab.runner.Results`)."""

    def __init__(self, spec: Spec, rows: Sequence[Sequence[int]]) -> None:
        self.spec = spec
        self.tallies = [_Tally(entries) for entries in rows]
        self._by_entry: list[list[_Tally]] = [[] for _ in spec.bots]
        for tally in self.tallies:
            for entry in tally.entries:
                self._by_entry[entry].append(tally)
        self.games = self.sole_wins = self.first_wins = self.tied = self.capped = 0
        self.length, self.first_points, self.all_points = _PerDeal(), _PerDeal(), _PerDeal()

    def add(self, game: Mapping[str, Any]) -> None:
        kind = self.spec.game
        deal, first, winners = game["deal"], game["first"], game["winners"]
        closer = game.get("closer")
        decided = len(winners) == 1
        self.games += 1
        self.sole_wins += decided
        self.first_wins += winners == [first]
        self.tied += len(winners) > 1
        self.capped += bool(game.get("capped"))
        self.length.add(deal, float(game["length"]))
        for seat, entry in enumerate(game["entries"]):
            points = _points(game, seat, kind)
            self.all_points.add(deal, points)
            if seat == first:
                self.first_points.add(deal, points)
            outcome = _outcome(game, seat)
            for tally in self._by_entry[entry]:
                tally.seat_games += 1
                tally.points.add(deal, points)
                tally.wins += outcome == "win"
                tally.ties += outcome == "tie"
                tally.decided += decided
                if seat == first:
                    tally.first_games += 1
                    tally.first_wins += outcome == "win"
                tally.closed += closer == seat

    def first_seat(self) -> dict[str, Any]:
        games = self.games
        rate = wilson_interval(self.first_wins, games)
        average = self.sole_wins / (games * self.spec.players) if games else None
        return {
            "games": games,
            "wins": self.first_wins,
            "win_rate": rate.to_json(),
            "average_win_rate": average,
            "advantage": None if rate.value is None or average is None else rate.value - average,
            "points": self.first_points.estimate().to_json(),
            "average_points": self.all_points.estimate().to_json(),
        }


def _tables(
    spec: Spec, games: Sequence[Mapping[str, Any]], rows: Sequence[Sequence[int]]
) -> _Tables:
    """The tables of ``games`` with a row per entry list of ``rows``. A run's games come in
    deal order; others (games read back or reordered) are sorted by deal first, stably."""
    try:
        tables = _Tables(spec, rows)
        for game in games:
            tables.add(game)
    except _OutOfOrder:
        tables = _Tables(spec, rows)
        for game in sorted(games, key=lambda g: g["deal"]):
            tables.add(game)
    return tables


def config_json(
    spec: Spec, requested: int, deals: int, *, planned: int | None = None
) -> dict[str, Any]:
    """What decides the numbers (``jobs`` is left out: it changes nothing).

    ``planned``: the deals the run set out to play, where Ctrl-C stopped it after
    ``deals`` (then ``interrupted`` is true and ``deals_planned`` says how many)."""
    out: dict[str, Any] = {
        "game": spec.game,
        "rules": dict(spec.rules),
        "players": spec.players,
        "bots": list(spec.bots),
        "bot_options": {k: dict(v) for k, v in spec.options.items()},
        "seed": spec.seed,
        "games_requested": requested,
        "deals": deals,
        "rotations": spec.players,
        "games": deals * spec.players,
        "unit": "hole" if spec.game == "golf" else "game",
    }
    if spec.game == "spades":
        out["max_hands"] = spec.max_hands
    if planned is not None and planned != deals:
        out["interrupted"] = True
        out["deals_planned"] = planned
    return out


def summarize(spec: Spec, games: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The summary of ``results.json``: a row per bot entry (and pooled level), length, first seat."""
    rows = [[entry] for entry in range(len(spec.bots))]
    for level in dict.fromkeys(spec.bots):
        entries = [e for e, b in enumerate(spec.bots) if b == level]
        if len(entries) > 1:
            rows.append(entries)
    tables = _tables(spec, games, rows)
    out: dict[str, Any] = {
        "method": METHOD,
        "bots": [tally.row(spec) for tally in tables.tallies],
        "length": {
            "unit": "turns per hole" if spec.game == "golf" else "hands per game",
            **tables.length.estimate().to_json(),
        },
        "first_seat": tables.first_seat(),
    }
    if spec.game == "golf":
        out["tied_holes"] = tables.tied
    else:
        out["capped_games"] = tables.capped
    return out


def points_by_level(spec: Spec, games: Sequence[Mapping[str, Any]]) -> dict[str, array[float]]:
    """Every seat-game's points per level (what scores.png shows), 8 bytes a value."""
    out: dict[str, array[float]] = {level: array("d") for level in dict.fromkeys(spec.bots)}
    for game in games:
        for seat, bot in enumerate(game["bots"]):
            out[bot].append(_points(game, seat, spec.game))
    return out


# ---- text -------------------------------------------------------------------------


def _num(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(est: Mapping[str, Any], digits: int = 1, scale: float = 1.0, sign: str = "") -> str:
    """A value and its interval, ``sign="+"`` for a difference."""
    if est["value"] is None:
        return "-"
    f = f"{sign}.{digits}f"
    text = f"{est['value'] * scale:{f}}"
    if est["low"] is None:
        return text
    return f"{text} [{est['low'] * scale:{f}}, {est['high'] * scale:{f}}]"


def _signed(value: float | None, scale: float = 100.0) -> str:
    return "-" if value is None else f"{value * scale:+.1f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            c.ljust(w) if i == 0 else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def rules_label(rules: Mapping[str, Any]) -> str:
    """``six-card`` or ``six-card (closer_rule=penalty_10)``."""
    name = str(rules.get("preset") or "custom")
    changed = rules.get("set") or {}
    if not changed:
        return name
    return f"{name} ({', '.join(f'{k}={v}' for k, v in changed.items())})"


def summary_lines(config: Mapping[str, Any], summary: Mapping[str, Any]) -> list[str]:
    """The printed report of ``greenfelt sim golf|spades``; every number is in results.json."""
    golf = config["game"] == "golf"
    unit = "holes" if golf else "games"
    n = config["players"]
    if config.get("interrupted"):
        rounded = (
            f"; interrupted after {config['deals']} of {config['deals_planned']} deals "
            f"for --games {config['games_requested']}"
        )
    elif config["games"] != config["games_requested"]:
        rounded = f"; --games {config['games_requested']} rounded up to a multiple of {n}"
    else:
        rounded = ""
    lines = [
        f"greenfelt sim {config['game']}: {rules_label(config['rules'])}, {n} players, "
        f"bots {','.join(config['bots'])}, seed {config['seed']}",
        f"{config['games']} {unit} = {config['deals']} deal{'s' if config['deals'] != 1 else ''}"
        f" x {n} rotations "
        f"(every deal played with the bots rotated one seat each time{rounded})",
        "",
    ]
    per = "hole" if golf else "hand"
    header = ["bot", "entry", unit, f"points/{per} [95% CI]", "win % [95% CI]"]
    if golf:
        header += ["tie %", "win % of decided [95% CI]", "closed %"]
    header += ["first-seat win %", "vs own"]
    rows = []
    for row in summary["bots"]:
        cells = [
            row["level"],
            "+".join(str(e) for e in row["entries"]),
            str(row["seat_games"]),
            _ci(row["points"], 2),
            _ci(row["win_rate"], 1, 100.0),
        ]
        if golf:
            cells += [
                _num(_scaled(row["tie_rate"]), 1),
                _ci(row["win_rate_decided"], 1, 100.0),
                _num(None if row["closed_rate"] is None else row["closed_rate"] * 100.0, 1),
            ]
        first = row["first_seat_win_rate"]["value"]
        cells += [
            _num(None if first is None else first * 100.0, 1),
            _signed(row["first_seat_advantage"]),
        ]
        rows.append(cells)
    lines += _table(header, rows)
    length = summary["length"]
    first = summary["first_seat"]
    lines += [
        "",
        f"round length: {_ci(length, 2)} {length['unit']}",
        f"first seat (left of the dealer): wins {_pct_ci(first['win_rate'])} of {unit} "
        f"vs {_num(_scaled(first['average_win_rate']), 1)}% for the average seat "
        f"({_signed(first['advantage'])} pp); "
        f"points/{per} {_ci(first['points'], 2)} vs {_num(first['average_points']['value'], 2)}",
    ]
    if golf:
        lines.append(f"tied holes (shared lowest score): {summary['tied_holes']}")
    elif summary["capped_games"]:
        lines.append(
            f"games stopped at --max-hands {config['max_hands']} before the target "
            f"(won on the higher total): {summary['capped_games']}"
        )
    lines.append(
        "entry = position in --bots (a+b: the level's entries pooled); 95% intervals: means "
        "Student t over deals (mirrored games averaged), win rates Wilson over games"
    )
    return lines


def _pct_ci(est: Mapping[str, Any]) -> str:
    if est["value"] is None:
        return "-"
    text = f"{est['value'] * 100.0:.1f}%"
    if est["low"] is None:
        return text
    return f"{text} [{est['low'] * 100.0:.1f}, {est['high'] * 100.0:.1f}]"


def _scaled(value: float | None) -> float | None:
    return None if value is None else value * 100.0


# ---- compare ------------------------------------------------------------------------


_PAIRED = (
    "turns_per_hole",
    "score_sd",
    "mean_abs_difference",
    "lead_changes",
    "matches_with_lead_change",
    "tied_holes",
    "first_seat_advantage",
    "points",
)
"""The measures paired deal by deal (lead changes match by match) in compare.json."""

Terms = dict[Hashable, tuple[float, float]]


def _add(terms: Terms, unit: Hashable, numerator: float, denominator: float = 1.0) -> None:
    old = terms.get(unit, (0.0, 0.0))
    terms[unit] = (old[0] + numerator, old[1] + denominator)


def _terms(
    games: Sequence[Mapping[str, Any]], players: int, match_holes: int, levels: Sequence[str]
) -> dict[str, Terms]:
    """A rule set's measures as units' (numerator, denominator): deals, and whole matches
    for lead changes. A unit's ratio is its mean (the table's intervals are over units), the
    ratio of the sums the table's value; and rule sets of one compare are dealt the same
    cards (the seed names each deal's deck), so they pair unit by unit. ``levels``' shares
    of decided holes are ``bots:LEVEL``."""
    out: dict[str, Terms] = {name: {} for name in (*_PAIRED, *(f"bots:{lv}" for lv in levels))}
    matches: dict[tuple[int, int], list[Mapping[str, Any]]] = defaultdict(list)
    for game in games:
        deal, winners = game["deal"], game["winners"]
        scores = [float(s) for s in game["scores"]]
        sole = len(winners) == 1
        _add(out["turns_per_hole"], deal, float(game["length"]))
        _add(out["score_sd"], deal, pstdev(scores))
        _add(out["mean_abs_difference"], deal, mean_abs_difference(scores))
        _add(out["points"], deal, mean(scores))
        _add(out["tied_holes"], deal, float(len(winners) > 1))
        # The first seat's win less the average seat's: first wins / G - sole wins / (G n).
        _add(out["first_seat_advantage"], deal, float(winners == [game["first"]]) - sole / players)
        for level in levels:  # wins over decided seat-games, as the table's share
            seats = [seat for seat, bot in enumerate(game["bots"]) if bot == level]
            won = float(sole and winners[0] in seats)
            _add(out[f"bots:{level}"], deal, won, float(sole) * len(seats))
        matches[(deal // match_holes, game["rotation"])].append(game)
    for unit, holes in sorted(matches.items()):
        if len(holes) == match_holes:  # only whole matches
            ordered = sorted(holes, key=lambda g: g["deal"])
            changes = lead_changes([g["scores"] for g in ordered])
            _add(out["lead_changes"], unit, float(changes))
            _add(out["matches_with_lead_change"], unit, float(changes > 0))
    return out


def _unit_means(terms: Terms) -> Estimate:
    return mean_interval([num / den for num, den in terms.values()])


def _rule_set_terms(rule_set: Mapping[str, Any]) -> dict[str, Terms]:
    measures = rule_set["measures"]
    levels = [row["level"] for row in measures.get("bots", ())]
    return _terms(rule_set["games"], measures["players"], measures["match_holes"], levels)


def compare_measures(
    spec: Spec, games: Sequence[Mapping[str, Any]], match_holes: int
) -> dict[str, Any]:
    """What makes a good game, for one rule set: length, spread, lead changes, first seat,
    and where the bots differ each level's results (does the better player win?)."""
    n = spec.players
    levels = list(dict.fromkeys(spec.bots))
    terms = _terms(games, n, match_holes, levels if len(levels) > 1 else ())
    changes = terms["lead_changes"]
    changed = sum(num for num, _ in terms["matches_with_lead_change"].values())
    by_level = [[e for e, bot in enumerate(spec.bots) if bot == level] for level in levels]
    tables = _tables(spec, games, by_level if len(levels) > 1 else ())
    ties = tables.tied
    first = tables.first_seat()
    rate, average = first["win_rate"], first["average_win_rate"]
    advantage = {  # the first seat's Wilson interval, shifted by the average seat's win rate
        key: None if rate[key] is None or average is None else rate[key] - average
        for key in ("value", "low", "high")
    }
    out = {
        "holes": len(games),
        "turns_per_hole": _unit_means(terms["turns_per_hole"]).to_json(),
        "score_sd": _unit_means(terms["score_sd"]).to_json(),
        "mean_abs_difference": _unit_means(terms["mean_abs_difference"]).to_json(),
        "match_holes": match_holes,
        "matches": len(changes),
        "lead_changes": _unit_means(changes).to_json(),
        "matches_with_lead_change": wilson_interval(int(changed), len(changes)).to_json(),
        "tied_holes": wilson_interval(ties, len(games)).to_json(),
        "first_seat_win_rate": first["win_rate"],
        "average_win_rate": first["average_win_rate"],
        "first_seat_advantage": {**advantage, "n": rate["n"]},
        "points": _unit_means(terms["points"]).to_json(),
        "players": n,
    }
    if len(levels) > 1:  # how much the better bot wins: the skill these rules reward
        out["bots"] = [tally.row(spec) for tally in tables.tallies]
    return out


def _interrupted_lines(
    config: Mapping[str, Any], rule_sets: Sequence[Mapping[str, Any]]
) -> list[str]:
    """What a compare stopped by Ctrl-C left out: deals, rule sets, or both."""
    if not config.get("interrupted"):
        return []
    compared = {entry["name"] for entry in rule_sets}
    missing = [name for name in config["rules_planned"] if name not in compared]
    parts = []
    if config["deals"] < config["deals_planned"]:
        parts.append(f"after {config['deals']} of {config['deals_planned']} deals")
    if missing:
        parts.append(f"not played: {', '.join(missing)}")
    return [f"interrupted ({'; '.join(parts)})"]


def compare_lines(config: Mapping[str, Any], rule_sets: Sequence[Mapping[str, Any]]) -> list[str]:
    """The printed report of ``greenfelt sim compare golf``; every number is in compare.json."""
    first = rule_sets[0]["measures"]
    vary = config.get("vary")
    lines = [
        f"greenfelt sim compare golf: {config['players']} players, bots "
        f"{','.join(config['bots'])}, seed {config['seed']}, {first['holes']} holes per rule set "
        f"({first['matches']} matches of {config['match_holes']} holes)"
        + (f"; {vary['preset']} by {vary['option']}" if vary else ""),
        *(f"not compared: {skipped}" for skipped in config.get("skipped", ())),
        *_interrupted_lines(config, rule_sets),
        "",
    ]
    header = [
        "rules",
        "turns/hole [95% CI]",
        "score sd",
        "|diff|",
        "lead changes/match [95% CI]",
        "matches w/ change %",
        "tie %",
        "first-seat win %",
        "adv",
        "points/hole",
    ]
    levels = [row["level"] for row in first.get("bots", ())]
    header += [f"{level} win % of decided [95% CI]" for level in levels]
    rows = []
    for entry in rule_sets:
        m = entry["measures"]
        rows.append(
            [
                entry["name"],
                _ci(m["turns_per_hole"], 1),
                _num(m["score_sd"]["value"], 2),
                _num(m["mean_abs_difference"]["value"], 2),
                _ci(m["lead_changes"], 2),
                _num(_scaled(m["matches_with_lead_change"]["value"]), 1),
                _num(_scaled(m["tied_holes"]["value"]), 1),
                _num(_scaled(m["first_seat_win_rate"]["value"]), 1),
                _signed(m["first_seat_advantage"]["value"]),
                _num(m["points"]["value"], 2),
                *(_ci(row["win_rate_decided"], 1, 100.0) for row in m.get("bots", ())),
            ]
        )
    lines += _table(header, rows)
    lines += [
        "",
        "score sd: spread of the players' scores within a hole; |diff|: mean absolute difference "
        "between two players in a hole; lead changes: the sole lead (lowest running total) "
        f"passing to another seat within a {config['match_holes']}-hole match; adv: first-seat "
        "win % minus the average seat's; 95% intervals t over deals (matches for lead changes)",
    ]
    if levels:
        lines.append(
            "LEVEL win % of decided: of the holes with a sole winner, the share a seat of that "
            "level won (a level on several seats pooled; Wilson interval): how much the rules "
            "reward the better player"
        )
    return lines + paired_lines(rule_sets) + compare_reading(rule_sets)


class _Reading(NamedTuple):
    """One line of "In short": a measure, its words for the two ends, and how to print it."""

    what: str
    key: str  # the measure in compare.json; bots:LEVEL for a level's share
    top: str
    bottom: str
    scale: float = 1.0
    value: str = "{:.2f}"  # the format of a value
    digits: int = 2  # of a difference
    unit: str = ""  # of a difference


_READINGS = (
    _Reading("turns per hole", "turns_per_hole", "longest", "shortest", value="{:.1f}"),
    _Reading("score spread in a hole", "score_sd", "widest", "narrowest"),
    _Reading("lead changes", "lead_changes", "most", "fewest"),
    _Reading("first-seat edge", "first_seat_advantage", "largest", "smallest", 100.0,
             "{:+.1f} pp", 1, " pp"),
    _Reading("points per hole", "points", "highest", "lowest"),
)  # fmt: skip
"""What "In short" reads, in order; a level's share of decided holes follows where bots differ."""


def _paired(base: dict[str, Terms], other: dict[str, Terms], levels: Sequence[str],
            confidence: float) -> dict[str, Any]:  # fmt: skip
    out: dict[str, Any] = {
        name: paired_difference(base[name], other[name], confidence).to_json() for name in _PAIRED
    }
    if levels:
        out["bots"] = [
            {"level": level, "win_rate_decided": paired_difference(
                base[f"bots:{level}"], other[f"bots:{level}"], confidence).to_json()}
            for level in levels
        ]  # fmt: skip
    return out


def compare_paired(rule_sets: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Each rule set after the first less the first, on the same deals (95% interval):
    compare.json's ``paired``, and the second table."""
    if len(rule_sets) < 2:
        return []
    levels = [row["level"] for row in rule_sets[0]["measures"].get("bots", ())]
    terms = [_rule_set_terms(entry) for entry in rule_sets]
    return [
        {"against": rule_sets[0]["name"], "confidence": 0.95,
         **_paired(terms[0], other, levels, 0.95)}
        for other in terms[1:]
    ]  # fmt: skip


def paired_lines(rule_sets: Sequence[Mapping[str, Any]]) -> list[str]:
    """The second table: each rule set less the first, paired on the same deals (read from
    each later rule set's ``paired``, as :func:`compare_paired` gives it)."""
    if len(rule_sets) < 2:
        return []
    first = rule_sets[0]
    levels = [row["level"] for row in first["measures"].get("bots", ())]
    header = ["rules", "turns/hole", "score sd", "lead changes/match", "first-seat adv (pp)",
              "points/hole", *(f"{level} share (pp)" for level in levels)]  # fmt: skip
    rows = []
    for entry in rule_sets[1:]:
        paired = entry["paired"]
        rows.append(
            [
                entry["name"],
                _ci(paired["turns_per_hole"], 2, sign="+"),
                _ci(paired["score_sd"], 2, sign="+"),
                _ci(paired["lead_changes"], 2, sign="+"),
                _ci(paired["first_seat_advantage"], 1, 100.0, "+"),
                _ci(paired["points"], 2, sign="+"),
                *(_ci(row["win_rate_decided"], 1, 100.0, "+") for row in paired.get("bots", ())),
            ]
        )
    return [
        "",
        f"Paired on the same deals: each rule set less {first['name']} (95% t interval over "
        "deals, matches for lead changes"
        + ("; share: of decided holes, in points of percentage)" if levels else ")"),
        *_table(header, rows),
    ]


def compare_reading(rule_sets: Sequence[Mapping[str, Any]]) -> list[str]:
    """The table read aloud: each measure's highest and lowest rule set, and the paired
    difference between them on the same deals. A difference is called clear only where
    its interval excludes zero with 95% confidence over all the pairs of rule sets
    (Bonferroni), so that picking the two ends of many rule sets raises no false alarm."""
    if len(rule_sets) < 2:
        return []
    pairs = len(rule_sets) * (len(rule_sets) - 1) // 2
    confidence = 1.0 - 0.05 / pairs
    levels = [row["level"] for row in rule_sets[0]["measures"].get("bots", ())]
    terms = [_rule_set_terms(entry) for entry in rule_sets]
    readings = [(r, [entry["measures"][r.key] for entry in rule_sets]) for r in _READINGS]
    if levels:  # the first level's share: how much the rules reward skill
        share = _Reading(f"{levels[0]}'s share of decided holes", f"bots:{levels[0]}", "highest",
                         "lowest", 100.0, "{:.1f}%", 1, " pp")  # fmt: skip
        readings.append(
            (share, [entry["measures"]["bots"][0]["win_rate_decided"] for entry in rule_sets])
        )
    over = "95%" if pairs == 1 else f"95% over all {pairs} pairs"
    lines = ["", f"In short (clear: the paired difference on the same deals excludes 0, {over}):"]
    for reading, estimates in readings:
        found = [i for i, est in enumerate(estimates) if est["value"] is not None]
        if len(found) < 2:
            continue
        high = max(found, key=lambda i: estimates[i]["value"])
        low = min(found, key=lambda i: estimates[i]["value"])
        diff = paired_difference(terms[low][reading.key], terms[high][reading.key], confidence)
        if diff.value is None or diff.low is None or diff.high is None:
            continue  # one deal: no interval
        if diff.low <= 0.0 <= diff.high:
            lines.append(f"  {reading.what}: no clear difference")
            continue
        ends = []
        for word, end in ((reading.top, high), (reading.bottom, low)):
            shown = reading.value.format(estimates[end]["value"] * reading.scale)
            names = [rule_sets[i]["name"] for i in found
                     if reading.value.format(estimates[i]["value"] * reading.scale) == shown]  # fmt: skip
            named = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
            ends.append(f"{word} in {named} ({shown})")  # ties as shown: all named
        by = [f"{x * reading.scale:.{reading.digits}f}" for x in (diff.value, diff.low, diff.high)]
        lines.append(
            f"  {reading.what}: {ends[0]}, {ends[1]}; by {by[0]}{reading.unit} [{by[1]}, {by[2]}]"
        )
    return lines


# ---- files --------------------------------------------------------------------------


def write_text(path: Path, text: str | Iterable[str]) -> None:
    """Write a file whole or not at all, from one string or from its pieces in order.

    The pieces go to a file beside it that then takes its name, so a run of millions
    of games is never held twice over as one string, and a full disk or a Ctrl-C
    leaves the file of an earlier run, not half of one. An OS failure becomes a
    one-line LabError.
    """
    part = path.with_name(path.name + ".part")
    try:
        try:
            with part.open("w", encoding="utf-8") as file:
                file.writelines([text] if isinstance(text, str) else text)
            part.replace(path)
        except BaseException:
            with suppress(OSError):
                part.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise LabError(f"cannot write {str(path)!r}: {error.strerror or error}") from None


def dumps_json(data: Any) -> str:
    """JSON people can read and diff: small flat values (a game, an interval) on one line."""
    return "".join(json_pieces(data))


def json_pieces(data: Any) -> Iterator[str]:
    """:func:`dumps_json`'s text in pieces, for :func:`write_text` to write as they come."""
    yield from _pieces(data, "")
    yield "\n"


def _flat(value: Any) -> bool:
    """A value with no object nested inside it (a game result, an interval, a list of numbers)."""
    items = value.values() if isinstance(value, Mapping) else value
    return not any(isinstance(v, Mapping) or (isinstance(v, list) and not _flat(v)) for v in items)


def _pieces(value: Any, indent: str) -> Iterator[str]:
    if isinstance(value, Mapping) and not isinstance(value, dict):
        value = dict(value)  # a game's result (runner.GameResult)
    if isinstance(value, Results):  # a run's games: a list, read one game at a time
        if not value:
            yield "[]"
            return
    elif not isinstance(value, dict | list) or not value:
        yield json.dumps(value, ensure_ascii=False)
        return
    if _flat(value):  # only then can it fit on one line: no need to write the rest twice
        compact = json.dumps(value, ensure_ascii=False)
        if len(compact) <= 240:
            yield compact
            return
    inner = indent + " "
    is_dict = isinstance(value, dict)
    pairs: Iterable[tuple[Any, Any]] = (
        value.items() if isinstance(value, dict) else enumerate(value)
    )
    yield "{\n" if is_dict else "[\n"
    for k, (key, item) in enumerate(pairs):
        if k:
            yield ",\n"
        yield f"{inner}{json.dumps(key)}: " if is_dict else inner
        yield from _pieces(item, inner)
    yield "\n" + indent + ("}" if is_dict else "]")


def results_csv(kind: str, games: Sequence[Mapping[str, Any]]) -> str:
    """One row per game per seat."""
    return "".join(results_csv_pieces(kind, games))


def results_csv_pieces(kind: str, games: Sequence[Mapping[str, Any]]) -> Iterator[str]:
    """:func:`results_csv`'s text in pieces of a thousand games, for :func:`write_text`."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    extra = "closed" if kind == "golf" else "capped"
    writer.writerow(
        ["game", "deal", "rotation", "seat", "entry", "bot", "dealer", "first", "score",
         "points", "result", "length", extra]
    )  # fmt: skip
    for count, game in enumerate(games, 1):
        for seat, bot in enumerate(game["bots"]):
            flag = game.get("closer") == seat if kind == "golf" else bool(game.get("capped"))
            writer.writerow(
                [
                    game["game"],
                    game["deal"],
                    game["rotation"],
                    seat,
                    game["entries"][seat] + 1,
                    bot,
                    game["dealer"],
                    int(seat == game["first"]),
                    game["scores"][seat],
                    repr(_points(game, seat, kind)),
                    _outcome(game, seat),
                    game["length"],
                    int(flag),
                ]
            )
        if count % 1000 == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def compare_csv(rule_sets: Sequence[Mapping[str, Any]]) -> str:
    """One row per rule set (and a column per bot level where they differ), then each
    rule set less the first, paired on the same deals, with its 95% interval (``paired``
    in compare.json; empty on the first row): a spreadsheet reads the differences and how
    sure they are without the JSON."""
    levels = [row["level"] for row in rule_sets[0]["measures"].get("bots", ())] if rule_sets else []
    paired_names = [*_PAIRED, *(f"{level}_win_rate_decided" for level in levels)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["rules", "holes", "turns_per_hole", "score_sd", "mean_abs_difference", "matches",
         "lead_changes", "matches_with_lead_change", "tied_holes", "first_seat_win_rate",
         "average_win_rate", "first_seat_advantage", "points",
         *(f"{level}_win_rate_decided" for level in levels),
         *(f"less_first_{name}{end}" for name in paired_names for end in ("", "_low", "_high"))]
    )  # fmt: skip
    for entry in rule_sets:
        m = entry["measures"]
        paired = entry.get("paired")
        differences: list[Any] = [""] * (3 * len(paired_names))
        if paired is not None:
            estimates = [paired[name] for name in _PAIRED]
            estimates += [row["win_rate_decided"] for row in paired.get("bots", ())]
            differences = [e[key] for e in estimates for key in ("value", "low", "high")]
        writer.writerow(
            [
                entry["name"],
                m["holes"],
                m["turns_per_hole"]["value"],
                m["score_sd"]["value"],
                m["mean_abs_difference"]["value"],
                m["matches"],
                m["lead_changes"]["value"],
                m["matches_with_lead_change"]["value"],
                m["tied_holes"]["value"],
                m["first_seat_win_rate"]["value"],
                m["average_win_rate"],
                m["first_seat_advantage"]["value"],
                m["points"]["value"],
                *(row["win_rate_decided"]["value"] for row in m.get("bots", ())),
                *differences,
            ]
        )
    return buffer.getvalue()
