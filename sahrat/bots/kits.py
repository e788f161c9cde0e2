"""What a game-agnostic bot needs to know about each game, in one place.

A :class:`GameKit` gives the search its game-specific parts (the cheap
rollout policy, the static evaluation, who plays on which side) and the
arena its named bots. Parts are named ``module:attribute`` and imported on
first use, so loading the kits stays cheap and free of import cycles.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from sahrat.games.buraco import BuracoState
from sahrat.games.jackaroo import JackarooState


def resolve(name: str) -> Any:
    """The attribute named ``module:attribute``."""
    module, _, attribute = name.partition(":")
    return getattr(import_module(module), attribute)


@dataclass(frozen=True, slots=True)
class GameKit:
    """One game's parts for bots."""

    name: str
    #: The heuristic bot's class (constructed with a seed or a ``random.Random``).
    heuristic_class: str
    #: ``evaluate(state, seat) -> float`` in [-1, 1] for ``seat``'s side.
    evaluator: str
    #: ``rollout_choice(state, rng) -> action``: a quick move for rollouts.
    rollout_policy: str
    #: ``burn_choice(state) -> action``: the card to burn with no legal move, if the game has that.
    burn_policy: str | None
    #: ``side(state, seat)``: 0 or 1, the team (or player) the seat plays for.
    side: Callable[[Any, int], int]
    #: ``prior(state, legal) -> [score]``: the heuristic's opinion of each legal action
    #: (higher is better, any scale), which steers the search's first visits.
    prior_scores: str | None = None
    #: Add the heuristic bot's own choice to the root's candidates, with this prior.
    #: For games whose listed actions are a subset of the legal ones (Buraco lists
    #: three-card melds; the heuristic lays longer ones), this is how the search
    #: can play what the heuristic would, and must find better to play otherwise.
    hint_weight: float = 0.0
    #: Cheap moves a rollout plays before the evaluation.
    rollout_depth: int = 8
    #: Search the root as a duel of the heuristic's choice against its next best
    #: moves, this many in all (0: UCB1 over every legal action); needs ``prior_scores``.
    root_width: int = 0

    def evaluate(self, state: Any, seat: int) -> float:
        value: float = resolve(self.evaluator)(state, seat)
        return value

    def rollout(self, state: Any, rng: random.Random) -> Any:
        return resolve(self.rollout_policy)(state, rng)

    def heuristic(self, seed: int | random.Random | None) -> Any:
        return resolve(self.heuristic_class)(seed)

    def burn(self, state: Any) -> Any:
        if self.burn_policy is None:
            raise ValueError(f"{self.name} has no burning")
        return resolve(self.burn_policy)(state)


def _jackaroo_side(state: JackarooState, seat: int) -> int:
    # Two-seat tables use seats 0 and 2, which are opponents there.
    return seat & 1 if state.options.seats == 4 else seat // 2


def _buraco_side(state: BuracoState, seat: int) -> int:
    return state.side_of(seat)


KITS: dict[str, GameKit] = {
    "jackaroo": GameKit(
        name="jackaroo",
        heuristic_class="sahrat.bots.jackaroo_heuristic:JackarooHeuristicBot",
        evaluator="sahrat.bots.jackaroo_eval:evaluate",
        # Rollouts play the heuristic's own moves for one round: a duel compares a
        # few good moves, and random replies would drown their differences.
        rollout_policy="sahrat.bots.jackaroo_heuristic:rollout_heuristic",
        burn_policy="sahrat.bots.jackaroo_heuristic:burn_choice",
        side=_jackaroo_side,
        prior_scores="sahrat.bots.jackaroo_heuristic:score_moves",
        rollout_depth=4,
        root_width=4,
    ),
    "buraco": GameKit(
        name="buraco",
        heuristic_class="sahrat.bots.buraco_heuristic:BuracoHeuristicBot",
        evaluator="sahrat.bots.buraco_eval:evaluate",
        rollout_policy="sahrat.bots.buraco_heuristic:rollout_choice",
        burn_policy=None,
        side=_buraco_side,
        hint_weight=2.0,
        # About two rounds of a four-player table (a turn is a draw, melds, a discard).
        rollout_depth=24,
    ),
}
