"""What a seat sees (view) and full states consistent with it (determinize)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from sahrat.cards import BURACO_DECK, CODES
from sahrat.errors import MalformedInput
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.setup import from_table
from sahrat.games.buraco.view import BuracoView

from .helpers import RandomModuleSource, all_cards, c, codes, deal_first_hand, snapshot

_CODES = frozenset(CODES)


def codes_in_json(value: object) -> Counter[str]:
    """Every card code anywhere in a JSON value."""
    found: Counter[str] = Counter()
    if isinstance(value, str):
        if value in _CODES:
            found[value] += 1
    elif isinstance(value, list):
        for item in value:
            found += codes_in_json(item)
    elif isinstance(value, dict):
        for item in value.values():
            found += codes_in_json(item)
    return found


def assert_view_hides(state: BuracoState, seat: int) -> None:
    view = state.view(seat)
    expected = Counter(state.hand(seat))
    for side in state.melds:
        for meld in side:
            expected.update(meld.cards)
    expected.update(state.pile)
    shown = list(view.hand)
    for side_melds in view.melds:
        for meld in side_melds:
            shown.extend(meld.cards)
    shown.extend(view.discard_pile)
    assert Counter(shown) == expected
    as_json = view.to_json()
    json.dumps(as_json)
    assert codes_in_json(as_json) == Counter(CODES[x] for x in expected.elements())
    # Nothing but these fields, and no field holds cards apart from the visible ones.
    assert set(as_json) == {
        "seat", "options", "phase", "to_move", "dealer", "hand_number", "hand", "hand_sizes",
        "melds", "discard_pile", "stock_size", "morto_sizes", "morto_status", "totals",
        "idle_turns", "results", "went_out", "winner",
    }  # fmt: skip


def test_view_shows_own_hand_counts_melds_pile_and_sizes() -> None:
    state = from_table(
        BuracoOptions(seats=4),
        hands=["5C 6C 7C", "KS KH", "QD", "JS JH 4D 3D"],
        melds=[["AH 2H 3H"], ["9S TS JK"]],
        discard_pile="8D 4S",
        stock="2D",
        phase="play",
    )
    view = state.view(1)
    assert isinstance(view, BuracoView)
    assert codes(view.hand) == "KS KH"
    assert view.hand_sizes == (3, 2, 1, 4)
    assert [[codes(m.cards) for m in side] for side in view.melds] == [["AH 2H 3H"], ["9S TS JK"]]
    assert codes(view.discard_pile) == "8D 4S"
    assert view.stock_size == state.stock_size
    assert view.morto_sizes == (11, 11)
    assert view.to_move == 0 and view.phase == "play"
    assert_view_hides(state, 1)


def test_view_of_a_waiting_morto_shows_only_its_size() -> None:
    state = from_table(BuracoOptions(seats=2), hands=["9H", "KS KH"], phase="play")
    state.apply_action("discard 9H")
    for seat in (0, 1):
        view = state.view(seat)
        assert view.morto_status == ("pending", "untaken")
        assert view.morto_sizes == (11, 11)
        assert_view_hides(state, seat)


def test_view_rejects_a_seat_not_at_the_table() -> None:
    state = BuracoState(BuracoOptions(seats=2))
    with pytest.raises(MalformedInput):
        state.view(2)


@pytest.mark.parametrize("players", [2, 4])
def test_view_hides_every_hand_but_the_seats_own_during_play(players: int) -> None:
    state, _ = deal_first_hand(BuracoOptions(seats=players, sets=True), 11)
    rng = random.Random(11)
    for _ in range(150):
        if state.results:
            break
        for seat in range(players):
            assert_view_hides(state, seat)
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_is_consistent_with_the_view(players: int) -> None:
    state, _ = deal_first_hand(BuracoOptions(seats=players), 4)
    rng = random.Random(4)
    for step in range(120):
        if state.results:
            break
        if step % 10 == 0:
            for seat in range(players):
                before = snapshot(state)
                guess = state.determinize(seat, RandomModuleSource(step))
                assert snapshot(state) == before
                assert guess.view(seat) == state.view(seat)
                assert all_cards(guess) == Counter(BURACO_DECK)
                assert guess.sizes == state.sizes
                assert [len(m) for m in guess.mortos] == [len(m) for m in state.mortos]
                if seat == state.current_player():
                    assert guess.legal_actions() == state.legal_actions()
        state.apply_action(rng.choice(state.legal_actions()))


def test_determinize_deals_the_unseen_cards_afresh() -> None:
    state, _ = deal_first_hand(BuracoOptions(seats=2), 8)
    guess = state.determinize(0, RandomModuleSource(1))
    assert guess.hand(0) == state.hand(0)
    assert guess.hand(1) != state.hand(1) or guess.stock != state.stock
    assert Counter(guess.hand(1) + guess.stock + guess.mortos[0] + guess.mortos[1]) == Counter(
        state.hand(1) + state.stock + state.mortos[0] + state.mortos[1]
    )


def test_determinize_before_the_deal_is_a_copy() -> None:
    state = BuracoState(BuracoOptions(seats=4))
    guess = state.determinize(2, RandomModuleSource())
    assert guess.current_player() == CHANCE and snapshot(guess) == snapshot(state)


def test_clone_is_independent() -> None:
    state = from_table(BuracoOptions(seats=2), hands=["5C 6C 7C 9D", "KS KH"], phase="play")
    copy = state.clone()
    before = snapshot(copy)
    state.apply_action("meld 5C 6C 7C")
    assert snapshot(copy) == before
    assert copy.hand(0) == sorted(c("5C 6C 7C 9D"))
    copy.apply_action("discard 9D")
    assert codes(state.hand(0)) == "9D"
