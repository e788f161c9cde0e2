"""A cluster node as the edge of its sockets: what they say about other nodes' tables
goes to those tables' owners, and what the owners send them comes back here.

A socket's messages are looked at before the single-process hub handles them. Those
about a table on this node, or about no table, are that hub's. A table message of a
player who sits at (or watches) a table of another node, and a ``join`` or ``watch``
of such a table (by its id in the shared lobby, or by a private code in the
directory), is sent to the table's owner, which answers the socket directly. A
returning player's socket (``hello``) is attached to their table wherever it is.

Why not redirect the browser to the owner: a load balancer in front knows nothing
about tables, the owner changes on failover, and the socket here keeps working
through it (``docs/deploy.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Coroutine
from typing import Any

from sahrat.games import GAMES
from sahrat.server import messages, protocol
from sahrat.server.client import Client, CloseCode
from sahrat.server.cluster.bus import Bus
from sahrat.server.cluster.directory import Directory
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.listings import Listings, RemoteListing
from sahrat.server.cluster.node import Node
from sahrat.server.cluster.redis_link import ClusterUnavailable
from sahrat.server.cluster.remote import Outbox, RemoteClient
from sahrat.server.hub import Hub
from sahrat.server.messages import Join, PlayNow, Watch
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings
from sahrat.server.store import Store
from sahrat.server.table.inbox import Attach, ForgetPlayer

log = logging.getLogger(__name__)

OVER = ("finished", "closed")


#: How long an owner looked up is trusted. A table changes owner only when its lease
#: lapses (seconds) or its node drains: a message sent meanwhile to the node it left
#: is bounced (nobody listens there) or answered ``table_moving`` by it (it lost the
#: table), and the client sends it again, by then to the new owner.
OWNER_FRESH = 1.0


def moving() -> ProtocolError:
    return ProtocolError("table_moving")


def unreachable() -> ProtocolError:
    return ProtocolError("unavailable", "the servers cannot reach each other")


class Edge(Hub):
    """The edge's part of a cluster node (its owner's part: :mod:`.hub`)."""

    node: Node
    leases: Leases
    outbox: Outbox
    directory: Directory
    listings: Listings
    bus: Bus

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        super().__init__(settings, store)
        #: The table of another node each socket here follows (sits at or watches).
        self.remote_of: dict[Client, str] = {}
        #: As what the table said a socket here follows it (``attached``): a seat or a
        #: spectator, with the table's id (a later route elsewhere makes it stale).
        self.attached_as: dict[Client, tuple[str, str]] = {}
        #: This node's sockets by player.
        self.local_clients: dict[str, set[Client]] = {}
        self._conn_of: dict[Client, str] = {}
        self._conns: dict[str, Client] = {}
        self._numbers = itertools.count(1)
        #: Each remote table's owner as last looked up, and until when that holds.
        self._owners: dict[str, tuple[str, float]] = {}
        #: Tasks started by :meth:`spawn`, kept until done (and cancelled on shutdown).
        self._chores: set[asyncio.Task[Any]] = set()

    def spawn(self, work: Coroutine[Any, Any, Any], name: str) -> None:
        """Run ``work`` beside the caller (a callback that cannot wait for Redis)."""
        task = asyncio.create_task(work, name=name)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    def _conn(self, client: Client) -> str:
        conn = self._conn_of.get(client)
        if conn is None:
            conn = str(next(self._numbers))
            self._conn_of[client] = conn
            self._conns[conn] = client
        return conn

    # -- sending to owners ----------------------------------------------------------------

    async def forward(
        self, client: Client, table: str, op: str, message: dict[str, Any] | None = None
    ) -> None:
        """Send ``op`` (``m``: a message, ``a``: attach) of ``client`` to ``table``'s owner."""
        actor = self.tables.get(table)
        if actor is not None:  # the table came here meanwhile (this node took it over)
            self.remote_of.pop(client, None)
            if op == "a":
                if self.seated.get(client.player) is actor:
                    actor.post(Attach(client))
            elif message is not None:
                await Hub.dispatch(self, client, message)
            return
        node = await self._owner_node(table)
        who = {"player": client.player, "name": client.name, "guest": client.guest,
               "session": client.session, "address": client.address}  # fmt: skip
        body = {"op": op, "node": self.node.id, "conn": self._conn(client), "who": who}
        bounce = None
        if message is not None:
            body["m"] = message
            ref = message.get("id")

            def bounce() -> None:  # its owner is dead and its lease not yet expired
                self._owners.pop(table, None)
                client.error("table_moving", ref=ref)

        self.outbox.put(node, "t", table, body, bounce)

    async def _owner_node(self, table: str) -> str:
        """The node owning ``table``: looked up in Redis at most every :data:`OWNER_FRESH`
        seconds per table (a game's moves would otherwise cost a lookup each)."""
        now = time.monotonic()
        known = self._owners.get(table)
        if known is not None and known[1] > now:
            return known[0]
        try:
            owner = await self.leases.owner(table)
        except ClusterUnavailable:
            raise unreachable() from None
        if owner is None:
            self._owners.pop(table, None)
            raise moving()
        if len(self._owners) > 4 * len(self.local_clients) + 64:
            self._owners = {t: k for t, k in self._owners.items() if k[1] > now}
        self._owners[table] = (owner[0], now + OWNER_FRESH)
        return owner[0]

    async def _forward_quietly(
        self, client: Client, table: str, op: str, message: dict[str, Any] | None = None
    ) -> None:
        with contextlib.suppress(ProtocolError):
            await self.forward(client, table, op, message)

    def _to_connection(self, conn: str, body: Any) -> None:
        """What a table on another node sent one of this node's sockets."""
        client = self._conns.get(conn)
        if client is None:
            return
        if "x" in body:
            client.send_text(body["x"])
        elif "attached" in body:
            self.remote_of[client] = body["attached"]
            self.attached_as[client] = (body["attached"], str(body.get("as", "seat")))
            self.presence.touch()
        elif "released" in body:
            if self.remote_of.get(client) == body["released"]:
                del self.remote_of[client]
            if self.attached_as.get(client, ("",))[0] == body["released"]:
                del self.attached_as[client]
            self.presence.touch()
        elif "close" in body:
            client.close(CloseCode(int(body["close"])))

    # -- what a socket here says ----------------------------------------------------------

    async def dispatch(self, client: Client, message: dict[str, Any]) -> None:
        if client.authenticated and not isinstance(client, RemoteClient):
            try:
                if await self._elsewhere(client, message):
                    return
            except ProtocolError as error:
                client.error(error.code, error.detail, message.get("id"), **error.extra)
                return
        await super().dispatch(client, message)

    async def _elsewhere(self, client: Client, message: dict[str, Any]) -> bool:
        """Send ``message`` to another node if it is about a table there: whether sent."""
        kind = message["type"]
        if messages.REGISTRY[kind].SCOPE == "table":
            table = self.remote_of.get(client)
            if table is None or self._here(client):
                return False
            await self.forward(client, table, "m", message)
            return True
        if kind == "join":
            return await self._join_elsewhere(client, message)
        if kind == "watch":
            return await self._watch_elsewhere(client, message)
        if kind == "unwatch":
            table = self.remote_of.get(client)
            if table is None or client.player in self.watching.by_player:
                return False
            await self.forward(client, table, "m", message)
            return True
        if kind in ("create", "play_now"):
            await self._not_seated_elsewhere(client)
            if kind == "play_now":
                return await self._play_now_elsewhere(client, message)
        return False

    def _remote_place(self, player: str) -> tuple[RemoteListing, str] | None:
        """The public table of another node a socket of ``player`` here follows, and as
        what, for friends to see (a private table elsewhere is not in the shared lobby).

        Only once the table has attached the socket, as what it said: a join on its way
        is not yet a seat, and the shared lobby may not list the seat yet."""
        for client in self.local_clients.get(player, ()):
            table = self.remote_of.get(client, "")
            listing = self.listings.remote.get(table)
            attached = self.attached_as.get(client)
            if listing is not None and attached is not None and attached[0] == table:
                return listing, attached[1]
        return None

    def _here(self, client: Client) -> bool:
        return client.player in self.seated or client.player in self.watching.by_player

    async def _not_seated_elsewhere(self, client: Client, but: str | None = None) -> None:
        """Refuse a second live table across the cluster (the hub checks this node's)."""
        actor = self.seated.get(client.player)
        if actor is not None and actor.status not in OVER:
            if actor.id == but:
                return
            raise ProtocolError("already_seated")
        try:
            seat = await self.directory.seat_of(client.player)
        except ClusterUnavailable:
            raise unreachable() from None
        if seat is not None and seat[1] and seat[0] != but and seat[0] not in self.tables:
            raise ProtocolError("already_seated")

    def _leave_here(self, client: Client) -> None:
        """The player sits down at another node's table: this node's finished table and
        watch let them go."""
        actor = self.seated.get(client.player)
        if actor is not None:
            del self.seated[client.player]
            actor.post(ForgetPlayer(client.player))
        self.watching.stop(client)

    async def _table_named(self, table: str | None, code: str | None) -> str | None:
        """Another node's table by its id (public, in the lobby) or its private code."""
        if code is not None:
            code = code.strip().upper()
            if code in self.by_code:
                return None
            try:
                return await self.directory.table_of_code(code)
            except ClusterUnavailable:
                raise unreachable() from None
        if table is None or table in self.tables:
            return None
        if table in self.listings.remote:
            return table
        # Not in the lobby yet (it is shared twice a second) or not public: its lease
        # says whether it exists; its owner refuses a private one by id.
        try:
            owner = await self.leases.owner(table)
        except ClusterUnavailable:
            raise unreachable() from None
        return None if owner is None else table

    def _local_named(self, table: str | None, code: str | None) -> str | None:
        """This node's table by its id or code, if it is one."""
        if code is not None:
            actor = self.by_code.get(code.strip().upper())
            return None if actor is None else actor.id
        return table if table is not None and table in self.tables else None

    async def _join_elsewhere(self, client: Client, message: dict[str, Any]) -> bool:
        join = messages.decode(message)
        assert isinstance(join, Join)
        local = self._local_named(join.table, join.code)
        if local is not None:
            # Here, but the player may sit at another node's table.
            await self._not_seated_elsewhere(client, but=local)
            return False
        table = await self._table_named(join.table, join.code)
        if table is None:
            mine = self.remote_of.get(client)
            if join.table is None or join.table != mine:
                return False
            table = mine  # a seat's own table: joining again attaches
        await self._not_seated_elsewhere(client, but=table)
        self._leave_here(client)
        self.remote_of[client] = table
        await self.forward(client, table, "m", message)
        return True

    async def _watch_elsewhere(self, client: Client, message: dict[str, Any]) -> bool:
        watch = messages.decode(message)
        assert isinstance(watch, Watch)
        local = self._local_named(watch.table, watch.code)
        if local is not None:
            await self._not_seated_elsewhere(client, but=local)
            return False
        table = await self._table_named(watch.table, watch.code)
        if table is None:
            return False
        await self._not_seated_elsewhere(client, but=table)
        previous = self.remote_of.get(client)
        if previous is not None and previous != table:
            unwatch = {"type": "unwatch", "quiet": True}
            with contextlib.suppress(ProtocolError):
                await self.forward(client, previous, "m", unwatch)
        self.watching.stop(client)
        self.remote_of[client] = table
        await self.forward(client, table, "m", message)
        return True

    async def _play_now_elsewhere(self, client: Client, message: dict[str, Any]) -> bool:
        """Seat the player at another node's waiting table if none here fits."""
        play = messages.decode(message)
        assert isinstance(play, PlayNow)
        stake = play.stake or 0
        if play.game not in GAMES or self.fitting(play.game, play.seats, stake) is not None:
            return False
        listing = self.listings.fitting(play.game, play.seats, stake)
        if listing is None:
            return False
        self._leave_here(client)
        self.remote_of[client] = listing.id
        join: dict[str, Any] = {"type": "join", "v": protocol.VERSION, "table": listing.id}
        if "id" in message:
            join["id"] = message["id"]
        await self.forward(client, listing.id, "m", join)
        return True

    # -- sockets coming and going ---------------------------------------------------------

    async def _hello(self, client: Client, token: str | None, name: object) -> None:
        await super()._hello(client, token, name)
        player = client.player
        self.local_clients.setdefault(player, set()).add(client)
        self._conn(client)
        self.spawn(self._here_now(player), "player-here")
        if player in self.seated:
            return
        try:
            seat = await self.directory.seat_of(player)
        except ClusterUnavailable:
            return
        if seat is not None and seat[0] not in self.tables:
            self.remote_of[client] = seat[0]
            await self._forward_quietly(client, seat[0], "a")

    async def _here_now(self, player: str) -> None:
        with contextlib.suppress(ClusterUnavailable):
            await self.bus.player_here(player)

    async def _gone_now(self, player: str) -> None:
        with contextlib.suppress(ClusterUnavailable):
            await self.bus.player_gone(player)

    def disconnect(self, client: Client) -> None:
        super().disconnect(client)
        if isinstance(client, RemoteClient):
            return
        table = self.remote_of.pop(client, None)
        self.attached_as.pop(client, None)
        conn = self._conn_of.pop(client, None)
        if conn is not None:
            self._conns.pop(conn, None)
            if table is not None:
                self.spawn(self._detach_remote(table, conn), "detach")
        clients = self.local_clients.get(client.player)
        if clients is not None and client in clients:
            clients.discard(client)
            if not clients:
                del self.local_clients[client.player]
                self.spawn(self._gone_now(client.player), "player-gone")

    async def _detach_remote(self, table: str, conn: str) -> None:
        with contextlib.suppress(ClusterUnavailable):
            owner = await self.leases.owner(table)
            if owner is not None and owner[0] != self.node.id:
                body = {"op": "d", "node": self.node.id, "conn": conn}
                self.outbox.put(owner[0], "t", table, body)
