"""Buraco actions as immutable values with a text form that round-trips.

Every step of a match, chance steps included, is one :class:`BuracoAction`,
so a record is just the list of their texts. The grammar (keywords in lower
case, cards as upper-case codes, meld indexes counted from 0 in the order the
side's melds were laid down, without leading zeros; tokens separated by one
space, nothing before the first or after the last):

=======================  =================================================
text                     meaning
=======================  =================================================
``dealer 2``             chance: seat 2 deals the first hand
``shuffle 5S JS … JK``   chance: the full shuffled order, top card first
``draw``                 draw the top card of the stock
``take``                 take the whole discard pile
``take meld QS QH``      (``closed``) take the pile and meld its top card
                         with ``QS QH`` from the hand, as one action
``take add 2``           (``closed``) take the pile and add its top card
``take add 2 8C``        to the side's meld 2, with ``8C`` from the hand
``meld 5C 6C 7C``        lay down a new meld from the hand
``add 2 7C 8C``          add cards from the hand to the side's meld 2
``discard 9S``           discard a card; this ends the turn
=======================  =================================================

>>> from sahrat.cards import parse_cards
>>> action = parse_action("add 2 7C JK")
>>> action == add(2, parse_cards(["7C", "JK"], joker=True))
True
>>> str(action)
'add 2 7C JK'

The notation is exact: a text is an action only when it is the very text the
engine writes for that action, so a record, the ``legal`` list and what a
client sends compare as plain strings. Other spellings are refused, naming
the canonical one when there is one:

>>> parse_action("take  meld qs")
Traceback (most recent call last):
...
sahrat.errors.MalformedInput: not in the exact notation: 'take  meld qs' (write 'take meld QS')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, NamedTuple

from sahrat.cards import CODES, JOKER, parse_card
from sahrat.errors import MalformedInput

# Action kinds; the order is also the order of the keywords' table above.
DEALER: Final = 0
SHUFFLE: Final = 1
DRAW: Final = 2
TAKE: Final = 3
TAKE_MELD: Final = 4
TAKE_ADD: Final = 5
MELD: Final = 6
ADD: Final = 7
DISCARD: Final = 8

#: Kinds that are chance outcomes rather than a seat's decision.
CHANCE_KINDS: Final = frozenset((DEALER, SHUFFLE))


class BuracoAction(NamedTuple):
    """``(kind, number, cards)``: ``number`` is a meld index or the dealer seat, else -1."""

    kind: int
    number: int = -1
    cards: tuple[int, ...] = ()

    def __str__(self) -> str:
        kind, number, cards = self
        codes = " ".join(CODES[card] for card in cards)
        if kind == DRAW:
            return "draw"
        if kind == TAKE:
            return "take"
        if kind == DISCARD:
            return f"discard {codes}"
        if kind == MELD:
            return f"meld {codes}"
        if kind == ADD:
            return f"add {number} {codes}"
        if kind == TAKE_MELD:
            return f"take meld {codes}"
        if kind == TAKE_ADD:
            return f"take add {number} {codes}".rstrip()
        if kind == DEALER:
            return f"dealer {number}"
        return f"shuffle {codes}"

    def __repr__(self) -> str:
        text = str(self)
        if len(text) > 40:
            text = text[:37] + "..."
        return f"<BuracoAction {text}>"


def pick_dealer(seat: int) -> BuracoAction:
    return BuracoAction(DEALER, seat)


def shuffle(order: Iterable[int]) -> BuracoAction:
    return BuracoAction(SHUFFLE, -1, tuple(order))


def draw() -> BuracoAction:
    return _DRAW


def take() -> BuracoAction:
    return _TAKE


# Made once: the move generator lists them at every turn.
_DRAW: Final = BuracoAction(DRAW)
_TAKE: Final = BuracoAction(TAKE)


def take_meld(cards: Iterable[int]) -> BuracoAction:
    return BuracoAction(TAKE_MELD, -1, tuple(cards))


def take_add(index: int, cards: Iterable[int] = ()) -> BuracoAction:
    return BuracoAction(TAKE_ADD, index, tuple(cards))


def meld(cards: Iterable[int]) -> BuracoAction:
    return BuracoAction(MELD, -1, tuple(cards))


def add(index: int, cards: Iterable[int]) -> BuracoAction:
    return BuracoAction(ADD, index, tuple(cards))


def discard(card: int) -> BuracoAction:
    return BuracoAction(DISCARD, -1, (card,))


#: ``DISCARDS[card]``, built once: the move generator lists discards on every step.
DISCARDS: Final[tuple[BuracoAction, ...]] = tuple(discard(card) for card in range(JOKER + 1))


_ADDS: Final[list[list[BuracoAction]]] = []


def add_one(index: int, card: int) -> BuracoAction:
    """``add(index, (card,))``, made once: the move generator lists these on every step."""
    while len(_ADDS) <= index:
        at = len(_ADDS)
        _ADDS.append([BuracoAction(ADD, at, (c,)) for c in range(JOKER + 1)])
    return _ADDS[index][card]


def check_shape(action: BuracoAction) -> None:
    """:class:`MalformedInput` unless ``action`` has the fields its kind uses, and only those.

    Parsed actions always pass; this guards actions built by hand.
    """
    kind, number, cards = action
    if not all(type(card) is int and 0 <= card <= JOKER for card in cards):
        raise MalformedInput(f"not a card in {cards!r}", action)
    if kind in (DRAW, TAKE):
        good = number == -1 and not cards
    elif kind == DISCARD:
        good = number == -1 and len(cards) == 1
    elif kind in (MELD, TAKE_MELD, SHUFFLE):
        good = number == -1 and len(cards) >= 1
    elif kind == ADD:
        good = number >= 0 and len(cards) >= 1
    elif kind == TAKE_ADD:
        good = number >= 0
    elif kind == DEALER:
        good = number >= 0 and not cards
    else:
        good = False
    if not good:
        raise MalformedInput(f"not a well-formed Buraco action: {tuple(action)!r}", action)


def _cards(tokens: list[str], text: str, *, at_least: int) -> tuple[int, ...]:
    if len(tokens) < at_least:
        raise MalformedInput(f"missing cards in {text!r}", text)
    return tuple(parse_card(token.upper(), joker=True) for token in tokens)


def _index(token: str, text: str) -> int:
    if not token.isdigit() or not token.isascii():
        raise MalformedInput(f"not a meld index or seat: {token!r} in {text!r}", text)
    return int(token)


def parse_action(text: str) -> BuracoAction:
    """The action written ``text``; :class:`MalformedInput` if it is not an action's form.

    ``text`` must be exactly ``str()`` of the action: one space between tokens,
    none around them, lower-case keywords, upper-case card codes, plain indexes.
    Only the syntax is checked here; whether the action is legal is the state's call.
    """
    action = _read(text)
    canonical = str(action)
    if canonical != text:
        # The tolerant reading only serves to name the canonical form in the message.
        raise MalformedInput(f"not in the exact notation: {text!r} (write {canonical!r})", text)
    return action


def _read(text: str) -> BuracoAction:
    """The action ``text`` would be if case and spacing did not matter."""
    tokens = text.split()
    if not tokens:
        raise MalformedInput("empty action", text)
    word = tokens[0].lower()
    rest = tokens[1:]
    if word in ("draw", "take") and not rest:
        return BuracoAction(DRAW if word == "draw" else TAKE)
    if word == "discard" and len(rest) == 1:
        return discard(parse_card(rest[0].upper(), joker=True))
    if word == "meld":
        return meld(_cards(rest, text, at_least=1))
    if word == "add" and rest:
        return add(_index(rest[0], text), _cards(rest[1:], text, at_least=1))
    if word == "take" and rest[0].lower() == "meld":
        return take_meld(_cards(rest[1:], text, at_least=1))
    if word == "take" and rest[0].lower() == "add" and len(rest) >= 2:
        return take_add(_index(rest[1], text), _cards(rest[2:], text, at_least=0))
    if word == "dealer" and len(rest) == 1:
        return pick_dealer(_index(rest[0], text))
    if word == "shuffle":
        return shuffle(_cards(rest, text, at_least=1))
    raise MalformedInput(f"not a Buraco action: {text!r}", text)
