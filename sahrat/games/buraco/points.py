"""Card points (``buraco.md`` §1) and the wild cards.

>>> from sahrat.cards import parse_cards
>>> points_of(parse_cards(["JK", "AS", "2H", "KD", "7C"], joker=True))
90
"""

from __future__ import annotations

from collections.abc import Iterable

from sahrat.cards import JOKER, RANK

#: Points by rank index (0 = joker, 1 = ace … 13 = king).
_BY_RANK = (50, 15, 10, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)

#: ``CARD_POINTS[card]`` for every card int, the joker included.
CARD_POINTS: tuple[int, ...] = tuple(_BY_RANK[RANK[card]] for card in range(JOKER + 1))

#: ``IS_WILD[card]``: a joker or a 2 (a 2 may still stand in its natural place).
IS_WILD: tuple[bool, ...] = tuple(RANK[card] in (0, 2) for card in range(JOKER + 1))


def points_of(cards: Iterable[int]) -> int:
    """The sum of the cards' points."""
    return sum(CARD_POINTS[card] for card in cards)
