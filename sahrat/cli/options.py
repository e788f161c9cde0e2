"""The table-option arguments every command that starts games shares.

``--seats N``, ``--preset NAME`` (for games with presets) and ``--option
NAME=VALUE`` (repeatable; the value is read as JSON where it parses, so
``--option target=1000 --option sets=true``), checked by the game itself.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sahrat.game import Game, GameOptions


def add_option_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, help="seats at the table (default: the game's)")
    parser.add_argument("--preset", help="a preset of the game's options (Jackaroo)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="one table option, e.g. king=sweep or target=1000 (repeatable)",
    )


def options_of(game: Game[Any], args: argparse.Namespace) -> GameOptions:
    """The options the arguments ask for; MalformedInput for any the game does not offer."""
    raw: dict[str, Any] = {}
    if args.preset is not None:
        raw["preset"] = args.preset
    for item in args.option:
        name, _, text = item.partition("=")
        try:
            raw[name] = json.loads(text)
        except json.JSONDecodeError:
            raw[name] = text
    options: GameOptions = game.options_from_json(raw, args.seats or game.seat_counts[0])
    return options
