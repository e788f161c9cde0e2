"""Buraco as the platform sees it: the :class:`~sahrat.game.Game` descriptor.

>>> GAME.name, GAME.seat_counts
('buraco', (4, 2))
>>> GAME.options_from_json({"target": 1000}, seats=2).to_json()
{'players': 2, 'target': 1000, 'sets': False, 'closed': False}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

# The bot kit's package sits above this game's engine, and this module above both:
# the kit is read from the package when it is asked for, so the package may still
# be loading (it imports the engine, which loads the registry) when this one runs.
from sahrat.bots import buraco as buraco_bots
from sahrat.cards import BURACO_DECK, CODES
from sahrat.errors import MalformedInput
from sahrat.game import BotKit, Catalogue, GameState, JSONObject, Seating, Words
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.options import CHOICES, SEAT_COUNTS, SEAT_OPTION, BuracoOptions
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.words import move_words


class Buraco:
    """The Buraco descriptor; use the module's :data:`GAME`."""

    name = "buraco"
    seat_counts = SEAT_COUNTS
    deck = BURACO_DECK

    @property
    def bots(self) -> BotKit:
        return buraco_bots.KIT

    def options_from_json(self, obj: object, seats: int | None = None) -> BuracoOptions:
        if obj is None:
            obj = {}
        if not isinstance(obj, Mapping):
            raise MalformedInput("options are a JSON object", obj)
        raw = dict(obj)
        if seats is not None:
            raw[SEAT_OPTION] = seats
        return BuracoOptions.from_json(raw)

    def catalogue(self) -> JSONObject:
        return Catalogue(
            name=self.name,
            seats=SEAT_COUNTS,
            seat_option=SEAT_OPTION,
            choices=CHOICES,
            defaults=BuracoOptions().to_json(),
        ).to_json()

    def new_game(self, options: BuracoOptions) -> BuracoState:
        return BuracoState(options)

    def seating(self, options: BuracoOptions) -> Seating:
        seats = tuple(range(options.seats))
        return Seating(seats, tuple(seat & 1 for seat in seats))

    def describe(
        self, before: GameState, seat: int, action: Any, names: Mapping[int, str]
    ) -> Words:
        said = None
        if isinstance(before, BuracoState) and isinstance(action, BuracoAction):
            said = move_words(before, seat, action)
        return Words.of(names.get(seat, str(seat)), said)

    def full_view(self, state: GameState) -> JSONObject:
        assert isinstance(state, BuracoState)
        view = state.view(state.seats[0]).to_json()
        view["hands"] = {str(s): [CODES[c] for c in state.hand(s)] for s in state.seats}
        del view["hand"], view["seat"]
        return view


GAME = Buraco()
