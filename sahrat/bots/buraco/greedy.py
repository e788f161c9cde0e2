"""A greedy Buraco bot: meld what it can now, keep the wild cards, discard what helps least.

It looks one action ahead and never searches; it is the opponent of the
``sahrat buraco demo`` and a baseline for stronger bots. Like every bot it
chooses only among :meth:`~sahrat.games.buraco.BuracoState.legal_actions`.

>>> import random
>>> from sahrat.fairness import FairSource, Seeds
>>> from sahrat.games.buraco import BuracoOptions, BuracoState
>>> state = BuracoState(BuracoOptions(seats=2))
>>> source = FairSource(Seeds(bytes(32), "doc", ("a", "b")))
>>> while state.current_player() < 0:
...     state.apply_action(state.sample_chance(source))
>>> bot = GreedyBuracoBot(random.Random(0))
>>> bot.choose(state) in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sahrat.cards import RANK, SUIT
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import CANASTA, Meld, addable_cards, arrange
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.state import BuracoState


class GreedyBuracoBot:
    """Chooses an action for the seat to move; ``rng`` only breaks ties."""

    name = "greedy"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def choose(self, state: BuracoState) -> BuracoAction:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: not a seat's turn")
        if state.phase_name == "draw":
            return self._draw(state, legal)
        return self._play(state, legal)

    # -- the draw phase ---------------------------------------------------------------

    def _draw(self, state: BuracoState, legal: Sequence[BuracoAction]) -> BuracoAction:
        takes = [a for a in legal if a.kind in (act.TAKE_MELD, act.TAKE_ADD)]
        if takes:
            # Closed pile: the take that puts the fewest wild cards down.
            return min(takes, key=lambda a: (sum(IS_WILD[c] for c in a.cards), len(a.cards)))
        if act.take() in legal and self._pile_is_worth_it(state):
            return act.take()
        return act.draw()

    def _pile_is_worth_it(self, state: BuracoState) -> bool:
        seat = state.current_player()
        top = state.pile[-1]
        if IS_WILD[top] or len(state.pile) >= 5:
            return True
        if any(top in addable_cards(m) for m in state.melds[state.side_of(seat)]):
            return True
        hand = state.hand(seat)
        # Does the top card make a natural meld with two cards of the hand?
        return any(
            arrange((top, a, b), sets=state.options.sets) is not None
            for i, a in enumerate(hand)
            for b in hand[i + 1 :]
            if not IS_WILD[a] and not IS_WILD[b]
        )

    # -- the play phase ---------------------------------------------------------------

    def _play(self, state: BuracoState, legal: Sequence[BuracoAction]) -> BuracoAction:
        seat = state.current_player()
        own = state.melds[state.side_of(seat)]
        best: tuple[float, BuracoAction] | None = None
        for action in legal:
            if action.kind == act.DISCARD:
                continue
            value = self._meld_value(action, own, state.sizes[seat])
            if value is not None and (best is None or value > best[0]):
                best = (value, action)
        if best is not None:
            return best[1]
        discards = [a for a in legal if a.kind == act.DISCARD]
        return min(discards, key=lambda a: self._keep_value(state, a.cards[0]))

    def _meld_value(
        self, action: BuracoAction, own: Sequence[Meld], hand_size: int
    ) -> float | None:
        """How much the meld or addition is worth now; ``None`` to keep the cards."""
        wilds = sum(IS_WILD[card] for card in action.cards)
        points = sum(CARD_POINTS[card] for card in action.cards)
        if action.kind == act.ADD:
            before = len(own[action.number].cards)
            completes = before < CANASTA <= before + len(action.cards)
            if wilds and not completes:
                return None  # a wild card is worth more in hand until it makes a canasta
            return points + (300 if completes else 50) + self.rng.random()
        arranged = arrange(action.cards, sets=True)
        if arranged is None or (not arranged.clean and hand_size <= 4):
            return None
        return points - 40 * wilds + self.rng.random()

    def _keep_value(self, state: BuracoState, card: int) -> float:
        """How useful ``card`` is in hand: the lowest is discarded."""
        if IS_WILD[card]:
            return 1000.0
        seat = state.current_player()
        hand = state.hand(seat)
        near = sum(
            1
            for other in hand
            if other != card and SUIT[other] == SUIT[card] and abs(RANK[other] - RANK[card]) <= 2
        )
        same = sum(1 for other in hand if RANK[other] == RANK[card]) - 1
        value = 10.0 * near + (5.0 * same if state.options.sets else 0.0)
        # Feeding the opponents' melds is the worst discard.
        theirs = state.melds[1 - state.side_of(seat)]
        if any(card in addable_cards(meld) for meld in theirs):
            value += 40.0
        return value - CARD_POINTS[card] / 10 + self.rng.random()
