"""``sahrat jackaroo moves`` and ``sahrat jackaroo apply`` (``jackaroo.md`` §6)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sahrat.errors import IllegalMove, MalformedInput
from sahrat.games.jackaroo.actions import BURN, PICK, Chance
from sahrat.games.jackaroo.position import Parsed, parse_position

#: A position is a few hundred bytes; refuse to read anything absurd.
MAX_POSITION_BYTES = 1 << 20


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    group = subparsers.add_parser("jackaroo", help="legal moves and their results for a position")
    commands = group.add_subparsers(dest="jackaroo_command", required=True, metavar="COMMAND")

    moves = commands.add_parser("moves", help="print every legal move, sorted")
    moves.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    moves.set_defaults(handler=run_moves)

    apply = commands.add_parser("apply", help="print the position after a move")
    apply.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    apply.add_argument("move", metavar="MOVE")
    apply.set_defaults(handler=run_apply)


def read_position(path: str) -> Parsed:
    """The position in ``path`` (``-`` for standard input)."""
    try:
        if path == "-":
            text = sys.stdin.read(MAX_POSITION_BYTES + 1)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(MAX_POSITION_BYTES + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedInput(f"cannot read {path}: {error}", path) from None
    if len(text) > MAX_POSITION_BYTES:
        raise MalformedInput("position is larger than 1 MiB", path)
    try:
        obj: Any = json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedInput(f"position is not JSON: {error}", text) from None
    return parse_position(obj)


def run_moves(args: argparse.Namespace) -> int:
    parsed = read_position(args.file)
    for text in sorted(str(move) for move in parsed.state.legal_moves()):
        print(text)
    return 0


def run_apply(args: argparse.Namespace) -> int:
    parsed = read_position(args.file)
    state = parsed.state
    move = state.move_from_text(args.move)
    if move.kind == BURN:
        victim = state.rules.next_seat[state.turn]
        if victim not in parsed.shown:
            raise IllegalMove(f"{args.move}: the position must list seat {victim}'s hand", move)
    state.apply_action(move)
    if move.kind == BURN:
        # A running game draws the burnt card from its stream; a position burns the first.
        state.apply_action(Chance(PICK, 0))
    print(json.dumps(parsed.to_json(), ensure_ascii=False))
    return 0
