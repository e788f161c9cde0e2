"""Entry point of the ``sahrat`` command.

Each command group lives in its own module exposing ``register(subparsers)``;
a registered sub-command sets ``handler`` to a function taking the parsed
arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from sahrat.errors import SahratError

#: Modules under ``sahrat.cli`` that register commands, in the order ``--help`` lists them.
COMMAND_MODULES = (
    "serve",
    "ledger",
    "ratings",
    "play",
    "jackaroo",
    "buraco",
    "arena",
    "fairness",
    "verify",
    "bench",
)

#: Exit status for bad input: a malformed position, an illegal move, a bad card.
EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sahrat",
        description="Sahrat: Jackaroo and Buraco engines, fair shuffle, bots and tools.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        import_module(f"sahrat.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.handler(args)
    except SahratError as error:
        # One line, no traceback: the input was wrong, not the program.
        print(f"sahrat: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0
    return status


if __name__ == "__main__":
    sys.exit(main())
