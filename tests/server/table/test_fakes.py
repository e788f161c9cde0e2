"""The fakes keep the promises of the interfaces they stand in for."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sahrat.fairness import Seeds
from sahrat.records import Recorder
from sahrat.server.table.events import Ended, Seated, TurnTimeSet
from sahrat.server.table.host import LogConflict, Unavailable
from tests.server.table.fakes import FakeClient, MemoryLog, RecordingHost, Row, settings
from tests.server.table.tables import game_options


def test_the_memory_log_refuses_a_number_already_taken() -> None:
    async def scenario() -> None:
        log = MemoryLog()
        await log.append("t1", 1, TurnTimeSet(15.0), 1.0)
        with pytest.raises(LogConflict):
            await log.append("t1", 1, Seated(0, "p1", "Salem", False), 2.0)
        with pytest.raises(LogConflict):
            await log.finish("t1", 1, Ended((0,)), 2.0, {}, [], None)
        await log.append("t2", 1, TurnTimeSet(15.0), 1.0)  # another table's numbers
        assert log.of("t1") == [Row(1, "turn_time", {"seconds": 15.0}, 1.0)]

    asyncio.run(scenario())


def test_the_memory_log_can_be_told_to_be_unavailable_once() -> None:
    async def scenario() -> None:
        log = MemoryLog()
        log.fail_next()
        with pytest.raises(Unavailable):
            await log.append("t1", 1, TurnTimeSet(15.0), 1.0)
        assert log.of("t1") == [] and log.refused == [(1, "turn_time")]
        await log.append("t1", 1, TurnTimeSet(15.0), 1.0)
        assert log.kinds("t1") == ["turn_time"]

    asyncio.run(scenario())


def test_the_memory_log_can_refuse_a_chosen_event() -> None:
    async def scenario() -> None:
        log = MemoryLog()
        log.fail_next(lambda seq, event: isinstance(event, Seated))
        await log.append("t1", 1, TurnTimeSet(15.0), 1.0)
        with pytest.raises(Unavailable):
            await log.append("t1", 2, Seated(0, "p1", "Salem", False), 2.0)
        await log.append("t1", 2, Seated(0, "p1", "Salem", False), 2.0)
        assert log.kinds("t1") == ["turn_time", "seat"]

    asyncio.run(scenario())


def test_the_memory_log_stores_data_as_json() -> None:
    async def scenario() -> None:
        log = MemoryLog()
        await log.finish("t1", 1, Ended((0, 2)), 1.0, {"result": {"winners": (0, 2)}}, [], None)
        assert log.of("t1")[0].data == {"winners": [0, 2]}
        assert log.records["t1"] == {"result": {"winners": [0, 2]}}

    asyncio.run(scenario())


def test_the_recording_host_autopilot_plays_a_legal_action() -> None:
    options = game_options("buraco", 2)
    recorder = Recorder("buraco", options, Seeds(bytes(32), "g1", ("a", "b")), [])
    recorder.run_chance()
    state = recorder.state
    action = asyncio.run(RecordingHost().autopilot("buraco", state))
    assert state.why_illegal(action) is None


def test_the_fake_client_decodes_what_it_is_sent_until_closed() -> None:
    client = FakeClient("p1")
    client.send({"type": "left", "table": "t1"})
    client.error("stale", ref="x")
    client.closed = True
    client.send({"type": "left", "table": "t1"})
    assert [m["type"] for m in client.sent] == ["left", "error"]
    assert client.errors() == ["stale"] and client.sent[1]["id"] == "x"
    assert all(m["v"] == 1 for m in client.sent)


def test_test_settings_are_short(tmp_path: Path) -> None:
    short = settings(tmp_path)
    assert short.bot_delay == 0 and short.finished_linger < 1 and short.grace_seconds < 1
