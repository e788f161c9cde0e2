"""Every table option changes the outcome (jackaroo.md §4), and the three presets."""

from __future__ import annotations

import pytest

from sahrat.game import CHANCE
from sahrat.games.jackaroo import Chance, JackarooState, Options
from sahrat.games.jackaroo.actions import DEALER, SHUFFLE

from .rule_helpers import apply, board, moves, position

# -- presets ----------------------------------------------------------------------

PRESET_VALUES = {
    "sahrat": {
        "deal": "5-4-4",
        "pass_own": True,
        "barrier": False,
        "start_guard": "own",
        "king": "sweep",
        "five": "any",
        "ten": "move-or-burn",
        "stuck_hand": "burn-one",
    },
    "classic": {
        "deal": "4-each",
        "pass_own": False,
        "barrier": True,
        "start_guard": "own",
        "king": "plain",
        "five": "own",
        "ten": "move",
        "stuck_hand": "burn-all",
    },
    "complex": {
        "deal": "4-each",
        "pass_own": False,
        "barrier": True,
        "start_guard": "any",
        "king": "breaker",
        "five": "any",
        "ten": "move",
        "stuck_hand": "burn-one",
    },
}


@pytest.mark.parametrize("name", sorted(PRESET_VALUES))
@pytest.mark.parametrize("seats", [2, 4])
def test_preset_values(name: str, seats: int) -> None:
    options = Options.from_json({"preset": name, "seats": seats})
    values = {key: getattr(options, key) for key in PRESET_VALUES[name]}
    assert values == PRESET_VALUES[name]
    assert options.seats == seats


def test_missing_options_mean_sahrat_with_four_seats() -> None:
    options = Options.from_json(None)
    values = {key: getattr(options, key) for key in PRESET_VALUES["sahrat"]}
    assert values == PRESET_VALUES["sahrat"]
    assert options.seats == 4


def test_missing_preset_means_sahrat() -> None:
    options = Options.from_json({"king": "plain"})
    values = {key: getattr(options, key) for key in PRESET_VALUES["sahrat"]}
    assert values == {**PRESET_VALUES["sahrat"], "king": "plain"}


def test_position_without_options_plays_by_sahrat() -> None:
    marbles: dict[int, list[str]] = {0: ["t10", "t12"], 1: ["t30"], 2: ["t50"]}
    hands: dict[int, list[str] | int] = {0: ["KS", "5S", "TS", "JS"]}
    plain = position(marbles=marbles, hands=hands)
    assert "options" not in plain
    assert moves(plain) == moves(position(marbles=marbles, hands=hands, preset="sahrat", seats=4))


def test_apply_keeps_the_preset_and_its_overrides() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, preset="complex", king="sweep")
    options = apply(pos, "2S t10-t12")["options"]
    assert options["preset"] == "complex"
    assert options["king"] == "sweep"
    assert options.get("seats", 4) == 4


# -- seats ------------------------------------------------------------------------


def test_seats_4_passes_the_turn_to_seat_1() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]})
    assert apply(pos, "2S t10-t12")["turn"] == 1


def test_seats_2_passes_the_turn_to_seat_2() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["2S"]}, seats=2)
    assert apply(pos, "2S t10-t12")["turn"] == 2


# -- deal -------------------------------------------------------------------------


def first_deal(options: Options) -> JackarooState:
    """A new game with seat 0 dealing from the unshuffled deck."""
    state = JackarooState.new_game(options)
    state.apply_action(Chance(DEALER, 0))
    state.apply_action(Chance(SHUFFLE, tuple(range(52))))
    return state


def play_round(state: JackarooState) -> None:
    """Play the first legal move until the hands are dealt again or a shuffle is due."""
    while True:
        assert not state.is_terminal()
        held = sum(len(state.hands[s]) for s in state.seats)
        if state.current_player() == CHANCE:
            return
        state.apply_action(state.legal_moves()[0])
        if sum(len(state.hands[s]) for s in state.seats) > held:
            return


def test_deal_5_4_4_first_round_is_five_each() -> None:
    state = first_deal(Options.preset("sahrat", 4, ten="move"))
    assert [len(state.hands[s]) for s in state.seats] == [5, 5, 5, 5]
    assert state.current_player() == 1


def test_deal_4_each_first_round_is_four_each() -> None:
    state = first_deal(Options.preset("sahrat", 4, ten="move", deal="4-each"))
    assert [len(state.hands[s]) for s in state.seats] == [4, 4, 4, 4]
    assert state.current_player() == 1


def test_deal_5_4_4_keeps_the_dealer_within_a_deck_cycle() -> None:
    state = first_deal(Options.preset("sahrat", 4, ten="move"))
    play_round(state)
    assert [len(state.hands[s]) for s in state.seats] == [4, 4, 4, 4]
    assert state.current_player() == 1


def test_deal_4_each_moves_the_dealer_after_each_round() -> None:
    state = first_deal(Options.preset("sahrat", 4, ten="move", deal="4-each"))
    play_round(state)
    assert [len(state.hands[s]) for s in state.seats] == [4, 4, 4, 4]
    assert state.current_player() == 2


def test_deal_5_4_4_two_seats_schedule() -> None:
    state = first_deal(Options.preset("sahrat", 2, ten="move"))
    sizes = [len(state.hands[0])]
    assert state.current_player() == 2
    for _ in range(5):
        play_round(state)
        assert len(state.hands[0]) == len(state.hands[2])
        sizes.append(len(state.hands[0]))
    assert sizes == [5, 4, 4, 4, 4, 5]
    play_round(state)
    assert state.current_player() == CHANCE


# -- pass_own ---------------------------------------------------------------------


def test_pass_own_true_lets_a_marble_pass_its_own_colour() -> None:
    pos = position(marbles={0: ["t10", "t12"]}, hands={0: ["3S"]}, preset="classic", pass_own=True)
    assert moves(pos) == ["3S t10-t13", "3S t12-t15"]


def test_pass_own_false_stops_a_marble_behind_its_own_colour() -> None:
    pos = position(marbles={0: ["t10", "t12"]}, hands={0: ["3S"]}, preset="classic")
    assert moves(pos) == ["3S t12-t15"]


# -- barrier ----------------------------------------------------------------------


def test_barrier_true_protects_the_front_marble() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t12", "t13"]}, hands={0: ["3S"]}, barrier=True)
    assert moves(pos) == ["3S discard"]


def test_barrier_false_leaves_the_front_marble_capturable() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t12", "t13"]}, hands={0: ["3S"]}, barrier=False)
    assert moves(pos) == ["3S t10-t13"]


# -- start_guard ------------------------------------------------------------------


def test_start_guard_own_lets_a_marble_pass_a_foreign_start_square_marble() -> None:
    pos = position(marbles={0: ["t55"], 1: ["t57"]}, hands={0: ["3S"]}, start_guard="own")
    assert moves(pos) == ["3S t55-t58"]


def test_start_guard_any_protects_a_foreign_start_square_marble() -> None:
    pos = position(marbles={0: ["t55"], 1: ["t57"]}, hands={0: ["3S"]}, start_guard="any")
    assert moves(pos) == ["3S discard"]


# -- king -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("king", "seat1"), [("plain", ["b", "b", "b", "t15"]), ("sweep", ["b", "b", "b", "b"])]
)
def test_king_plain_or_sweep_decides_what_happens_to_a_passed_marble(
    king: str, seat1: list[str]
) -> None:
    pos = position(marbles={0: ["t10"], 1: ["t15"]}, hands={0: ["KS"]}, king=king)
    assert board(apply(pos, "KS t10-t23"))["1"] == seat1


@pytest.mark.parametrize(("king", "legal"), [("sweep", False), ("breaker", True)])
def test_king_sweep_or_breaker_decides_whether_a_barrier_is_passed(king: str, legal: bool) -> None:
    pos = position(
        marbles={0: ["t10"], 1: ["t15", "t16"]}, hands={0: ["KS"]}, barrier=True, king=king
    )
    assert ("KS t10-t23" in moves(pos)) is legal


def test_king_plain_cannot_pass_a_barrier() -> None:
    pos = position(
        marbles={0: ["t10"], 1: ["t15", "t16"]}, hands={0: ["KS"]}, barrier=True, king="plain"
    )
    assert moves(pos) == ["KS b0-t0"]


# -- five -------------------------------------------------------------------------


def test_five_own_moves_only_own_marbles() -> None:
    pos = position(marbles={0: ["t10"], 3: ["t60"]}, hands={0: ["5S"]}, five="own")
    assert moves(pos) == ["5S t10-t15"]


def test_five_any_moves_other_seats_marbles_too() -> None:
    pos = position(marbles={0: ["t10"], 3: ["t60"]}, hands={0: ["5S"]}, five="any")
    assert moves(pos) == ["5S t10-t15", "5S t60-t65"]


# -- ten --------------------------------------------------------------------------


def test_ten_move_only_moves() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"]}, preset="classic")
    assert moves(pos) == ["TS t10-t20"]


def test_ten_move_or_burn_may_burn() -> None:
    pos = position(marbles={0: ["t10"]}, hands={0: ["TS"]}, preset="classic", ten="move-or-burn")
    assert moves(pos) == ["TS burn", "TS t10-t20"]


# -- stuck_hand -------------------------------------------------------------------


def test_stuck_hand_burn_one_discards_a_card_of_choice() -> None:
    pos = position(hands={0: ["2S", "3S"]}, preset="classic", stuck_hand="burn-one")
    assert moves(pos) == ["2S discard", "3S discard"]


def test_stuck_hand_burn_all_discards_the_whole_hand() -> None:
    pos = position(hands={0: ["2S", "3S"]}, preset="sahrat", stuck_hand="burn-all")
    assert moves(pos) == ["discard-all"]
