"""Two real cluster nodes (``sahrat serve --redis-url``) sharing PostgreSQL and Redis: a
player on either node gets what a single process guarantees, whichever node owns the
table — the lobby, private codes, play now, one live table a player, chat, reconnecting,
bots and spectators — and nodes whose Redis is away keep their own games going and
refuse new tables at once rather than hang.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import shutil
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from signal import SIGCONT, SIGSTOP
from typing import Any

import pytest
from redis import Redis

from tests.server.cluster.conftest import REDIS_URL, SpareRedis, _answers, _require
from tests.server.harness import Player, Server, drop_postgres, postgres_url, run

#: Keys of this module's own in the machine's Redis.
PREFIX = f"sahrat-test:any-node:{secrets.token_hex(4)}:"

#: No bot sits down on its own while a test waits for a second person.
SETTINGS: dict[str, object] = {"autofill_seconds": 120.0}


@dataclass(frozen=True)
class Pair:
    """Two nodes of one cluster."""

    a: Server
    b: Server


@dataclass(frozen=True)
class AwayPair:
    """Two nodes of a cluster whose Redis a test may stop."""

    c: Server
    d: Server
    redis: SpareRedis


def new_database() -> str:
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not running here")
    assert url is not None
    return url


def node(
    directory: Path, url: str, redis: str, name: str, prefix: str, **settings: object
) -> Server:
    args = ["--redis-url", redis, "--node-id", name]
    return Server(directory / name, url, args, cluster_prefix=prefix, **(SETTINGS | settings))


def forget_keys(url: str, prefix: str) -> None:
    client = Redis.from_url(url, socket_timeout=2)
    try:
        keys = list(client.scan_iter(match=f"{prefix}*", count=500))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def two_nodes(
    directory: Path, prefix: str, names: tuple[str, str] = ("a", "b"), **settings: object
) -> Iterator[Pair]:
    """Two nodes on the machine's Redis (keys under ``prefix``) and a new database;
    ``settings`` override the module's own."""
    host, _, port = REDIS_URL.split("//", 1)[1].split("/", 1)[0].partition(":")
    if not _answers(host, int(port or 6379)):
        _require("Redis", f"nothing answers at {host}:{port}")
    url = new_database()
    nodes = Pair(node(directory, url, REDIS_URL, names[0], prefix, **settings),
                 node(directory, url, REDIS_URL, names[1], prefix, **settings))  # fmt: skip
    try:
        nodes.a.start()
        nodes.b.start()
        yield nodes
    finally:
        nodes.a.stop()
        nodes.b.stop()
        drop_postgres(url)
        forget_keys(REDIS_URL, prefix)


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    with two_nodes(tmp_path_factory.mktemp("any-node"), PREFIX) as nodes:
        yield nodes


@pytest.fixture(scope="module")
def away_pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AwayPair]:
    if shutil.which("redis-server") is None:
        _require("redis-server", "not installed")
    url = new_database()
    spare = SpareRedis(tmp_path_factory.mktemp("spare-redis"))
    directory = tmp_path_factory.mktemp("away")
    nodes = AwayPair(node(directory, url, spare.url, "c", PREFIX),
                     node(directory, url, spare.url, "d", PREFIX), spare)  # fmt: skip
    try:
        spare.start()
        nodes.c.start()
        nodes.d.start()
        yield nodes
    finally:
        nodes.c.stop()
        nodes.d.stop()
        spare.stop()
        drop_postgres(url)


# -- helpers --------------------------------------------------------------------------------


class Room:
    """The sockets of one test, all closed when it ends, failed or not."""

    def __init__(self) -> None:
        self.players: list[Player] = []

    async def person(self, server: Server, name: str, token: str | None = None) -> Player:
        player = Player(server, name)
        self.players.append(player)
        await player.connect(token)
        return player

    async def close(self) -> None:
        for player in self.players:
            await player.close()


def in_a_room(scenario: Callable[[Room], Awaitable[None]]) -> None:
    async def closing() -> None:
        room = Room()
        try:
            await scenario(room)
        finally:
            await room.close()

    run(closing())


async def first_answer(player: Player, ref: str, following: str | None = "") -> dict[str, Any]:
    """The error answering the message of id ``ref``, or the first ``table`` message of
    another table than ``following`` (by default the one the player follows now): the
    message was accepted. Within 8 s."""
    if following == "":
        following = player.state["table"]["id"] if player.state else None
    deadline = time.monotonic() + 8
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"{player.name}: no answer to {ref}")
        answer = await asyncio.wait_for(player.messages.get(), left)
        if answer["type"] == "error" and answer.get("id") == ref:
            return answer
        if answer["type"] == "table" and answer["table"]["id"] != following:
            return answer
        if answer["type"] == "_closed":
            raise ConnectionError(f"{player.name}: connection closed")


async def refused(player: Player, **message: Any) -> dict[str, Any]:
    """Send ``message``: the error that answers it (the test fails if it is accepted)."""
    ref = secrets.token_hex(4)
    await player.send(id=ref, **message)
    answer = await first_answer(player, ref)
    assert answer["type"] == "error", f"{player.name}: {message} was accepted: {answer}"
    return answer


async def listed(
    server: Server,
    table: str,
    present: bool = True,
    where: Callable[[dict[str, Any]], bool] = lambda entry: True,
) -> dict[str, Any] | None:
    """``table``'s entry in ``GET /api/tables`` of ``server`` once it is there and
    satisfies ``where`` (or once it is gone, with ``present`` false): within 5 s, else the
    test fails."""
    deadline = time.monotonic() + 5
    while True:
        tables = (await asyncio.to_thread(server.get, "/api/tables"))["tables"]
        entry = next((t for t in tables if t["id"] == table and where(t)), None)
        if present and entry is not None:
            return entry
        if not present and all(t["id"] != table for t in tables):
            return None
        assert time.monotonic() < deadline, (
            f"table {table} {'never listed so' if present else 'still listed'} on "
            f"{server.url}: {[t for t in tables if t['id'] == table]}"
        )
        await asyncio.sleep(0.1)


def seats_of(summary: dict[str, Any]) -> list[str]:
    return [p["player"] for p in summary["players"]]


def seat_of(state: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(s for s in state["seats"] if s.get("player") == player_id)


async def send_seeds(*players: Player) -> None:
    for player in players:
        await player.expect("seed_request")
        await player.send(type="seed", seed=secrets.token_hex(16))


async def playing(*players: Player) -> None:
    for player in players:
        await player.expect("table", lambda m: m["table"]["status"] == "playing")


async def play_to_end(player: Player, rng: random.Random, timeout: float = 60) -> dict[str, Any]:
    """Play a random legal move at each of the player's turns: the table with the result."""
    acted = -1
    deadline = time.monotonic() + timeout
    while True:
        state = player.state
        if state is not None and "result" in state:
            return state
        if (
            state is not None
            and state.get("legal")
            and state["to_move"] == state["you"]
            and state["moves"] > acted
        ):
            acted = state["moves"]
            await player.send(type="act", action=rng.choice(state["legal"]), moves=acted)
        await player.expect("table", timeout=max(0.1, deadline - time.monotonic()))


async def two_seats_playing(host: Player, guest: Player, listed_on: Server | None) -> str:
    """``host`` opens a public 2-seat Jackaroo table, ``guest`` joins it by its id (once
    the table is in ``listed_on``'s lobby); both seed; the table's id once it plays."""
    await host.send(type="create", game="jackaroo", seats=2)
    table = (await host.expect("table"))["table"]["id"]
    if listed_on is not None:
        await listed(listed_on, table)
    await guest.send(type="join", table=table)
    assert (await guest.expect("table"))["table"]["id"] == table
    await send_seeds(host, guest)
    await playing(host, guest)
    return str(table)


# -- the tests ------------------------------------------------------------------------------


def test_a_public_table_of_a_is_in_bs_lobby_until_everyone_leaves(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        watcher = await room.person(pair.b, "watcher")
        await watcher.send(type="lobby")
        version = (await watcher.expect("lobby"))["version"]
        host = await room.person(pair.a, "host")
        await host.send(type="create", game="jackaroo", seats=4)
        table = (await host.expect("table"))["table"]["id"]

        changes: list[dict[str, Any]] = []

        def seen(change: dict[str, Any]) -> bool:
            changes.append(change)
            return True

        async def change_where(test: Any) -> dict[str, Any]:
            return await watcher.expect("lobby_changes", lambda m: seen(m) and test(m), 5)

        added = await change_where(lambda m: any(t["id"] == table for t in m["added"]))
        entry = next(t for t in added["added"] if t["id"] == table)
        assert (entry["free"], entry["status"], entry["kind"]) == (3, "waiting", "free")
        assert [p["player"] for p in entry["players"]] == [host.player_id]
        await listed(pair.b, table, where=lambda entry: entry["free"] == 3)

        late = await room.person(pair.b, "late subscriber")
        await late.send(type="lobby")
        assert table in [t["id"] for t in (await late.expect("lobby"))["tables"]]

        guest = await room.person(pair.b, "guest")
        await guest.send(type="join", table=table)
        await guest.expect("table")
        await change_where(lambda m: any(t["id"] == table and t["free"] == 2 for t in m["changed"]))

        for player in (guest, host):
            await player.send(type="leave")
            await player.expect("left")
        await change_where(lambda m: table in m["removed"])
        await listed(pair.b, table, present=False)
        versions = [version] + [c["version"] for c in changes]
        assert versions == list(range(version, version + len(versions))), versions

    in_a_room(scenario)


def test_a_private_table_of_a_is_joined_and_watched_from_b_by_its_code(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        host = await room.person(pair.a, "host")
        await host.send(type="create", game="jackaroo", seats=4, private=True, spectators=True)
        state = (await host.expect("table"))["table"]
        table, code = state["id"], state["code"]
        assert code

        joiner = await room.person(pair.b, "joiner")
        await joiner.send(type="join", code=f" {code.lower()} ")
        joined = await joiner.expect("table")
        assert joined["table"]["id"] == table and joined["you"] is not None
        assert seat_of(joined, joiner.player_id)["seat"] == joined["you"]
        await host.expect("table", lambda m: m["table"]["free"] == 2)

        spectator = await room.person(pair.b, "spectator")
        await spectator.send(type="watch", code=code)
        watched = await spectator.expect("table")
        assert watched["table"]["id"] == table and watched["spectator"] is True
        await host.expect("table", lambda m: m["watching"] == 1)

        # Not by its id, from another node either.
        stranger = await room.person(pair.b, "stranger")
        assert (await refused(stranger, type="join", table=table))["code"] == "no_such_table"
        wrong = "".join(random.choice("ABCDEFGHJKLMNPQRSTUVWXYZ") for _ in range(6))
        assert (await refused(stranger, type="join", code=wrong))["code"] == "no_such_table"
        assert (await refused(stranger, type="watch", code=wrong))["code"] == "no_such_table"

        # A host who allows no spectators: refused, until the host allows them.
        closed_host = await room.person(pair.a, "closed host")
        await closed_host.send(type="create", game="jackaroo", seats=4, private=True)
        closed = (await closed_host.expect("table"))["table"]
        assert (await refused(stranger, type="watch", code=closed["code"]))["code"] == (
            "not_watchable"
        )
        await closed_host.send(type="spectators", allow=True)
        await closed_host.expect("table", lambda m: m["spectators"]["allow"] is True)
        await stranger.send(type="watch", code=closed["code"])
        watched = await stranger.expect("table")
        assert watched["table"]["id"] == closed["id"] and watched["spectator"] is True

        for player in (joiner, host, closed_host):
            await player.send(type="leave")
            await player.expect("left")

    in_a_room(scenario)


def test_play_now_on_b_sits_at_the_waiting_table_of_a(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        first = await room.person(pair.a, "first")
        await first.send(type="play_now", game="buraco", seats=2)
        opened = await first.expect("table")
        table = opened["table"]["id"]
        assert opened["table"]["free"] == 1
        await listed(pair.b, table)

        second = await room.person(pair.b, "second")
        await second.send(type="play_now", game="buraco", seats=2)
        seated = await second.expect("table")
        assert seated["table"]["id"] == table, "play_now opened a new table on b"
        assert seated["you"] is not None and seated["you"] != opened["you"]
        await first.expect("table", lambda m: m["table"]["free"] == 0)
        await listed(pair.b, table, where=lambda entry: entry["free"] == 0)

        for player in (second, first):
            await player.send(type="leave")
            await player.expect("left")

    in_a_room(scenario)


@dataclass(frozen=True)
class Seated:
    """A player playing at a table of a, with a socket on a and one on b (``again``)."""

    one: Player
    two: Player
    again: Player
    table: str
    seat: int


async def seated_at_a_and_on_b(room: Room, pair: Pair) -> Seated:
    one = await room.person(pair.a, "one")
    two = await room.person(pair.a, "two")
    table = await two_seats_playing(one, two, None)
    assert one.state is not None
    again = await room.person(pair.b, "one on b", one.token)
    assert again.player_id == one.player_id
    return Seated(one, two, again, table, one.state["you"])


async def waiting_table(room: Room, server: Server, listed_on: Server) -> tuple[Player, str]:
    """A public 4-seat table that someone opened on ``server``, in ``listed_on``'s lobby."""
    host = await room.person(server, "host")
    await host.send(type="create", game="jackaroo", seats=4)
    table = str((await host.expect("table"))["table"]["id"])
    await listed(listed_on, table)
    return host, table


async def answers(player: Player, following: str, *tries: dict[str, Any]) -> list[str]:
    """What answers each message: an error's code, or ``accepted`` and the table's id."""
    found = []
    for message in tries:
        ref = secrets.token_hex(4)
        await player.send(id=ref, **message)
        answer = await first_answer(player, ref, following)
        found.append(answer.get("code") or f"{message['type']} accepted ({answer['table']['id']})")
    return found


def test_a_seat_of_as_table_plays_from_b_and_opens_no_other_table_from_b(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        seated = await seated_at_a_and_on_b(room, pair)
        attached = await seated.again.expect("table")
        assert attached["table"]["id"] == seated.table and attached["you"] == seated.seat

        # A move sent from b is played.
        state = seated.again.state
        assert state is not None and state["to_move"] is not None
        if state["to_move"] != seated.seat:
            two = seated.two.state
            assert two is not None
            await seated.two.send(type="act", action=two["legal"][0], moves=two["moves"])
            state = await seated.again.expect("table", lambda m: m["to_move"] == seated.seat)
        action, moves = state["legal"][0], state["moves"]
        await seated.again.send(type="act", action=action, moves=moves)
        for player in (seated.again, seated.one, seated.two):
            after = await player.expect("table", lambda m, n=moves: m["moves"] > n)
            last = after["last"][-1]
            assert (last["seat"], last["action"]) == (seated.seat, action)

        # No second table from b: neither a new one nor a's waiting one (nor watching it).
        host, other = await waiting_table(room, pair.a, pair.b)
        found = await answers(
            seated.again,
            seated.table,
            {"type": "create", "game": "jackaroo", "seats": 4},
            {"type": "play_now", "game": "jackaroo", "seats": 4},
            {"type": "watch", "table": other},
            {"type": "join", "table": other},
        )
        assert found == ["already_seated"] * 4, found
        await host.send(type="leave")
        await host.expect("left")

    in_a_room(scenario)


def test_a_seat_of_as_table_is_refused_a_table_of_b_too(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        seated = await seated_at_a_and_on_b(room, pair)
        host, other = await waiting_table(room, pair.b, pair.b)
        found = await answers(
            seated.again,
            seated.table,
            {"type": "watch", "table": other},
            {"type": "join", "table": other},
        )
        await host.send(type="leave")
        await host.expect("left")
        assert found == ["already_seated"] * 2, found

    in_a_room(scenario)


def test_table_chat_crosses_nodes_and_a_spectator_on_b_only_reads(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        host = await room.person(pair.a, "host")
        await host.send(type="create", game="jackaroo", seats=4)
        table = (await host.expect("table"))["table"]["id"]
        await listed(pair.b, table)
        guest = await room.person(pair.b, "guest")
        await guest.send(type="join", table=table)
        guest_seat = (await guest.expect("table"))["you"]
        spectator = await room.person(pair.b, "spectator")
        await spectator.send(type="watch", table=table)
        await spectator.expect("table")

        for speaker, seat, text in ((guest, guest_seat, "from b"), (host, 0, "from a")):
            await speaker.send(type="chat", text=text)
            for reader in (host, guest, spectator):
                line = await reader.expect("chat", timeout=5)
                assert (line["text"], line["seat"], line["table"]) == (text, seat, table)

        assert (await refused(spectator, type="chat", text="may I?"))["code"] == "spectator"
        await host.send(type="chat", text="after")
        for reader in (host, guest, spectator):
            assert (await reader.expect("chat", timeout=5))["text"] == "after"

        for player in (guest, host):
            await player.send(type="leave")
            await player.expect("left")

    in_a_room(scenario)


def test_a_seat_that_left_b_comes_back_through_a_and_plays_on(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        rng = random.Random(6)
        host, guest = await room.person(pair.a, "host"), await room.person(pair.b, "guest")
        table = await two_seats_playing(host, guest, pair.b)
        assert guest.state is not None
        seat = guest.state["you"]

        await guest.close()
        await host.expect("table", lambda m: seat_of(m, guest.player_id)["connected"] is False)

        back = await room.person(pair.a, "guest again", guest.token)
        state = await back.expect("table")
        assert state["table"]["id"] == table and state["you"] == seat
        await host.expect("table", lambda m: seat_of(m, guest.player_id)["connected"] is True)

        ends = await asyncio.gather(play_to_end(host, rng), play_to_end(back, rng))
        assert ends[0]["result"] == ends[1]["result"]
        assert ends[1]["moves"] > state["moves"]

    in_a_room(scenario)


def test_a_bot_game_of_a_is_watched_from_b_to_its_end(pair: Pair) -> None:
    async def scenario(room: Room) -> None:
        host = await room.person(pair.a, "host")
        await host.send(type="create", game="jackaroo", seats=2)
        table = (await host.expect("table"))["table"]["id"]
        await listed(pair.b, table)
        spectator = await room.person(pair.b, "spectator")
        await spectator.send(type="watch", table=table)
        assert (await spectator.expect("table"))["spectator"] is True

        await host.send(type="bots")
        await send_seeds(host)
        end = await play_to_end(host, random.Random(7))
        seen = await spectator.expect("table", lambda m: "result" in m, timeout=15)
        assert seen["result"] == end["result"] and seen["moves"] == end["moves"]
        assert any(s.get("bot") for s in seen["seats"])
        await listed(pair.b, table, present=False)  # it ended: out of b's lobby too

    in_a_room(scenario)


async def redis_away(room: Room, nodes: AwayPair, away: Callable[[], None],
                     back: Callable[[], None]) -> None:  # fmt: skip
    """Two seats on c play while Redis is ``away``: their game ends and is stored, and a
    ``create`` on either node is refused with ``unavailable`` within 5 s; once Redis is
    ``back``, a ``create`` on either node opens a table within 10 s, and the refused
    ones left nothing behind."""
    rng = random.Random(8)
    one, two = await room.person(nodes.c, "one"), await room.person(nodes.c, "two")
    on_c, on_d = await room.person(nodes.c, "on c"), await room.person(nodes.d, "on d")
    await two_seats_playing(one, two, None)

    away()
    refusals: dict[str, tuple[str, float]] = {}

    async def refuse(player: Player) -> None:
        started = time.monotonic()
        error = await refused(player, type="create", game="jackaroo", seats=4)
        refusals[player.name] = (error["code"], time.monotonic() - started)

    ends = await asyncio.gather(
        play_to_end(one, rng), play_to_end(two, rng), refuse(on_c), refuse(on_d)
    )
    assert ends[0]["result"] == ends[1]["result"]
    for _ in range(50):  # the end is stored without Redis: the record reveals the seed
        record = await asyncio.to_thread(nodes.c.get, ends[0]["result"]["record"])
        if "server_seed" in record:
            break
        await asyncio.sleep(0.1)
    assert "server_seed" in record
    for name, (code, seconds) in refusals.items():
        assert code == "unavailable" and seconds < 5, (name, code, seconds)

    back()
    started = time.monotonic()
    for player in (on_d, on_c):
        while True:
            ref = secrets.token_hex(4)
            await player.send(type="create", game="jackaroo", seats=4, id=ref)
            answer = await first_answer(player, ref)
            if answer["type"] == "table":
                break
            assert answer["code"] == "unavailable", answer
            assert time.monotonic() - started < 10, "no new table 10 s after Redis is back"
            await asyncio.sleep(0.2)

    # The refused creates left nothing behind: each player has one table, the one just
    # opened, also once the nodes have looked for tables nobody owns.
    await asyncio.sleep(1.5)
    for server in (nodes.c, nodes.d):
        tables = (await asyncio.to_thread(server.get, "/api/tables"))["tables"]
        for player in (on_c, on_d):
            assert player.state is not None
            theirs = [t["id"] for t in tables if player.player_id in seats_of(t)]
            assert theirs == [player.state["table"]["id"]], (server.url, player.name, tables)


def test_with_redis_stopped_a_nodes_own_game_plays_on_and_new_tables_are_refused(
    away_pair: AwayPair,
) -> None:
    async def scenario(room: Room) -> None:
        await redis_away(room, away_pair, away_pair.redis.stop, away_pair.redis.start)

    in_a_room(scenario)


def test_with_redis_not_answering_new_tables_are_refused_rather_than_hang(
    away_pair: AwayPair,
) -> None:
    """Redis paused (SIGSTOP): connections open, nothing answers, as in a partition."""

    def to_redis(number: int) -> Callable[[], None]:
        def send() -> None:
            assert away_pair.redis.process is not None
            away_pair.redis.process.send_signal(number)

        return send

    async def scenario(room: Room) -> None:
        try:
            await redis_away(room, away_pair, to_redis(SIGSTOP), to_redis(SIGCONT))
        finally:
            to_redis(SIGCONT)()

    in_a_room(scenario)
