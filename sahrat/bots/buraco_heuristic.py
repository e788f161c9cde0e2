"""A heuristic Buraco bot that plays like a good club player, in well under a millisecond.

How it plays a turn:

- **Draw.** It takes the discard pile when the cards in it pay (wild cards,
  cards that go on its side's melds or make new melds with its hand), else
  draws; with a closed pile, it takes with the meld that costs the fewest
  wild cards when the pile is worth it.
- **Empty the hand when it pays.** Each time it may meld it first tries to
  empty its hand this turn (a greedy plan on a copy of the table): with the
  morto still to pick up it always does, since the morto's eleven cards are
  worth more than anything kept; with the morto taken that is going out,
  and it goes out when that wins the hand or the match, or when the other
  side is about to.
- **Meld.** Natural cards go down at once (adds first, a canasta first of
  all); wild cards are kept to complete a canasta when the side needs one,
  and are laid down only when the hand may end soon (a joker left in hand
  costs 50).
- **Discard** the card the hand misses least (:mod:`~sahrat.bots.buraco_hand`),
  never one that extends the other side's melds while a safe one is left.

:func:`evaluate` (a search's leaf evaluation) lives in
:mod:`~sahrat.bots.buraco_eval`; :func:`rollout_choice` is a much cheaper
policy for search rollouts.

>>> from sahrat.games.buraco import BuracoOptions
>>> from sahrat.games.buraco.position import from_table
>>> state = from_table(BuracoOptions(players=2), hands=["5C 6C 7C KD", "AS 3H"],
...                    phase="play")
>>> str(BuracoHeuristicBot(0).choose(state))
'meld 5C 6C 7C'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sahrat.bots.buraco_eval import evaluate
from sahrat.bots.buraco_hand import (
    Outlook,
    discard_cost,
    pile_gain,
    read_table,
)
from sahrat.games.buraco import actions as act
from sahrat.games.buraco.actions import BuracoAction
from sahrat.games.buraco.melds import CANASTA, addable_cards, arrange, extend
from sahrat.games.buraco.points import CARD_POINTS, IS_WILD
from sahrat.games.buraco.scoring import (
    CLEAN_CANASTA,
    DIRTY_CANASTA,
    GOING_OUT,
    MORTO_NOT_TAKEN,
)
from sahrat.games.buraco.state import DRAW, PENDING, TAKEN, UNTAKEN, BuracoState

__all__ = ["BuracoHeuristicBot", "evaluate", "rollout_choice"]

#: Take the open pile when its cards are worth at least this (see ``pile_gain``).
TAKE_PILE_AT = 5.0
#: Each card of a pile left is a card the next opponent may take with it.
DENY_PER_CARD = 12.0
#: ... beyond this many: a pile of two is little more than a card drawn.
DENY_FROM = 2
#: While racing to the morto, a take must pay this much more.
RACING_TAKE_COST = 0.0
#: A hand this small with its morto taken wants cards: each pile card is worth more.
HUNGRY_SIZE = 4
HUNGRY_PER_CARD = 0.0
#: Scores of the melding moves, highest first; a move scoring nothing is not played.
COMPLETE_CANASTA = 300.0
ADD_NATURAL = 120.0
MELD_NATURAL = 100.0
EXTENDS_NEW_MELD = 8.0
ADD_WILD_FOR_CANASTA = 90.0
DUMP = 20.0
#: A hand bigger than this lays down a pair with a wild card (a meld to grow).
WILD_MELD_HAND = 0
#: ... while the side has fewer dirty melds than this on their way to a canasta.
WILD_MELD_DIRTY = 99
#: A wild card goes on a clean meld of this many cards (a canasta in sight).
WILD_ADD_LENGTH = 99
#: From this end threat on, lay down what can be laid down (wild cards too).
DUMP_AT = 0.7
#: From this end threat on, go out even when behind in the hand.
GO_OUT_AT = 0.5
#: Going out needs this lead in the hand (unless it wins the match or they threaten).
GO_OUT_MARGIN = 0.0
#: The points an unseen card in someone's hand is assumed to be worth.
UNSEEN_CARD_POINTS = 8.0
#: A closed take is worth the meld it makes, less each wild card of the hand it uses.
CLOSED_TAKE_MELD = 20.0
CLOSED_TAKE_WILD = 45.0
#: A turn melds at most a hand's worth of cards; the plan never loops longer.
PLAN_STEPS = 40


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

    # -- the draw -------------------------------------------------------------------------

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

    # -- the play phase -------------------------------------------------------------------

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


def open_pile_value(state: BuracoState, outlook: Outlook) -> float:
    """What taking the open pile is worth against drawing."""
    size = len(state.pile)
    value = pile_gain(state.pile, outlook) + DENY_PER_CARD * max(size - DENY_FROM, 0)
    if outlook.morto == UNTAKEN:
        value -= RACING_TAKE_COST
    elif outlook.size <= HUNGRY_SIZE:
        # A small hand with no morto to rush to builds nothing without cards.
        value += HUNGRY_PER_CARD * size
    return value


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
    outlook = read_table(taken, taken.to_move)
    return any(
        action.kind != act.DISCARD and card in action.cards and meld_score(action, outlook) > 0
        for action in taken.legal_actions()
    )


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
        spends_wild = not grown.clean and any(IS_WILD[card] for card in cards)
        if not spends_wild:
            return ADD_NATURAL + points + (COMPLETE_CANASTA if completes else 0.0)
        if meld.clean and len(meld.cards) >= CANASTA:
            return 0.0  # a clean canasta made dirty loses 100
        if completes and (not outlook.has_canasta or dump or outlook.wilds_held >= 2):
            return ADD_WILD_FOR_CANASTA + points
        if dump or len(meld.cards) >= WILD_ADD_LENGTH:
            return DUMP + points
        return 0.0
    new = arrange(cards, sets=outlook.sets)
    if new is None:
        return 0.0
    if new.clean:
        counts = list(outlook.counts)
        for card in cards:
            counts[card] -= 1
        extensions = sum(1 for card in addable_cards(new) if counts[card] and not IS_WILD[card])
        return MELD_NATURAL + points + EXTENDS_NEW_MELD * extensions
    if dump or (
        outlook.size > WILD_MELD_HAND
        and sum(1 for meld in outlook.own if not meld.clean and len(meld.cards) < CANASTA)
        < WILD_MELD_DIRTY
    ):
        return DUMP + points - 5.0
    return 0.0


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
                value += DIRTY_CANASTA if not grown.clean else CLEAN_CANASTA
            elif meld.clean and not grown.clean:
                value -= CLOSED_TAKE_WILD
    return value


# -- emptying the hand -----------------------------------------------------------------------


def _plan_priority(action: BuracoAction, state: BuracoState) -> float:
    """Which move the emptying plan makes first: natural before wild, adds before melds."""
    cards = action.cards
    points = sum(CARD_POINTS[card] for card in cards) / 100
    wild = any(IS_WILD[card] for card in cards)
    if action.kind == act.ADD:
        meld = state.melds[state.to_move & 1][action.number]
        if not wild:
            return 5 + points
        if meld.clean and len(meld.cards) >= CANASTA:
            return 1 + points  # dirties a clean canasta: the last resort
        return 3 + points
    return (2 if wild else 4) + points


def emptying_plan(state: BuracoState, seat: int) -> tuple[list[BuracoAction], BuracoState] | None:
    """Moves that empty ``seat``'s hand this turn, and the table after them, or ``None``.

    A greedy walk on a copy: natural cards first, wild cards after; it ends
    by melding the last card (the morto is picked up, or the side goes out)
    or by discarding it.
    """
    side = seat & 1
    status = state.morto_status[side]
    sim = state.clone()
    hands_played = len(sim.results)
    steps: list[BuracoAction] = []
    for _ in range(PLAN_STEPS):
        legal = sim.legal_actions()
        best: tuple[float, BuracoAction] | None = None
        for action in legal:
            if action.kind == act.MELD or action.kind == act.ADD:
                priority = _plan_priority(action, sim)
                if best is None or priority > best[0]:
                    best = (priority, action)
        if best is None:
            if sim.sizes[seat] == 1:
                for action in legal:
                    if action.kind == act.DISCARD:
                        steps.append(action)
                        sim.apply_action(action)
                        return steps, sim
            return None
        steps.append(best[1])
        sim.apply_action(best[1])
        if sim.morto_status[side] != status or len(sim.results) != hands_played:
            return steps, sim
    return None


def visible_hand_score(state: BuracoState, side: int) -> float:
    """A side's score for the hand if it ended now, unseen hands at a flat rate per card."""
    score = 0.0
    for meld in state.melds[side]:
        score += meld.points
        if len(meld.cards) >= CANASTA:
            score += CLEAN_CANASTA if meld.clean else DIRTY_CANASTA
    for seat in range(side, state.players, 2):
        score -= UNSEEN_CARD_POINTS * state.sizes[seat]
    status = state.morto_status[side]
    if status == PENDING:
        score -= UNSEEN_CARD_POINTS * len(state.mortos[side])
    elif status != TAKEN:
        score += MORTO_NOT_TAKEN
    return score


def wants_to_go_out(state: BuracoState, end: BuracoState, outlook: Outlook) -> bool:
    """Going out (ending at ``end``): when it wins the hand or the match, or they threaten to."""
    if outlook.threat >= GO_OUT_AT:
        return True
    side = outlook.side
    ours = visible_hand_score(end, side) + GOING_OUT
    theirs = visible_hand_score(end, 1 - side)
    mine = state.totals[side] + ours
    if mine >= state.options.target and mine > state.totals[1 - side] + theirs:
        return True
    return ours > theirs + GO_OUT_MARGIN


# -- a cheap policy for search rollouts --------------------------------------------------------


def rollout_choice(state: BuracoState, rng: random.Random) -> BuracoAction:
    """A fast, sensible move: take a pile that helps, meld natural cards, discard the least use."""
    legal = state.legal_actions()
    seat = state.to_move
    side = seat & 1
    if state.phase == DRAW:
        # Never a pile of one card: after a take the pile holds one, so every take
        # follows a draw, the stock shrinks and a rollout cannot go round in circles.
        if len(legal) == 1 or len(state.pile) < 2:
            return act.draw()
        if state.options.closed:
            takes = [
                a for a in legal if a.kind != act.DRAW and not any(IS_WILD[c] for c in a.cards)
            ]
            return rng.choice(takes) if takes else act.draw()
        pile = state.pile
        top = pile[-1]
        if (
            len(pile) >= 3
            or IS_WILD[top]
            or any(top in addable_cards(meld) for meld in state.melds[side])
        ):
            return act.take()
        return act.draw()
    discards: list[BuracoAction] = []
    melds: list[BuracoAction] = []
    for action in legal:
        kind = action.kind
        if kind == act.DISCARD:
            discards.append(action)
        elif not any(IS_WILD[card] for card in action.cards):
            if kind == act.ADD:
                return action
            melds.append(action)
    if melds:
        return rng.choice(melds)
    if not discards:
        return rng.choice(legal)  # the last card may not be discarded: meld what is left
    hand = state.hands[seat]
    theirs = state.melds[1 - side]
    best = discards[0]
    best_cost = 1e9
    for action in discards:
        card = action.cards[0]
        if IS_WILD[card]:
            cost = 100.0 + CARD_POINTS[card]
        else:
            cost = rng.random() - CARD_POINTS[card] / 10
            rank = card % 13
            if (rank > 0 and hand[card - 1]) or (rank < 12 and hand[card + 1]):
                cost += 10.0
            if any(card in addable_cards(meld) for meld in theirs):
                cost += 50.0
        if cost < best_cost:
            best, best_cost = action, cost
    return best
