"""Positions in the ``jackaroo.md`` §6 notation, and what the engine does with them.

Every rule test writes a position, asks the engine for its moves or for the
position after a move, and compares with what the spec says. :func:`moves` and
:func:`apply` give exactly what ``sahrat jackaroo moves``/``apply`` print (the
command line's own tests, ``test_rules_cli.py``, use :func:`cli`), without a
round trip through the command line.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections.abc import Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from sahrat.cli.main import main
from sahrat.errors import IllegalMove
from sahrat.games.jackaroo.actions import BURN, PICK, Chance
from sahrat.games.jackaroo.position import Parsed, parse_position

Hand = list[str] | int


def position(
    turn: int | None = 0,
    marbles: Mapping[int, Sequence[str]] | None = None,
    hands: Mapping[int, Hand] | None = None,
    *,
    discard: list[str] | None = None,
    preset: str | None = None,
    **options: object,
) -> dict[str, Any]:
    """A position object. Seats missing from ``marbles`` have all four marbles in
    their base, short marble lists are filled with ``b``; seats missing from
    ``hands`` hold 4 unknown cards. ``options`` are §4 overrides (``seats=2`` for a
    two-seat table); with neither ``preset`` nor options the ``options`` field is
    left out (the spec's default: ``sahrat``, four seats)."""
    opts: dict[str, object] = {}
    if preset is not None:
        opts["preset"] = preset
    opts.update(options)
    seats = (0, 2) if opts.get("seats") == 2 else (0, 1, 2, 3)
    marbles = marbles or {}
    hands = hands or {}
    pos: dict[str, Any] = {
        "turn": turn,
        "marbles": {
            str(s): [*marbles.get(s, ()), *["b"] * (4 - len(marbles.get(s, ())))] for s in seats
        },
        "hands": {str(s): hands.get(s, 4) for s in seats},
    }
    if opts:
        pos["options"] = opts
    if discard is not None:
        pos["discard"] = discard
    return pos


def cli(command: str, text: str, *extra: str) -> tuple[int, str, str]:
    """Run ``sahrat jackaroo COMMAND FILE EXTRA...`` on a position given as text;
    the exit status, standard output and standard error."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "position.json"
        path.write_text(text, encoding="utf-8")
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            status = main(["jackaroo", command, str(path), *extra])
    return status, out.getvalue(), err.getvalue()


def _parse(pos: Mapping[str, Any]) -> Parsed:
    # Through JSON text, as the command reads it: the result shares nothing with ``pos``.
    return parse_position(json.loads(json.dumps(pos)))


def moves(pos: Mapping[str, Any]) -> list[str]:
    """The legal moves of ``pos`` as ``sahrat jackaroo moves`` prints them: sorted."""
    return sorted(str(move) for move in _parse(pos).state.legal_moves())


def apply(pos: Mapping[str, Any], move: str) -> dict[str, Any]:
    """The position after ``move``, as ``sahrat jackaroo apply`` prints it.

    As there, a T's burn takes the first card of the next seat's hand, which the
    position must list.
    """
    parsed = _parse(pos)
    state = parsed.state
    played = state.move_from_text(move)
    if played.kind == BURN:
        victim = state.rules.next_seat[state.turn]
        if victim not in parsed.shown:
            raise IllegalMove(f"{move}: the position must list seat {victim}'s hand", played)
    state.apply_action(played)
    if played.kind == BURN:
        state.apply_action(Chance(PICK, 0))
    result: dict[str, Any] = json.loads(json.dumps(parsed.to_json(), ensure_ascii=False))
    return result


def board(pos: Mapping[str, Any]) -> dict[str, list[str]]:
    """The marble lists of a position (as ``apply`` writes them: sorted)."""
    return {seat: list(where) for seat, where in pos["marbles"].items()}
