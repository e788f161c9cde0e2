"""``sahrat jackaroo moves`` and ``sahrat jackaroo apply`` (``jackaroo.md`` §6)."""

from __future__ import annotations

import argparse
import json

from sahrat.cli.json_input import read_json
from sahrat.errors import IllegalMove
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
    return parse_position(read_json(path, "position", MAX_POSITION_BYTES))


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
