"""A heuristic Buraco bot that plays like a good club player, in well under a millisecond.

How it plays a turn:

- **Draw.** It takes the open pile when its cards pay — wild cards, cards
  that go on its side's melds or make new melds with the hand — counting
  every card beyond the second as one kept from the next opponent, who would
  take the pile otherwise (so early in a hand a pile of four is taken
  whatever it holds). A single card is taken only to meld it at once. A
  closed pile is taken whenever a take costs no more wild cards than the
  pile is worth.
- **Empty the hand when it pays** (:mod:`~sahrat.bots.buraco.plan`). With
  the morto still to pick up it always does, wild cards and all: the morto's
  eleven cards beat anything kept. With the morto taken that is going out,
  and it goes out when that wins the hand or the match, or when the other
  side is about to.
- **Meld.** Natural cards go down at once, completing a canasta first, then
  additions, then new melds. A wild card joins a pair in a new meld (a meld
  on the table grows with both partners' cards) — unless the pile is closed:
  then a wild card held is the key to the pile. A clean meld stays clean: a
  wild card goes on one only to complete a canasta the side needs, or when
  the hand may end soon and a joker held would cost 50.
- **Discard** the card the hand misses least (:mod:`~sahrat.bots.buraco.hand`):
  never a wild card, never one that extends the other side's melds while a
  safe one is left, preferably a dead card or one an opponent let go.

The functions a search needs come with it: :func:`evaluate`, a leaf
evaluation (:mod:`~sahrat.bots.buraco.eval`), and :func:`rollout_choice`, a
much cheaper policy (:mod:`~sahrat.bots.buraco.rollout`).

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.setup import from_table
>>> state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C KD QH", "AS 3H"],
...                    phase="play")
>>> str(BuracoHeuristicBot(0).choose(state))
'meld 5C 6C 7C'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sahrat.bots.buraco.eval import evaluate
from sahrat.bots.buraco.hand import discard_cost, pile_gain
from sahrat.bots.buraco.plan import emptying_plan, wants_to_go_out
from sahrat.bots.buraco.rollout import rollout_choice
from sahrat.bots.buraco.table import Outlook, read_table
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import CANASTA, addable_cards, arrange, extend
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.scoring import CLEAN_CANASTA, DIRTY_CANASTA
from sahrat.games.buraco.state import BuracoState
from sahrat.games.buraco.table import DRAW, TAKEN, UNTAKEN

__all__ = ["BuracoHeuristicBot", "evaluate", "rollout_choice", "score_actions"]

#: Take the open pile when it is worth at least this (``pile_gain`` plus the denial).
TAKE_PILE_AT = 5.0
#: Each card of an open pile beyond the first two is one the next opponent would
#: otherwise take; a pile of two is little more than a card drawn.
DENY_PER_CARD = 12.0
DENY_FROM = 2
#: A closed take is worth the meld it makes, less each wild card of the hand it spends.
CLOSED_TAKE_MELD = 20.0
CLOSED_TAKE_WILD = 45.0

#: Scores of the melding moves, highest first; a move scoring nothing is not played.
COMPLETE_CANASTA = 300.0
ADD_NATURAL = 120.0
MELD_NATURAL = 100.0
EXTENDS_NEW_MELD = 8.0
ADD_WILD_FOR_CANASTA = 90.0
WILD_MELD = 15.0
DUMP = 20.0
#: From this end threat on, lay down what can be laid down, wild cards too.
DUMP_AT = 0.7


class BuracoHeuristicBot:
    """The club player; ``seed`` only breaks ties between equally good discards."""

    name = "heuristic"

    def __init__(self, seed: int | random.Random | None = None) -> None:
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, state: BuracoState) -> BuracoAction:
        legal = state.legal_actions()
        if not legal:
            raise ValueError("no legal action: not a seat's turn")
        outlook = read_table(state, state.current_player())
        if state.phase == DRAW:
            return self._draw(state, legal, outlook)
        return self._play(state, legal, outlook)

    def _draw(
        self, state: BuracoState, legal: Sequence[BuracoAction], outlook: Outlook
    ) -> BuracoAction:
        if outlook.closed:
            best: tuple[float, BuracoAction] | None = None
            for action in legal:
                if action.kind == act.TAKE_MELD or action.kind == act.TAKE_ADD:
                    value = closed_take_value(state, action, outlook)
                    if best is None or value > best[0]:
                        best = (value, action)
            if best is not None and best[0] > 0:
                return best[1]
        elif (
            len(legal) > 1
            and open_pile_value(state, outlook) >= TAKE_PILE_AT
            and (len(state.pile) > 1 or _single_card_pays(state, outlook))
        ):
            return act.take()
        return act.draw()

    def _play(
        self, state: BuracoState, legal: Sequence[BuracoAction], outlook: Outlook
    ) -> BuracoAction:
        keep_two = False
        if outlook.morto == UNTAKEN or outlook.morto == TAKEN:
            plan = emptying_plan(state, outlook.seat)
            if plan is not None:
                steps, end = plan
                if outlook.morto == UNTAKEN or wants_to_go_out(state, end, outlook):
                    return steps[0]
                # Going out would lose: keep two cards, so the discard cannot empty the hand.
                keep_two = True
        best: tuple[float, BuracoAction] | None = None
        for action in legal:
            if action.kind == act.MELD or action.kind == act.ADD:
                if keep_two and outlook.size - len(action.cards) < 2:
                    continue
                value = meld_score(action, outlook)
                if value > 0 and (best is None or value > best[0]):
                    best = (value, action)
        if best is not None:
            return best[1]
        discards = [action for action in legal if action.kind == act.DISCARD]
        if not discards:
            # The last card may not be discarded: lay down whatever the engine allows.
            return max(legal, key=lambda action: meld_score(action, outlook))
        rng = self.rng.random
        return min(
            discards, key=lambda action: discard_cost(action.cards[0], outlook) + 0.01 * rng()
        )


def score_actions(state: BuracoState, legal: Sequence[BuracoAction]) -> list[float]:
    """The heuristic's opinion of each action for the seat to move (higher is better).

    The scales are the heuristic's own: a draw is 0 and a take what it is worth
    beyond the threshold the heuristic takes at; a meld or addition its
    :func:`meld_score` (kept cards at 0 or less), a discard minus its cost, so a
    meld the heuristic would lay down ranks above every discard. A search asks
    this for the runners-up of the heuristic's own choice.
    """
    outlook = read_table(state, state.current_player())
    if state.phase == DRAW:
        scores: list[float] = []
        for action in legal:
            kind = action.kind
            if kind == act.TAKE:
                scores.append(open_pile_value(state, outlook) - TAKE_PILE_AT)
            elif kind == act.TAKE_MELD or kind == act.TAKE_ADD:
                scores.append(closed_take_value(state, action, outlook))
            else:
                scores.append(0.0)
        return scores
    return [
        -discard_cost(action.cards[0], outlook)
        if action.kind == act.DISCARD
        else meld_score(action, outlook)
        for action in legal
    ]


# -- the draw ---------------------------------------------------------------------------------


def open_pile_value(state: BuracoState, outlook: Outlook) -> float:
    """What taking the open pile is worth against drawing."""
    size = len(state.pile)
    return pile_gain(state.pile, outlook) + DENY_PER_CARD * max(size - DENY_FROM, 0)


def _single_card_pays(state: BuracoState, outlook: Outlook) -> bool:
    """Is a one-card pile worth taking: a wild card to keep, or a card to meld at once?

    Taking a one-card pile only to discard it again is how a table goes round
    in circles (the stock never shrinks), so a wild card is taken only while
    the hand has a natural card to discard instead, and a natural one to meld.
    """
    card = state.pile[0]
    if IS_WILD[card]:
        return outlook.wilds_held < outlook.size
    taken = state.clone()
    taken.apply_action(act.take())
    after = read_table(taken, taken.to_move)
    return any(
        action.kind != act.DISCARD and card in action.cards and meld_score(action, after) > 0
        for action in taken.legal_actions()
    )


def closed_take_value(state: BuracoState, action: BuracoAction, outlook: Outlook) -> float:
    """What taking the closed pile with ``action`` is worth against drawing."""
    pile = state.pile
    top = pile[-1]
    cards = action.cards
    value = CLOSED_TAKE_MELD + pile_gain(pile[:-1], outlook) + DENY_PER_CARD * len(pile)
    value -= CLOSED_TAKE_WILD * sum(IS_WILD[card] for card in cards)
    if action.kind == act.TAKE_ADD:
        meld = outlook.own[action.number]
        grown = extend(meld, (top, *cards))
        if grown is not None:
            if len(meld.cards) < CANASTA <= len(grown.cards):
                value += CLEAN_CANASTA if grown.clean else DIRTY_CANASTA
            elif meld.clean and not grown.clean:
                value -= CLOSED_TAKE_WILD
    return value


# -- melding ----------------------------------------------------------------------------------


def meld_score(action: BuracoAction, outlook: Outlook) -> float:
    """How much laying ``action`` down now is worth; 0 or less to keep the cards."""
    cards = action.cards
    points = sum(CARD_POINTS[card] for card in cards)
    dump = outlook.threat >= DUMP_AT
    if action.kind == act.ADD:
        meld = outlook.own[action.number]
        grown = extend(meld, cards)
        if grown is None:
            return 0.0
        completes = len(meld.cards) < CANASTA <= len(grown.cards)
        if grown.clean or not any(IS_WILD[card] for card in cards):
            return ADD_NATURAL + points + (COMPLETE_CANASTA if completes else 0.0)
        if meld.clean and len(meld.cards) >= CANASTA:
            return 0.0  # a clean canasta made dirty loses 100
        if completes and (not outlook.has_canasta or dump or outlook.wilds_held >= 2):
            return ADD_WILD_FOR_CANASTA + points
        return DUMP + points if dump else 0.0
    new = arrange(cards, sets=outlook.sets)
    if new is None:
        return 0.0
    if not new.clean:
        # A wild card with a pair starts a meld both partners grow; but a closed pile
        # is taken only by melding its top card, which a wild card held nearly always can.
        if outlook.closed and not dump:
            return 0.0
        return WILD_MELD + points
    counts = list(outlook.counts)
    for card in cards:
        counts[card] -= 1
    extensions = sum(1 for card in addable_cards(new) if counts[card] and not IS_WILD[card])
    return MELD_NATURAL + points + EXTENDS_NEW_MELD * extensions
