"""The table-option arguments every command that starts games shares.

``--seats N``, ``--preset NAME`` (for games with presets) and ``--option
NAME=VALUE`` (repeatable; the value is read as JSON where it parses, so
``--option target=1000 --option sets=true``), checked by the game itself.

>>> items = option_items(["target=1000", "sets=true", "king=sweep"])
>>> items
{'target': 1000, 'sets': True, 'king': 'sweep'}
>>> " ".join(f"{name}={option_text(value)}" for name, value in items.items())
'target=1000 sets=true king=sweep'
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Mapping
from typing import Any

from sahrat.errors import MalformedInput
from sahrat.game import Game, GameOptions


def add_option_arguments(parser: argparse.ArgumentParser, game: Game[Any] | None = None) -> None:
    """``--seats``, ``--preset`` (unless ``game`` has no presets) and ``--option``."""
    parser.add_argument("--seats", type=int, help="seats at the table (default: the game's)")
    if game is None or game.catalogue().get("presets"):
        parser.add_argument("--preset", help="a preset of the game's options (Jackaroo)")
    add_option_items_argument(parser)


def add_option_items_argument(parser: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``, repeatable, for commands with their own ``--seats``/``--preset``."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one table option, e.g. king=sweep or target=1000 (repeatable)",
    )


def option_items(items: Iterable[str]) -> dict[str, Any]:
    """``NAME=VALUE`` arguments as a JSON object; each value is JSON where it parses, else text."""
    raw: dict[str, Any] = {}
    for item in items:
        name, equals, text = item.partition("=")
        if not equals or not name.strip():
            raise MalformedInput(f"--option takes NAME=VALUE, not {item!r}", item)
        try:
            raw[name] = json.loads(text)
        except json.JSONDecodeError:
            raw[name] = text
    return raw


def options_of(
    game: Game[Any], args: argparse.Namespace, extra: Mapping[str, object] | None = None
) -> GameOptions:
    """The options the arguments ask for (``extra`` under the ``--option`` items);
    MalformedInput for any the game does not offer."""
    raw: dict[str, Any] = dict(extra or {})
    preset = getattr(args, "preset", None)
    if preset is not None:
        raw["preset"] = preset
    raw.update(option_items(args.option))
    # No --seats: the game's default, or the seat option given with --option.
    options: GameOptions = game.options_from_json(raw, args.seats)
    return options


def option_text(value: object) -> str:
    """An option's value as ``--option`` takes it: text as it is, anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value)
