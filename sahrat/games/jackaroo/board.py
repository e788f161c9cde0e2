"""Board geometry: squares, their notation, and precomputed paths.

Squares are small ints so that the engine can keep an occupancy list:

* ``0 .. 75``   the track squares ``t0 .. t75``;
* ``76 .. 91``  the home lanes: ``h<s>.<k>`` is ``76 + 4*s + k - 1``;
* ``92 .. 95``  the bases: ``b<s>`` is ``92 + s`` (never occupied in the list).

A marble of seat ``s`` has *progress* ``(square - 19*s) mod 76`` on the
track (0 on its start square, 75 on its entry square) and ``76 .. 79`` in its
home lane. Every forward path is computed once here, per seat, square and
step count, so that the move generator only walks short tuples.

>>> square_name(home_square(2, 3)), parse_square("t75"), square_name(base_square(1))
('h2.3', 75, 'b1')
>>> [square_name(q) for q in forward_path(0, 74, 3)]
['t75', 'h0.1', 'h0.2']
"""

from __future__ import annotations

import re
from typing import Final

from sahrat.errors import MalformedInput

TRACK: Final = 76
QUARTER: Final = 19
HOME0: Final = 76
BASE0: Final = 92
SQUARES: Final = 96
NO_SQUARE: Final = -1


def home_square(seat: int, k: int) -> int:
    """``h<seat>.<k>``, ``k`` in 1..4."""
    return HOME0 + 4 * seat + k - 1


def base_square(seat: int) -> int:
    return BASE0 + seat


def is_track(square: int) -> bool:
    return 0 <= square < TRACK


def is_home(square: int) -> bool:
    return HOME0 <= square < BASE0


def progress(seat: int, square: int) -> int:
    """Distance travelled by a marble of ``seat`` standing on ``square`` (track or its lane)."""
    if square < TRACK:
        return (square - QUARTER * seat) % TRACK
    return TRACK + (square - HOME0) % 4


def square_at(seat: int, prog: int) -> int:
    """The square at progress ``prog`` (0..79) on ``seat``'s path."""
    if prog < TRACK:
        return (prog + QUARTER * seat) % TRACK
    return home_square(seat, prog - TRACK + 1)


def square_name(square: int) -> str:
    if square < TRACK:
        return f"t{square}"
    if square < BASE0:
        seat, k = divmod(square - HOME0, 4)
        return f"h{seat}.{k + 1}"
    return f"b{square - BASE0}"


_SQUARE = re.compile(r"t(\d{1,2})|h([0-3])\.([1-4])|b([0-3])")


def parse_square(text: str) -> int:
    """The square written ``t0``..``t75``, ``h<s>.<1-4>`` or ``b<s>``."""
    match = _SQUARE.fullmatch(text)
    if match is None:
        raise MalformedInput(f"not a square: {text!r}", text)
    track, seat, k, base = match.groups()
    if track is not None:
        index = int(track)
        if index >= TRACK or (len(track) > 1 and track[0] == "0"):
            raise MalformedInput(f"not a square: {text!r}", text)
        return index
    if seat is not None:
        return home_square(int(seat), int(k))
    return base_square(int(base))


def forward_path(seat: int, square: int, steps: int) -> tuple[int, ...] | None:
    """Squares visited by a marble of ``seat`` moving ``steps`` forward, or None past ``h.4``."""
    start = progress(seat, square)
    if start + steps > TRACK + 3:
        return None
    return tuple(square_at(seat, p) for p in range(start + 1, start + steps + 1))


def backward_path(square: int) -> tuple[int, ...]:
    """Squares visited moving 4 backwards on the track."""
    return tuple((square - i) % TRACK for i in range(1, 5))


MAX_STEPS: Final = 13

#: ``PROGRESS[seat][square]`` for track squares and ``seat``'s own home lane (else -1).
PROGRESS: Final[list[list[int]]] = [
    [
        progress(seat, q) if q < TRACK or (HOME0 <= q < BASE0 and (q - HOME0) // 4 == seat) else -1
        for q in range(SQUARES)
    ]
    for seat in range(4)
]

#: ``PASSED[seat][square][steps]``: the squares passed (all but the last) or None;
#: ``DEST[seat][square][steps]``: the destination or ``NO_SQUARE``.
PASSED: Final[list[list[list[tuple[int, ...] | None]]]] = []
DEST: Final[list[list[list[int]]]] = []
for _seat in range(4):
    _passed_rows: list[list[tuple[int, ...] | None]] = []
    _dest_rows: list[list[int]] = []
    for _square in range(SQUARES):
        _passed: list[tuple[int, ...] | None] = [None] * (MAX_STEPS + 1)
        _dest = [NO_SQUARE] * (MAX_STEPS + 1)
        _own_lane = is_home(_square) and (_square - HOME0) // 4 == _seat
        if is_track(_square) or _own_lane:
            for _steps in range(1, MAX_STEPS + 1):
                _path = forward_path(_seat, _square, _steps)
                if _path is not None:
                    _passed[_steps] = _path[:-1]
                    _dest[_steps] = _path[-1]
        _passed_rows.append(_passed)
        _dest_rows.append(_dest)
    PASSED.append(_passed_rows)
    DEST.append(_dest_rows)

#: ``BITS[square]``: the square's bit in an occupancy mask (0 for the bases, never occupied).
BITS: Final[tuple[int, ...]] = tuple(1 << q if q < BASE0 else 0 for q in range(SQUARES))

#: ``PASS_MASK[seat][square][steps]``: the passed squares as bits (``1 << square``).
PASS_MASK: Final[list[list[list[int]]]] = [
    [[sum(1 << q for q in passed or ()) for passed in row] for row in rows] for rows in PASSED
]

#: ``PATH_MASK[seat][square][steps]``: the passed squares and the destination as bits.
PATH_MASK: Final[list[list[list[int]]]] = [
    [
        [bits | (1 << dest if dest >= 0 else 0) for bits, dest in zip(masks, dests, strict=True)]
        for masks, dests in zip(mask_rows, dest_rows, strict=True)
    ]
    for mask_rows, dest_rows in zip(PASS_MASK, DEST, strict=True)
]

#: ``BACK_PASSED[square]`` / ``BACK_DEST[square]`` for the 4 (track squares only).
BACK_PASSED: Final[list[tuple[int, ...]]] = [backward_path(q)[:-1] for q in range(TRACK)]
BACK_DEST: Final[list[int]] = [backward_path(q)[-1] for q in range(TRACK)]

#: Neighbours on the track, in the direction of play.
BEHIND: Final[list[int]] = [(q - 1) % TRACK for q in range(TRACK)]
AHEAD: Final[list[int]] = [(q + 1) % TRACK for q in range(TRACK)]


def home_owner(square: int) -> int:
    """The seat whose home lane holds ``square``."""
    return (square - HOME0) // 4
