"""``sahrat verify RECORD.json``: check a finished game's record (fairness.md §4)."""

from __future__ import annotations

import argparse

from sahrat.cli.json_input import read_json
from sahrat.errors import MalformedInput
from sahrat.records import STEPS, verify

#: Exit status of a record that fails a check (2 stays for unreadable input).
EXIT_FAILED = 1


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("verify", help="check a game record's shuffles, seeds and moves")
    parser.add_argument("record", metavar="RECORD.json")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = read_json(args.record, "record")
    if not isinstance(record, dict):
        raise MalformedInput("a record is a JSON object", args.record)
    checks = verify(record)
    for check in checks:
        print(f"step {check.step}: {'ok' if check.ok else 'FAILED'}: {check.message}")
    if len(checks) == STEPS and all(check.ok for check in checks):
        print("verified")
        return 0
    return EXIT_FAILED
