"""The demo and benchmark commands run end to end and print what they promise."""

from __future__ import annotations

import re

import pytest

from sahrat.cli.main import main
from sahrat.games.jackaroo import Move


def test_play_prints_a_whole_game_in_the_notation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "11"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Jackaroo: sahrat, 4 seats")
    moves = [line for line in lines if re.match(r"\s*\d+\. seat \d", line)]
    assert len(moves) > 50
    for line in moves:
        text = line.split(")", 1)[1].strip()
        assert str(Move.parse(text)) == text
    assert re.match(r"winner: seat [02] and seat [02] \(team A\)|winner: seat [13] and seat [13]",
                    lines[-2])  # fmt: skip
    seed = lines[-1].split()[2]
    assert len(seed) == 64


def test_play_with_the_same_seed_replays_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    main(["play", "--seed", "5", "--preset", "complex", "--seats", "2"])
    first = capsys.readouterr().out
    main(["play", "--seed", "5", "--preset", "complex", "--seats", "2"])
    assert capsys.readouterr().out == first


def test_bench_jackaroo_prints_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "jackaroo", "--games", "2", "--repeat", "1", "--preset", "classic"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^classic\s+2\s+[\d.]+\s+\(\d+-\d+\)\s+\d+\s+[\d.]+$", out, re.M)
    assert "clone()" in out and "legal_actions()" in out
