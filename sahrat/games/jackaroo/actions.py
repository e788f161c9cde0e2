"""Jackaroo actions as frozen values, with the text form of ``jackaroo.md`` §6.

A :class:`Move` is what a seat plays; a :class:`Chance` is the outcome of a
random step (first dealer, shuffle, the card a T burns). Both are tuples, so
they are immutable, hashable and cheap to create in the move generator, and
both round-trip through text:

>>> str(Move.parse("7C t5-t8 t20-t24"))
'7C t5-t8 t20-t24'
>>> Move.parse("KC b0-t0").kind == MOVE
True
>>> str(Chance.parse("pick 3"))
'pick 3'
"""

from __future__ import annotations

from typing import ClassVar, Final

from sahrat.cards import CODES, format_cards, parse_card
from sahrat.errors import MalformedInput
from sahrat.games.jackaroo.board import parse_square, square_name

# Move kinds.
MOVE: Final = 0  # one marble from a square to a square (bring out, forward, backward)
SPLIT: Final = 1  # a split 7: two (from, to) parts in the order played
SWAP: Final = 2  # a J swap
BURN: Final = 3  # a T burning a random card of the next seat
DISCARD: Final = 4  # burn one card: no legal move
DISCARD_ALL: Final = 5  # burn the whole hand (stuck_hand = burn-all)

NO_CARD: Final = -1

_new_tuple = tuple.__new__


class Move(tuple[int, int, int, int, int, int]):
    """``(card, kind, a, b, c, d)``: a card and what it does.

    ``a-b`` is a one-marble move or a swap's two squares, ``c-d`` a split 7's
    second part (``-1`` when unused).
    """

    __slots__ = ()

    def __new__(
        cls, card: int, kind: int, a: int = -1, b: int = -1, c: int = -1, d: int = -1
    ) -> Move:
        return _new_tuple(cls, (card, kind, a, b, c, d))

    def __getnewargs__(self) -> tuple[int, int, int, int, int, int]:
        # Pickle (worker processes) rebuilds a Move from its fields, not from one tuple.
        return (self[0], self[1], self[2], self[3], self[4], self[5])

    @property
    def card(self) -> int:
        return self[0]

    @property
    def kind(self) -> int:
        return self[1]

    def __str__(self) -> str:
        card, kind, a, b, c, d = self
        if kind == MOVE:
            return f"{CODES[card]} {square_name(a)}-{square_name(b)}"
        if kind == SPLIT:
            return (
                f"{CODES[card]} {square_name(a)}-{square_name(b)} {square_name(c)}-{square_name(d)}"
            )
        if kind == SWAP:
            return f"{CODES[card]} {square_name(a)}~{square_name(b)}"
        if kind == BURN:
            return f"{CODES[card]} burn"
        if kind == DISCARD:
            return f"{CODES[card]} discard"
        return "discard-all"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move written ``text``; :class:`MalformedInput` if it is not a move's form."""
        words = text.split()
        if words == ["discard-all"]:
            return cls(NO_CARD, DISCARD_ALL)
        if len(words) not in (2, 3) or " ".join(words) != text.strip():
            raise MalformedInput(f"not a move: {text!r}", text)
        card = parse_card(words[0])
        if len(words) == 3:
            a, b = _part(words[1], text)
            c, d = _part(words[2], text)
            if words[0][0] != "7":
                raise MalformedInput(f"only a 7 is split: {text!r}", text)
            return cls(card, SPLIT, a, b, c, d)
        action = words[1]
        if action == "burn":
            return cls(card, BURN)
        if action == "discard":
            return cls(card, DISCARD)
        if "~" in action:
            first, _, second = action.partition("~")
            return cls(card, SWAP, _square(first, text), _square(second, text))
        a, b = _part(action, text)
        return cls(card, MOVE, a, b)


def _square(word: str, text: str) -> int:
    try:
        return parse_square(word)
    except MalformedInput:
        raise MalformedInput(f"not a move: {text!r} ({word!r} is not a square)", text) from None


def _part(word: str, text: str) -> tuple[int, int]:
    first, dash, second = word.partition("-")
    if not dash:
        raise MalformedInput(f"not a move: {text!r}", text)
    return _square(first, text), _square(second, text)


# Chance kinds.
DEALER: Final = 10
SHUFFLE: Final = 11
PICK: Final = 12


class Chance(tuple[int, int | tuple[int, ...]]):
    """``(kind, value)``: a random step's outcome.

    - ``dealer``: the first dealer, as an index into the seats in play order
      (``fairness.md`` §3), not a seat number: on a two-seat table, whose seats
      are 0 and 2, ``dealer 1`` is seat 2;
    - ``shuffle``: the deck, top card first;
    - ``pick``: the card a T burns, an index into the next seat's hand in dealt order.
    """

    __slots__ = ()

    NAMES: ClassVar[dict[int, str]] = {DEALER: "dealer", SHUFFLE: "shuffle", PICK: "pick"}

    def __new__(cls, kind: int, value: int | tuple[int, ...]) -> Chance:
        return _new_tuple(cls, (kind, value))

    def __getnewargs__(self) -> tuple[int, int | tuple[int, ...]]:
        return (self[0], self[1])

    @property
    def kind(self) -> int:
        return self[0]

    @property
    def value(self) -> int | tuple[int, ...]:
        return self[1]

    def __str__(self) -> str:
        kind, value = self
        if isinstance(value, tuple):
            return f"shuffle {format_cards(value)}".rstrip()
        return f"{self.NAMES[kind]} {value}"

    def __repr__(self) -> str:
        return f"Chance.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Chance:
        words = text.split()
        if not words:
            raise MalformedInput("empty action", text)
        if words[0] == "shuffle":
            return cls(SHUFFLE, tuple(parse_card(w) for w in words[1:]))
        if words[0] in ("dealer", "pick") and len(words) == 2 and words[1].isdigit():
            return cls(DEALER if words[0] == "dealer" else PICK, int(words[1]))
        raise MalformedInput(f"not a chance outcome: {text!r}", text)


def parse_action(text: str) -> Move | Chance:
    """A move or a chance outcome, by its first word."""
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    action: Move | Chance = (
        Chance.parse(text) if first in ("dealer", "shuffle", "pick") else Move.parse(text)
    )
    # One spelling per action, the engine's own: no padding, no leading zeros.
    if str(action) != text:
        raise MalformedInput(f"not in the exact notation: {text!r} (write {str(action)!r})", text)
    return action
