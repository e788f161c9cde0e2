"""What :meth:`BuracoState.legal_actions` lists (see :mod:`~sahrat.games.buraco.state`).

Enumerating every subset of a hand is combinatorial, so in the play phase the
list holds every distinct valid three-card new meld, every single card that
can be added to one of the side's melds, and every distinct discard; in the
closed draw phase, every take with a three-card meld or with the top card
(alone or with one card of the hand) added to a meld.
"""

from __future__ import annotations

from collections.abc import Sequence

from sahrat.cards import RANK, SUIT
from sahrat.errors import IllegalMove
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.generate import MELD_ACTIONS, three_card_meld_ids, three_card_melds
from sahrat.games.buraco.melds import SEQUENCE, Meld, addable_cards, extend
from sahrat.games.buraco.table import (
    CARD_KINDS,
    CHOOSE_DEALER,
    DRAW,
    PLAY,
    BuracoTable,
)


class MoveGenerator(BuracoTable):
    """The move generator of a Buraco match (a base of ``BuracoState``)."""

    __slots__ = ()

    def _generate(self) -> list[BuracoAction]:
        phase = self.phase
        if phase == CHOOSE_DEALER:
            return [act.pick_dealer(seat) for seat in range(self.players)]
        if phase == DRAW:
            if not self.options.closed:
                return [act.draw(), act.take()] if self.pile else [act.draw()]
            return [act.draw(), *self._closed_takes()]
        if phase == PLAY:
            return self._plays()
        return []

    def _listable(self, seat: int, action: BuracoAction, gained: Sequence[int] = ()) -> bool:
        """Does ``action`` (a valid meld or addition) pass the emptying rules?"""
        if self.sizes[seat] - len(action.cards) + len(gained) > 1:
            return True
        try:
            cards = action.cards
            if action.kind in (act.TAKE_MELD, act.TAKE_ADD):
                cards = (self.pile[-1], *cards)
            self._check_emptying(seat, action, self._melds_after(seat, action, cards), gained)
        except IllegalMove:
            return False
        return True

    def _plays(self) -> list[BuracoAction]:
        seat = self.to_move
        side = self.side_of(seat)
        hand = self.hands[seat]
        found: list[BuracoAction] = []
        # With two cards or more left after the play, every meld and addition passes the
        # emptying rules: checking them one by one is only needed near the end.
        roomy = self.sizes[seat] > 4
        meld_actions = MELD_ACTIONS
        for i in three_card_meld_ids(hand, sets=self.options.sets):
            action = meld_actions[i]
            if roomy or self._listable(seat, action):
                found.append(action)
        for index, meld in enumerate(self.melds[side]):
            for card in addable_cards(meld):
                if hand[card]:
                    action = act.add_one(index, card)
                    if roomy or self._listable(seat, action):
                        found.append(action)
        if self.sizes[seat] > 1 or self._may_empty(side, self.melds[side]):
            discards = act.DISCARDS
            for card in range(CARD_KINDS):
                if hand[card]:
                    found.append(discards[card])
        return found

    def _closed_takes(self) -> list[BuracoAction]:
        if not self.pile:
            return []
        seat = self.to_move
        top = self.pile[-1]
        gained = self.pile[:-1]
        hand = self.hands[seat]
        with_top = hand[:]
        with_top[top] += 1
        found: list[BuracoAction] = []
        for new in three_card_melds(with_top, sets=self.options.sets):
            if top in new.cards:
                rest = list(new.cards)
                rest.remove(top)
                action = act.take_meld(rest)
                if self._listable(seat, action, gained):
                    found.append(action)
        for index, meld in enumerate(self.melds[self.side_of(seat)]):
            if top in addable_cards(meld):
                action = act.take_add(index)
                if self._listable(seat, action, gained):
                    found.append(action)
            for card in range(CARD_KINDS):
                if hand[card] and _may_join(meld, card) and extend(meld, (top, card)):
                    action = act.take_add(index, (card,))
                    if self._listable(seat, action, gained):
                        found.append(action)
        return found


def _may_join(meld: Meld, card: int) -> bool:
    """A cheap filter before validating: the meld's suit or rank, or a wild card."""
    rank = RANK[card]
    if rank == 0 or rank == 2:
        return True
    return SUIT[card] == meld.base if meld.kind == SEQUENCE else rank == meld.base
