"""Table options (``buraco.md`` §7).

>>> options = BuracoOptions.from_json({"players": 2, "sets": True})
>>> options.players, options.target, options.sets, options.closed
(2, 2000, True, False)
>>> options.to_json()
{'players': 2, 'target': 2000, 'sets': True, 'closed': False}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from sahrat.errors import MalformedInput

#: Every option with its allowed values, the default first.
CHOICES: dict[str, tuple[object, ...]] = {
    "players": (4, 2),
    "target": (2000, 1000, 3000),
    "sets": (False, True),
    "closed": (False, True),
}


@dataclass(frozen=True, slots=True)
class BuracoOptions:
    """One table's rules: seats in play, match target, sets allowed, closed discard pile."""

    players: int = 4
    target: int = 2000
    sets: bool = False
    closed: bool = False

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            # ``True == 1`` in Python; insist on the exact type as well.
            if not any(type(value) is type(a) and value == a for a in allowed):
                raise MalformedInput(f"option {name} must be one of {allowed}: {value!r}", value)

    @classmethod
    def from_json(cls, obj: Mapping[str, object]) -> BuracoOptions:
        """Options from a JSON object; missing keys take their defaults."""
        unknown = set(obj) - set(CHOICES)
        if unknown:
            raise MalformedInput(f"unknown Buraco options: {sorted(unknown)}", obj)
        return cls(**obj)  # type: ignore[arg-type]  # checked in __post_init__

    def to_json(self) -> dict[str, object]:
        return asdict(self)
