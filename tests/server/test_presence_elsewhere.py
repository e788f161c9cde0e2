"""What one node's presence tells the other nodes of a cluster, through a fake of its
narrow ``Elsewhere`` interface: no server, no Redis, exact timing."""

from __future__ import annotations

import asyncio
from typing import Any

from sahrat.server.presence import Presence
from tests.server.table.fakes import FakeClient


class FakeStore:
    """The one thing presence asks the database: a player's friends and blocks."""

    engine = None

    def __init__(self, friends: dict[str, set[str]]) -> None:
        self.friends = friends

    async def run(self, fn: Any, engine: Any, player: str) -> tuple[set[str], ...]:
        return (self.friends.get(player, set()), set(), set())


class FakeElsewhere:
    """Other nodes that record what this node published and know nobody."""

    def __init__(self) -> None:
        self.published: list[dict[str, Any]] = []

    def entry(self, player: str) -> dict[str, Any] | None:
        return None

    def publish(self, entries: list[dict[str, Any]]) -> None:
        self.published += entries

    def circle_changed(self, what: str, a: str, b: str, on: bool) -> None:
        pass

    def send_to(self, player: str, text: str) -> None:
        pass


GRACE = 0.05
INTERVAL = 0.01


def test_the_last_player_to_go_from_a_node_is_published_gone_after_the_grace() -> None:
    """Nobody is left connected to this node, yet its friends on other nodes must be told:
    the flush that publishes the departure runs all the same."""

    async def scenario() -> FakeElsewhere:
        presence = Presence(FakeStore({"p": {"f"}}), GRACE, {}, {}, interval=INTERVAL)
        elsewhere = FakeElsewhere()
        presence.elsewhere = elsewhere
        client = FakeClient("p")
        await presence.connected(client)
        await asyncio.sleep(INTERVAL * 5)
        assert elsewhere.published == [{"player": "p", "name": "P", "online": True, "at": None}]
        presence.disconnected(client)
        await asyncio.sleep(GRACE + INTERVAL * 5)
        return elsewhere

    elsewhere = asyncio.run(scenario())
    assert elsewhere.published[-1] == {"player": "p", "online": False, "at": None}
    assert len(elsewhere.published) == 2


def test_a_reload_within_the_grace_publishes_nothing() -> None:
    async def scenario() -> FakeElsewhere:
        presence = Presence(FakeStore({}), GRACE, {}, {}, interval=INTERVAL)
        elsewhere = FakeElsewhere()
        presence.elsewhere = elsewhere
        first = FakeClient("p")
        await presence.connected(first)
        await asyncio.sleep(INTERVAL * 5)
        presence.disconnected(first)
        await presence.connected(FakeClient("p"))
        await asyncio.sleep(GRACE + INTERVAL * 5)
        return elsewhere

    elsewhere = asyncio.run(scenario())
    assert [e["online"] for e in elsewhere.published] == [True]
