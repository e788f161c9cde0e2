"""What the benchmarks share: which build they measure, per-call costs, and the pure
Python build's figures from a child process (``--compare-pure``).

Every time is the CPU time of the measuring process (:func:`time.process_time`), not the
wall clock: on a machine whose cores are shared, the wall clock counts the time other
processes ran too, which differs between the compiled run and the pure one after it."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from sahrat import compiled

S = TypeVar("S")


def add_build_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--compare-pure",
        action="store_true",
        help="measure the pure Python build too, in a child process, and print the ratios",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one object")


def build_line() -> str:
    return f"build: {compiled.build_name()}"


def nothing_to_compare() -> bool:
    """Whether ``--compare-pure`` cannot run here (this process is pure Python already);
    then says so."""
    if compiled.COMPILED:
        return False
    print(f"{build_line()}: nothing to compare with (./scripts/setup compiles the engines)")
    return True


def per_call_us(states: Sequence[S], call: Callable[[S], object]) -> float:
    """Best of three passes, in microseconds per state."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for state in states:
            call(state)
        best = min(best, time.process_time() - start)
    return best / len(states) * 1e6


def pure_figures(bench: str, argv: list[str]) -> dict[str, Any]:
    """The figures of ``sahrat bench BENCH ARGV --json`` on the pure Python build."""
    env = {**os.environ, "SAHRAT_PURE_PYTHON": "1"}
    command = [sys.executable, "-m", "sahrat.cli.main", "bench", bench, *argv, "--json"]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


def ratio_line(
    what: str, compiled_value: float, pure_value: float, unit: str, ratio: float | None = None
) -> str:
    """One compared figure; for costs (``us``) the ratio is pure over compiled, so that a
    ratio above 1 always means the compiled build is faster. ``ratio``: one measured
    otherwise (the median of paired runs' ratios), instead of the two values'."""
    if ratio is None:
        ratio = pure_value / compiled_value if unit == "us" else compiled_value / pure_value
    return f"{what:<28} {compiled_value:>12.2f} {pure_value:>12.2f} {ratio:>7.2f}x  ({unit})"


def compare_header() -> str:
    return (
        f"{'compared with pure Python':<28} {'compiled':>12} {'pure':>12} {'ratio':>8}  (CPU time)"
    )
