"""Table options and the three presets of ``jackaroo.md`` §4.

>>> opts = Options.from_json({"preset": "classic", "seats": 2, "king": "sweep"})
>>> opts.seats, opts.pass_own, opts.king
(2, False, 'sweep')
>>> opts.to_json()
{'preset': 'classic', 'seats': 2, 'king': 'sweep'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sahrat.errors import MalformedInput

#: Every option but ``seats`` and ``preset``, with its allowed values.
CHOICES: dict[str, tuple[object, ...]] = {
    "deal": ("5-4-4", "4-each"),
    "pass_own": (True, False),
    "barrier": (True, False),
    "start_guard": ("own", "any"),
    "king": ("plain", "sweep", "breaker"),
    "five": ("own", "any"),
    "ten": ("move", "move-or-burn"),
    "stuck_hand": ("burn-one", "burn-all"),
}

PRESETS: dict[str, dict[str, object]] = {
    "sahrat": {
        "deal": "5-4-4", "pass_own": True, "barrier": False, "start_guard": "own",
        "king": "sweep", "five": "any", "ten": "move-or-burn", "stuck_hand": "burn-one",
    },
    "classic": {
        "deal": "4-each", "pass_own": False, "barrier": True, "start_guard": "own",
        "king": "plain", "five": "own", "ten": "move", "stuck_hand": "burn-all",
    },
    "complex": {
        "deal": "4-each", "pass_own": False, "barrier": True, "start_guard": "any",
        "king": "breaker", "five": "any", "ten": "move", "stuck_hand": "burn-one",
    },
}  # fmt: skip

DEFAULT_PRESET = "sahrat"


@dataclass(frozen=True, slots=True)
class Options:
    """One table's rules. Build it with :meth:`preset` or :meth:`from_json`."""

    preset_name: str = DEFAULT_PRESET
    seats: int = 4
    deal: str = "5-4-4"
    pass_own: bool = True
    barrier: bool = False
    start_guard: str = "own"
    king: str = "sweep"
    five: str = "any"
    ten: str = "move-or-burn"
    stuck_hand: str = "burn-one"

    @classmethod
    def preset(cls, name: str = DEFAULT_PRESET, seats: int = 4, **overrides: object) -> Options:
        """The preset ``name`` for ``seats`` seats, with ``overrides`` applied."""
        if name not in PRESETS:
            raise MalformedInput(f"unknown preset {name!r} (sahrat, classic, complex)", name)
        if seats not in (2, 4):
            raise MalformedInput(f"seats must be 2 or 4, not {seats!r}", seats)
        values: dict[str, Any] = dict(PRESETS[name])
        for key, value in overrides.items():
            if key not in CHOICES:
                raise MalformedInput(f"unknown option {key!r}", key)
            if value not in CHOICES[key] or isinstance(value, bool) != isinstance(
                CHOICES[key][0], bool
            ):
                allowed = ", ".join(_json_text(v) for v in CHOICES[key])
                raise MalformedInput(f"option {key} must be one of {allowed}, not {value!r}", value)
            values[key] = value
        return cls(preset_name=name, seats=seats, **values)

    @classmethod
    def from_json(cls, obj: object) -> Options:
        """Options from a position's ``options`` object: a preset plus overrides."""
        if obj is None:
            return cls.preset()
        if not isinstance(obj, Mapping):
            raise MalformedInput("options must be a JSON object", obj)
        rest = dict(obj)
        name = rest.pop("preset", DEFAULT_PRESET)
        seats = rest.pop("seats", 4)
        if isinstance(seats, str) and seats.isdigit():
            seats = int(seats)
        if not isinstance(name, str):
            raise MalformedInput("preset must be a string", name)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise MalformedInput("seats must be 2 or 4", seats)
        overrides = {key: _coerce(key, value) for key, value in rest.items()}
        return cls.preset(name, seats, **overrides)

    def to_json(self) -> dict[str, object]:
        """The preset name, the seat count and every option that differs from the preset."""
        out: dict[str, object] = {"preset": self.preset_name, "seats": self.seats}
        out.update(self.differences())
        return out

    def differences(self) -> dict[str, object]:
        """The options that differ from the preset (a table shows them beside its name)."""
        base = PRESETS[self.preset_name]
        return {k: getattr(self, k) for k in CHOICES if getattr(self, k) != base[k]}


def _coerce(key: str, value: object) -> object:
    """Accept ``"true"``/``"false"`` for the boolean options, as a command line would give them."""
    boolean = key in CHOICES and isinstance(CHOICES[key][0], bool)
    if boolean and value in ("true", "false"):
        return value == "true"
    return value


def _json_text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)
