"""Shared helpers of the Buraco tests: card notation, sources, table set-up, invariants."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import MutableSequence, Sequence

from sahrat.cards import BURACO_DECK, format_cards, parse_cards
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.table import PENDING


def c(text: str) -> list[int]:
    """Cards written as codes: ``c("5C 6C JK")``."""
    return parse_cards(text.split(), joker=True)


def card(code: str) -> int:
    return c(code)[0]


def codes(cards: Sequence[int]) -> str:
    return format_cards(cards)


class RandomModuleSource:
    """Chance outcomes from a seeded :class:`random.Random`, recording the labels asked."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.labels: list[str] = []

    def uniform(self, label: str, n: int) -> int:
        self.labels.append(label)
        return self.rng.randrange(n)

    def shuffle(self, label: str, items: MutableSequence[int]) -> None:
        self.labels.append(label)
        self.rng.shuffle(items)


def rest_of(*groups: Sequence[int]) -> list[int]:
    """The deck's cards not in ``groups``, in deck order."""
    left = Counter(BURACO_DECK)
    for group in groups:
        left.subtract(group)
    assert min(left.values()) >= 0, "more cards than the deck holds"
    return [card for card in sorted(left) for _ in range(left[card])]


def all_cards(state: BuracoState) -> Counter[int]:
    """Every card of the table, wherever it lies."""
    found: Counter[int] = Counter(state.stock)
    found.update(state.pile)
    for side in (0, 1):
        found.update(state.mortos[side])
        for meld in state.melds[side]:
            found.update(meld.cards)
    for seat in range(state.players):
        found.update(state.hand(seat))
    return found


def deal_first_hand(options: BuracoOptions, seed: int) -> tuple[BuracoState, RandomModuleSource]:
    """A match with its first hand dealt from a seeded source."""
    state = BuracoState(options)
    source = RandomModuleSource(seed)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(source))
    return state, source


def play_random(
    state: BuracoState, source: RandomModuleSource, rng: random.Random, *, hands: int = 1
) -> list[BuracoAction]:
    """Play until ``hands`` more hands have ended (or the match); the actions applied."""
    goal = len(state.results) + hands
    record: list[BuracoAction] = []
    while len(state.results) < goal and not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance(source)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        record.append(action)
    return record


def morto_in_hand(state: BuracoState, side: int) -> list[int]:
    """A pending morto's cards (they count as left in hand)."""
    return list(state.mortos[side]) if state.morto_status[side] == PENDING else []


def snapshot(state: BuracoState) -> tuple[object, ...]:
    """Everything a state holds, as immutable values (to check that nothing changed)."""
    return (
        state.phase,
        state.to_move,
        state.dealer,
        state.hand_number,
        tuple(state.totals),
        tuple(state.results),
        state.winner,
        tuple(tuple(hand) for hand in state.hands),
        tuple(state.sizes),
        tuple(tuple(side) for side in state.melds),
        tuple(state.pile),
        tuple(state.stock),
        tuple(tuple(morto) for morto in state.mortos),
        tuple(state.morto_status),
        tuple(state.morto_holder),
        state.went_out,
    )
