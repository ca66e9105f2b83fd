"""`greenfelt sim`: mirrored deals, determinism across --jobs, files, records, compare.

Everything runs through ``greenfelt.cli.main`` (the public command line) with
the fast ``random`` level, except one small test of the ``greedy`` level.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from greenfelt.bots import Bot
from greenfelt.bots.base import Observation
from greenfelt.cli import main
from greenfelt.record import load_record, replay

PNG = b"\x89PNG\r\n\x1a\n"


def sim(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["sim", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def load(folder: Path, name: str = "results.json") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((folder / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def golf3(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Three random bots, 30 holes with records, one process."""
    folder = tmp_path_factory.mktemp("golf3")
    status = main(
        [
            "sim", "golf", "--rules", "six-card", "--players", "3", "--bots", "random",
            "--games", "28", "--seed", "7", "--jobs", "1", "--out", str(folder), "--records",
            "--quiet",
        ]
    )  # fmt: skip
    assert status == 0
    return folder, ""


def test_games_round_up_to_whole_mirrors(golf3: tuple[Path, str]) -> None:
    data = load(golf3[0])
    config = data["config"]
    assert (config["games_requested"], config["deals"], config["games"]) == (28, 10, 30)
    assert len(data["games"]) == 30
    assert [g["game"] for g in data["games"]] == list(range(1, 31))


def test_every_deal_is_played_once_per_rotation(golf3: tuple[Path, str]) -> None:
    """Each deal: n games, bots rotated one seat each time, same deck and dealer."""
    folder = golf3[0]
    games = load(folder)["games"]
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for game in games:
        by_deal.setdefault(game["deal"], []).append(game)
    assert sorted(by_deal) == list(range(10))
    for deal, played in by_deal.items():
        assert [g["rotation"] for g in played] == [0, 1, 2]
        for g in played:
            r = g["rotation"]
            assert g["entries"] == [(seat - r) % 3 for seat in range(3)]
            assert g["dealer"] == (deal - 1) % 3
            assert g["first"] == deal % 3
        decks = [
            load_record(folder / "records" / f"game-{g['game']:06d}.json")["rounds"][0]["deck"]
            for g in played
        ]
        assert decks[0] == decks[1] == decks[2]
    # each entry sits in each seat once per deal
    for played in by_deal.values():
        for entry in range(3):
            assert sorted(g["entries"].index(entry) for g in played) == [0, 1, 2]


def test_records_replay_to_the_scores_of_results_json(golf3: tuple[Path, str]) -> None:
    folder = golf3[0]
    games = load(folder)["games"]
    files = sorted((folder / "records").iterdir())
    assert [f.name for f in files] == [f"game-{g['game']:06d}.json" for g in games]
    for game in games:
        again = replay(folder / "records" / f"game-{game['game']:06d}.json")
        assert again.rounds_completed == 1
        assert again.match.rounds[0].scores == game["scores"]
        assert again.match.names == [f"bot{e + 1}-random" for e in game["entries"]]


def test_replay_command_verifies_a_written_record(
    golf3: tuple[Path, str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = golf3[0]
    game = load(folder)["games"][4]
    assert main(["replay", str(folder / "records" / "game-000005.json")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == " ".join(str(s) for s in game["scores"])


def test_results_csv_matches_results_json(golf3: tuple[Path, str]) -> None:
    folder = golf3[0]
    games = load(folder)["games"]
    rows = list(csv.DictReader(io.StringIO((folder / "results.csv").read_text("utf-8"))))
    assert len(rows) == 3 * len(games)
    for row in rows:
        game = games[int(row["game"]) - 1]
        seat = int(row["seat"])
        assert int(row["deal"]) == game["deal"]
        assert int(row["rotation"]) == game["rotation"]
        assert row["bot"] == game["bots"][seat]
        assert int(row["entry"]) == game["entries"][seat] + 1
        assert int(row["score"]) == game["scores"][seat]
        assert float(row["points"]) == game["scores"][seat]
        assert int(row["length"]) == game["length"]
        assert int(row["first"]) == (seat == game["first"])
        expected = "loss"
        if seat in game["winners"]:
            expected = "win" if len(game["winners"]) == 1 else "tie"
        assert row["result"] == expected
        assert int(row["closed"]) == (game["closer"] == seat)


def test_summary_agrees_with_the_games(golf3: tuple[Path, str]) -> None:
    data = load(golf3[0])
    games, summary = data["games"], data["summary"]
    rows = summary["bots"]
    assert [r["entries"] for r in rows] == [[1], [2], [3], [1, 2, 3]]
    pooled = rows[-1]
    assert pooled["pooled"] and pooled["seat_games"] == 90
    sole = [g for g in games if len(g["winners"]) == 1]
    assert pooled["wins"] == len(sole)
    assert pooled["decided"] == 3 * len(sole)
    assert sum(r["wins"] for r in rows[:3]) == len(sole)
    all_points = [s for g in games for s in g["scores"]]
    assert pooled["points"]["value"] == pytest.approx(sum(all_points) / len(all_points))
    assert summary["length"]["value"] == pytest.approx(sum(g["length"] for g in games) / len(games))
    first = summary["first_seat"]
    assert first["wins"] == sum(1 for g in games if g["winners"] == [g["first"]])
    assert summary["tied_holes"] == len(games) - len(sole)


def test_plot_is_a_png(golf3: tuple[Path, str]) -> None:
    assert (golf3[0] / "scores.png").read_bytes().startswith(PNG)


@pytest.mark.parametrize(
    "argv",
    [
        ["golf", "--bots", "random,random", "--games", "40"],
        ["spades", "--bots", "random", "--games", "6", "--max-hands", "3"],
    ],
    ids=["golf", "spades"],
)
def test_same_seed_same_results_whatever_jobs(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from greenfelt.lab import runner

    pools: list[int] = []
    real_pool = runner._run_pool

    def counting_pool(*args: Any) -> None:
        pools.append(args[2])  # the number of worker processes
        real_pool(*args)

    monkeypatch.setattr(runner, "_run_pool", counting_pool)
    outputs = []
    for jobs in ("1", "2"):
        folder = tmp_path / f"jobs{jobs}"
        status, out, _ = sim(capsys, *argv, "--seed", "11", "--jobs", jobs, "--out", str(folder))
        assert status == 0
        outputs.append(out.replace(str(folder), "DIR"))
        assert (folder / "scores.png").read_bytes().startswith(PNG)
    one, two = tmp_path / "jobs1", tmp_path / "jobs2"
    assert (one / "results.json").read_bytes() == (two / "results.json").read_bytes()
    assert (one / "results.csv").read_bytes() == (two / "results.csv").read_bytes()
    assert outputs[0] == outputs[1]
    assert pools == [2]  # --jobs 1 played in this process, --jobs 2 in two workers
    status, _, _ = sim(capsys, *argv, "--seed", "12", "--jobs", "1", "--out", str(tmp_path / "s"))
    assert status == 0
    assert load(tmp_path / "s")["games"] != load(one)["games"]


def test_random_against_random_is_even(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An A/A test of the lab: two random entries each win about half the decided holes."""
    status, out, _ = sim(
        capsys, "golf", "--bots", "random,random", "--games", "1000", "--seed", "3",
        "--jobs", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    rows = load(tmp_path)["summary"]["bots"]
    for row in rows[:2]:
        decided = row["win_rate_decided"]
        assert decided["low"] < 0.5 < decided["high"]
        assert row["win_rate"]["low"] < 0.5
    assert rows[0]["wins"] + rows[1]["wins"] == rows[0]["decided"]
    # every printed number is in results.json
    for row in rows:
        assert f"{row['points']['value']:.2f} [{row['points']['low']:.2f}" in out
        assert f"{row['win_rate']['value'] * 100:.1f} [" in out


def test_spades_games_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Spades game is a whole game; capped games go to the higher total; records replay."""
    status, out, _ = sim(
        capsys, "spades", "--bots", "random,random", "--games", "4", "--max-hands", "2",
        "--set", "target=300", "--jobs", "1", "--out", str(tmp_path), "--records",
    )  # fmt: skip
    assert status == 0
    assert "points/hand" in out and "hands per game" in out
    data = load(tmp_path)
    assert data["config"]["rules"] == {"preset": "two-player", "set": {"target": 300}}
    for game in data["games"]:
        again = replay(tmp_path / "records" / f"game-{game['game']:06d}.json")
        assert again.totals == game["scores"]
        assert again.rounds_completed == game["length"]
        if game["capped"]:
            top = max(game["scores"])
            expected = [s for s in (0, 1) if game["scores"][s] == top]
            assert game["winners"] == (expected if len(expected) == 1 else [])
    for deal in (0, 1):  # a Spades deal is the decks of every hand, the same for both mirrors
        hands = [
            [r["deck"] for r in load_record(tmp_path / "records" / f"game-{n:06d}.json")["rounds"]]
            for n in (2 * deal + 1, 2 * deal + 2)
        ]
        assert hands[0] == hands[1]
    rows = list(csv.DictReader(io.StringIO((tmp_path / "results.csv").read_text("utf-8"))))
    for row in rows:
        game = data["games"][int(row["game"]) - 1]
        seat = int(row["seat"])
        assert float(row["points"]) == pytest.approx(game["scores"][seat] / game["length"])


def test_records_are_rewritten_not_mixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["golf", "--bots", "random", "--jobs", "1", "--out", str(tmp_path), "--records"]
    assert sim(capsys, *base, "--games", "6")[0] == 0
    assert sim(capsys, *base, "--games", "2")[0] == 0
    assert sorted(p.name for p in (tmp_path / "records").iterdir()) == [
        "game-000001.json",
        "game-000002.json",
    ]


def test_compare_two_rule_sets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = sim(
        capsys, "compare", "golf", "--rules", "six-card,four-card", "--bots", "random",
        "--games", "30", "--match-holes", "3", "--seed", "5", "--jobs", "1",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    table, paired = out[: out.index("Paired on")].splitlines(), out[out.index("Paired on") :]
    assert len([line for line in table if line.startswith(("six-card ", "four-card "))]) == 2
    assert len([line for line in paired.splitlines() if line.startswith("four-card ")]) == 1
    data = load(tmp_path, "compare.json")
    assert [r["name"] for r in data["rule_sets"]] == ["six-card", "four-card"]
    assert data["config"]["games"] == 30  # a multiple of 2 players x 3 holes
    for entry in data["rule_sets"]:
        m = entry["measures"]
        assert m["holes"] == 30 and m["matches"] == 10
        assert "bots" not in m  # one level on every seat: no skill to measure
        assert f"{m['turns_per_hole']['value']:.1f} [" in out
        assert m["score_sd"]["value"] > 0
        games = entry["games"]
        assert m["turns_per_hole"]["value"] == pytest.approx(
            sum(g["length"] for g in games) / len(games)
        )
    rows = list(csv.DictReader(io.StringIO((tmp_path / "compare.csv").read_text("utf-8"))))
    assert [r["rules"] for r in rows] == ["six-card", "four-card"]
    assert (tmp_path / "compare.png").read_bytes().startswith(PNG)


def test_compare_house_rule_variants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--variant compares a preset with house rules of its own (G6 closer penalty, G1.4
    jokers) beside the plain preset; --set reaches every rule set, a variant's own wins."""
    status, out, _ = sim(
        capsys, "compare", "golf", "--rules", "six-card", "--bots", "random",
        "--variant", "penalty: six-card closer_rule=penalty_20",
        "--variant", "six-card jokers_per_deck=2 final_turns=on",
        "--set", "final_turns=off", "--games", "40", "--match-holes", "2", "--seed", "5",
        "--jobs", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    names = ["six-card", "penalty", "six-card jokers_per_deck=2 final_turns=on"]
    assert [line.split("  ")[0] for line in out.splitlines()[3:6]] == names
    data = load(tmp_path, "compare.json")
    assert [r["name"] for r in data["rule_sets"]] == names
    assert data["config"]["variants"] == [
        {"name": "penalty", "preset": "six-card", "set": {"closer_rule": "penalty_20"}},
        {
            "name": names[2],
            "preset": "six-card",
            "set": {"jokers_per_deck": "2", "final_turns": "on"},
        },
    ]
    # Each rule set as the record form: the preset and the options that differ from it.
    assert [r["rules"] for r in data["rule_sets"]] == [
        {"preset": "six-card", "set": {"final_turns": False}},  # --set
        {"preset": "six-card", "set": {"closer_rule": "penalty_20", "final_turns": False}},
        {"preset": "six-card", "set": {"jokers_per_deck": 2}},  # its final_turns=on won
    ]
    points = [r["measures"]["points"]["value"] for r in data["rule_sets"]]
    assert points[1] != points[0]  # the same deals, scored with the closer's penalty
    rows = list(csv.DictReader(io.StringIO((tmp_path / "compare.csv").read_text("utf-8"))))
    assert [r["rules"] for r in rows] == names


def test_compare_shows_each_level_where_bots_differ(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Different levels: each one's share of decided holes (G9.2: a sole lowest score wins)."""
    status, out, _ = sim(
        capsys, "compare", "golf", "--rules", "six-card,four-card", "--bots", "greedy,random",
        "--games", "24", "--match-holes", "2", "--seed", "9", "--jobs", "1",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    assert "greedy win % of decided [95% CI]" in out and "random win % of decided" in out
    data = load(tmp_path, "compare.json")
    for entry in data["rule_sets"]:
        greedy, random_ = entry["measures"]["bots"]
        assert (greedy["level"], random_["level"]) == ("greedy", "random")
        decided = [g for g in entry["games"] if len(g["winners"]) == 1]
        won = sum(1 for g in decided if g["bots"][g["winners"][0]] == "greedy")
        assert greedy["decided"] == len(decided)
        assert greedy["win_rate_decided"]["value"] == pytest.approx(won / len(decided))
        assert random_["win_rate_decided"]["value"] == pytest.approx(1 - won / len(decided))
        assert f"{100 * won / len(decided):.1f} [" in out
    rows = list(csv.DictReader(io.StringIO((tmp_path / "compare.csv").read_text("utf-8"))))
    assert float(rows[0]["greedy_win_rate_decided"]) == pytest.approx(
        data["rule_sets"][0]["measures"]["bots"][0]["win_rate_decided"]["value"]
    )
    # Each later rule set less the first, paired on the same deals (the first row has none).
    assert rows[0]["less_first_points"] == rows[0]["less_first_greedy_win_rate_decided"] == ""
    later = data["rule_sets"][1]["paired"]
    for column, estimate in (
        ("less_first_points", later["points"]),
        ("less_first_turns_per_hole", later["turns_per_hole"]),
        ("less_first_greedy_win_rate_decided", later["bots"][0]["win_rate_decided"]),
    ):
        low, value, high = (float(rows[1][column + end]) for end in ("_low", "", "_high"))
        assert (low, value, high) == pytest.approx(
            (estimate["low"], estimate["value"], estimate["high"])
        )
        assert low <= value <= high
    assert float(rows[1]["less_first_points"]) == pytest.approx(
        float(rows[1]["points"]) - float(rows[0]["points"])
    )
    assert (tmp_path / "compare.png").read_bytes().startswith(PNG)  # with the skill panel


def test_compare_records_replay_by_rule_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--records: every compared hole is a record under its rule set's folder, with that
    rule set's rules (G6 for the variant); a later run leaves no stale folder."""
    base = ["compare", "golf", "--bots", "random", "--games", "4", "--match-holes", "1",
            "--jobs", "1", "--out", str(tmp_path), "--records", "--rules", "six-card"]  # fmt: skip
    assert sim(capsys, *base, "--variant", "closer +10: six-card closer_rule=penalty_10")[0] == 0
    data = load(tmp_path, "compare.json")
    assert [r["records"] for r in data["rule_sets"]] == [
        "records/1-six-card",
        "records/2-closer-10",
    ]
    for entry in data["rule_sets"]:
        folder = tmp_path / entry["records"]
        assert sorted(f.name for f in folder.iterdir()) == [
            f"game-{g['game']:06d}.json" for g in entry["games"]
        ]
        for game in entry["games"]:
            path = folder / f"game-{game['game']:06d}.json"
            assert load_record(path)["rules"]["set"].get("closer_rule", "none") == (
                "penalty_10" if entry["name"] == "closer +10" else "none"
            )
            assert replay(path).match.rounds[0].scores == game["scores"]
    assert sim(capsys, *base, "--variant", "jokers: six-card jokers_per_deck=2")[0] == 0
    assert sorted(f.name for f in (tmp_path / "records").iterdir()) == ["1-six-card", "2-jokers"]


def test_compare_reads_the_table_aloud_only_where_clear(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Nine-card's holes (3x3, G1.2) run longer than six-card's: clear. Two rule sets
    with the same rules (G6's default spelled out) differ in nothing."""
    base = ["compare", "golf", "--bots", "greedy", "--games", "40", "--match-holes", "2",
            "--seed", "3", "--jobs", "1"]  # fmt: skip
    status, out, _ = sim(capsys, *base, "--rules", "six-card,nine-card")
    assert status == 0
    assert "In short (clear: the paired difference on the same deals excludes 0, 95%):" in out
    longest = re.search(r"turns per hole: longest in nine-card \((\d+\.\d)\), shortest in "
                        r"six-card \((\d+\.\d)\); by \d+\.\d\d \[", out)  # fmt: skip
    assert longest is not None, out
    for name, shown in (("nine-card", longest[1]), ("six-card", longest[2])):
        assert re.search(rf"^{name}\s+{shown} \[", out, re.MULTILINE), (name, out)  # the table's
    status, out, _ = sim(
        capsys, *base, "--variant", "six-card", "--variant", "same: six-card closer_tie_counts_as_lowest=on"
    )  # fmt: skip
    assert status == 0
    reading = out[out.index("In short") :].splitlines()[1:]
    assert len(reading) == 5
    assert all(line.endswith(": no clear difference") for line in reading), reading


def test_compare_pairs_each_rule_set_with_the_first_on_the_same_deals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every rule set is dealt the same cards, so each is paired with the first deal by
    deal: the paired differences are the table's differences, with their own intervals.
    G2.2's flip after a discard changes how the same deals play; G6's default spelled out
    is the same rule set, so it differs by exactly nothing."""
    status, out, _ = sim(
        capsys, "compare", "golf", "--rules", "six-card", "--bots", "greedy,random",
        "--variant", "no flip: six-card flip_after_discard=no",
        "--variant", "same: six-card closer_tie_counts_as_lowest=on",
        "--games", "48", "--match-holes", "2", "--seed", "4", "--jobs", "1",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    data = load(tmp_path, "compare.json")
    first, *others = data["rule_sets"]
    assert "paired" not in first
    assert "delta method" in data["method"]["paired"]
    keys = ["turns_per_hole", "score_sd", "mean_abs_difference", "lead_changes",
            "matches_with_lead_change", "tied_holes", "first_seat_advantage", "points"]  # fmt: skip
    for entry in others:
        paired = entry["paired"]
        assert (paired["against"], paired["confidence"]) == ("six-card", 0.95)
        for key in keys:
            table = entry["measures"][key]["value"] - first["measures"][key]["value"]
            assert paired[key]["value"] == pytest.approx(table), key
            assert paired[key]["low"] <= paired[key]["value"] <= paired[key]["high"], key
        assert paired["turns_per_hole"]["n"] == 24  # deals
        assert paired["lead_changes"]["n"] == 24  # 12 matches of 2 holes, 2 rotations
        greedy = paired["bots"][0]
        assert greedy["level"] == "greedy"
        share = [r["measures"]["bots"][0]["win_rate_decided"]["value"] for r in (entry, first)]
        assert greedy["win_rate_decided"]["value"] == pytest.approx(share[0] - share[1])
    for key in keys:
        same = others[1]["paired"][key]
        assert (same["value"], same["low"], same["high"]) == (0.0, 0.0, 0.0), key
    assert others[0]["paired"]["turns_per_hole"]["low"] > 0  # no flip: longer holes
    text = out[out.index("Paired on the same deals: each rule set less six-card") :]
    rows = [line for line in text.splitlines() if line.startswith(("no flip ", "same "))]
    assert len(rows) == 2
    assert rows[1].split()[1:4] == ["+0.00", "[+0.00,", "+0.00]"]
    assert "greedy share (pp)" in text
    assert out.splitlines()[-1].endswith("compare.png, paired.png in " + str(tmp_path))
    assert (tmp_path / "paired.png").read_bytes().startswith(PNG)  # with the share panel


def test_compare_varies_one_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--vary OPTION: the preset once per choice (G6's closer rules; G1.2's layouts, where
    hand4 cannot keep six-card's column matches, G5.3, and is skipped with the reason)."""
    from greenfelt.golf.rules import OPTIONS

    base = ["compare", "golf", "--bots", "random", "--games", "2", "--match-holes", "1",
            "--jobs", "1", "--out", str(tmp_path)]  # fmt: skip
    assert sim(capsys, *base, "--vary", "closer_rule")[0] == 0
    data = load(tmp_path, "compare.json")
    choices = next(spec.choices for spec in OPTIONS if spec.name == "closer_rule")
    assert [r["name"] for r in data["rule_sets"]] == [f"closer_rule={c}" for c in choices]
    for entry, choice in zip(data["rule_sets"], choices, strict=True):
        own = {} if choice == "none" else {"set": {"closer_rule": choice}}  # none: six-card's
        assert entry["rules"] == {"preset": "six-card", **own}
    assert data["config"]["vary"] == {"preset": "six-card", "option": "closer_rule"}
    status, out, _ = sim(capsys, *base, "--vary", "layout")
    assert status == 0
    assert out.splitlines()[0].endswith("; six-card by layout")
    assert out.splitlines()[1].startswith("not compared: layout=hand4 (")
    data = load(tmp_path, "compare.json")
    names = [r["name"] for r in data["rule_sets"]]
    assert names == ["layout=2x2", "layout=2x3", "layout=3x3", "layout=2x4", "layout=2x5"]
    assert data["config"]["skipped"][0].startswith("layout=hand4 (")
    assert sim(capsys, *base, "--rules", "four-card", "--vary", "decks=1,2")[0] == 0
    data = load(tmp_path, "compare.json")
    assert [r["rules"] for r in data["rule_sets"]] == [
        {"preset": "four-card", "set": {"decks": 1}},
        {"preset": "four-card", "set": {"decks": 2}},
    ]


def test_compare_lead_changes_count_whole_matches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from greenfelt.lab.stats import lead_changes

    status, _, _ = sim(
        capsys, "compare", "golf", "--rules", "six-card", "--bots", "random", "--games", "8",
        "--match-holes", "4", "--jobs", "1", "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    assert not (tmp_path / "paired.png").exists()  # one rule set: nothing to pair
    entry = load(tmp_path, "compare.json")["rule_sets"][0]
    games = entry["games"]
    counts = []
    for rotation in (0, 1):
        match = [g for g in games if g["rotation"] == rotation]
        assert [g["dealer"] for g in match] == [1, 0, 1, 0]  # the deal passes clockwise
        counts.append(lead_changes([g["scores"] for g in match]))
    assert entry["measures"]["lead_changes"]["value"] == pytest.approx(sum(counts) / 2)


def test_greedy_beats_random(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, _ = sim(
        capsys, "golf", "--bots", "greedy,random", "--games", "40", "--jobs", "1",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert status == 0
    greedy, rand = load(tmp_path)["summary"]["bots"][:2]
    assert greedy["level"] == "greedy"
    assert greedy["wins"] > rand["wins"]
    assert greedy["points"]["value"] < rand["points"]["value"]


def test_a_bot_that_fails_stops_the_run_naming_the_deal_and_seat_that_replay_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A measurement must not go on past a bot's bug: one line says where to look."""
    import greenfelt.lab.runner
    from greenfelt.bots import make_bot

    calls = 0

    class FailsOnce(Bot):
        level = "greedy"

        def choose(self, obs: Observation) -> Any:
            nonlocal calls
            calls += 1
            if calls == 9:  # mid-hole, not at its first move
                raise ValueError("no move")
            return obs.legal[0]

    def bots(game: str, level: str, *args: Any, **options: Any) -> Any:
        return FailsOnce(1) if level == "greedy" else make_bot(game, level, *args, **options)

    monkeypatch.setattr(greenfelt.lab.runner, "make_bot", bots)
    status, out, err = sim(
        capsys, "golf", "--bots", "greedy,random", "--games", "40", "--seed", "3", "--jobs", "1"
    )
    assert status == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert re.fullmatch(
        r"greenfelt: error: deal \d+, rotation [01], seat [01]: the greedy bot failed "
        r"\(ValueError at .*test_lab_sim\.py:\d+\): no move",
        line,
    ), line
