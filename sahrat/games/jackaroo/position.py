"""Reading positions written as JSON objects (``jackaroo.md`` §6); the writer is
:mod:`~sahrat.games.jackaroo.notation`.

>>> state = from_position({"turn": 0,
...     "marbles": {"0": ["t3", "b", "b", "b"], "1": ["b"] * 4, "2": ["b"] * 4, "3": ["b"] * 4},
...     "hands": {"0": ["5S"], "1": 4, "2": 4, "3": 4}})
>>> [str(m) for m in state.legal_moves()]
['5S t3-t8']
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from sahrat.cards import CODES, parse_card
from sahrat.errors import MalformedInput
from sahrat.games.jackaroo.board import (
    BASE0,
    HOME0,
    base_square,
    home_owner,
    parse_square,
)
from sahrat.games.jackaroo.notation import UNKNOWN, marble_names, to_position
from sahrat.games.jackaroo.options import Options
from sahrat.games.jackaroo.state import WAITING, JackarooState, occupancy_mask

_KEYS = {"game", "options", "turn", "marbles", "hands", "dealer", "stock", "discard", "winner"}
MAX_HAND = 13


@dataclass(frozen=True, slots=True)
class Parsed:
    """A position read from JSON: its state, and how it was written (so that the
    position after a move is written the same way)."""

    state: JackarooState
    #: Seats whose hands are listed card by card (the others are counts).
    shown: frozenset[int]
    #: The position's ``stock`` as given (a list of codes, a count, or None).
    stock: list[str] | int | None
    #: Whether the position had a ``discard`` list.
    has_discard: bool

    def to_json(self) -> dict[str, Any]:
        out = to_position(self.state, self.shown, stock_visible=True, discard=self.has_discard)
        # A position never deals, so its stock is written back exactly as it came.
        out.pop("stock", None)
        if self.stock is not None:
            out["stock"] = self.stock
        if self.has_discard:
            out["discard"] = out.pop("discard")
        return out


def parse_position(obj: object) -> Parsed:
    """Read a position object; :class:`MalformedInput` for anything that is not one."""
    if not isinstance(obj, Mapping):
        raise MalformedInput("a position is a JSON object", obj)
    unknown = set(obj) - _KEYS
    if unknown:
        raise MalformedInput(f"unknown position field(s): {', '.join(sorted(unknown))}", obj)
    if obj.get("game", "jackaroo") != "jackaroo":
        raise MalformedInput(f"not a jackaroo position: game {obj.get('game')!r}", obj)
    if not isinstance(obj.get("options", {}), Mapping):
        raise MalformedInput("options must be a JSON object", obj.get("options"))
    options = Options.from_json(obj.get("options"))
    state = JackarooState(options)
    seats = state.seats
    seen: set[int] = set()

    def cards(value: object, what: str) -> list[int]:
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise MalformedInput(f"{what} must be a list of card codes", value)
        out = [parse_card(c) for c in value]
        for card in out:
            if card in seen:
                raise MalformedInput(f"card {CODES[card]} appears twice", value)
            seen.add(card)
        return out

    _read_marbles(state, obj.get("marbles"), seats)
    state.mask = occupancy_mask(state.occ)

    hands = obj.get("hands")
    if not isinstance(hands, Mapping) or set(hands) != {str(s) for s in seats}:
        raise MalformedInput(f"hands must have exactly the seats {list(seats)}", hands)
    shown: set[int] = set()
    for seat in seats:
        value = hands[str(seat)]
        if isinstance(value, int) and not isinstance(value, bool):
            if not 0 <= value <= MAX_HAND:
                raise MalformedInput(f"hand size of seat {seat} must be 0..{MAX_HAND}", value)
            state.hands[seat] = [UNKNOWN] * value
        else:
            state.hands[seat] = cards(value, f"the hand of seat {seat}")
            if len(state.hands[seat]) > MAX_HAND:
                raise MalformedInput(f"seat {seat} holds more than {MAX_HAND} cards", value)
            shown.add(seat)

    if "discard" in obj:
        state.discard = cards(obj["discard"], "discard")
    stock = obj.get("stock")
    if isinstance(stock, list):
        state.stock = list(reversed(cards(stock, "stock")))
    elif stock is not None and (isinstance(stock, bool) or not isinstance(stock, int)):
        raise MalformedInput("stock must be a list of cards or a count", stock)
    dealer = obj.get("dealer")
    if dealer is not None:
        state.dealer = _seat(dealer, seats, "dealer")

    state.winner = state.rules.winner(state.loc)
    turn = obj.get("turn")
    if turn is None or state.winner >= 0:
        state.turn = WAITING
    else:
        state.turn = _seat(turn, seats, "turn")
        if state.turn not in shown:
            raise MalformedInput("the hand of the seat to move must be a list of cards", turn)
        if not state.hands[state.turn]:
            raise MalformedInput(f"seat {state.turn} is to move but holds no card", turn)
    return Parsed(state, frozenset(shown), stock, "discard" in obj)


def from_position(obj: object) -> JackarooState:
    """The state of a position object (see :func:`parse_position`)."""
    return parse_position(obj).state


def _seat(value: object, seats: Collection[int], what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in seats:
        raise MalformedInput(f"{what} must be one of the seats {list(seats)}", value)
    return value


def _read_marbles(state: JackarooState, marbles: object, seats: tuple[int, ...]) -> None:
    if not isinstance(marbles, Mapping) or set(marbles) != {str(s) for s in seats}:
        raise MalformedInput(f"marbles must have exactly the seats {list(seats)}", marbles)
    for seat in seats:
        where = marbles[str(seat)]
        if not isinstance(where, list) or len(where) != 4:
            raise MalformedInput(f"seat {seat} must have a list of 4 marble locations", where)
        for i, text in enumerate(where):
            if not isinstance(text, str):
                raise MalformedInput(f"not a marble location: {text!r}", text)
            square = base_square(seat) if text == "b" else parse_square(text)
            if square >= BASE0 and square != base_square(seat):
                raise MalformedInput(f"a marble of seat {seat} cannot be in {text}", text)
            if HOME0 <= square < BASE0 and home_owner(square) != seat:
                raise MalformedInput(f"a marble of seat {seat} cannot be in {text}", text)
            marble = seat * 4 + i
            if square < BASE0:
                if state.occ[square] >= 0:
                    raise MalformedInput(f"two marbles on {text}", marbles)
                state.occ[square] = marble
            state.loc[marble] = square


__all__ = ["Parsed", "from_position", "marble_names", "parse_position", "to_position"]
