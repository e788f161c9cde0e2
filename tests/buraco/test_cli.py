"""``sahrat buraco meld | score | demo`` (buraco.md §8) and ``sahrat bench buraco``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from sahrat.cli import bench as bench_cli
from sahrat.cli import main as cli
from sahrat.games.buraco import BuracoOptions, BuracoState


@pytest.fixture(autouse=True)
def buraco_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the Buraco commands on their own, whatever else the tree holds."""
    monkeypatch.setattr(cli, "COMMAND_MODULES", ("buraco", "bench"))
    monkeypatch.setattr(bench_cli, "BENCHES", ("buraco",))


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = cli.main(argv)
    out, err = capsys.readouterr()
    return status, out, err


# -- meld ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (
            ["5C", "6C", "JK", "8C"],
            {"valid": True, "kind": "sequence", "canasta": None, "points": 70},
        ),
        (
            ["AC", "2C", "3C", "4C", "5C", "6C", "7C"],
            {"valid": True, "kind": "sequence", "canasta": "clean", "points": 50},
        ),
        (
            ["5H", "6H", "7H", "8H", "9H", "TH", "JK"],
            {"valid": True, "kind": "sequence", "canasta": "dirty", "points": 95},
        ),
        (
            ["KC", "AC", "2C"],
            {"valid": True, "kind": "sequence", "canasta": None, "points": 35},
        ),
        (
            ["KC", "AC", "2C", "3C"],
            {"valid": False, "kind": None, "canasta": None, "points": 40},
        ),
        (
            ["QS", "QH", "QD"],
            {"valid": False, "kind": None, "canasta": None, "points": 30},
        ),
        (
            ["--sets", "QS", "QH", "QD"],
            {"valid": True, "kind": "set", "canasta": None, "points": 30},
        ),
        (
            ["--sets", "2S", "2H", "2D"],
            {"valid": False, "kind": None, "canasta": None, "points": 30},
        ),
        (
            ["5C", "JK", "JK"],
            {"valid": False, "kind": None, "canasta": None, "points": 105},
        ),
    ],
)
def test_meld_prints_validity_kind_canasta_and_points(
    argv: list[str], expected: dict[str, object], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["buraco", "meld", *argv], capsys)
    assert status == 0 and err == ""
    assert json.loads(out) == expected
    assert list(json.loads(out)) == ["valid", "kind", "canasta", "points"]
    assert out.count("\n") == 1


def test_meld_output_is_exactly_one_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["buraco", "meld", "5C", "6C", "7C"], capsys)
    assert out == '{"valid": true, "kind": "sequence", "canasta": null, "points": 15}\n'


def test_meld_with_a_malformed_card_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(["buraco", "meld", "5C", "6X", "7C"], capsys)
    assert status == 2 and out == ""
    assert err.startswith("sahrat: ") and err.count("\n") == 1 and "6X" in err


@pytest.mark.parametrize(
    "cards",
    [
        ["", "5C", "6C"],
        ["5C", "6C", "7C", ""],
        ["5C", " ", "6C", "7C"],
        ["5C", "\t", "6C", "7C"],
        ["--sets", "QS", "", "QH", "QD"],
        [""],
    ],
)
def test_meld_with_an_empty_argument_exits_2(
    cards: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """buraco.md §8: an empty argument is a malformed card, never skipped."""
    status, out, err = run(["buraco", "meld", *cards], capsys)
    assert status == 2 and out == ""
    assert err.startswith("sahrat: not a card code: ") and err.count("\n") == 1


@pytest.mark.parametrize("card", ["5C 6C", " 5C", "5C ", "5c"])
def test_meld_takes_one_card_per_argument_in_its_exact_code(
    card: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["buraco", "meld", card, "7C", "8C"], capsys)
    assert status == 2 and out == ""
    assert err == f"sahrat: not a card code: {card!r}\n"


# -- score --------------------------------------------------------------------------------


def score(
    record: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record)))
    return run(["buraco", "score"], capsys)


def test_score_the_seed_example(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {
        "melds": [["5H", "6H", "7H", "8H", "9H", "TH", "JK"], ["QS", "KS", "AS"]],
        "hand": ["4D", "JK"],
        "went_out": False,
        "took_morto": True,
        "sets": False,
    }
    status, out, err = score(record, capsys, monkeypatch)
    assert status == 0 and err == ""
    assert out == (
        '{"canastas_clean": 0, "canastas_dirty": 1, "melded": 130, "hand": 55, '
        '"bonus": 100, "total": 175}\n'
    )


def test_score_going_out_with_a_clean_canasta_and_a_set(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {
        "melds": [["AC", "2C", "3C", "4C", "5C", "6C", "7C"], ["9D", "9S", "9H"]],
        "hand": [],
        "went_out": True,
        "took_morto": True,
        "sets": True,
    }
    _, out, _ = score(record, capsys, monkeypatch)
    assert json.loads(out) == {
        "canastas_clean": 1,
        "canastas_dirty": 0,
        "melded": 80,
        "hand": 0,
        "bonus": 300,
        "total": 380,
    }


def test_score_morto_not_taken(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = {"melds": [], "hand": ["KS"], "went_out": False, "took_morto": False, "sets": False}
    _, out, _ = score(record, capsys, monkeypatch)
    assert json.loads(out) == {
        "canastas_clean": 0,
        "canastas_dirty": 0,
        "melded": 0,
        "hand": 10,
        "bonus": -100,
        "total": -110,
    }


def test_score_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "side.json"
    path.write_text(json.dumps({"melds": [["5C", "6C", "7C"]], "hand": [], "took_morto": True}))
    status, out, _ = run(["buraco", "score", str(path)], capsys)
    assert status == 0 and json.loads(out)["total"] == 15


@pytest.mark.parametrize(
    "record",
    [
        {"melds": [["5C", "6C", "8C"]], "hand": []},
        {"melds": [["QS", "QH", "QD"]], "hand": [], "sets": False},
        {"melds": [["5C", "6C", "ZZ"]], "hand": []},
        {"melds": [], "hand": ["1S"]},
        {"melds": "5C 6C 7C", "hand": []},
        {"melds": [], "hand": [], "went_out": "yes"},
        ["not", "an", "object"],
    ],
)
def test_score_of_an_invalid_record_is_a_one_line_error(
    record: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, err = score(record, capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.startswith("sahrat: ") and err.count("\n") == 1


def test_score_of_text_that_is_not_json(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("{melds"))
    status, _, err = run(["buraco", "score", "-"], capsys)
    assert status == 2 and "not JSON" in err


def test_score_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(["buraco", "score", str(tmp_path / "none.json")], capsys)
    assert status == 2 and err.count("\n") == 1


# -- demo ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (4, 1), (4, 7)])
def test_demo_plays_one_hand_and_its_printed_actions_replay(
    players: int, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["buraco", "demo", "--seed", str(seed), "--seats", str(players)], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"Buraco demo: {players} seats")
    assert lines[1].startswith("chance: dealer ")
    assert lines[2].startswith("chance: shuffle ")
    replay = BuracoState(BuracoOptions(seats=players))
    played = [line for line in lines if line.startswith(("chance: ", "seat "))]
    for line in played:
        who, text = line.split(": ", 1)
        if who != "chance":
            assert replay.current_player() == int(who.split()[1])
        replay.apply_action(text)
    result = replay.results[-1]
    assert result is not None and len(replay.results) == 1
    totals = lines[-2].split()
    assert totals[0] == "total"
    assert [int(x) for x in totals[1:]] == [side.total for side in result.sides]
    over = next(i for i, line in enumerate(lines) if line.startswith("hand over"))
    assert lines[over - 1] == played[-1]


def test_demo_with_sets_and_a_closed_pile(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["buraco", "demo", "--seed", "2", "--sets", "--closed"], capsys)
    assert status == 0 and "hand over" in out


def test_demo_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(["buraco", "demo", "--seed", "5", "--seats", "2"], capsys)
    _, second, _ = run(["buraco", "demo", "--seed", "5", "--seats", "2"], capsys)
    assert first == second


def test_demo_still_takes_the_old_players_flag(capsys: pytest.CaptureFixture[str]) -> None:
    _, seats, _ = run(["buraco", "demo", "--seed", "5", "--seats", "2"], capsys)
    _, players, _ = run(["buraco", "demo", "--seed", "5", "--players", "2"], capsys)
    assert players == seats
    parser = cli.build_parser()
    with pytest.raises(SystemExit):
        parser.parse_args(["buraco", "demo", "--help"])
    assert "--players" not in capsys.readouterr().out


def test_demo_options_are_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    _, flags, _ = run(["buraco", "demo", "--seed", "3", "--sets", "--closed"], capsys)
    argv = ["buraco", "demo", "--seed", "3", "--option", "sets=true", "--option", "closed=true"]
    _, options, _ = run(argv, capsys)
    assert options == flags
    assert flags.startswith("Buraco demo: 4 seats, seed 3, sets on, pile closed\n")


@pytest.mark.parametrize(
    "argv", [["--seats", "3"], ["--option", "nonsense=1"], ["--option", "sets=maybe"]]
)
def test_demo_with_bad_options_is_a_one_line_error(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run(["buraco", "demo", *argv], capsys)
    assert status == 2 and out == ""
    assert err.startswith("sahrat: ") and err.count("\n") == 1


# -- bench --------------------------------------------------------------------------------


def test_bench_prints_hands_and_meld_validations_per_second(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(["bench", "buraco", "--hands", "2", "--seconds", "0.05"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 6
    assert lines[0] in ("build: compiled (mypyc)", "build: pure Python")
    assert lines[1].startswith("buraco random hands, 2 players:") and "hands/s" in lines[1]
    assert lines[2].startswith("buraco random hands, 4 players:")
    assert lines[3].startswith("buraco meld validations:") and "per second" in lines[3]
    assert lines[4].startswith("clone():") and lines[5].startswith("legal_actions():")


def test_bench_names_the_options_it_measured(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "buraco", "--hands", "1", "--seconds", "0.05", "--closed"]
    status, out, _ = run([*argv, "--option", "sets=true"], capsys)
    assert status == 0
    lines = out.splitlines()
    assert lines[1].startswith("buraco random hands, 2 players, sets=true, closed=true:")
    assert lines[2].startswith("buraco random hands, 4 players, sets=true, closed=true:")
