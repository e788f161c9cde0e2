"""The K's three modes (jackaroo.md §4 ``king``): plain, sweep and breaker."""

from __future__ import annotations

from .rule_helpers import apply, board, moves, position

BASE = ["b", "b", "b", "b"]


def test_plain_king_passes_without_capturing() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t15"]}, hands={0: ["KS"]}, preset="classic")
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]
    assert board(apply(pos, "KS t10-t23"))["1"] == ["b", "b", "b", "t15"]


def test_sahrat_king_sweeps_opponents() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t12"], 3: ["t20"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]
    after = board(apply(pos, "KS t10-t23"))
    assert after["0"] == ["b", "b", "b", "t23"]
    assert after["1"] == BASE
    assert after["3"] == BASE


def test_sahrat_king_sweeps_partner() -> None:
    pos = position(marbles={0: ["t10"], 2: ["t15", "t45"]}, hands={0: ["KS"]})
    assert board(apply(pos, "KS t10-t23"))["2"] == ["b", "b", "b", "t45"]


def test_sweep_king_captures_passed_and_landed_marbles() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t15", "t23"]}, hands={0: ["KS"]})
    assert board(apply(pos, "KS t10-t23"))["1"] == BASE


def test_sweep_king_captures_own_marble_when_pass_own_on() -> None:
    pos = position(marbles={0: ["t10", "t15"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0", "KS t10-t23", "KS t15-t28"]
    assert board(apply(pos, "KS t10-t23"))["0"] == ["b", "b", "b", "t23"]


def test_sweep_king_may_not_pass_own_marble_when_pass_own_off() -> None:
    pos = position(marbles={0: ["t10", "t15"]}, hands={0: ["KS"]}, pass_own=False)
    assert moves(pos) == ["KS b0-t0", "KS t15-t28"]


def test_sweep_king_may_not_pass_protected_marble() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t19"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0"]


def test_sweep_king_may_not_land_on_own_marble() -> None:
    pos = position(marbles={0: ["t10", "t23"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0", "KS t23-t36"]


def test_sweep_king_into_home_lane_captures_what_it_passed_on_the_track() -> None:
    pos = position(marbles={0: ["t66"], 1: ["t70"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0", "KS t66-h0.4"]
    after = board(apply(pos, "KS t66-h0.4"))
    assert after["0"] == ["b", "b", "b", "h0.4"]
    assert after["1"] == BASE


def test_sweeping_king_capturing_barrier_rear_is_stopped_by_front() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t15", "t16"]}, hands={0: ["KS"]}, barrier=True)
    assert moves(pos) == ["KS b0-t0"]


def test_sweep_king_cannot_pass_start_square_marble_with_neighbour() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t19"], 3: ["t20"]}, hands={0: ["KS"]})
    assert moves(pos) == ["KS b0-t0"]


def test_complex_king_breaks_barrier() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t15", "t16"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]
    assert board(apply(pos, "KS t10-t23"))["1"] == BASE


def test_breaker_king_lands_on_barrier_front() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t22", "t23"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]
    after = board(apply(pos, "KS t10-t23"))
    assert after["0"] == ["b", "b", "b", "t23"]
    assert after["1"] == BASE


def test_breaker_king_passes_start_square_marble_with_marble_in_front() -> None:
    pos = position(
        marbles={0: ["t10"], 1: ["t19"], 3: ["t20"]},
        hands={0: ["KS"]},
        preset="complex",
        barrier=False,
    )
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]
    after = board(apply(pos, "KS t10-t23"))
    assert after["1"] == BASE
    assert after["3"] == BASE


def test_breaker_king_passes_start_square_marble_with_marble_behind() -> None:
    pos = position(
        marbles={0: ["t10"], 1: ["t19"], 3: ["t18"]},
        hands={0: ["KS"]},
        preset="complex",
        barrier=False,
    )
    assert moves(pos) == ["KS b0-t0", "KS t10-t23"]


def test_breaker_king_lands_on_start_square_marble_with_neighbour() -> None:
    pos = position(
        marbles={0: ["t6"], 1: ["t19"], 3: ["t20"]},
        hands={0: ["KS"]},
        preset="complex",
        barrier=False,
    )
    assert moves(pos) == ["KS b0-t0", "KS t6-t19"]
    after = board(apply(pos, "KS t6-t19"))
    assert after["1"] == BASE
    assert after["3"] == ["b", "b", "b", "t20"]


def test_breaker_king_cannot_pass_lone_start_square_marble() -> None:
    pos = position(marbles={0: ["t10"], 1: ["t19"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0"]


def test_breaker_king_cannot_pass_lone_marble_on_another_start_square() -> None:
    # complex has start_guard any: seat 1's marble on t38 is protected.
    pos = position(marbles={0: ["t30"], 1: ["t38"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0"]


def test_breaker_king_neighbour_of_start_square_must_not_be_the_king() -> None:
    # The K on t18 is lifted: the marble on t19 is alone on its start square.
    pos = position(marbles={0: ["t18"], 1: ["t19"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0"]


def test_breaker_king_may_not_pass_own_colour_when_pass_own_off() -> None:
    # Seat 0's t13 is barrier-protected (front of t12-t13) and of the K's colour.
    pos = position(marbles={0: ["t10", "t12", "t13"]}, hands={0: ["KS"]}, preset="complex")
    assert moves(pos) == ["KS b0-t0", "KS t13-t26"]


def test_breaker_king_with_pass_own_on_sweeps_own_barrier_front() -> None:
    # pass_own on: the breaker passes seat 0's barrier-protected t13 and captures it.
    pos = position(
        marbles={0: ["t10", "t12", "t13"]}, hands={0: ["KS"]}, preset="complex", pass_own=True
    )
    assert moves(pos) == ["KS b0-t0", "KS t10-t23", "KS t12-t25", "KS t13-t26"]
    assert board(apply(pos, "KS t10-t23"))["0"] == ["b", "b", "b", "t23"]
