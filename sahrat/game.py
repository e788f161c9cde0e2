"""The one interface every game exposes to bots, the server and the tests.

Modelled on OpenSpiel's ``State``: a state knows whose turn it is (a seat,
:data:`CHANCE` for a random step such as a shuffle, or :data:`TERMINAL`),
lists its legal actions, applies one, and can be cloned cheaply. Random
steps are explicit: at a chance node, :meth:`GameState.sample_chance` draws
the outcome from a :class:`~sahrat.fairness.RandomSource` and returns it as
an ordinary action, so a game's record is just its list of actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Self

from sahrat.fairness import RandomSource

#: ``current_player()`` of a state waiting for a random step (deal, shuffle, pick).
CHANCE = -1
#: ``current_player()`` of a finished game.
TERMINAL = -4


class Action(ABC):
    """A frozen value with a text form: ``parse(str(a)) == a``."""

    @abstractmethod
    def __str__(self) -> str: ...


class GameState(ABC):
    """A position of a game, with the operations every algorithm needs."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """Every legal action of the player to act (empty when terminal).

        At a chance node with few outcomes (a pick) these are the outcomes;
        at a shuffle it is empty and :meth:`sample_chance` must be used.
        """

    @abstractmethod
    def apply_action(self, action: Any) -> None:
        """Play ``action``; raises :class:`~sahrat.errors.IllegalMove` and changes nothing
        when it is not legal here."""

    @abstractmethod
    def sample_chance(self, source: RandomSource) -> Any:
        """At a chance node, the outcome drawn from ``source`` (not yet applied)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per seat (all seats of the table, in seat order): +1 win, -1 loss, 0 otherwise."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy; applying to it never touches ``self``."""

    @abstractmethod
    def view(self, seat: int) -> Any:
        """What ``seat`` may see, and nothing else."""

    @abstractmethod
    def determinize(self, seat: int, source: RandomSource) -> Self:
        """A full state consistent with ``view(seat)``: hidden cards dealt at random."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """The action written as ``text`` (syntax only; legality is checked on apply)."""


def play_out(
    state: GameState, choose: Any, source: RandomSource, max_steps: int = 1_000_000
) -> int:
    """Play ``state`` to its end: ``choose(state)`` for the seats, ``source`` for chance.

    Returns the number of player actions applied. A helper for demos, tests
    and benchmarks; the server drives its games step by step instead.
    """
    moves = 0
    for _ in range(max_steps):
        player = state.current_player()
        if player == TERMINAL:
            return moves
        if player == CHANCE:
            state.apply_action(state.sample_chance(source))
        else:
            state.apply_action(choose(state))
            moves += 1
    raise RuntimeError(f"game did not end within {max_steps} steps")
