"""The demo and benchmark commands run end to end and print what they promise."""

from __future__ import annotations

import re

import pytest

from sahrat.cli.main import main
from sahrat.games.jackaroo import Move


def test_play_prints_a_whole_game_in_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "11"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Jackaroo: 4 seats, preset sahrat")
    moves = [re.match(r"\s*\d+\. [AB]  seat \d .*  \[(.+)\]$", line) for line in lines]
    notation = [m[1] for m in moves if m is not None]
    assert len(notation) > 50
    for text in notation:
        assert str(Move.parse(text)) == text
    assert re.match(r"winner: seat 0 and seat 2 \(side A\)|winner: seat 1 and seat 3 \(side B\)",
                    lines[-2])  # fmt: skip
    seed = lines[-1].split()[2]
    assert len(seed) == 64


def test_play_with_the_same_seed_replays_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "--seed", "5", "--preset", "complex", "--seats", "2"])
    first = capsys.readouterr().out
    main(["play", "--seed", "5", "--preset", "complex", "--seats", "2"])
    assert capsys.readouterr().out == first


#: The first line of a benchmark: the build it measured.
BUILD_LINES = ("build: compiled (mypyc)\n", "build: pure Python\n")


def test_bench_jackaroo_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "jackaroo", "--games", "2", "--repeat", "1", "--preset", "classic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(BUILD_LINES)
    assert "\nrandom 4-seat Jackaroo games, one process, median of 1 runs\n" in out
    assert re.search(r"^classic\s+2\s+[\d.]+\s+\(\d+-\d+\)\s+\d+\s+[\d.]+$", out, re.M)
    assert "clone()" in out and "legal_actions()" in out


def test_bench_jackaroo_names_the_options_it_measured(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["bench", "jackaroo", "--games", "1", "--repeat", "1", "--seats", "2"]
    assert main([*argv, "--preset", "sahrat", "--option", "king=sweep"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1].startswith("random 2-seat Jackaroo games, king=sweep, one process")
    assert re.search(r"^sahrat\s+1\s", out, re.M)


def test_bench_jackaroo_refuses_an_unknown_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "jackaroo", "--games", "1", "--option", "nonsense=1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == "sahrat: unknown option 'nonsense'\n"


def test_bench_jackaroo_compares_with_the_pure_build_run_for_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sahrat import compiled

    argv = ["bench", "jackaroo", "--games", "1", "--repeat", "2", "--preset", "classic"]
    code = main([*argv, "--compare-pure"])
    out = capsys.readouterr().out
    if not compiled.COMPILED:
        assert code == 1 and "nothing to compare with" in out
        return
    assert code == 0
    assert re.search(r"^classic games/s\s+[\d.]+\s+[\d.]+\s+[\d.]+x\s+\(games/s\)$", out, re.M)
    assert re.search(r"^legal_actions\(\)\s+[\d.]+\s+[\d.]+\s+[\d.]+x\s+\(us\)$", out, re.M)
    assert "the median of each build's 2 runs" in out
