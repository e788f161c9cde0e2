"""The lobby sends its whole list once, then only what changed (``docs/protocol.md`` §3).

Real sockets on a real server: a burst of many table changes reaches a subscriber as
a few ``lobby_changes`` messages, each naming only the tables that changed, and the
list a client builds from them is the server's own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from tests.server.conftest import close_all, people, shared_server
from tests.server.harness import Player, Server, run

#: On SQLite and on PostgreSQL.
pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.sqlite_only]

TABLES = 24


def apply(tables: list[dict[str, Any]], change: dict[str, Any]) -> list[dict[str, Any]]:
    """What the web client does with a ``lobby_changes`` message (lobby.js)."""
    gone = set(change["removed"]) | {t["id"] for t in change["added"]}
    changed = {t["id"]: t for t in change["changed"]}
    kept = [changed.get(t["id"], t) for t in tables if t["id"] not in gone]
    return [*change["added"], *kept]


@dataclass
class Burst:
    first: dict[str, Any]  # the whole list, on subscribing
    changes: list[dict[str, Any]]  # every lobby_changes message, in order
    change_bytes: list[int]  # their sizes on the wire
    built: list[dict[str, Any]]  # the list the subscriber built from them
    server: list[dict[str, Any]]  # GET /api/tables once everything settled
    late: dict[str, Any]  # the whole list a second subscriber got mid-way
    late_built: list[dict[str, Any]]  # what it built from the changes after it
    one_leave: dict[str, Any]  # the one change a single leave made, after the burst
    opened: list[str]  # the tables the burst opened
    left: list[str]  # those whose only player left


async def quiet(watcher: Player, seconds: float = 1.0) -> list[dict[str, Any]]:
    """The lobby_changes messages until none comes for ``seconds``."""
    got = []
    while True:
        try:
            got.append(await watcher.expect("lobby_changes", timeout=seconds))
        except TimeoutError:
            return got


def sizes_of(watcher: Player) -> dict[int, int]:
    """Each lobby_changes message's size by its version, from the raw frames."""
    out = {}
    for text in watcher.received:
        message = json.loads(text)
        if message["type"] == "lobby_changes":
            out[message["version"]] = len(text.encode())
    return out


@pytest.fixture(scope="module")
def burst(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Burst:
    async def scenario(server: Server) -> Burst:
        watcher, late = await people(server, 2)
        hosts = await people(server, TABLES)
        await watcher.send(type="lobby")
        first = await watcher.expect("lobby")
        # Every host opens a public table at once: one burst of many changes.
        for host in hosts:
            await host.send(type="create", game="jackaroo", seats=4)
        opened = [(await host.expect("table"))["table"]["id"] for host in hosts]
        await late.send(type="lobby")
        late_first = await late.expect("lobby")
        # Half of them leave: their tables close and leave the lobby.
        leavers = hosts[: TABLES // 2]
        for host in leavers:
            await host.send(type="leave")
        for host in leavers:
            await host.expect("left")
        changes = await quiet(watcher)
        late_changes = await quiet(late, 0.1)
        built = first["tables"]
        for change in changes:
            built = apply(built, change)
        late_built = late_first["tables"]
        for change in late_changes:
            late_built = apply(late_built, change)
        # After the burst, one leave is one small message.
        await hosts[-1].send(type="leave")
        one_leave = await watcher.expect("lobby_changes")
        sizes = sizes_of(watcher)
        listed = server.get("/api/tables")["tables"]
        await close_all(watcher, late, *hosts)
        return Burst(
            first,
            changes,
            [sizes[c["version"]] for c in changes],
            built,
            listed,
            late_first,
            late_built,
            one_leave,
            opened,
            [opened[i] for i in range(TABLES // 2)],
        )

    with shared_server(tmp_path_factory, backend, autofill_seconds=0.0) as server:
        return run(scenario(server))  # type: ignore[no-any-return]


def test_the_subscriber_builds_the_servers_list_from_the_changes(burst: Burst) -> None:
    # The server's list was read after the last leave: the same list, order included.
    built = apply(burst.built, burst.one_leave)
    assert built == burst.server
    assert {t["id"] for t in built} == set(burst.opened[TABLES // 2 : -1])


def test_a_burst_of_changes_comes_as_few_messages(burst: Burst) -> None:
    # Each table was added, and half of them removed: far more changes than messages.
    made = TABLES + TABLES // 2
    assert 1 <= len(burst.changes) < made / 2


def test_the_versions_follow_one_another(burst: Burst) -> None:
    versions = [burst.first["version"]] + [c["version"] for c in burst.changes]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert burst.one_leave["version"] == versions[-1] + 1


def test_a_change_names_only_the_tables_that_changed(burst: Burst) -> None:
    assert burst.one_leave["removed"] == [burst.opened[-1]]
    assert burst.one_leave["added"] == [] and burst.one_leave["changed"] == []


def test_changes_are_far_smaller_than_the_list_resent(burst: Burst) -> None:
    # What resending the whole list with each of these messages would have cost.
    held, resent = burst.first["tables"], 0
    for change in burst.changes:
        held = apply(held, change)
        resent += len(json.dumps({"v": 1, "type": "lobby", "tables": held}).encode())
    assert sum(burst.change_bytes) < resent


def test_a_changed_entry_differs_from_the_one_held(burst: Burst) -> None:
    held = {t["id"]: t for t in burst.first["tables"]}
    for change in burst.changes:
        for entry in change["changed"]:
            assert held[entry["id"]] != entry
        for entry in change["added"]:
            assert entry["id"] not in held
        for table_id in change["removed"]:
            assert table_id in held
            del held[table_id]
        held.update({t["id"]: t for t in change["changed"] + change["added"]})


def test_removed_tables_leave_the_list(burst: Burst) -> None:
    removed = {table_id for c in burst.changes for table_id in c["removed"]}
    assert removed == set(burst.left)
    assert not removed & {t["id"] for t in burst.built}


def test_a_late_subscriber_gets_the_list_then_the_changes_after_it(burst: Burst) -> None:
    assert {t["id"] for t in burst.late["tables"]} >= set(burst.opened)
    assert burst.late_built == burst.built
