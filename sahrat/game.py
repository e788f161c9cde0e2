"""What a game is, to everything above the rules engines.

Two halves, after OpenSpiel's ``Game`` and ``State``:

- :class:`GameState` is one position. It knows whose turn it is (a seat,
  :data:`CHANCE` for a random step such as a shuffle, or :data:`TERMINAL`),
  lists its legal actions, applies one, says why one is refused, shows each
  seat what it may see, and can be cloned cheaply. Random steps are explicit:
  at a chance node :meth:`GameState.sample_chance` draws the outcome from a
  :class:`~sahrat.fairness.RandomSource` and returns it as an ordinary
  action, so a game's record is just its list of actions.
- :class:`Game` is the game itself, one object per game (each game package
  exports it as ``GAME``; :mod:`sahrat.games` holds the registry): its
  options and presets, how a game starts, who sits where and with whom, a
  move in words, the full view of a finished game, and its bots.

The server, the bots, the records and the command line use these two and
nothing else of a game, so a game's insides can change freely.
"""

from __future__ import annotations

import random
from abc import ABCMeta, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, Self, TypeVar

from sahrat.errors import Reason
from sahrat.fairness import RandomSource
from sahrat.speech import agree, gender_of

T = TypeVar("T")

# The value classes below stay Python classes when this module is compiled: a compiled
# frozen dataclass cannot be copied or pickled field by field, and none of them is hot.
try:
    from mypy_extensions import mypyc_attr
except ImportError:  # mypy's own package, absent where nothing is compiled; then a no-op

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[T], T]:
        return lambda cls: cls


#: ``current_player()`` of a state waiting for a random step (deal, shuffle, pick).
CHANCE: Final = -1
#: ``current_player()`` of a finished game.
TERMINAL: Final = -4

#: A JSON object as Python builds it (``json.dumps`` takes it as it is).
JSONObject = dict[str, Any]

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Bot",
    "BotKit",
    "Catalogue",
    "Game",
    "GameOptions",
    "GameState",
    "JSONObject",
    "Outcome",
    "Reason",
    "Seating",
    "SideResult",
    "View",
    "Words",
]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Words:
    """A move in words, English and Arabic, for a table's list of last moves."""

    en: str
    ar: str

    @classmethod
    def of(cls, name: str, said: tuple[str, str] | None) -> Words:
        """``name`` and what they did (English, Arabic); without it, that they played.

        The Arabic may give a word both ways, ``{masculine|feminine}``: the name's
        gender chooses (:mod:`sahrat.speech`).
        """
        en, ar = said or ("played", "{لعب|لعبت}")
        return cls(f"{name} {en}", f"{name} {agree(ar, gender_of(name))}")

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "ar": self.ar}


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class SideResult:
    """How one side (a partnership, or one player) ended a game."""

    seats: tuple[int, ...]
    #: +1 won, -1 lost.
    result: int
    #: The side's points where the game keeps them (a Buraco match's total), else None.
    points: int | None = None


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the winning seats, and every side's result."""

    winners: tuple[int, ...]
    sides: tuple[SideResult, ...]
    #: How many hands (deals scored) the game took, where it keeps points over hands.
    hands: int = 1

    def to_json(self) -> JSONObject:
        return {
            "winners": list(self.winners),
            "hands": self.hands,
            "sides": [
                {"seats": list(s.seats), "result": s.result, "points": s.points} for s in self.sides
            ],
        }


class View(Protocol):
    """What one seat may see of a position, and nothing else."""

    @property
    def seat(self) -> int: ...

    def to_json(self) -> JSONObject:
        """The view as the seat is sent it (cards as codes)."""
        ...


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Seating:
    """Who sits where: the seats in play order, and the side each plays for.

    >>> four = Seating((0, 1, 2, 3), (0, 1, 0, 1))
    >>> four.partners(1), four.index(2)
    ((1, 3), 2)
    >>> Seating((0, 2), (0, 1)).partners(2)
    (2,)
    """

    seats: tuple[int, ...]
    #: ``sides[i]`` is the side of ``seats[i]``: 0 or 1.
    sides: tuple[int, ...]

    def side_of(self, seat: int) -> int:
        return self.sides[self.seats.index(seat)]

    def index(self, seat: int) -> int:
        """The seat's place in play order (how records and fair seeds number seats)."""
        return self.seats.index(seat)

    def partners(self, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side, itself included."""
        side = self.side_of(seat)
        return tuple(s for s, d in zip(self.seats, self.sides, strict=True) if d == side)


# Compiled, this class would refuse subclasses in plain Python (a new game's state,
# a test's stand-in) unless told otherwise.
@mypyc_attr(allow_interpreted_subclasses=True)
class GameState(metaclass=ABCMeta):
    """A position of a game, with the operations every algorithm needs."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @property
    @abstractmethod
    def seats(self) -> tuple[int, ...]:
        """The seats in play, in play order."""

    @abstractmethod
    def side_of(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for: partners share one."""

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
    def why_illegal(self, action: Any) -> Reason | None:
        """Why ``action`` may not be played now, or None when it may (nothing changes)."""

    @abstractmethod
    def sample_chance(self, source: RandomSource) -> Any:
        """At a chance node, the outcome drawn from ``source`` (not yet applied)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def returns(self) -> tuple[float, ...]:
        """Per seat (indexed by seat number): +1 win, -1 loss, 0 otherwise."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it runs."""

    @abstractmethod
    def turn_count(self) -> int:
        """How many turns have begun: a turn's clock starts when this changes.

        A turn may hold several actions (a Buraco draw, melds, a discard), and one
        seat may have two turns in a row (a Jackaroo seat whose rivals hold no card).
        """

    @abstractmethod
    def hand(self, seat: int) -> list[int]:
        """The cards ``seat`` holds, in the order a record lists them."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy; applying to it never touches ``self``."""

    @abstractmethod
    def view(self, seat: int) -> View:
        """What ``seat`` may see, and nothing else."""

    @abstractmethod
    def determinize(self, seat: int, source: RandomSource) -> Self:
        """A full state consistent with ``view(seat)``: hidden cards dealt at random."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """The action written as ``text`` (syntax only; legality is checked on apply)."""


class Bot(Protocol):
    """A player for the seat to move: one of the engine's legal actions, nothing else.

    Bots are deterministic for a given seed, and never read hidden cards (search
    works on :meth:`GameState.determinize`).
    """

    name: str

    def choose(self, state: Any) -> Any: ...


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class BotKit:
    """One game's parts for bots: its own players, and what a game-agnostic search needs."""

    #: The game's best cheap player, made from a random generator.
    heuristic: Callable[[random.Random], Bot]
    #: A simpler player (one-move lookahead), for the arena's comparisons.
    greedy: Callable[[random.Random], Bot]
    #: ``evaluate(state, seat)`` in [-1, 1] for ``seat``'s side.
    evaluate: Callable[[Any, int], float]
    #: ``rollout(state, rng)``: a quick move for the search's rollouts.
    rollout: Callable[[Any, random.Random], Any]
    #: ``stuck(state)``: where every legal action only throws cards away, the one to
    #: play (the least useful card); None when the seat has a real choice.
    stuck: Callable[[Any], Any | None]
    #: ``prior(state, legal) -> [score]``: the heuristic's opinion of each legal action
    #: (higher is better, any scale), which steers the search's first visits.
    prior: Callable[[Any, Sequence[Any]], list[float]] | None = None
    #: Add the heuristic's own choice to the root's candidates, with this prior. For
    #: games whose listed actions are a subset of the legal ones (Buraco lists
    #: three-card melds; the heuristic lays longer ones), this is how the search can
    #: play what the heuristic would, and must find better to play otherwise.
    hint_weight: float = 0.0
    #: Cheap moves a rollout plays before the evaluation.
    rollout_depth: int = 8
    #: Search the root as a duel of the heuristic's choice against its next best
    #: moves, this many in all (0: UCB1 over every legal action); needs ``prior``.
    root_width: int = 0


class GameOptions(Protocol):
    """A table's rules: how many seats, and the rest as JSON."""

    @property
    def seats(self) -> int: ...

    def to_json(self) -> JSONObject: ...


OptionsT = TypeVar("OptionsT", bound=GameOptions)


class Game(Protocol[OptionsT]):
    """Everything the platform asks of a game (each game package exports one as ``GAME``)."""

    #: The game's name in URLs, records and the protocol: ``jackaroo``.
    @property
    def name(self) -> str: ...

    #: The seat counts a table may have, the default first.
    @property
    def seat_counts(self) -> tuple[int, ...]: ...

    #: The unshuffled deck the fair shuffle starts from (``fairness.md`` §3).
    @property
    def deck(self) -> tuple[int, ...]: ...

    @property
    def bots(self) -> BotKit: ...

    def options_from_json(self, obj: object, seats: int | None = None) -> OptionsT:
        """The options of ``obj`` (None: the defaults), with ``seats`` seats when given;
        :class:`~sahrat.errors.MalformedInput` for anything the game does not offer."""
        ...

    def catalogue(self) -> JSONObject:
        """Every option with its values, the presets and the defaults, for a client's forms."""
        ...

    def new_game(self, options: OptionsT) -> GameState:
        """A game about to start (its first step is a chance step)."""
        ...

    def seating(self, options: OptionsT) -> Seating: ...

    def describe(
        self, before: GameState, seat: int, action: Any, names: Mapping[int, str]
    ) -> Words:
        """``action`` of ``seat`` in words, said of the position ``before`` it, only with what
        every seat may know; ``names`` (seat to display name) name the players."""
        ...

    def full_view(self, state: GameState) -> JSONObject:
        """Everything on the table, every hand included: for replays of finished games."""
        ...


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Catalogue:
    """How a game's options are offered (the JSON of :meth:`Game.catalogue`)."""

    name: str
    seats: tuple[int, ...]
    #: The options key that holds the seat count.
    seat_option: str
    choices: Mapping[str, tuple[object, ...]]
    presets: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    default_preset: str | None = None
    defaults: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> JSONObject:
        return {
            "name": self.name,
            "seats": list(self.seats),
            "seat_option": self.seat_option,
            "choices": {k: list(v) for k, v in self.choices.items()},
            "presets": {k: dict(v) for k, v in self.presets.items()},
            "default_preset": self.default_preset,
            "defaults": dict(self.defaults),
        }
