"""Reading one JSON document from a file or standard input, for the commands."""

from __future__ import annotations

import json
import sys
from typing import Any

from sahrat.errors import MalformedInput

#: Positions, score sheets and records are small; refuse to read anything absurd.
MAX_JSON_BYTES = 16 << 20


def read_json(path: str, what: str, limit: int = MAX_JSON_BYTES) -> Any:
    """The JSON document in ``path`` (``-`` for standard input); ``what`` names it in errors."""
    try:
        if path == "-":
            text = sys.stdin.read(limit + 1)
        else:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(limit + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedInput(f"cannot read {path}: {error}", path) from None
    if len(text) > limit:
        raise MalformedInput(f"{what} is larger than {limit >> 20} MiB", path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedInput(f"{what} is not JSON: {error}", text) from None
