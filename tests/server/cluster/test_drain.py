"""A cluster node stopped with SIGTERM gives its tables up at once: a node started
next takes them over without waiting for the lease to expire, its log lines are JSON
naming the node and the table, and the players carry on."""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.server.harness import Player, Server, run


def test_a_drained_nodes_table_is_taken_over_at_once(
    tmp_path: Path, redis_url: str, prefix: str, fresh_database: str
) -> None:
    url = fresh_database

    def node(name: str) -> Server:
        args = ["--redis-url", redis_url, "--node-id", name, "--log-format", "json"]
        # A long lease: a takeover within it can only come from the lease given up.
        return Server(tmp_path / name, url, args, cluster_prefix=prefix,
                      lease_seconds=30.0, lease_renew_seconds=5.0)  # fmt: skip

    first = node("first").start()
    second: Server | None = None
    try:

        async def open_table() -> tuple[str, str]:
            player = Player(first, "ward")
            await player.connect()
            await player.send(type="create", game="jackaroo", seats=2)
            state = await player.expect("table")
            await player.close()
            assert player.token is not None
            return state["table"]["id"], player.token

        table, token = run(open_table())
        first.stop()  # SIGTERM: drains
        stopped = time.monotonic()
        second = node("second").start()

        async def back() -> dict[str, object]:
            player = Player(second, "ward")
            await player.connect(token)
            state = await player.expect("table", timeout=15)
            await player.close()
            return state

        state = run(back())
        taken = time.monotonic() - stopped
        assert state["table"]["id"] == table  # type: ignore[index]
        assert taken < 15, f"taken over after {taken:.1f} s: the lease was not given up"
        lines = [json.loads(line) for line in second.log_text().splitlines() if line[:1] == "{"]
        assert lines and all(line["node"] == "second" for line in lines)
        assert any(line.get("table") == table and "over" in line["msg"] for line in lines)
    finally:
        first.stop()
        if second is not None:
            second.stop()
