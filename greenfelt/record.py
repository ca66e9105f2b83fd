"""Game records (format ``greenfelt-record/1``): write, read, replay.

A record is one JSON document: the game, its rules (a preset plus overrides),
the seats' names, and per round the dealer, the whole deck (top first), any
recorded chance events, and the actions as ``[seat, text]``. Replaying applies
every action through the engine's checked path, so a record that replays is a
game that was legal; a record may stop anywhere (an unfinished match is valid).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from greenfelt.cards import Card, parse_card
from greenfelt.errors import GreenfeltError, IllegalAction, NotationError, RecordError, RulesError

__all__ = ["FORMAT", "Replay", "dumps", "load_record", "match_record", "register", "replay"]

FORMAT = "greenfelt-record/1"


@dataclass(frozen=True)
class _Game:
    """How records reach one game's engine."""

    rules_from_json: Callable[[Any], Any]
    rules_to_json: Callable[[Any], dict[str, Any]]
    new_match: Callable[[Any, list[str], int], Any]
    chance_keys: tuple[str, ...] = ()


def _games() -> dict[str, _Game]:
    from greenfelt import golf, spades

    return {
        "golf": _Game(
            golf.rules_from_json,
            golf.rules_to_json,
            golf.GolfMatch,
            chance_keys=("reshuffles", "shuffles"),
        ),
        "spades": _Game(
            spades.rules_from_json,
            spades.rules_to_json,
            spades.SpadesMatch,
        ),
    }


@dataclass
class Replay:
    """The outcome of replaying a record: the match as it stands after the last action."""

    game: str
    match: Any
    rounds_completed: int

    @property
    def totals(self) -> list[int]:
        return list(self.match.totals)


def load_record(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """Read a record from a path, JSON text or parsed data, checking its structure."""
    if isinstance(source, Mapping):
        data: Any = dict(source)
    else:
        text = str(source)
        if isinstance(source, Path) or not text.lstrip().startswith("{"):
            path = Path(source)
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise RecordError(f"cannot read record {str(path)!r}: {error}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(
                f"record is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
            ) from None
    _check_structure(data)
    return data  # type: ignore[no-any-return]


def _check_structure(data: Any) -> None:
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object with format, game, rules, seats, rounds")
    if data.get("format") != FORMAT:
        raise RecordError(f"record format is {data.get('format')!r}; expected {FORMAT!r}")
    games = _games()
    if data.get("game") not in games:
        raise RecordError(f"record game {data.get('game')!r} is not one of {', '.join(games)}")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RecordError("record seats must be a list of names")
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise RecordError("record rounds must be a list")
    for r, rnd in enumerate(rounds, start=1):
        where = f"round {r} (rounds[{r - 1}])"
        if not isinstance(rnd, dict):
            raise RecordError(f"{where} is not an object")
        if not isinstance(rnd.get("dealer"), int) or isinstance(rnd.get("dealer"), bool):
            raise RecordError(f"{where}: dealer must be a seat number")
        if not isinstance(rnd.get("deck"), list):
            raise RecordError(f"{where}: deck must be a list of cards, top first")
        actions = rnd.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError(f"{where}: actions must be a list of [seat, action]")
        for i, item in enumerate(actions):
            ok = (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], int)
                and not isinstance(item[0], bool)
                and isinstance(item[1], str)
            )
            if not ok:
                raise RecordError(
                    f"{where}, action #{i + 1} (rounds[{r - 1}].actions[{i}]): "
                    f"expected [seat, text], got {json.dumps(item, ensure_ascii=False)}"
                )


def _cards(items: Any, where: str) -> list[Card]:
    if not isinstance(items, list) or not all(isinstance(c, str) for c in items):
        raise RecordError(f"{where}: expected a list of cards")
    try:
        return [parse_card(c) for c in items]
    except NotationError as error:
        raise RecordError(f"{where}: {error}") from None


def _permutation(items: Any, where: str) -> list[int]:
    if not isinstance(items, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in items
    ):
        raise RecordError(f"{where}: expected a list of positions")
    return list(items)


def replay(source: str | Path | Mapping[str, Any]) -> Replay:
    """Replay a record, checking every action and any recorded scores.

    Raises RecordError naming the round, the action's index and why.
    """
    data = load_record(source)
    game = _games()[data["game"]]
    try:
        rules = game.rules_from_json(data.get("rules", {}))
    except (RulesError, NotationError) as error:
        raise RecordError(f"record rules: {error}") from None
    rounds = data.get("rounds", [])
    first_dealer = rounds[0]["dealer"] if rounds else 0
    try:
        match = game.new_match(rules, list(data["seats"]), first_dealer)
    except GreenfeltError as error:
        raise RecordError(f"record seats: {error}") from None
    completed = 0
    for r, rnd in enumerate(rounds):
        where = f"round {r + 1} (rounds[{r}])"
        if match.current is not None:
            raise RecordError(f"{where}: the previous round is not finished")
        deck = _cards(rnd["deck"], f"{where} deck")
        chance: dict[str, Any] = {}
        for key in game.chance_keys:
            if key in rnd:
                if not isinstance(rnd[key], list):
                    raise RecordError(f"{where}: {key} must be a list of card lists")
                chance[key] = [
                    _permutation(order, f"{where} {key}[{k}]")
                    if key == "shuffles"
                    else _cards(order, f"{where} {key}[{k}]")
                    for k, order in enumerate(rnd[key])
                ]
        seating = list(match.next_seating()) if hasattr(match, "next_seating") else None
        if "seats" in rnd and rnd["seats"] != seating:
            raise RecordError(f"{where}: seats {rnd['seats']} do not play this round; {seating} do")
        try:
            match.start_round(deck, rnd["dealer"], **chance)
        except (IllegalAction, RulesError, NotationError, RecordError) as error:
            raise RecordError(f"{where}: {error}") from None
        for i, (seat, text) in enumerate(rnd.get("actions", [])):
            label = f"{where}, action #{i + 1} (actions[{i}] = [{seat}, {json.dumps(text, ensure_ascii=False)}])"
            if match.current is None:
                raise RecordError(f"{label}: the round is already over")
            try:
                match.apply(text, seat)
            except GreenfeltError as error:
                raise RecordError(f"{label}: {error}") from None
        if match.rounds[-1].is_over:
            completed += 1
            _check_scores(rnd, match, where)
    return Replay(data["game"], match, completed)


def _check_scores(rnd: Mapping[str, Any], match: Any, where: str) -> None:
    """Records written by greenfelt carry each round's scores; they must agree."""
    if "scores" not in rnd:
        return
    scores = match.rounds[-1].scores
    if list(rnd["scores"]) != list(scores):
        raise RecordError(
            f"{where}: the record says the scores were {rnd['scores']}, "
            f"but replaying gives {list(scores)}"
        )


def match_record(game: str, match: Any) -> dict[str, Any]:
    """A match (Golf or Spades) as a record; finished rounds carry their scores."""
    spec = _games()[game]
    rounds = []
    for index, rnd in enumerate(match.rounds):
        entry = match.round_record(index)
        if rnd.is_over:
            entry["scores"] = list(rnd.scores)
        rounds.append(entry)
    return {
        "format": FORMAT,
        "game": game,
        "rules": spec.rules_to_json(match.rules),
        "seats": list(match.names),
        "rounds": rounds,
    }


def dumps(record: Mapping[str, Any]) -> str:
    """A record as JSON text people can read and diff: one line per round's field."""

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))

    head = [f"  {json.dumps(k)}: {compact(v)}" for k, v in record.items() if k != "rounds"]
    rounds = []
    for rnd in record.get("rounds", []):
        fields = [f"{json.dumps(k)}: {compact(v)}" for k, v in rnd.items()]
        rounds.append("    {" + ",\n     ".join(fields) + "}")
    body = ",\n".join(head)
    if "rounds" in record:
        body += ',\n  "rounds": [\n' + ",\n".join(rounds) + "\n  ]"
    return "{\n" + body + "\n}"


# ---- command line ------------------------------------------------------------


def _replay_command(args: argparse.Namespace) -> None:
    result = replay(Path(args.file))
    match = result.match
    names: Sequence[str] = match.names
    print(f"{result.game}: {', '.join(names)}")
    for index, rnd in enumerate(match.rounds):
        if rnd.is_over:
            print(f"round {index + 1}: " + " ".join(str(s) for s in rnd.scores))
        else:
            print(f"round {index + 1}: in progress ({len(rnd.actions)} actions)")
    if match.is_over:
        winners = getattr(match, "winners", [])
        if winners:
            print("winner: " + ", ".join(names[w] for w in winners))
    print(" ".join(str(t) for t in match.totals))


def register(commands: Any) -> None:
    """Add ``replay`` to the command line."""
    parser = commands.add_parser(
        "replay",
        help="replay a game record, checking every action",
        description=(
            "Replay a greenfelt record (Golf or Spades), checking every action and score. "
            "The last line is the match totals of completed rounds in seat order."
        ),
    )
    parser.add_argument("file", metavar="FILE")
    parser.set_defaults(func=_replay_command)
