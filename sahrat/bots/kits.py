"""What a game-agnostic bot needs to know about each game, in one place.

A :class:`GameKit` gives the search its game-specific parts (the cheap
rollout policy, the static evaluation, who plays on which side) and gives
the arena a way to start a game and the named bots. The heuristic modules
are imported on first use, so loading the kits stays cheap.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from sahrat.games.buraco import BuracoState
from sahrat.games.jackaroo import JackarooState


@dataclass(frozen=True, slots=True)
class GameKit:
    """One game's parts for bots: the modules are named, and imported on first use."""

    name: str
    #: Module holding ``evaluate``, ``rollout_choice`` and the heuristic bot class.
    heuristic_module: str
    heuristic_class: str
    #: ``side(state, seat)``: 0 or 1, the team (or player) the seat plays for.
    side: Callable[[Any, int], int]

    def module(self) -> Any:
        return import_module(self.heuristic_module)

    def evaluate(self, state: Any, seat: int) -> float:
        """How good ``state`` is for ``seat``'s side, in [-1, 1]."""
        value: float = self.module().evaluate(state, seat)
        return value

    def rollout(self, state: Any, rng: random.Random) -> Any:
        """A quick action for the seat to move, for rollouts."""
        return self.module().rollout_choice(state, rng)

    def heuristic(self, seed: int | random.Random | None) -> Any:
        bot = getattr(self.module(), self.heuristic_class)(seed)
        return bot


def _jackaroo_side(state: JackarooState, seat: int) -> int:
    # Two-seat tables use seats 0 and 2, which are opponents there.
    return seat & 1 if state.options.seats == 4 else seat // 2


def _buraco_side(state: BuracoState, seat: int) -> int:
    return state.side_of(seat)


KITS: dict[str, GameKit] = {
    "jackaroo": GameKit(
        "jackaroo", "sahrat.bots.jackaroo_heuristic", "JackarooHeuristicBot", _jackaroo_side
    ),
    "buraco": GameKit("buraco", "sahrat.bots.buraco_heuristic", "BuracoHeuristicBot", _buraco_side),
}
