"""``greenfelt sim``: bots play many mirrored games; tables, JSON/CSV, plots, records.

``sim golf`` and ``sim spades`` measure bots; ``sim compare golf`` measures rule
sets. Bad input raises a GreenfeltError subclass (exit status 2, one line).
Only the standard library is imported here: tqdm and matplotlib load when a
simulation runs, so ``greenfelt score`` never imports them.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenfelt.errors import GreenfeltError, RulesError
from greenfelt.lab import LabError

__all__ = [
    "Variant",
    "parse_bot_options",
    "parse_bots",
    "parse_variant",
    "parse_vary",
    "register",
]

_FLAGS = """\
flags (sim golf / sim spades):
  --rules PRESET            rule preset (golf: six-card; spades: two-player)
  --set OPTION=VALUE        change a rule option, repeatable (see `greenfelt rules golf PRESET`)
  --players N               golf only: seats at the table (default: one per --bots level, or 2)
  --bots L1,L2,...          bot level per seat: random, easy, greedy, expert (one level = every seat)
  --games N                 games to play, mirrors included, rounded up to a multiple of the
                            players (golf: a game is one hole; spades: a whole game to the target)
  --seed N                  the same seed gives the same numbers, whatever --jobs is (default 1;
                            a time budget such as expert:time_ms depends on the machine's speed)
  --jobs N                  worker processes (default: all cores)
  --out DIR                 write results.json, results.csv and scores.png into DIR
  --records                 with --out: also write each game as DIR/records/game-NNNNNN.json,
                            a record `greenfelt replay` verifies
  --bot-option L:NAME=VALUE option for every bot of level L, repeatable (e.g. expert:time_ms=100)
  --max-hands N             spades only: stop a game that has not reached the target (default 200)
  --quiet                   no progress bar (it is off anyway when stderr is not a terminal)
"""

_HOW = """\
How it plays: every deal (a seeded deck) is played once per seat rotation, each bot
moving on one seat each time (2 players: each deal twice, seats swapped), so the
luck of the cards cancels. The table has one row per bot entry (its position in
--bots) and a pooled row for a level that fills several entries. 95% intervals:
means by Student t over deals, win rates by Wilson over games. A Golf hole is won by the strictly lowest score
(a shared lowest is a tie); "win % of decided" leaves ties out. First seat = the seat
left of the dealer. Ctrl-C stops a run and reports the whole deals played before it
(the games a shorter run of the same seed plays), with exit status 130.
"""

_EXAMPLES = """\
examples:
  greenfelt sim golf --rules six-card --players 3 --bots expert,greedy,greedy --games 2000 --seed 7
  greenfelt sim golf --rules six-card --set closer_rule=penalty_10 --bots greedy,random --out lab
  greenfelt sim golf --bots expert,greedy --bot-option expert:time_ms=100 --out lab --records
  greenfelt sim spades --bots expert,greedy --games 400 --seed 7 --jobs 8
  greenfelt sim compare golf --rules six-card,nine-card,four-card --bots greedy --games 500
"""

_COMPARED = "six-card,nine-card,four-card"  # compared when neither --rules nor --variant is given

_COMPARE_FLAGS = """\
flags (sim compare golf):
  --rules P1,P2,...         rule presets to compare (default six-card,nine-card,four-card;
                            none beside --variant; with --vary, the one preset it varies)
  --variant '[NAME:] PRESET OPTION=VALUE...'
                            a preset with house rules of its own, compared as one more
                            rule set; repeatable. NAME labels it (default: its text)
  --vary OPTION[=V1,V2,...] the preset (one --rules; default six-card) once per value of
                            OPTION: every choice it has (on and off for a switch; a choice
                            the preset cannot take is skipped), or the values listed
  --set OPTION=VALUE        change an option in every rule set, repeatable (a variant's
                            own options win)
  --players N               seats at the table (default 2)
  --bots L1,L2,...          bot level per seat, the same for every rule set (default greedy)
  --games N                 holes per rule set, rounded up to whole matches: a multiple of
                            players x --match-holes (default 500)
  --match-holes H           holes in the matches that count lead changes (default 9)
  --seed N                  the same seed gives the same numbers, whatever --jobs is (default 1)
  --jobs N                  worker processes (default: all cores)
  --bot-option L:NAME=VALUE option for every bot of level L, repeatable
  --out DIR                 write compare.json, compare.csv, compare.png and (two rule
                            sets or more) paired.png into DIR
  --records                 with --out: also write each hole as a record `greenfelt replay`
                            verifies, in DIR/records/N-NAME/ (N: the rule set's place)
  --quiet                   no progress bar

Measures per rule set: turns per hole; the spread of scores within a hole (standard
deviation, and mean absolute difference between two players); lead changes per match
(consecutive deals of one seat rotation form an H-hole match with the deal passing
clockwise; a change is the sole lead, the lowest running total, passing to a different
seat); tied holes; first-seat win rate and its advantage over the average seat; mean
points per hole; where --bots mixes levels, each level's share of the decided holes (how
much the rules reward the better player). Intervals: Student t over deals (over matches
for lead changes), Wilson for shares. Every rule set is dealt the same cards (the seed
names each deal's deck), so a second table pairs them deal by deal: each rule set less
the first, with an interval that the deals' own luck no longer widens. "In short" then
names each measure's highest and lowest rule set, and the paired difference between
them where it is clear: its interval excludes 0 with 95% confidence over all the pairs
of rule sets.

examples:
  greenfelt sim compare golf --rules six-card,nine-card,four-card --players 2 --bots greedy \\
      --games 500 --seed 7 --out compare
  greenfelt sim compare golf --rules six-card --variant "penalty: six-card closer_rule=penalty_10" \\
      --variant "jokers: six-card jokers_per_deck=2" --games 2000
  greenfelt sim compare golf --rules six-card --vary closer_rule --games 2000
"""


def parse_bots(text: str, players: int | None) -> tuple[str, ...]:
    """``"expert,greedy"`` as levels per seat; one level fills every seat; raises LabError."""
    levels = [part.strip().lower() for part in text.split(",")]
    if any(not level for level in levels):
        raise LabError(f"--bots {text!r}: expected levels separated by commas, e.g. greedy,random")
    count = players if players is not None else (len(levels) if len(levels) > 1 else 2)
    if len(levels) == 1:
        return tuple(levels * count)
    if len(levels) != count:
        raise LabError(
            f"--bots lists {len(levels)} levels for {count} players: "
            "give one level per seat, or one level for every seat"
        )
    return tuple(levels)


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "on", "yes"):
        return True
    if low in ("false", "off", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_bot_options(items: Sequence[str] | None) -> dict[str, dict[str, Any]]:
    """``["expert:time_ms=100"]`` as ``{"expert": {"time_ms": 100}}`` (numbers and on/off typed)."""
    out: dict[str, dict[str, Any]] = {}
    for item in items or ():
        level, sep, rest = item.partition(":")
        name, sep2, value = rest.partition("=")
        if not sep or not sep2 or not level.strip() or not name.strip():
            raise LabError(
                f"--bot-option {item!r}: expected LEVEL:OPTION=VALUE, e.g. expert:time_ms=100"
            )
        out.setdefault(level.strip().lower(), {})[name.strip()] = _value(value.strip())
    return out


@dataclass(frozen=True)
class Variant:
    """A rule set to compare: a preset with options of its own, and the flag that asked
    for it (``--rules``, ``--vary`` or ``--variant``, for error messages)."""

    name: str
    preset: str
    options: dict[str, str]
    flag: str = "--variant"


def parse_variant(text: str) -> Variant:
    """``"penalty: six-card closer_rule=penalty_10"`` as a Variant; raises LabError.

    An optional ``NAME:`` comes first (a colon before any ``=``, so ``values=A:1`` is an
    option), then a preset, then ``OPTION=VALUE`` words; without a name the variant is
    called by its text, e.g. ``six-card closer_rule=penalty_10``.
    """
    head, sep, rest = text.partition(":")
    name = head.strip() if sep and "=" not in head else ""
    words = (rest if name else text).split()
    example = "e.g. 'penalty: six-card closer_rule=penalty_10'"
    if (sep and "=" not in head and not name) or not words:
        raise LabError(f"--variant {text!r}: expected [NAME:] PRESET OPTION=VALUE..., {example}")
    if "=" in words[0]:
        raise LabError(f"--variant {text!r}: name a preset before the options, {example}")
    options: dict[str, str] = {}
    for word in words[1:]:
        option, equals, value = word.partition("=")
        if not equals or not option or not value:
            raise LabError(f"--variant {text!r}: {word!r} is not OPTION=VALUE ({example})")
        if option in options:
            raise LabError(f"--variant {text!r} sets {option} twice")
        options[option] = value
    return Variant(name or " ".join(words), words[0], options)


def parse_vary(text: str, preset: str) -> tuple[list[Variant], bool]:
    """``--vary OPTION`` or ``OPTION=V1,V2,...``: the preset once per value, each named
    ``OPTION=VALUE``. Without values, every choice the option has (on and off for a
    switch; ``auto`` left out, as it is one of them); the flag says so, since then a
    choice the preset cannot take is skipped, not an error. Raises LabError."""
    from greenfelt.golf.rules import OPTIONS, find_preset

    option, equals, listed = (part.strip() for part in text.partition("="))
    spec = next((spec for spec in OPTIONS if spec.name == option), None)
    if spec is None:
        raise LabError(
            f"--vary {text!r}: unknown option {option!r} (see `greenfelt rules golf {preset}`)"
        )
    if equals and option == "values":
        raise LabError(
            "--vary values: a value table holds commas; compare tables with --variant, "
            "e.g. --variant 'hard: six-card values=wikihow-hard'"
        )
    if equals:
        values = [value.strip() for value in listed.split(",")]
        if len(values) < 2 or not all(values):
            raise LabError(f"--vary {text!r}: expected OPTION=V1,V2,... (two values or more)")
        if len(set(values)) != len(values):
            raise LabError(f"--vary {text!r} names a value twice")
    elif isinstance(find_preset(preset).options()[option], bool):
        values = ["off", "on"]
    elif spec.choices:
        values = [choice for choice in spec.choices if choice != "auto"]
    else:
        raise LabError(f"--vary {option}: give the values to compare, e.g. --vary {option}=V1,V2")
    varied = [Variant(f"{option}={value}", preset, {option: value}, "--vary") for value in values]
    return varied, not equals


def _positive(flag: str, value: int) -> int:
    if value < 1:
        raise LabError(f"{flag} must be at least 1, not {value}")
    return value


def _prepare_out(text: str) -> Path:
    """Create ``--out`` and prove it writable, before any game is played."""
    path = Path(text)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".greenfelt-write-check"
        probe.write_text("", encoding="utf-8")
        probe.unlink()
    except OSError as error:
        reason = error.strerror or str(error)
        raise LabError(f"--out {text}: cannot write there ({reason})") from None
    return path


_RECORD_NAME = re.compile(r"game-\d{6,}\.json")


_RULE_SET_FOLDER = re.compile(r"\d+-[a-z0-9-]*")


def _rule_set_folder(index: int, name: str) -> str:
    """``records/`` sub-folder of the ``index``-th compared rule set: ``2-closer-10``."""
    return f"{index}-" + "-".join(re.findall(r"[a-z0-9]+", name.lower()))


def _clear_rule_set_records(records: Path, after: int = 0) -> None:
    """Remove the records of rule sets numbered above ``after`` (all: an earlier compare's;
    an interrupted compare's left out), only record files and the folders they leave
    empty, so that the folders left match compare.json."""
    if not records.is_dir():
        return
    try:
        for folder in records.iterdir():
            number = folder.name.partition("-")[0]
            if folder.is_dir() and _RULE_SET_FOLDER.fullmatch(folder.name) and int(number) > after:
                for old in folder.iterdir():
                    if _RECORD_NAME.fullmatch(old.name):
                        old.unlink()
                if not any(folder.iterdir()):
                    folder.rmdir()
    except OSError as error:
        raise LabError(f"--out {records.parent}: cannot clear old records ({error})") from None


def _records_sink(folder: Path) -> Any:
    """Write each record as ``folder/game-NNNNNN.json``, after removing an earlier run's."""
    from greenfelt.lab.report import write_text

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():  # records of an earlier run would not match results.json
            if _RECORD_NAME.fullmatch(old.name):
                old.unlink()
    except OSError as error:
        raise LabError(
            f"--out: cannot write records in {folder} ({error.strerror or error})"
        ) from None

    def sink(number: int, text: str) -> None:
        write_text(folder / f"game-{number:06d}.json", text)

    return sink


def _rules_json(
    game: str, preset: str, overrides: Sequence[str] | None
) -> tuple[Any, dict[str, Any]]:
    if game == "golf":
        from greenfelt import golf
        from greenfelt.golf.cli import rules_from_args

        rules = rules_from_args(preset, overrides)
        return rules, golf.rules_to_json(rules)
    from greenfelt import spades
    from greenfelt.spades.rules import parse_settings

    srules = spades.find_preset(preset.strip())
    settings = parse_settings(overrides or [])
    if settings:
        srules = spades.with_options(srules, settings)
    return srules, spades.rules_to_json(srules)


def _jobs(value: int | None) -> int:
    from greenfelt.lab.runner import default_jobs

    return default_jobs() if value is None else _positive("--jobs", value)


def _progress(args: argparse.Namespace) -> bool:
    return not args.quiet and sys.stderr.isatty()


def _sim(args: argparse.Namespace) -> int:
    from greenfelt.lab import report
    from greenfelt.lab.runner import Interrupted, Spec, check_bots, deals_for, run

    game: str = args.sim_game
    _positive("--games", args.games)
    jobs = _jobs(args.jobs)
    rules, rules_json = _rules_json(game, args.rules, args.set)
    if game == "golf":
        players = args.players
        if players is not None:
            rules.check_players(players)
        bots = parse_bots(args.bots, players)
        rules.check_players(len(bots))
    else:
        bots = parse_bots(args.bots, 2)
        _positive("--max-hands", args.max_hands)
    if args.records and not args.out:
        raise LabError("--records needs --out DIR to write the records into")
    spec = Spec(
        game=game,
        rules=rules_json,
        players=len(bots),
        bots=bots,
        seed=args.seed,
        options=parse_bot_options(args.bot_option),
        records=bool(args.records),
        max_hands=getattr(args, "max_hands", 200),
    )
    check_bots(spec)
    out = _prepare_out(args.out) if args.out else None
    sink = _records_sink(out / "records") if out is not None and args.records else None
    deals = deals_for(args.games, spec.players)
    planned, status = deals, 0
    try:
        games: Sequence[Mapping[str, Any]] = run(
            spec, deals, jobs, progress=_progress(args), on_record=sink
        )
    except Interrupted as stop:
        if out is not None and args.records:
            _drop_records(out / "records", len(stop.games))
        if not stop.deals:
            print("greenfelt: interrupted before a deal was played out", file=sys.stderr)
            return 130
        games, deals, status = stop.games, stop.deals, 130
        print(_interrupted_line(spec, stop.deals, planned), file=sys.stderr)
    config = report.config_json(spec, args.games, deals, planned=planned)
    summary = report.summarize(spec, games)
    print("\n".join(report.summary_lines(config, summary)))
    if out is not None:
        _write_results(out, spec, config, summary, games)
    return status


def _interrupted_line(spec: Any, deals: int, planned: int) -> str:
    unit = "holes" if spec.game == "golf" else "games"
    games = deals * spec.players
    return (
        f"greenfelt: interrupted after {deals} of {planned} deals; the report covers their "
        f"{games} {unit}, the same games as --games {games} with this seed"
    )


def _drop_records(folder: Path, games: int) -> None:
    """Remove the records of games past the first ``games`` (workers ahead of the others
    wrote them), so ``records/`` holds exactly the games ``results.json`` lists."""
    for path in folder.glob("game-*.json"):
        number = path.stem.removeprefix("game-")
        if _RECORD_NAME.fullmatch(path.name) and int(number) > games:
            with contextlib.suppress(OSError):  # what it can: the report matters more
                path.unlink()


def _write_results(
    out: Path,
    spec: Any,
    config: dict[str, Any],
    summary: dict[str, Any],
    games: Sequence[Mapping[str, Any]],
) -> None:
    from greenfelt.lab import plot, report

    data = {"format": report.FORMAT, "config": config, "summary": summary, "games": games}
    report.write_text(out / "results.json", report.json_pieces(data))
    report.write_text(out / "results.csv", report.results_csv_pieces(spec.game, games))
    golf = spec.game == "golf"
    plot.plot_scores(
        report.points_by_level(spec, games),
        out / "scores.png",
        title=(
            f"{spec.game} {report.rules_label(config['rules'])}: {config['games']} "
            f"{'holes' if golf else 'games'}, {spec.players} players"
        ),
        xlabel="points in a hole" if golf else "points per hand (a game's total / its hands)",
        integer=golf,
    )
    wrote = "results.json, results.csv, scores.png"
    if spec.records:
        wrote += f" and {len(games)} records in records/"
    print(f"wrote {wrote} in {out}")


def _presets(text: str | None, others: bool) -> list[str]:
    """``--rules`` as preset names; by default three, or none beside ``--variant`` or
    ``--vary`` (``others``)."""
    if text is None:
        return [] if others else _COMPARED.split(",")
    presets = [name.strip() for name in text.split(",")]
    if any(not name for name in presets):
        raise LabError(f"--rules {text!r}: expected presets separated by commas")
    return presets


def _rule_sets(args: argparse.Namespace) -> tuple[list[Variant], bool]:
    """The rule sets ``compare`` plays, in order (presets, varied, variants), and whether
    ``--vary`` asked for every choice (then one that cannot be played is skipped)."""
    variants = [parse_variant(text) for text in args.variant or ()]
    presets = _presets(args.rules, bool(variants) or args.vary is not None)
    sets = [Variant(name, name, {}, "--rules") for name in presets]
    every = False
    if args.vary is not None:
        if len(presets) > 1:
            raise LabError(f"--vary changes one preset; --rules names {len(presets)}")
        sets, every = parse_vary(args.vary, presets[0] if presets else "six-card")
    sets += variants  # the preset itself is among the varied, so not listed again
    names = [entry.name for entry in sets]
    twice = next((name for name in names if names.count(name) > 1), None)
    if twice is not None:
        raise LabError(f"--rules, --vary and --variant name the rule set {twice!r} twice")
    return sets, every


def _specs(
    args: argparse.Namespace,
    sets: list[Variant],
    every: bool,
    bots: tuple[str, ...],
    options: dict[str, dict[str, Any]],
) -> tuple[list[tuple[str, Any]], list[str]]:
    """Each rule set's simulation (``runner.Spec``), checked before any play; and the
    choices of ``--vary`` skipped, with why."""
    from greenfelt import golf
    from greenfelt.golf.cli import parse_overrides
    from greenfelt.lab.runner import Spec, check_bots

    every_set = parse_overrides(args.set)
    specs, skipped = [], []
    for entry in sets:
        try:
            # A variant's own options win over --set, which applies to every rule set.
            rules = golf.find_preset(entry.preset).with_options({**every_set, **entry.options})
            rules.check_players(len(bots))
            rules_json = golf.rules_to_json(rules)
            spec = Spec(
                "golf", rules_json, len(bots), bots, args.seed, options, records=args.records
            )
            check_bots(spec)
        except GreenfeltError as error:
            if every and entry.flag == "--vary":  # a choice these rules or bots cannot take
                skipped.append(f"{entry.name} ({error})")
                continue
            if entry.flag == "--rules" or not isinstance(error, RulesError):
                raise
            raise RulesError(f"{entry.flag} {entry.name!r}: {error}") from None
        specs.append((entry.name, spec))
    if not specs:
        raise LabError(f"--vary {args.vary}: no choice can be played: {'; '.join(skipped)}")
    return specs, skipped


Played = tuple[str, Any, Sequence[Mapping[str, Any]], "str | None"]
"""A compared rule set played: its name, spec, games in game order, records folder."""


def _compare(args: argparse.Namespace) -> int:
    from greenfelt.lab import plot, report
    from greenfelt.lab.runner import Interrupted, run

    _positive("--games", args.games)
    _positive("--match-holes", args.match_holes)
    jobs = _jobs(args.jobs)
    sets, every = _rule_sets(args)
    bots = parse_bots(args.bots, args.players)
    players = len(bots)
    options = parse_bot_options(args.bot_option)
    specs, skipped = _specs(args, sets, every, bots, options)
    if args.records and not args.out:
        raise LabError("--records needs --out DIR to write the records into")
    out = _prepare_out(args.out) if args.out else None
    if out is not None and args.records:
        _clear_rule_set_records(out / "records")
    block = players * args.match_holes
    deals = -(-args.games // block) * args.match_holes
    planned, status = deals, 0
    played: list[Played] = []
    for index, (name, spec) in enumerate(specs, 1):
        folder = _rule_set_folder(index, name)
        sink = _records_sink(out / "records" / folder) if out is not None and args.records else None
        try:
            games: Sequence[Mapping[str, Any]] = run(
                spec,
                deals,
                jobs,
                progress=_progress(args),
                label=f"{name} ({index}/{len(specs)})",
                on_record=sink,
            )
        except Interrupted as stop:
            status = 130
            records = folder if sink is not None else None
            played, deals = _cut_short(played, (name, spec, stop, records), args.match_holes)
            where = out if out is not None and args.records else None
            _report_cut(played, deals, (name, stop.deals, len(specs)), where)
            if not played:
                return status
            break
        played.append((name, spec, games, folder if sink is not None else None))
    rule_sets = []
    for set_name, set_spec, set_games, set_records in played:
        rule_set = {
            "name": set_name,
            "rules": dict(set_spec.rules),
            "measures": report.compare_measures(set_spec, set_games, args.match_holes),
            "games": set_games,
        }
        if set_records is not None:
            rule_set["records"] = f"records/{set_records}"
        rule_sets.append(rule_set)
    paired = report.compare_paired(rule_sets)  # before the games, for whoever reads the JSON
    rule_sets[1:] = [
        {
            **{k: v for k, v in entry.items() if k != "games"},
            "paired": diff,
            "games": entry["games"],
        }
        for entry, diff in zip(rule_sets[1:], paired, strict=True)
    ]
    config = {
        "game": "golf",
        "rules": [entry["name"] for entry in rule_sets],
        "vary": None
        if args.vary is None
        else {"preset": sets[0].preset, "option": next(iter(sets[0].options))},
        "skipped": skipped,
        "variants": [
            {"name": v.name, "preset": v.preset, "set": dict(v.options)}
            for v in sets
            if v.flag == "--variant"
        ],
        "set": list(args.set or []),
        "players": players,
        "bots": list(bots),
        "bot_options": options,
        "seed": args.seed,
        "games_requested": args.games,
        "deals": deals,
        "games": deals * players,
        "match_holes": args.match_holes,
    }
    if status:
        config["interrupted"] = True
        config["deals_planned"] = planned
        config["rules_planned"] = [name for name, _ in specs]
    print("\n".join(report.compare_lines(config, rule_sets)))
    if out is not None:
        data = {
            "format": report.COMPARE_FORMAT,
            "config": config,
            "method": report.COMPARE_METHOD,
            "rule_sets": rule_sets,
        }
        report.write_text(out / "compare.json", report.json_pieces(data))
        report.write_text(out / "compare.csv", report.compare_csv(rule_sets))
        plot.plot_compare(
            rule_sets,
            out / "compare.png",
            title=(
                f"Golf rule sets compared: {players} players, bots {','.join(bots)}, "
                f"{deals * players} holes each"
            ),
        )
        written = "compare.json, compare.csv, compare.png"
        if len(rule_sets) > 1:
            first = rule_sets[0]["name"]
            plot.plot_paired(
                rule_sets,
                out / "paired.png",
                title=f"Each rule set less {first}, paired on the same {deals * players} holes",
            )
            written += ", paired.png"
        print(f"wrote {written} in {out}")
    return status


def _cut_short(
    played: list[Played], stopped: tuple[str, Any, Any, str | None], match_holes: int
) -> tuple[list[Played], int]:
    """The rule sets to report after Ctrl-C stopped one (``stopped``: its name, spec,
    :class:`~greenfelt.lab.runner.Interrupted` and folder), and their deals.

    Rule sets are compared on the same deals, so when the stopped one finished a whole
    match every set is cut to the matches it finished: the report is then the one a
    shorter run gives. Otherwise the sets finished before it are reported whole."""
    name, spec, stop, folder = stopped
    deals = stop.deals // match_holes * match_holes
    if not deals:
        return played, stop.planned
    games = deals * spec.players
    kept = [(n, s, g[:games], f) for n, s, g, f in played]
    return [*kept, (name, spec, stop.games[:games], folder)], deals


def _report_cut(
    played: list[Played], deals: int, stopped: tuple[str, int, int], out: Path | None
) -> None:
    """Say on stderr what an interrupted compare reports (``stopped``: the rule set
    Ctrl-C stopped, the deals it finished, the rule sets planned); with records, keep
    only those of the games reported, which compare.json lists."""
    name, done, sets = stopped
    games = deals * played[0][1].players if played else 0
    if not played:
        print("greenfelt: interrupted before a match was played out", file=sys.stderr)
    else:
        names = ", ".join(entry[0] for entry in played)
        print(
            f"greenfelt: interrupted in the rule set {name!r} after {done} of its deals; the "
            f"report compares {len(played)} of {sets} rule sets ({names}) on {games} holes each",
            file=sys.stderr,
        )
    if out is None:
        return
    for index, (set_name, *_rest) in enumerate(played, 1):
        _drop_records(out / "records" / _rule_set_folder(index, set_name), games)
    with contextlib.suppress(LabError):  # what it can: the report matters more
        _clear_rule_set_records(out / "records", after=len(played))  # the stopped set's


# ---- the parser ------------------------------------------------------------------


def _shared(parser: argparse.ArgumentParser, *, games: int, bots: str) -> None:
    parser.add_argument(
        "--bots",
        default=bots,
        metavar="L1,L2,...",
        help=f"bot level per seat: random, easy, greedy, expert; one level fills every seat ({bots})",
    )
    parser.add_argument(
        "--games", type=int, default=games, metavar="N", help=f"games to play ({games})"
    )
    parser.add_argument(
        "--seed", type=int, default=1, metavar="N", help="seed: same seed, same numbers (1)"
    )
    parser.add_argument(
        "--jobs", type=int, metavar="N", help="worker processes (default: all cores)"
    )
    parser.add_argument(
        "--bot-option",
        action="append",
        metavar="LEVEL:NAME=VALUE",
        help="an option for every bot of LEVEL, repeatable, e.g. expert:time_ms=100",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def register(commands: Any) -> None:
    """Add ``sim`` (golf, spades, compare golf) to the command line."""
    fmt = argparse.RawDescriptionHelpFormatter
    sim = commands.add_parser(
        "sim",
        help="bots play many mirrored games: strength tables, rule comparisons, plots",
        description=(
            "The simulation lab: bots play many games with mirrored deals and report "
            "points, win rates with 95% intervals, round length and first-seat advantage, "
            "or compare Golf rule sets.\n\n" + _HOW
        ),
        epilog=_FLAGS + "\n" + _EXAMPLES,
        formatter_class=fmt,
    )
    kinds = sim.add_subparsers(dest="sim_game", metavar="GAME")
    kinds.required = True

    golf = kinds.add_parser(
        "golf",
        help="bots play Golf holes (a game is one hole)",
        description="Bots play Golf holes with mirrored deals.\n\n" + _HOW,
        epilog=_EXAMPLES,
        formatter_class=fmt,
    )
    golf.add_argument("--rules", default="six-card", metavar="PRESET", help="preset (six-card)")
    golf.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="override a rule (repeatable)"
    )
    golf.add_argument(
        "--players", type=int, metavar="N", help="seats (default: one per --bots level, or 2)"
    )
    _shared(golf, games=1000, bots="greedy")
    golf.add_argument("--out", metavar="DIR", help="write results.json, results.csv, scores.png")
    golf.add_argument(
        "--records", action="store_true", help="with --out: write every hole as a record"
    )
    golf.set_defaults(func=_sim)

    spades = kinds.add_parser(
        "spades",
        help="bots play two-player Spades games to the target",
        description="Bots play whole two-player Spades games (S6) with mirrored deals.\n\n" + _HOW,
        epilog=_EXAMPLES,
        formatter_class=fmt,
    )
    spades.add_argument("--rules", default="two-player", metavar="PRESET", help="(two-player)")
    spades.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="override a rule, e.g. target=300"
    )
    _shared(spades, games=200, bots="greedy")
    spades.add_argument(
        "--max-hands",
        type=int,
        default=200,
        metavar="N",
        help="stop a game not at the target after N hands; the higher total wins (200)",
    )
    spades.add_argument("--out", metavar="DIR", help="write results.json, results.csv, scores.png")
    spades.add_argument(
        "--records", action="store_true", help="with --out: write every game as a record"
    )
    spades.set_defaults(func=_sim)

    compare = kinds.add_parser(
        "compare",
        help="the same bots across several Golf rule sets, side by side",
        description=(
            "Which rules make the best game? The same bots play each rule set (presets, "
            "or your house rules with --variant); a table and a plot compare them."
        ),
        epilog=_COMPARE_FLAGS,
        formatter_class=fmt,
    )
    compared = compare.add_subparsers(dest="compare_game", metavar="GAME")
    compared.required = True
    cgolf = compared.add_parser(
        "golf",
        help="compare Golf rule sets",
        description="Compare Golf rule sets with the same bots.",
        epilog=_COMPARE_FLAGS,
        formatter_class=fmt,
    )
    cgolf.add_argument(
        "--rules",
        metavar="P1,P2,...",
        help=f"presets to compare ({_COMPARED}; none beside --variant or --vary)",
    )
    cgolf.add_argument(
        "--variant",
        action="append",
        metavar="'[NAME:] PRESET OPTION=VALUE...'",
        help="a preset with house rules of its own, compared as a rule set (repeatable)",
    )
    cgolf.add_argument(
        "--vary",
        metavar="OPTION[=V1,V2,...]",
        help="the preset (--rules, one; six-card) once per value of OPTION (every choice)",
    )
    cgolf.add_argument(
        "--set", action="append", metavar="OPTION=VALUE", help="override in every rule set"
    )
    cgolf.add_argument("--players", type=int, default=None, metavar="N", help="seats (2)")
    _shared(cgolf, games=500, bots="greedy")
    cgolf.add_argument(
        "--match-holes",
        type=int,
        default=9,
        metavar="H",
        help="holes per match for lead changes (9)",
    )
    cgolf.add_argument(
        "--out", metavar="DIR", help="write compare.json, compare.csv, compare.png, paired.png"
    )
    cgolf.add_argument(
        "--records",
        action="store_true",
        help="with --out: write every hole as a record, in DIR/records/N-NAME/ by rule set",
    )
    cgolf.set_defaults(func=_compare)
