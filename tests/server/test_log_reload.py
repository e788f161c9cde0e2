"""A table whose event log moved on without it reloads from the log, never jams."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from tests.server.conftest import seat_four
from tests.server.harness import run, running


def test_a_table_reloads_when_its_next_seq_is_already_stored(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            players = await seat_four(server, "jackaroo")
            state = players[0].state
            assert state is not None
            table_id = state["table"]["id"]
            by_seat = {p.state["you"]: p for p in players if p.state is not None}
            mover = by_seat[state["to_move"]]
            # Another writer (a second process, an operator) appends the table's next event.
            db = sqlite3.connect(tmp_path / "sahrat.db")
            (seq,) = db.execute(
                "SELECT max(seq) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
            line = {"channel": "table", "seat": 1, "name": "p1", "text": "written elsewhere",
                    "to": [0, 1, 2, 3], "at": time.time()}  # fmt: skip
            db.execute(
                "INSERT INTO events (table_id, seq, kind, data, at) VALUES (?, ?, 'chat', ?, ?)",
                (table_id, seq + 1, json.dumps(line), time.time()),
            )
            db.commit()
            db.close()
            assert mover.state is not None
            action = mover.state["legal"][0]
            await mover.send(type="act", action=action, moves=0, id="first")
            error = await mover.expect("error")
            assert error["code"] == "unavailable" and error["id"] == "first"
            # Everyone is attached to the reloaded table, which holds the other event.
            for player in players:
                history = await player.expect("chat_history", timeout=10)
                assert [m["text"] for m in history["messages"]] == ["written elsewhere"]
                await player.expect("table", lambda m: m["moves"] == 0, timeout=10)
            await mover.send(type="act", action=action, moves=0, id="again")
            for player in players:
                after = await player.expect("table", lambda m: m["moves"] == 1, timeout=10)
                assert after["table"]["status"] == "playing"
            assert "reloading" in server.log_text()
            for player in players:
                await player.close()

    run(scenario())
