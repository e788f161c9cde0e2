"""Writing a Jackaroo position as the JSON object of ``jackaroo.md`` §6.

The writer reads a position through :class:`Position` (the fields it needs)
rather than the state class, so the state can use it for its views without
the two modules importing each other; reading positions back is
:mod:`~sahrat.games.jackaroo.position`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, Protocol

from sahrat.cards import CODES
from sahrat.games.jackaroo.board import BASE0, SQUARES, square_name
from sahrat.games.jackaroo.options import Options

#: A card in a hand that the state does not know (a position giving only a count).
UNKNOWN = -1


class Position(Protocol):
    """What the writer reads of a position (a :class:`JackarooState` has all of it)."""

    options: Options
    loc: list[int]
    hands: list[list[int]]
    stock: list[int]
    discard: list[int]
    turn: int
    dealer: int
    winner: int
    dealing: bool

    @property
    def seats(self) -> tuple[int, ...]: ...

    def winners(self) -> tuple[int, ...]: ...


#: Each square's name as a marble's location (every base is ``b``): looked up, not
#: formatted, since every seat's view of every move writes all sixteen marbles.
_MARBLE_AT: tuple[str, ...] = tuple("b" if q >= BASE0 else square_name(q) for q in range(SQUARES))


def marble_names(loc: Sequence[int], seat: int) -> list[str]:
    """``seat``'s marble locations in the notation, sorted (bases written ``b``)."""
    names = _MARBLE_AT
    return sorted([names[q] for q in loc[seat * 4 : seat * 4 + 4]])


def to_position(
    state: Position,
    visible: Collection[int],
    stock_visible: bool = True,
    discard: bool = True,
) -> dict[str, Any]:
    """The position object of ``state``; hands of seats not in ``visible`` (and hands
    with unknown cards) are written as counts, the stock as a count unless
    ``stock_visible``, and the discard pile only when ``discard``."""
    seats = state.seats
    turn = state.turn if state.turn >= 0 and state.winner < 0 else None
    out: dict[str, Any] = {"game": "jackaroo", "options": state.options.to_json(), "turn": turn}
    if state.dealer >= 0:
        out["dealer"] = state.dealer
    out["marbles"] = {str(s): marble_names(state.loc, s) for s in seats}
    hands: dict[str, Any] = {}
    for seat in seats:
        hand = state.hands[seat]
        if seat in visible and UNKNOWN not in hand:
            hands[str(seat)] = [CODES[c] for c in hand]
        else:
            hands[str(seat)] = len(hand)
    out["hands"] = hands
    if state.dealing:
        stock = state.stock
        out["stock"] = [CODES[c] for c in reversed(stock)] if stock_visible else len(stock)
    if discard:
        out["discard"] = [CODES[c] for c in state.discard]
    if state.winner >= 0:
        out["winner"] = list(state.winners())
    return out
