"""The arena: fair seating, reproducible results, the figures it promises."""

from __future__ import annotations

import json
import math

import pytest

from sahrat.bots.arena import (
    BUDGET_SLACK_MS,
    ArenaConfig,
    GameResult,
    chance_source,
    check_spec,
    lead_per_hand,
    new_state,
    percentile,
    play_game,
    run_games,
    seats_of_team_a,
    summarize,
    wilson,
)
from sahrat.cli.main import main
from sahrat.game import CHANCE
from sahrat.simulation import LabelledSource


def test_team_a_changes_seats_every_game() -> None:
    four = ArenaConfig("jackaroo", 4, "random", "random", 4, 1)
    assert [seats_of_team_a(four, i) for i in range(3)] == [(0, 2), (1, 3), (0, 2)]
    two = ArenaConfig("jackaroo", 2, "random", "random", 4, 1)
    assert [seats_of_team_a(two, i) for i in range(2)] == [(0,), (2,)]
    buraco = ArenaConfig("buraco", 2, "random", "random", 4, 1)
    assert [seats_of_team_a(buraco, i) for i in range(2)] == [(0,), (1,)]


def first_deal(config: ArenaConfig, index: int) -> list[list[int]]:
    state = new_state(config, index)
    source = chance_source(config, index)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(source))
    return [list(hand) for hand in state.hands]


@pytest.mark.parametrize(("game", "seats"), [("jackaroo", 4), ("jackaroo", 2), ("buraco", 4)])
def test_both_games_of_a_pair_are_dealt_the_same_cards(game: str, seats: int) -> None:
    config = ArenaConfig(game, seats, "random", "random", 4, 7)
    deals = [first_deal(config, i) for i in range(4)]
    assert deals[0] == deals[1] and deals[2] == deals[3]
    assert deals[0] != deals[2]
    # Each seat gets the same cards, and team A sits in game 1 where team B sat in
    # game 0: each team plays the hands the other held.
    assert not set(seats_of_team_a(config, 0)) & set(seats_of_team_a(config, 1))


def test_labelled_chance_does_not_depend_on_order() -> None:
    one, two = LabelledSource(5), LabelledSource(5)
    first = list(range(52))
    one.shuffle("shuffle/1", first)
    picked = one.uniform("pick/0", 4)
    assert two.uniform("pick/0", 4) == picked
    second = list(range(52))
    two.shuffle("shuffle/1", second)
    assert first == second
    other = list(range(52))
    LabelledSource(6).shuffle("shuffle/1", other)
    assert other != first


def test_wilson_interval() -> None:
    low, high = wilson(85, 100)
    assert round(low, 4) == 0.7672 and round(high, 4) == 0.9069
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([], 50) == 0.0


def test_specs() -> None:
    for spec in ("random", "greedy", "heuristic", "ismcts:100ms", "ismcts:2000it"):
        assert check_spec(spec) == spec
    for bad in ("ismcts", "ismcts:fast", "clever"):
        with pytest.raises(ValueError, match=r"bot|budget"):
            check_spec(bad)


def test_same_seed_same_games_in_one_or_two_processes() -> None:
    config = ArenaConfig("jackaroo", 4, "heuristic", "random", 4, 7)
    alone = summarize(config, list(run_games(config, 1)))
    pooled = summarize(config, list(run_games(config, 2)))
    for figures in (alone, pooled):
        for bot in figures["decision_ms"].values():
            for timed in ("p50", "p99", "max"):
                bot.pop(timed)
    assert alone == pooled


def test_a_game_records_winner_length_and_times() -> None:
    config = ArenaConfig("jackaroo", 2, "greedy", "random", 1, 3, {"preset": "classic"})
    result = play_game(config, 0)
    assert result.winner in ("A", "B")
    assert result.decisions == len(result.times["A"]) + len(result.times["B"])


def test_buraco_arena_reports_points_per_hand() -> None:
    config = ArenaConfig("buraco", 4, "greedy", "random", 2, 1, {"target": 1000})
    summary = summarize(config, list(run_games(config, 1)))
    assert summary["hands"] >= 2
    assert set(summary["mean_points_per_hand"]) == {"A", "B"}
    points = summary["mean_points_per_hand"]
    lead = summary["lead_per_hand"]
    assert lead["A_minus_B"] == pytest.approx(points["A"] - points["B"], abs=0.01)


def result(index: int, points: tuple[int, int], hands: int) -> GameResult:
    return GameResult(index, "A", 0, {}, {}, points, hands)


def test_the_lead_per_hand_is_measured_over_pairs_of_games() -> None:
    # Two pairs: a lead of 100 over 4 hands and of 20 over 4 hands.
    results = [result(0, (300, 200), 2), result(1, (100, 100), 2),
               result(2, (50, 30), 2), result(3, (0, 0), 2)]  # fmt: skip
    lead, low, high = lead_per_hand(results)
    assert lead == pytest.approx(120 / 8)
    assert low < lead < high
    # The same lead in every pair: no spread, a narrow interval.
    same = [result(0, (60, 20), 2), result(1, (20, 20), 2),
            result(2, (60, 20), 2), result(3, (20, 20), 2)]  # fmt: skip
    assert lead_per_hand(same) == pytest.approx((10.0, 10.0, 10.0))
    assert lead_per_hand(same[:2])[1] == -math.inf  # one unit: no interval


def test_a_search_with_a_time_budget_is_checked_against_it() -> None:
    config = ArenaConfig("jackaroo", 2, "ismcts:30ms", "random", 1, 3, {"preset": "classic"})
    summary = summarize(config, [play_game(config, 0)])
    figures = summary["decision_ms"]["A:ismcts:30ms"]
    assert figures["budget"] == 30.0
    assert figures["within_budget"] == (figures["p99"] <= 30.0 + BUDGET_SLACK_MS)
    assert figures["iterations_p50"] >= 1
    assert "budget" not in summary["decision_ms"]["B:random"]


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--game", "jackaroo", "--seats", "2", "--team-a", "heuristic",
            "--team-b", "random", "--games", "4", "--seed", "2", "--json",
            "--workers", "1"]  # fmt: skip
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("games", "team_a_wins", "team_b_wins", "draws", "wilson_a", "decision_ms"):
        assert key in out
    assert out["games"] == 4 == out["team_a_wins"] + out["team_b_wins"] + out["draws"]
    assert set(out["decision_ms"]) == {"A:heuristic", "B:random"}


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--game", "buraco", "--seats", "2", "--option", "target=1000",
            "--team-a", "greedy", "--team-b", "random", "--games", "1",
            "--workers", "1"]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "95% Wilson interval" in text and "mean points per hand" in text
    bad = ["arena", "--game", "jackaroo", "--team-a", "wizard", "--team-b", "random",
           "--games", "1"]  # fmt: skip
    assert main(bad) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_cli_reports_the_figures_so_far_when_not_on_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["arena", "--game", "buraco", "--seats", "2", "--option", "target=1000",
            "--team-a", "greedy", "--team-b", "random", "--games", "4",
            "--workers", "1", "--progress-every", "2"]  # fmt: skip
    assert main(args) == 0
    err = capsys.readouterr().err
    assert err.startswith("after 2/4 games (")
    assert "A's lead per hand" in err and "A:greedy p99" in err
    assert "after 4/4" not in err  # the last figures are the summary's
