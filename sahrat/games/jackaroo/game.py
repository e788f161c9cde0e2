"""Jackaroo as the platform sees it: the :class:`~sahrat.game.Game` descriptor.

>>> GAME.name, GAME.seat_counts
('jackaroo', (4, 2))
>>> options = GAME.options_from_json({"preset": "classic"}, seats=2)
>>> GAME.seating(options)
Seating(seats=(0, 2), sides=(0, 1))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The bot kit's package sits above this game's engine, and this module above both:
# the kit is read from the package when it is asked for, so the package may still
# be loading (it imports the engine, which loads the registry) when this one runs.
from sahrat.bots import jackaroo as jackaroo_bots
from sahrat.cards import JACKAROO_DECK
from sahrat.errors import MalformedInput
from sahrat.game import BotKit, Catalogue, GameState, JSONObject, Seating, Words
from sahrat.games.jackaroo.actions import Move
from sahrat.games.jackaroo.notation import to_position
from sahrat.games.jackaroo.options import CHOICES, DEFAULT_PRESET, PRESETS, Options
from sahrat.games.jackaroo.state import JackarooState, rules_for
from sahrat.games.jackaroo.words import move_words

SEAT_COUNTS = (4, 2)


class Jackaroo:
    """The Jackaroo descriptor; use the module's :data:`GAME`."""

    name = "jackaroo"
    seat_counts = SEAT_COUNTS
    deck = JACKAROO_DECK

    @property
    def bots(self) -> BotKit:
        return jackaroo_bots.KIT

    def options_from_json(self, obj: object, seats: int | None = None) -> Options:
        if obj is not None and not isinstance(obj, Mapping):
            raise MalformedInput("options are a JSON object", obj)
        raw: dict[str, Any] = {"preset": DEFAULT_PRESET, **(obj or {})}
        if seats is not None:
            raw["seats"] = seats
        return Options.from_json(raw)

    def catalogue(self) -> JSONObject:
        return Catalogue(
            name=self.name,
            seats=SEAT_COUNTS,
            seat_option="seats",
            choices=CHOICES,
            presets=PRESETS,
            default_preset=DEFAULT_PRESET,
            defaults={"preset": DEFAULT_PRESET, "seats": SEAT_COUNTS[0]},
        ).to_json()

    def new_game(self, options: Options) -> JackarooState:
        return JackarooState.new_game(options)

    def seating(self, options: Options) -> Seating:
        seats = rules_for(options).order
        return Seating(seats, tuple(i & 1 for i in range(len(seats))))

    def describe(
        self, before: GameState, seat: int, action: Any, names: Mapping[int, str]
    ) -> Words:
        said = None
        if isinstance(before, JackarooState) and isinstance(action, Move):
            said = move_words(before, seat, action, names)
        return Words.of(names.get(seat, str(seat)), said)

    def full_view(self, state: GameState) -> JSONObject:
        assert isinstance(state, JackarooState)
        return to_position(state, visible=state.seats, stock_visible=False)


GAME = Jackaroo()
