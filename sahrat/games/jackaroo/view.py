"""What one seat may see of a Jackaroo game.

The board, its own hand, how many cards every other seat holds, the discard
pile and the size of the stock: the position of ``jackaroo.md`` §6 with every
other hand written as a count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sahrat.games.jackaroo.notation import Position, to_position


@dataclass(frozen=True, slots=True)
class JackarooView:
    """One seat's view: ``position`` is the §6 object as that seat may see it."""

    seat: int
    position: dict[str, Any]

    @classmethod
    def of(cls, state: Position, seat: int) -> JackarooView:
        return cls(seat, to_position(state, visible=(seat,), stock_visible=False))

    def to_json(self) -> dict[str, Any]:
        return {**self.position, "seat": self.seat}
