"""What a seat receives does not depend on the other side's team chat."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.server.conftest import seat_four
from tests.server.harness import Player, run, running


def test_team_chat_leaves_no_trace_for_the_other_side(tmp_path: Path) -> None:
    async def scenario() -> None:
        with running(tmp_path) as server:
            players = await seat_four(server, "jackaroo")
            await asyncio.sleep(0.3)
            for player in players:
                player.drain()
            assert players[0].state is not None
            seq_before = players[0].state["seq"]
            by_seat = {p.state["you"]: p for p in players if p.state is not None}
            talker, partner = by_seat[0], by_seat[2]
            opponents = [by_seat[1], by_seat[3]]
            for i in range(5):
                await talker.send(type="chat", channel="team", text=f"plan {i}")
                for player in (talker, partner):
                    line = await player.expect("chat", timeout=5)
                    assert line["channel"] == "team" and line["text"] == f"plan {i}"
            await asyncio.sleep(0.5)
            for opponent in opponents:
                # Nothing at all reached the other side, pings aside.
                assert opponent.drain() == []
            # The next change everyone sees carries the same seq for every seat, one more
            # than before: the team lines were not counted.
            mover = by_seat[players[0].state["to_move"]]
            assert mover.state is not None and mover.state["legal"]
            await mover.send(type="act", action=mover.state["legal"][0], moves=0)
            seen = []
            for player in players:
                state = await player.expect("table", lambda m: m["moves"] == 1, timeout=5)
                seen.append(state["seq"])
            assert seen == [seq_before + 1] * 4
            # History after a reconnect: the other side gets only the table's lines.
            await talker.send(type="chat", text="good luck")
            for player in players:
                await player.expect("chat", lambda m: m["text"] == "good luck", timeout=5)
            texts = {}
            for player in (partner, opponents[0]):
                await player.close()
                again = Player(server, player.name)
                await again.connect(token=player.token)
                history = await again.expect("chat_history")
                texts[player.name] = [m["text"] for m in history["messages"]]
                await again.close()
            assert texts[partner.name] == [f"plan {i}" for i in range(5)] + ["good luck"]
            assert texts[opponents[0].name] == ["good luck"]
            for player in players:
                await player.close()

    run(scenario())
