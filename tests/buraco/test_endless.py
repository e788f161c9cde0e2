"""No endless hands (buraco.md §4): twelve turns in a row without a draw from the stock
end the hand as if the stock had run out.

An idle turn here is the one a loop is made of: take the discard pile and throw its
top card back, so the pile and every hand stay as they were.
"""

from __future__ import annotations

from collections import Counter

import pytest

from sahrat.cards import CODES
from sahrat.game import CHANCE
from sahrat.games.buraco import BuracoOptions, BuracoState
from sahrat.games.buraco.setup import from_table
from sahrat.simulation import SimSource

LIMIT = 12
FOUR = BuracoOptions(seats=4)
TWO = BuracoOptions(seats=2)

# A four-seat table: seat 0 to move after dealer 3; side 0 has a meld worth 30, side 1
# one worth 15; the hands hold 45 points per side; both mortos untaken (-100 each).
HANDS = ["3C 4D 9S", "KD QS 5H", "6C JD 8S", "4S 7D TC"]
MELDS = [["8H 9H TH"], ["5S 6S 7S"]]
#: Each side's score when such a hand ends with nobody out: melded - hand - morto.
SCORES = (30 - 45 - 100, 15 - 45 - 100)


def table(options: BuracoOptions = FOUR, **changes: object) -> BuracoState:
    layout: dict[str, object] = {"hands": HANDS, "melds": MELDS, "discard_pile": "KC"}
    if options.seats == 2:
        layout["hands"] = HANDS[:2]
    layout.update(changes)
    return from_table(options, **layout)  # type: ignore[arg-type]  # checked by from_table


def idle_turn(state: BuracoState) -> None:
    """The seat to move takes the pile and throws its top card back."""
    top = state.view(state.current_player()).to_json()["discard_pile"][-1]
    state.apply_action("take")
    state.apply_action(f"discard {top}")


def drawing_turn(state: BuracoState) -> None:
    """The seat to move draws from the stock and discards the card drawn."""
    seat = state.current_player()
    before = Counter(state.hand(seat))
    state.apply_action("draw")
    (drawn,) = Counter(state.hand(seat)) - before
    state.apply_action(f"discard {CODES[drawn]}")


def idle_turns(state: BuracoState, count: int) -> None:
    for _ in range(count):
        idle_turn(state)


def shown_count(state: BuracoState) -> set[int]:
    """The idle count every seat's view shows (one value when they agree)."""
    return {state.view(seat).to_json()["idle_turns"] for seat in state.seats}


@pytest.mark.parametrize("options", [FOUR, TWO], ids=["four", "two"])
def test_eleven_idle_turns_do_not_end_the_hand(options: BuracoOptions) -> None:
    state = table(options)
    idle_turns(state, LIMIT - 1)
    assert state.results == []
    assert state.phase_name == "draw"
    assert state.current_player() == (LIMIT - 1) % options.seats
    assert shown_count(state) == {LIMIT - 1}


@pytest.mark.parametrize("options", [FOUR, TWO], ids=["four", "two"])
def test_the_twelfth_idle_turn_ends_the_hand_as_if_the_stock_ran_out(
    options: BuracoOptions,
) -> None:
    state = table(options)
    stock = state.stock_size
    idle_turns(state, LIMIT)
    (result,) = state.results
    assert result.went_out == -1
    assert not result.sides[0].went_out and not result.sides[1].went_out
    assert state.stock_size == stock  # the stock is not empty: the idle turns ended it
    assert state.phase_name == "shuffle" and state.current_player() == CHANCE
    assert state.dealer == 0  # dealer 3 (or 1) was to the right of seat 0: it moves on
    if options.seats == 4:
        assert tuple(side.total for side in result.sides) == SCORES
        assert result.totals == SCORES == tuple(state.totals)


def test_the_twelfth_idle_turn_is_scored_like_a_stock_that_ran_out() -> None:
    # The same table, the stock and both mortos gone: the hand ends as the turn begins.
    idle = table()
    idle_turns(idle, LIMIT)
    ran_out = table(
        rest="pile", mortos=([], []), morto_status=("stock", "stock"), discard_pile="KC"
    )
    (idle_result,) = idle.results
    (ran_out_result,) = ran_out.results
    # A morto that became the stock is not taken, as an untaken one: the same -100.
    assert ran_out_result == idle_result


def test_a_twelfth_idle_turn_that_reaches_the_target_ends_the_match() -> None:
    state = table(BuracoOptions(seats=4, target=1000), totals=(1200, 0))
    idle_turns(state, LIMIT)
    assert state.is_terminal()
    assert state.results[-1].went_out == -1
    assert state.totals == [1200 + SCORES[0], SCORES[1]]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2)


def test_a_draw_from_the_stock_starts_the_count_again() -> None:
    state = table()
    idle_turns(state, 5)
    assert shown_count(state) == {5}
    state.apply_action("draw")
    assert shown_count(state) == {0}  # during the turn that drew
    seat = state.current_player()
    state.apply_action(f"discard {CODES[state.hand(seat)[0]]}")
    assert shown_count(state) == {0}  # and once it has ended
    idle_turns(state, LIMIT - 1)
    assert state.results == []
    idle_turn(state)
    assert [result.went_out for result in state.results] == [-1]


def test_a_drawing_turn_among_idle_ones_counts_as_none() -> None:
    state = table()
    for count in range(1, LIMIT):
        idle_turn(state)
        assert shown_count(state) == {count}
    drawing_turn(state)
    assert shown_count(state) == {0}
    idle_turns(state, LIMIT - 1)
    assert shown_count(state) == {LIMIT - 1}
    assert state.results == []


def test_going_out_on_the_twelfth_idle_turn_is_going_out() -> None:
    # Seat 3 plays the twelfth turn: it takes the pile, adds 4S to its side's 5S 6S 7S
    # and discards its last card; its side has a canasta and has taken its morto.
    canasta = "5D 6D 7D 8D 9D TD JD"
    state = table(
        hands=["3C 4D 9S", "KD QS 5H", "6C JD 8S", "4S"],
        melds=[["8H 9H TH"], ["5S 6S 7S", canasta]],
        mortos=(None, []),
        morto_status=("untaken", "taken"),
    )
    idle_turns(state, LIMIT - 1)
    assert state.current_player() == 3 and state.results == []
    state.apply_action("take")
    state.apply_action("add 0 4S")
    state.apply_action("discard KC")
    (result,) = state.results
    assert result.went_out == 1
    assert result.sides[1].went_out and not result.sides[0].went_out


def test_a_new_hand_starts_the_count_at_zero() -> None:
    state = table()
    idle_turns(state, LIMIT)
    state.apply_action(state.sample_chance(SimSource(7)))
    assert state.hand_number == 2 and state.phase_name == "draw"
    assert shown_count(state) == {0}
    idle_turns(state, LIMIT - 1)
    assert len(state.results) == 1
    idle_turn(state)
    assert [result.went_out for result in state.results] == [-1, -1]


def test_the_view_shows_the_idle_count() -> None:
    state = table()
    assert shown_count(state) == {0}
    for count in range(1, LIMIT):
        idle_turn(state)
        assert shown_count(state) == {count}
        assert all(state.view(seat).idle_turns == count for seat in state.seats)
