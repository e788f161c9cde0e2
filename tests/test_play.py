"""``sahrat play``: bots play one whole game of either kind, printed; its record verifies."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sahrat.cli.main import main
from sahrat.records import STEPS, verify

#: Short Buraco matches keep the tests fast; Jackaroo games are short anyway.
FAST = {"jackaroo": [], "buraco": ["--option", "target=1000"]}

MOVE_LINE = re.compile(r"^\s*(\d+)\. ([AB])  (.+)  \[(.+)\]$")


def play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str, seats: int, seed: int
) -> tuple[str, dict[str, Any]]:
    """Play one game with a record; its printed output and its record."""
    path = tmp_path / f"{game}-{seats}-{seed}.json"
    argv = ["play", "--game", game, "--seats", str(seats), "--seed", str(seed)]
    status = main([*argv, *FAST[game], "--record", str(path)])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return out, record


def without_times(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "log": [{k: v for k, v in e.items() if k != "time"} for e in record["log"]]}


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_play_records_a_game_that_verifies(
    game: str, seats: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, record = play(capsys, tmp_path, game, seats, 7)
    assert record["game"] == game and len(record["players"]) == seats
    assert all(player["bot"] for player in record["players"])
    checks = verify(record)
    assert len(checks) == STEPS and all(check.ok for check in checks), checks
    lines = out.splitlines()
    assert lines[0].startswith(f"{game.title()}: {seats} seats")
    assert lines[-1] == f"record written to {tmp_path / f'{game}-{seats}-7.json'}" + (
        f" (check it with: sahrat verify {tmp_path / f'{game}-{seats}-7.json'})"
    )
    assert lines[-2] == f"server seed {record['server_seed']} (check: sha256 = commitment)"


@pytest.mark.parametrize("game", ["jackaroo", "buraco"])
def test_play_prints_every_move_of_the_record_in_words(
    game: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, record = play(capsys, tmp_path, game, 4, 3)
    printed = [MOVE_LINE.match(line) for line in out.splitlines()]
    moves = [m for m in printed if m is not None]
    logged = [entry for entry in record["log"] if entry["seat"] is not None]
    assert [m[4] for m in moves] == [entry["action"] for entry in logged]
    assert [int(m[1]) for m in moves] == list(range(1, len(moves) + 1))
    for match, entry in zip(moves, logged, strict=True):
        # Words from the descriptor, naming the seat; the side letter of that seat.
        assert match[3].startswith(f"seat {entry['seat']} ")
        assert match[2] == "AB"[entry["seat"] % 2]
    winners = " and ".join(f"seat {s}" for s in record["result"]["winners"])
    assert f"winner: {winners} (side " in out


def test_play_shows_each_deal_and_what_a_chance_step_took(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, record = play(capsys, tmp_path, "jackaroo", 4, 11)
    lines = out.splitlines()
    shuffles = [i for i, line in enumerate(lines) if line.startswith("shuffle ")]
    assert len(shuffles) == len(record["deals"])
    first = record["deals"][0]["hands"]
    assert lines[shuffles[0] + 1 : shuffles[0] + 5] == [
        f"      seat {seat} holds {' '.join(first[str(seat)])}" for seat in range(4)
    ]
    picks = [i for i, line in enumerate(lines) if line.startswith("chance: pick ")]
    assert len(picks) == len(record["picks"]) - 1  # the first draw is the dealer
    for i in picks:
        assert re.match(r"^      seat \d loses [2-9TJQKA][SHDC]$", lines[i + 1])


def test_buraco_prints_the_match_totals(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out, record = play(capsys, tmp_path, "buraco", 2, 5)
    totals = re.search(r"^match totals after (\d+) hands: A (-?\d+), B (-?\d+)$", out, re.M)
    assert totals is not None
    a, b = int(totals[2]), int(totals[3])
    assert max(a, b) >= 1000
    assert record["result"]["winners"] == [0 if a > b else 1]


@pytest.mark.parametrize(("game", "seats"), [("jackaroo", 2), ("buraco", 4)])
def test_the_same_seed_plays_the_same_game_and_another_seed_another(
    game: str, seats: int, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first_out, first = play(capsys, tmp_path, game, seats, 21)
    again_out, again = play(capsys, tmp_path, game, seats, 21)
    _, other = play(capsys, tmp_path, game, seats, 22)
    assert without_times(again) == without_times(first)
    assert again_out == first_out
    assert other["server_seed"] != first["server_seed"]
    assert other["deals"] != first["deals"]
    assert [e["action"] for e in other["log"]] != [e["action"] for e in first["log"]]


def test_play_defaults_to_a_four_seat_jackaroo_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Jackaroo: 4 seats, preset sahrat, game jackaroo-demo-1\n")
    assert "sides: A = seat 0 and seat 2; B = seat 1 and seat 3\n" in out


def test_play_takes_a_preset_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--seed", "2", "--seats", "2", "--preset", "classic"]
    assert main([*argv, "--option", "king=sweep"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Jackaroo: 2 seats, preset classic, king sweep, game jackaroo-demo-2\n")
    assert "sides: A = seat 0; B = seat 2\n" in out


def test_buraco_options_reach_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--game", "buraco", "--seed", "4", "--option", "players=2"]
    assert main([*argv, "--option", "target=1000", "--option", "sets=true"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Buraco: 2 seats, target 1000, sets true, closed false, game ")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess"], "unknown game 'chess'"),
        (["--seats", "3"], "seats must be 2 or 4"),
        (["--game", "buraco", "--seats", "3"], "must be 2 or 4"),
        (["--option", "nonsense=1"], "unknown option 'nonsense'"),
        (["--game", "buraco", "--option", "nonsense=1"], "nonsense"),
        (["--game", "buraco", "--option", "target=5"], "target"),
        (["--game", "buraco", "--preset", "classic"], "preset"),
        (["--preset", "nonsense"], "unknown preset"),
        (["--option", "king"], "NAME=VALUE"),
    ],
)
def test_bad_input_is_a_one_line_error(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    record = tmp_path / "never.json"
    status = main(["play", "--seed", "1", *argv, "--record", str(record)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("sahrat: ") and err.count("\n") == 1 and message in err
    assert not record.exists()


def test_a_record_path_that_cannot_be_written_is_refused_before_the_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(["play", "--seed", "1", "--record", str(tmp_path / "no" / "such.json")])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith("sahrat: cannot write ") and err.count("\n") == 1


def test_the_command_exits_2_without_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sahrat.cli.main", "play", "--game", "chess"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "sahrat: unknown game 'chess': jackaroo or buraco\n"
