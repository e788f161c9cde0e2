"""``sahrat bench GAME``: engine throughput figures, printed (not timed tests)."""

from __future__ import annotations

import argparse
from importlib import import_module

#: Modules under ``sahrat.bench``; each has ``add_arguments(parser)`` and ``run(args) -> int``.
BENCHES: tuple[str, ...] = ("jackaroo", "buraco", "autopilot")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("bench", help="measure engine speed and print the figures")
    benches = group.add_subparsers(dest="bench", required=True, metavar="GAME")
    for name in BENCHES:
        module = import_module(f"sahrat.bench.{name}")
        parser = benches.add_parser(name, help=(module.__doc__ or "").strip().splitlines()[0])
        module.add_arguments(parser)
        parser.set_defaults(handler=module.run)
