"""The lab's results in memory and on disk: a game's result reads like the dict it is
written as, and a results file is written whole or not at all (issue 4: "a JSON/CSV of
every game result"; the brief: bad input loses nothing)."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from greenfelt.lab import LabError
from greenfelt.lab.report import (
    dumps_json,
    json_pieces,
    results_csv,
    results_csv_pieces,
    summarize,
    write_text,
)
from greenfelt.lab.runner import GolfResult, Results, SpadesResult, Spec, play_deal, run

GOLF = Spec("golf", {"preset": "six-card"}, 3, ("random", "greedy", "random"), 5)
SPADES = Spec("spades", {"preset": "two-player"}, 2, ("random", "greedy"), 5, max_hands=3)


def _values() -> dict[str, object]:
    return {
        "game": 1, "deal": 0, "rotation": 0, "dealer": 1, "first": 0, "entries": [0, 1],
        "bots": ["greedy", "random"], "scores": [11, 2], "winners": [1], "length": 19,
        "closer": 1,
    }  # fmt: skip


def test_a_result_reads_and_compares_as_its_dict() -> None:
    values = _values()
    result = GolfResult(**values)
    assert result == values and values == result
    assert dict(result) == values
    assert list(result) == list(values)  # the keys in the order results.json writes them
    assert result["scores"] == [11, 2]
    assert result.get("capped") is None and "closer" in result and "capped" not in result
    with pytest.raises(KeyError):
        result["keys"]  # a method's name is not a key
    assert json.loads(dumps_json({"games": [result]})) == {"games": [values]}


def test_a_result_is_read_only_and_whole() -> None:
    result = GolfResult(**_values())
    with pytest.raises(AttributeError, match="read-only"):
        result.length = 3  # type: ignore[misc]
    with pytest.raises(TypeError, match="has the keys"):
        GolfResult(**{k: v for k, v in _values().items() if k != "closer"})
    with pytest.raises(TypeError, match="has the keys"):
        SpadesResult(**_values())  # a hole's "closer" is not a Spades key


@pytest.mark.parametrize("spec", [GOLF, SPADES], ids=["golf", "spades"])
def test_results_travel_from_workers_unchanged(spec: Spec) -> None:
    """Workers pickle their results to the parent (``--jobs``)."""
    played = [result for result, _ in play_deal(spec, 2)]
    assert len(played) == spec.players
    for result in played:
        copy = pickle.loads(pickle.dumps(result))
        assert type(copy) is type(result) and copy == result
    assert run(spec, 3, jobs=2) == run(spec, 3, jobs=1)


def test_json_pieces_are_the_formatted_document() -> None:
    data = {"format": "x", "config": {"seed": 1, "bots": ["a", "b"]}, "games": [
        GolfResult(**_values()), GolfResult(**{**_values(), "game": 2, "closer": None})]}  # fmt: skip
    text = "".join(json_pieces(data))
    assert text == dumps_json(data) and text.endswith("}\n")
    assert json.loads(text)["games"][1]["closer"] is None
    lines = text.splitlines()
    assert sum(line.strip().startswith('{"game": ') for line in lines) == 2  # a game a line
    assert lines[0] == "{" and ' "config": {"seed": 1, "bots": ["a", "b"]},' in lines


def test_csv_pieces_are_the_whole_table() -> None:
    games = run(GOLF, 700)  # 2,100 games: two pieces of a thousand, then the rest
    pieces = list(results_csv_pieces("golf", games))
    assert len(pieces) == 3
    text = "".join(pieces)
    assert text == results_csv("golf", games)
    assert len(text.splitlines()) == 1 + 3 * len(games)  # a header, then a row a seat


def test_a_file_is_written_whole_or_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    write_text(path, "old\n")

    def failing() -> Iterator[str]:
        yield "new, half"
        raise KeyboardInterrupt  # Ctrl-C while writing

    with pytest.raises(KeyboardInterrupt):
        write_text(path, failing())
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.json"]  # no part left behind
    write_text(path, iter(["new", " whole\n"]))
    assert path.read_text(encoding="utf-8") == "new whole\n"


def test_an_unwritable_file_is_a_one_line_lab_error(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    with pytest.raises(LabError, match=r"cannot write .*gone/results.csv"):
        write_text(folder / "results.csv", iter(["a,b\n"]))
    assert not folder.exists()


@pytest.mark.parametrize("spec", [GOLF, SPADES], ids=["golf", "spades"])
def test_the_tables_do_not_depend_on_the_order_the_games_come_in(spec: Spec) -> None:
    """Deals are the unit of the intervals (each deal's games averaged first), however
    the games are listed: a run lists them in deal order, a reader of results.json may not."""
    games = run(spec, 40 if spec.game == "golf" else 6)
    mixed = sorted(games, key=lambda g: (-g["deal"], g["rotation"]))  # deals reversed
    assert summarize(spec, mixed) == summarize(spec, games)
    interleaved = sorted(games, key=lambda g: (g["rotation"], g["deal"]))  # a deal's games apart
    assert summarize(spec, interleaved) == summarize(spec, games)


class _Counted(Sequence[Mapping[str, Any]]):
    """A run's games that count how often they are read."""

    def __init__(self, games: Sequence[Mapping[str, Any]]) -> None:
        self.games, self.reads = games, 0

    def __len__(self) -> int:
        return len(self.games)

    def __getitem__(self, index: Any) -> Any:
        self.reads += 1
        return self.games[index]

    def __iter__(self) -> Iterator[Mapping[str, Any]]:
        for game in self.games:
            self.reads += 1
            yield game


def test_the_tables_read_a_runs_games_once() -> None:
    """A run's games are rebuilt from its columns each time they are read, so the tables
    (every bot's row, the pooled level, length and first seat) count them in one pass."""
    games = run(GOLF, 30)
    counted = _Counted(games)
    assert summarize(GOLF, counted) == summarize(GOLF, games)
    assert counted.reads == len(games)


@pytest.mark.parametrize("spec", [GOLF, SPADES], ids=["golf", "spades"])
def test_a_run_keeps_its_games_as_numbers_and_reads_them_back_as_played(spec: Spec) -> None:
    """``run`` returns :class:`Results`: columns of scores, lengths and closers (Spades:
    winners and capped), read back as the results the deals gave, in game order."""
    deals = 12 if spec.game == "golf" else 4
    games = run(spec, deals)
    assert isinstance(games, Results)
    played = [result for deal in range(deals) for result, _ in play_deal(spec, deal)]
    assert games == played and len(games) == len(played)
    assert list(games) == played  # every key of every game: winners, closer or capped too
    assert games[0] == played[0] and games[-1] == played[-1] and games[5] == played[5]
    assert games[1:7:2] == played[1:7:2]
    with pytest.raises(IndexError):
        games[len(played)]
    first = games[: spec.players * 3]  # a run cut short after three deals
    assert isinstance(first, Results) and first == played[: spec.players * 3]
    assert first == run(spec, 3)


def test_results_keep_only_the_next_game() -> None:
    """A run's games go in in game order (it waits for a chunk's turn); one out of turn is a bug."""
    games = Results(GOLF)
    played = [result for result, _ in play_deal(GOLF, 0)]
    games.append(played[0])
    with pytest.raises(ValueError, match="game 3 is not the next, 2"):
        games.append(played[2])
    unclosed = GolfResult(**{**dict(played[1]), "closer": None})  # a hole nobody closed
    games.append(unclosed)
    assert games[1] == unclosed and games[1]["closer"] is None
