"""Positions in the ``jackaroo.md`` §6 notation, and the ``moves``/``apply`` commands.

Every rule test writes a position, asks the command line for its moves or for the
position after a move, and compares with what the spec says.
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


def moves(pos: Mapping[str, Any]) -> list[str]:
    """The lines ``sahrat jackaroo moves`` prints for ``pos``."""
    status, out, err = cli("moves", json.dumps(pos))
    assert (status, err) == (0, ""), err
    return out.splitlines()


def apply(pos: Mapping[str, Any], move: str) -> dict[str, Any]:
    """The position ``sahrat jackaroo apply`` prints after ``move``."""
    status, out, err = cli("apply", json.dumps(pos), move)
    assert (status, err) == (0, ""), err
    result: dict[str, Any] = json.loads(out)
    return result


def board(pos: Mapping[str, Any]) -> dict[str, list[str]]:
    """The marble lists of a position (as ``apply`` writes them: sorted)."""
    return {seat: list(where) for seat, where in pos["marbles"].items()}
