"""The deal of ``buraco.md`` §3, from a shuffled order (index 0 is the top card).

Eleven cards to each player, one at a time, starting with the player after
the dealer; then two mortos of eleven (the first for side 0, the second for
side 1); then one card face up as the discard pile; the rest is the stock.

>>> from sahrat.cards import BURACO_DECK
>>> deal = deal_cards(BURACO_DECK, players=4, dealer=3)
>>> [len(hand) for hand in deal.hands], [len(m) for m in deal.mortos], len(deal.stock)
([11, 11, 11, 11], [11, 11], 41)
>>> deal.hands[0][:2] == [BURACO_DECK[0], BURACO_DECK[4]]   # seat 0 sits after dealer 3
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

HAND_SIZE = 11
MORTO_SIZE = 11


@dataclass(slots=True)
class Deal:
    """Cards in deal order: ``stock`` and ``mortos`` with their top card **first**."""

    hands: list[list[int]]
    mortos: list[list[int]]
    discard: int
    stock: list[int]


def deal_cards(order: Sequence[int], *, players: int, dealer: int) -> Deal:
    """Split ``order`` into hands, mortos, the first discard and the stock."""
    hands: list[list[int]] = [[] for _ in range(players)]
    first = (dealer + 1) % players
    dealt = HAND_SIZE * players
    for i in range(dealt):
        hands[(first + i) % players].append(order[i])
    mortos = [
        list(order[dealt : dealt + MORTO_SIZE]),
        list(order[dealt + MORTO_SIZE : dealt + 2 * MORTO_SIZE]),
    ]
    up = dealt + 2 * MORTO_SIZE
    return Deal(hands, mortos, order[up], list(order[up + 1 :]))
