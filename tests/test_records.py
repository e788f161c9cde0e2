"""Game records prove the shuffle: a real record verifies, each kind of tampering is named."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sahrat.bots.buraco_greedy import GreedyBuracoBot
from sahrat.bots.jackaroo_greedy import GreedyJackarooBot
from sahrat.cli.main import main
from sahrat.fairness import Seeds
from sahrat.records import Recorder, verify

SEEDS = Seeds(bytes(range(32)), "rec-1", ("ann", "bob", "cat", "dan"))


def jackaroo_record(preset: str = "sahrat") -> dict[str, Any]:
    players = [{"seat": s, "name": f"p{s}", "bot": False} for s in range(4)]
    recorder = Recorder("jackaroo", {"preset": preset, "seats": 4}, SEEDS, players,
                        clock=lambda: 0.0)  # fmt: skip
    bots = {s: GreedyJackarooBot(random.Random(s)) for s in range(4)}
    recorder.run_chance()
    state: Any = recorder.state
    while not state.is_terminal():
        seat = state.current_player()
        recorder.play(seat, bots[seat].choose(state))
    return recorder.to_json()


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return jackaroo_record()


def failed_step(record: dict[str, Any]) -> tuple[int, str]:
    checks = verify(record)
    bad = [c for c in checks if not c.ok]
    assert bad, "tampering went unnoticed"
    return bad[0].step, bad[0].message


def test_a_real_record_verifies(record: dict[str, Any]) -> None:
    checks = verify(record)
    assert [c.step for c in checks] == [1, 2, 3, 4] and all(c.ok for c in checks)
    assert record["shuffles"] and record["picks"] and record["deals"]
    assert record["shuffles"][0]["label"] == "shuffle/0"
    assert record["picks"][0]["label"] == "dealer"


def test_a_running_game_reveals_no_seed() -> None:
    players = [{"seat": s, "name": f"p{s}", "bot": True} for s in range(4)]
    recorder = Recorder("jackaroo", {"preset": "classic"}, SEEDS, players)
    recorder.run_chance()
    running = recorder.to_json()
    assert "server_seed" not in running and running["result"] is None
    assert SEEDS.server_seed.hex() not in json.dumps(running)
    # No card of any hand, nor the stock's order, while the game runs.
    assert running["shuffles"] == running["deals"] == []
    assert all(e["action"] == "shuffle" for e in running["log"] if e["action"].startswith("shuf"))
    assert failed_step(running) == (1, "the record has no server seed yet (the game is not over)")


def test_a_wrong_server_seed_fails_step_one(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["server_seed"] = "00" * 32
    step, message = failed_step(forged)
    assert step == 1 and "not the commitment" in message


def test_a_reordered_shuffle_fails_step_two(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    output = forged["shuffles"][1]["output"]
    output[0], output[1] = output[1], output[0]
    assert failed_step(forged) == (2, "shuffle 1 (shuffle/1) does not recompute from its input")


def test_a_changed_pick_fails_step_two(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["picks"][0]["value"] = (forged["picks"][0]["value"] + 1) % forged["picks"][0]["n"]
    assert failed_step(forged) == (2, "pick 0 (dealer) does not recompute")


def test_a_changed_deal_fails_step_three(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    hands = forged["deals"][0]["hands"]
    hands["0"][0], hands["1"][0] = hands["1"][0], hands["0"][0]
    step, message = failed_step(forged)
    assert step == 3 and "cards dealt" in message


def test_a_shuffle_swapped_for_another_valid_one_fails_step_three(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    # Both shuffles recompute (step 2 passes), but they are not the game's draws.
    forged["shuffles"][0], forged["shuffles"][1] = forged["shuffles"][1], forged["shuffles"][0]
    forged["shuffles"][0]["label"], forged["shuffles"][1]["label"] = "shuffle/0", "shuffle/1"
    step, _ = failed_step(forged)
    assert step in (2, 3)


def test_an_edited_move_fails_step_three(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    entry = next(e for e in forged["log"] if e["seat"] is not None)
    entry["action"] = "KS b0-t0" if entry["action"] != "KS b0-t0" else "QS t1-t13"
    step, message = failed_step(forged)
    assert step == 3 and message.startswith("log entry")


def test_a_changed_result_fails_step_four(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    winners = forged["result"]["winners"]
    forged["result"]["winners"] = [1, 3] if winners == [0, 2] else [0, 2]
    step, message = failed_step(forged)
    assert step == 4 and "the record says" in message


def test_a_truncated_log_fails(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["log"] = forged["log"][: len(forged["log"]) // 2]
    step, _ = failed_step(forged)
    assert step in (3, 4)


def test_a_buraco_match_record_verifies() -> None:
    seeds = Seeds(bytes(range(1, 33)), "bur-1", ("a", "b"))
    players = [{"seat": s, "name": f"p{s}", "bot": True} for s in range(2)]
    recorder = Recorder("buraco", {"players": 2, "target": 1000}, seeds, players)
    bots = {s: GreedyBuracoBot(random.Random(s)) for s in range(2)}
    recorder.run_chance()
    state: Any = recorder.state
    while not state.is_terminal():
        seat = state.current_player()
        recorder.play(seat, bots[seat].choose(state))
    record = recorder.to_json()
    assert all(check.ok for check in verify(record))
    assert len(record["shuffles"]) == len(state.results) >= 1


def test_cli_verify(
    record: dict[str, Any], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verified"
    forged = copy.deepcopy(record)
    forged["server_seed"] = "11" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged))
    assert main(["verify", str(bad)]) == 1
    assert "step 1: FAILED" in capsys.readouterr().out
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert main(["verify", str(junk)]) == 2


def test_play_writes_a_record_that_verifies(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "8", "--preset", "classic", "--record", str(path)]) == 0
    assert all(check.ok for check in verify(json.loads(path.read_text())))
