"""Properties of random hands, 2 and 4 players, every option."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from sahrat.cards import BURACO_DECK
from sahrat.game import CHANCE, TERMINAL
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.actions import parse_action
from sahrat.games.buraco.melds import SEQUENCE, arrange_sequence, arrange_set
from sahrat.games.buraco.points import points_of
from sahrat.games.buraco.table import PENDING, TAKEN

from .helpers import all_cards, deal_first_hand, morto_in_hand, snapshot
from .test_view import assert_view_hides

DECK = Counter(BURACO_DECK)


def check_table(state: BuracoState) -> None:
    """108 cards, valid melds only, hand sizes that match the hands."""
    assert all_cards(state) == DECK
    for side in state.melds:
        for meld in side:
            again = (
                arrange_sequence(meld.cards) if meld.kind == SEQUENCE else arrange_set(meld.cards)
            )
            assert again == meld
            assert state.options.sets or meld.kind == SEQUENCE
    assert state.sizes == [len(state.hand(seat)) for seat in range(state.players)]


def check_every_listed_action_applies(state: BuracoState) -> None:
    before = snapshot(state)
    for action in state.legal_actions():
        copy = state.clone()
        copy.apply_action(action)
        check_table(copy)
    assert snapshot(state) == before  # clones are independent


def recomputed_totals(state: BuracoState) -> list[int]:
    """Both sides' hand totals from the final table, written out from §5."""
    totals = []
    for side in (0, 1):
        melds = state.melds[side]
        clean = sum(1 for m in melds if len(m.cards) >= 7 and m.clean)
        dirty = sum(1 for m in melds if len(m.cards) >= 7 and not m.clean)
        left = morto_in_hand(state, side)
        for seat in state.seats_of(side):
            left += state.hand(seat)
        took = state.morto_status[side] in (PENDING, TAKEN)
        bonus = 200 * clean + 100 * dirty + (100 if state.went_out == side else 0)
        bonus -= 0 if took else 100
        totals.append(sum(points_of(m.cards) for m in melds) + bonus - points_of(left))
    return totals


@settings(max_examples=120, deadline=None)
@given(
    players=st.sampled_from([2, 4]),
    sets=st.booleans(),
    closed=st.booleans(),
    target=st.sampled_from([1000, 2000, 3000]),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_hands_keep_every_invariant(
    players: int, sets: bool, closed: bool, target: int, seed: int
) -> None:
    options = BuracoOptions(seats=players, target=target, sets=sets, closed=closed)
    state, _ = deal_first_hand(options, seed)
    rng = random.Random(seed)
    step = 0
    while not state.results:
        if step % 7 == 0:
            check_table(state)
            for seat in range(players):
                assert_view_hides(state, seat)
        if step % 40 == 0:
            check_every_listed_action_applies(state)
        legal = state.legal_actions()
        assert legal, "a seat to move always has a legal action"
        assert len(set(legal)) == len(legal)
        action = rng.choice(legal)
        assert parse_action(str(action)) == action
        state.apply_action(action)
        step += 1
    check_table(state)
    result = state.results[-1]
    assert [side.total for side in result.sides] == recomputed_totals(state)
    assert list(result.totals) == state.totals == recomputed_totals(state)
    if result.went_out >= 0:
        went_out_seats = [s for s in state.seats_of(result.went_out) if not state.hand(s)]
        assert went_out_seats, "someone of the side that went out has an empty hand"
    assert state.current_player() in (CHANCE, TERMINAL)
