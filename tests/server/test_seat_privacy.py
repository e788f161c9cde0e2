"""What a seat receives does not depend on the other side's team chat."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.server.conftest import by_seat, close_all, seat_four, shared_server
from tests.server.harness import Player, Server, run


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with shared_server(tmp_path_factory) as server:
        yield server


@dataclass
class Talk:
    players: list[Player]
    seated: dict[int, Player]
    seq_before: int  # the table's seq before the team lines
    lines: list[tuple[int, dict[str, Any]]]  # (i, the line) as talker and partner got "plan i"

    @property
    def talker(self) -> Player:
        return self.seated[0]

    @property
    def partner(self) -> Player:
        return self.seated[2]

    @property
    def opponents(self) -> list[Player]:
        return [self.seated[1], self.seated[3]]


async def team_talk(server: Server) -> Talk:
    """Four at a Jackaroo table, every message so far read; seat 0 sends its partner five
    team lines."""
    players = await seat_four(server, "jackaroo")
    await asyncio.sleep(0.3)
    for player in players:
        player.drain()
    assert players[0].state is not None
    seq_before = players[0].state["seq"]
    seated = by_seat(players)
    lines = []
    for i in range(5):
        await seated[0].send(type="chat", channel="team", text=f"plan {i}")
        for player in (seated[0], seated[2]):
            lines.append((i, await player.expect("chat", timeout=5)))
    return Talk(players, seated, seq_before, lines)


async def history_after_a_reconnect(server: Server, player: Player) -> list[str]:
    await player.close()
    again = Player(server, player.name)
    await again.connect(token=player.token)
    history = await again.expect("chat_history")
    await again.close()
    return [m["text"] for m in history["messages"]]


def test_team_chat_reaches_the_talker_and_the_partner(server: Server) -> None:
    async def scenario() -> None:
        talk = await team_talk(server)
        for i, line in talk.lines:
            assert line["channel"] == "team" and line["text"] == f"plan {i}"
        await close_all(*talk.players)

    run(scenario())


def test_team_chat_sends_the_other_side_nothing(server: Server) -> None:
    async def scenario() -> None:
        talk = await team_talk(server)
        await asyncio.sleep(0.5)
        for opponent in talk.opponents:
            # Nothing at all reached the other side, pings aside.
            assert opponent.drain() == []
        await close_all(*talk.players)

    run(scenario())


def test_team_chat_is_not_counted_in_the_tables_seq(server: Server) -> None:
    async def scenario() -> None:
        talk = await team_talk(server)
        # The next change everyone sees carries the same seq for every seat, one more
        # than before: the team lines were not counted.
        state = talk.players[0].state
        assert state is not None
        mover = talk.seated[state["to_move"]]
        assert mover.state is not None and mover.state["legal"]
        await mover.send(type="act", action=mover.state["legal"][0], moves=0)
        seen = []
        for player in talk.players:
            state = await player.expect("table", lambda m: m["moves"] == 1, timeout=5)
            seen.append(state["seq"])
        assert seen == [talk.seq_before + 1] * 4
        await close_all(*talk.players)

    run(scenario())


async def good_luck(talk: Talk) -> None:
    """Seat 0 wishes the whole table good luck; everyone reads it."""
    await talk.talker.send(type="chat", text="good luck")
    for player in talk.players:
        await player.expect("chat", lambda m: m["text"] == "good luck", timeout=5)


def test_a_partners_chat_history_holds_the_team_lines(server: Server) -> None:
    async def scenario() -> None:
        talk = await team_talk(server)
        await good_luck(talk)
        texts = await history_after_a_reconnect(server, talk.partner)
        assert texts == [f"plan {i}" for i in range(5)] + ["good luck"]
        await close_all(*talk.players)

    run(scenario())


def test_the_other_sides_chat_history_holds_only_the_table_lines(server: Server) -> None:
    async def scenario() -> None:
        talk = await team_talk(server)
        await good_luck(talk)
        assert await history_after_a_reconnect(server, talk.opponents[0]) == ["good luck"]
        await close_all(*talk.players)

    run(scenario())
