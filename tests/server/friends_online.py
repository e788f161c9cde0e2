"""Helpers for the tests of presence, invitations and chat blocking: registered players
who are friends (over REST), connected with real WebSocket clients."""

from __future__ import annotations

import json
from typing import Any

from tests.server.harness import Account, Player, Server, call


def befriend(server: Server, a: Account, b: Account) -> None:
    """A asks, B accepts: friends."""
    asked = call(server, "POST", "/api/friends", {"player": b.id}, token=a.token)
    assert asked.status == 201, asked
    accepted = call(server, "PUT", f"/api/friends/requests/{a.id}", token=b.token)
    assert accepted.status == 204, accepted


def block(server: Server, blocker: Account, blocked: Account) -> None:
    reply = call(server, "PUT", f"/api/blocks/{blocked.id}", token=blocker.token)
    assert reply.status == 204, reply


async def online(server: Server, account: Account) -> Player:
    """``account`` connected; its first ``presence`` (the whole list) is waited for."""
    player = Player(server, account.name)
    await player.connect(account.token)
    await player.expect("presence", lambda m: m.get("full") is True)
    return player


def presence_of(message: dict[str, Any], player_id: str) -> dict[str, Any] | None:
    """The entry for ``player_id`` in a ``presence`` message, if it has one."""
    for entry in message["friends"]:
        if entry["player"] == player_id:
            return dict(entry)
    return None


def told_of(player: Player, other_id: str) -> list[dict[str, Any]]:
    """Every presence entry about ``other_id`` that ``player`` was sent."""
    found = []
    for text in player.received:
        message = json.loads(text)
        if message["type"] == "presence":
            entry = presence_of(message, other_id)
            if entry is not None:
                found.append(entry)
    return found


def sent_of_type(player: Player, kind: str) -> list[dict[str, Any]]:
    return [m for m in map(json.loads, player.received) if m["type"] == kind]


async def at_table(player: Player, other_id: str, where: Any) -> dict[str, Any]:
    """The next presence entry about ``other_id`` for which ``where(entry)`` holds."""
    message = await player.expect(
        "presence",
        lambda m: (e := presence_of(m, other_id)) is not None and bool(where(e)),
    )
    entry = presence_of(message, other_id)
    assert entry is not None
    return entry
