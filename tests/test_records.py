"""Game records prove the shuffle: a real record verifies, each kind of tampering is named."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sahrat.bots.buraco.greedy import GreedyBuracoBot
from sahrat.bots.jackaroo.greedy import GreedyJackarooBot
from sahrat.cli.main import main
from sahrat.fairness import Seeds, commitment, derived_seed
from sahrat.records import STEPS, Recorder, verify

SEEDS = Seeds(bytes(range(32)), "rec-1", ("ann", "bob", "cat", "dan"))
COMMITMENT = commitment(SEEDS.server_seed)


def jackaroo_record(
    preset: str = "sahrat",
    seeds: Seeds = SEEDS,
    bots: tuple[int, ...] = (),
    seats: int = 4,
) -> dict[str, Any]:
    """A whole game played by greedy bots; the record marks the seats in ``bots`` as bots."""
    options = {"preset": preset, "seats": seats}
    order = (0, 1, 2, 3) if seats == 4 else (0, 2)
    players = [{"seat": s, "name": f"p{s}", "bot": s in bots} for s in order]
    recorder = Recorder("jackaroo", options, seeds, players, clock=lambda: 0.0)
    movers = {s: GreedyJackarooBot(random.Random(s)) for s in order}
    recorder.run_chance()
    state: Any = recorder.state
    while not state.is_terminal():
        seat = state.current_player()
        recorder.play(seat, movers[seat].choose(state))
    return recorder.to_json()


def with_seeds(*client_seeds: str) -> Seeds:
    return Seeds(SEEDS.server_seed, SEEDS.game_id, client_seeds)


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
    assert [c.step for c in checks] == [1, 2, 3, 4, 5] == list(range(1, STEPS + 1))
    assert all(c.ok for c in checks)
    assert checks[4].message == (
        "no seat has a derived seed: every client seed was sent by its player"
    )
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
    server_seed = bytes(range(1, 33))
    derived = tuple(derived_seed(commitment(server_seed), s) for s in range(2))
    seeds = Seeds(server_seed, "bur-1", derived)
    players = [{"seat": s, "name": f"p{s}", "bot": True} for s in range(2)]
    recorder = Recorder("buraco", {"players": 2, "target": 1000}, seeds, players)
    bots = {s: GreedyBuracoBot(random.Random(s)) for s in range(2)}
    recorder.run_chance()
    state: Any = recorder.state
    while not state.is_terminal():
        seat = state.current_player()
        recorder.play(seat, bots[seat].choose(state))
    record = recorder.to_json()
    checks = verify(record)
    assert all(check.ok for check in checks)
    assert checks[-1].message == "2 derived seeds match the commitment (seats 0, 1)"
    assert len(record["shuffles"]) == len(state.results) >= 1


# -- step 5: the seeds of seats that sent none are derived from the commitment ---------------


def test_bots_with_their_derived_seeds_pass() -> None:
    seeds = with_seeds("ann", derived_seed(COMMITMENT, 1), "cat", derived_seed(COMMITMENT, 3))
    checks = verify(jackaroo_record(seeds=seeds, bots=(1, 3)))
    assert [c.step for c in checks] == [1, 2, 3, 4, 5] and all(c.ok for c in checks)
    assert checks[4].message == "2 derived seeds match the commitment (seats 1, 3)"


def test_a_player_who_missed_the_window_may_have_the_derived_seed() -> None:
    seeds = with_seeds(derived_seed(COMMITMENT, 0), "bob", "cat", "dan")
    checks = verify(jackaroo_record(seeds=seeds))
    assert all(c.ok for c in checks)
    assert checks[4].message == "1 derived seed matches the commitment (seat 0)"


def test_a_bot_whose_seed_was_chosen_by_the_server_fails_step_five() -> None:
    # Every shuffle recomputes from these seeds (steps 1–4 pass): only the bot's seed is wrong.
    seeds = with_seeds("ann", "bob", "cat", derived_seed(COMMITMENT, 3))
    record = jackaroo_record(seeds=seeds, bots=(1, 3))
    checks = verify(record)
    assert [c.ok for c in checks] == [True, True, True, True, False]
    expected = derived_seed(COMMITMENT, 1)
    assert checks[4].message == (
        f"seat 1 is a bot, but its client seed bob is not its derived seed {expected}"
    )


def test_a_bot_prefixed_seed_that_is_not_derived_fails_step_five() -> None:
    forged = "bot-" + "0" * 32
    record = jackaroo_record(seeds=with_seeds(forged, "bob", "cat", "dan"))
    assert failed_step(record) == (
        5,
        f"seat 0 has the client seed {forged}, which starts with bot- but is not its "
        f"derived seed {derived_seed(COMMITMENT, 0)}",
    )


def test_derived_seeds_swapped_between_seats_fail_naming_both() -> None:
    seeds = with_seeds("ann", derived_seed(COMMITMENT, 3), "cat", derived_seed(COMMITMENT, 1))
    step, message = failed_step(jackaroo_record(seeds=seeds, bots=(1, 3)))
    assert step == 5
    assert message.startswith("seat 1 is a bot") and "; seat 3 is a bot" in message


def test_a_derived_seed_of_another_game_fails_step_five() -> None:
    other = derived_seed(commitment(bytes(32)), 1)
    step, message = failed_step(jackaroo_record(seeds=with_seeds("ann", other, "cat", "dan")))
    assert step == 5 and message.startswith(f"seat 1 has the client seed {other}")


def test_a_two_seat_table_derives_by_place_in_the_list() -> None:
    # The seats are 0 and 2, the client seeds are listed in that order: seat 2 is index 1.
    good = with_seeds("ann", derived_seed(COMMITMENT, 1))
    checks = verify(jackaroo_record(seeds=good, bots=(2,), seats=2))
    assert all(c.ok for c in checks) and checks[4].message.endswith("(seat 2)")
    bad = with_seeds("ann", derived_seed(COMMITMENT, 2))
    step, message = failed_step(jackaroo_record(seeds=bad, bots=(2,), seats=2))
    assert step == 5 and message.startswith("seat 2 (client seed 1) is a bot")


def test_a_missing_client_seed_fails_step_five() -> None:
    record = jackaroo_record(seeds=with_seeds("ann", "bob", "cat"))
    assert failed_step(record) == (5, "the record has 3 client seeds for 4 seats")


def test_a_bot_on_a_seat_the_table_lacks_fails_step_five(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["players"].append({"seat": 7, "name": "p7", "bot": True})
    assert failed_step(forged) == (
        5,
        "the record marks seat 7 as a bot; the table has no such seat",
    )


def test_malformed_players_fail_step_five(record: dict[str, Any]) -> None:
    forged = copy.deepcopy(record)
    forged["players"][0] = "p0"
    step, message = failed_step(forged)
    assert step == 5 and message.startswith("malformed record")


def test_cli_verify(
    record: dict[str, Any], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main(["verify", str(good)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "verified" and len(lines) == STEPS + 1
    assert lines[4] == (
        "step 5: ok: no seat has a derived seed: every client seed was sent by its player"
    )
    forged = copy.deepcopy(record)
    forged["server_seed"] = "11" * 32
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(forged))
    assert main(["verify", str(bad)]) == 1
    assert "step 1: FAILED" in capsys.readouterr().out
    chosen = jackaroo_record(seeds=with_seeds("ann", "bob", "cat", "dan"), bots=(3,))
    bot = tmp_path / "bot.json"
    bot.write_text(json.dumps(chosen))
    assert main(["verify", str(bot)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[:2] for line in out[:4]] == [[f"step {n}", " ok"] for n in range(1, 5)]
    assert out[4].startswith("step 5: FAILED: seat 3 is a bot, but its client seed dan is not")
    assert "verified" not in out
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert main(["verify", str(junk)]) == 2


def test_play_writes_a_record_that_verifies(tmp_path: Any) -> None:
    path = tmp_path / "game.json"
    assert main(["play", "--seed", "8", "--preset", "classic", "--record", str(path)]) == 0
    assert all(check.ok for check in verify(json.loads(path.read_text())))
