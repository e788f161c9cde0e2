"""Table options (``buraco.md`` §7).

The seat count is the option ``players`` in JSON, as the spec names it, and
``seats`` in Python, as for every game.

>>> options = BuracoOptions.from_json({"players": 2, "sets": True})
>>> options.seats, options.target, options.sets, options.closed
(2, 2000, True, False)
>>> options.to_json()
{'players': 2, 'target': 2000, 'sets': True, 'closed': False}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sahrat.errors import MalformedInput

#: The JSON key of the seat count, and the counts a table may have (the default first).
SEAT_OPTION = "players"
SEAT_COUNTS = (4, 2)

#: Every other option with its allowed values, the default first.
CHOICES: dict[str, tuple[object, ...]] = {
    "target": (2000, 1000, 3000),
    "sets": (False, True),
    "closed": (False, True),
}


@dataclass(frozen=True, slots=True)
class BuracoOptions:
    """One table's rules: seats in play, match target, sets allowed, closed discard pile."""

    seats: int = 4
    target: int = 2000
    sets: bool = False
    closed: bool = False

    def __post_init__(self) -> None:
        if type(self.seats) is not int or self.seats not in SEAT_COUNTS:
            raise MalformedInput(f"option {SEAT_OPTION} must be 2 or 4: {self.seats!r}", self.seats)
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            # ``True == 1`` in Python; insist on the exact type as well.
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise MalformedInput(f"option {name} must be one of {allowed}: {value!r}", value)

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> BuracoOptions:
        """Options from a JSON object; missing keys take their defaults."""
        unknown = set(obj) - set(CHOICES) - {SEAT_OPTION}
        if unknown:
            raise MalformedInput(f"unknown Buraco options: {sorted(unknown)}", obj)
        values = {k: v for k, v in obj.items() if k != SEAT_OPTION}
        if SEAT_OPTION in obj:
            values["seats"] = obj[SEAT_OPTION]
        return cls(**values)  # type: ignore[arg-type]  # checked in __post_init__

    def to_json(self) -> dict[str, object]:
        return {SEAT_OPTION: self.seats, "target": self.target, "sets": self.sets,
                "closed": self.closed}  # fmt: skip
