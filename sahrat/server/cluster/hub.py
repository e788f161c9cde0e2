"""The hub of a cluster node: a :class:`~sahrat.server.hub.Hub` whose tables are
leased, whose lobby is shared, and whose players' sockets may be on other nodes.

A table runs on the node that owns its lease (:mod:`.ownership`); a socket stays on
the node it reached (its *edge*, :mod:`.edge`). This node, as an owner, gives its
tables a :class:`.RemoteClient` for each socket held elsewhere and handles what it
says with the single-process hub's own code; as an edge, it sends what its sockets
say about other nodes' tables to their owners. Where a player sits and what a private
code names are in Redis (:mod:`.directory`), the lobby too (:mod:`.lobby`,
:mod:`.listings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson

from sahrat.server import metrics
from sahrat.server.cluster.bus import Bus
from sahrat.server.cluster.directory import Directory
from sahrat.server.cluster.edge import Edge
from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.listings import Listings
from sahrat.server.cluster.lobby import ClusterLobby
from sahrat.server.cluster.node import Node
from sahrat.server.cluster.ownership import LOOK_EVERY, claim_new, take, unowned
from sahrat.server.cluster.presence_link import PresenceLink
from sahrat.server.cluster.redis_link import ClusterUnavailable, connect
from sahrat.server.cluster.remote import Outbox, RemoteClient
from sahrat.server.hub import Hub
from sahrat.server.lobby import LobbyFeed, listable
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings
from sahrat.server.store import Store
from sahrat.server.table import TableActor
from sahrat.server.table.inbox import Attach, ForgetPlayer
from sahrat.server.table_log import StoreLog

log = logging.getLogger(__name__)

#: Seconds between two looks at what the shared lobby and directory must show.
SYNC_EVERY = 0.5
OVER = ("finished", "closed")


class ClusterHub(Edge):
    """One node of a cluster (``sahrat serve --redis-url``)."""

    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        super().__init__(settings, store)
        self.node = Node.create(settings.node_id or None)
        self.redis = connect(settings.redis_url)
        prefix = settings.cluster_prefix
        self.leases = Leases(
            self.redis, self.node.id, prefix=prefix, ttl=settings.lease_seconds,
            renew_every=settings.lease_renew_seconds, on_lost=self._lease_lost,
        )  # fmt: skip
        self.bus = Bus(
            self.redis, self.node.id, on_table=self._from_edge,
            on_player=self._to_player, on_connection=self._to_connection, prefix=prefix,
            on_reconnect=self._redis_back,
        )  # fmt: skip
        self.presence_link = PresenceLink(self.bus, self.presence, self.spawn)
        self.presence.elsewhere = self.presence_link
        self.presence.remote_place = self._remote_place
        self.bus.on_broadcast = self.presence_link.received
        #: No takeover before this (monotonic): Redis has just come back.
        self._quiet_until = 0.0
        self.outbox = Outbox(self.redis, self.node.id, self.bus.channel, self._node_gone)
        self.shared_lobby = ClusterLobby(self.redis, self.node.id, prefix=prefix)
        self.directory = Directory(self.redis, prefix=prefix, moved_on=self._moved_on)
        self.log = StoreLog(self.store, fences=self._fence)
        self.listings = Listings(self.tables)
        self.lobby_feed = LobbyFeed(self.listings)
        #: Sockets of other nodes attached to this node's tables, by (node, their id).
        self.remotes: dict[tuple[str, str], RemoteClient] = {}
        self._loops: list[asyncio.Task[None]] = []
        self._published: dict[str, dict[str, Any]] = {}
        self._marking = False
        self.draining = False

    def _fence(self, table: str) -> tuple[int, str] | None:
        fence = self.leases.fence(table)
        return None if fence is None else (fence, self.node.id)

    # -- life ---------------------------------------------------------------------------

    async def _restore_all(self) -> None:
        """Start the node's loops and take the tables nobody owns (all, on a fresh
        cluster; none that a live node holds)."""
        await self.bus.start()
        self.outbox.start()
        self._loops = [
            asyncio.create_task(self.leases.run(), name="leases"),
            asyncio.create_task(self.shared_lobby.run(), name="shared-lobby"),
            asyncio.create_task(self.directory.run(), name="directory"),
            asyncio.create_task(self._sync_loop(), name="lobby-sync"),
            asyncio.create_task(self.presence_link.run(), name="presence-link"),
        ]
        with contextlib.suppress(ClusterUnavailable):
            await self._take_over()
        self._loops.append(asyncio.create_task(self._take_over_loop(), name="takeover"))
        log.info("node %s: in the cluster", self.node.id)

    async def shutdown(self) -> None:
        """Drain: stop the tables, give their leases up so that other nodes take them
        at once, leave the lobby; then close as a single process does."""
        self.draining = True
        for task in self._loops:
            task.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        for actor in list(self.tables.values()):
            await actor.stop()
        mine = list(self.tables)
        with contextlib.suppress(ClusterUnavailable):
            await self.leases.release_all()
        for table in mine:
            with contextlib.suppress(ClusterUnavailable):
                await self.shared_lobby.remove(table)
        await self.presence_link.close()
        await self.outbox.close()
        await self.bus.close()
        for task in list(self._chores):
            task.cancel()
        await super().shutdown()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # -- ownership ----------------------------------------------------------------------

    async def _claim(self, table_id: str) -> None:
        if self.draining:
            raise ProtocolError("unavailable", "this server is shutting down: try again")
        try:
            await claim_new(self.store, self.leases, table_id)
        except ClusterUnavailable:
            raise ProtocolError("unavailable", "no new table while the servers cannot reach "
                                "each other; the tables in play go on") from None  # fmt: skip

    async def _redis_back(self) -> None:
        """Redis is back (the bus resubscribed): maybe empty, so wait for the leases."""
        self._quiet_until = time.monotonic() + self.leases.renew_every + LOOK_EVERY
        self.presence_link.redis_back()

    async def _take_over_loop(self) -> None:
        while True:
            await asyncio.sleep(LOOK_EVERY)
            if time.monotonic() < self._quiet_until:
                continue
            try:
                await self._take_over()
            except ClusterUnavailable as error:
                log.warning("%s; no table is taken over until it is back", error)
                # When Redis is back (empty after a restart) every lease is missing until
                # its owner's next renewal puts it back: taking the tables meanwhile would
                # move every one of them for nothing.
                await self._redis_back()
            except Exception:
                log.exception("node %s: looking for tables to take over failed", self.node.id)

    async def _take_over(self) -> None:
        for table in await unowned(self.store, self.leases, set(self.tables)):
            if self.draining:
                return
            row = await take(self.store, self.leases, table)
            if row is None:
                continue
            actor = self._restore(row)
            if actor is None:
                await self.leases.release(table)
                continue
            metrics.FAILOVERS.inc()
            log.info("node %s: took table %s over", self.node.id, table)
            for player in actor.table.humans():
                # Their sockets, wherever they are, attach to the table here.
                self.spawn(self.bus.to_player(player, {"reattach": table}), "reattach")

    def _lease_lost(self, table: str, fence: int) -> None:
        actor = self.tables.get(table)
        if actor is not None:
            waiting = actor.halt()
            self.spawn(actor.stop(), f"stop-{table}")
            for message in waiting:
                message.client.error("table_moving", "", message.message.get("id"))
            self.lost(actor)

    def lost(self, actor: TableActor) -> None:
        """Another node owns the table now: forget it, and route this node's sockets
        that followed it to wherever it is."""
        self.leases.held.pop(actor.id, None)
        self.spawn(self.shared_lobby.forget(actor.id), "forget")
        self._published.pop(actor.id, None)
        seats = [c for cs in actor.watchers.values() for c in cs]
        spectators = [c for cs in actor.spectators.values() for c in cs]
        self._unregister(actor, keep_entries=True)
        self.lobby_changed()
        for client in seats + spectators:
            if isinstance(client, RemoteClient):
                # Its edge goes on sending to the table's new owner: told nothing here.
                client.gone()
                self.remotes.pop((client.node, client.conn), None)
                continue
            if client.table is actor:
                client.table = None
            self.remote_of[client] = actor.id
            # Followed at once at its new owner, not only when the player next speaks.
            if client in seats:
                self.spawn(self._forward_quietly(client, actor.id, "a"), "attach")
            else:
                watch = {"type": "watch", "table": actor.id}
                self.spawn(self._forward_quietly(client, actor.id, "m", watch), "watch")

    def closed(self, actor: TableActor) -> None:
        super().closed(actor)
        self.spawn(self._release(actor.id), f"release-{actor.id}")

    async def _release(self, table: str) -> None:
        self._published.pop(table, None)
        with contextlib.suppress(ClusterUnavailable):
            await self.shared_lobby.remove(table)
            await self.leases.release(table)

    def _register(self, actor: TableActor) -> None:
        super()._register(actor)
        if actor.code:
            self.directory.code(actor.code, actor.id)

    def _unregister(self, actor: TableActor, keep_entries: bool = False) -> None:
        players = [p for p, a in self.seated.items() if a is actor]
        super()._unregister(actor)
        if keep_entries:
            return  # the new owner's entries, not ours
        for player in players:
            self.directory.unseated(player, actor.id)
        if actor.code:
            self.directory.code_gone(actor.code, actor.id)

    # -- players ------------------------------------------------------------------------

    def player_seated(self, player: str, actor: TableActor) -> None:
        super().player_seated(player, actor)
        self.directory.seated(player, actor.id, actor.status not in OVER)

    def player_unseated(self, player: str, actor: TableActor) -> None:
        mine = self.seated.get(player) is actor
        super().player_unseated(player, actor)
        if mine:
            self.directory.unseated(player, actor.id)

    def lobby_changed(self) -> None:
        super().lobby_changed()
        if not self._marking:
            # A table that has just ended frees its players for other tables at once,
            # on every node (not at the next sync): once per loop turn at most.
            self._marking = True
            asyncio.get_running_loop().call_soon(self._mark_over)

    def _mark_over(self) -> None:
        self._marking = False
        for player, actor in self.seated.items():
            if actor.status in OVER:
                self.directory.seated(player, actor.id, False)

    def _moved_on(self, player: str, table: str) -> None:
        actor = self.tables.get(table)
        if actor is not None and self.seated.get(player) is actor:
            actor.post(ForgetPlayer(player))

    # -- the lobby ----------------------------------------------------------------------

    async def _sync_loop(self) -> None:
        while True:
            await asyncio.sleep(SYNC_EVERY)
            try:
                await self._sync()
            except ClusterUnavailable as error:
                log.warning("%s; the lobby shows this node's tables only", error)
            except Exception:
                log.exception("node %s: the lobby could not be synchronised", self.node.id)

    async def _sync(self) -> None:
        """Publish this node's changed tables, read the others'."""
        changed: dict[str, bytes] = {}
        for actor in self.tables.values():
            for player in actor.table.humans():
                if self.seated.get(player) is actor:
                    self.directory.seated(player, actor.id, actor.status not in OVER)
            summary = actor.summary() if listable(actor) else None
            if summary == self._published.get(actor.id):
                continue
            if summary is None:
                self._published.pop(actor.id, None)
                await self.shared_lobby.remove(actor.id)
                continue
            self._published[actor.id] = summary
            changed[actor.id] = orjson.dumps({**summary, "node": self.node.id})
        if changed:
            await self.shared_lobby.publish_many(changed)
        entries = await self.shared_lobby.entries()
        moved, gone = self.listings.update(entries, self.node.id)
        for table in gone:
            self.lobby_feed.removed(table)
        if moved:
            self.lobby_feed.changed()
            self.presence.touch()  # a friend here may sit at one of those tables

    # -- messages from other nodes ------------------------------------------------------

    def _from_edge(self, table: str, body: Any) -> None:
        """A message from a socket on another node to a table here (the bus's)."""
        key = (str(body["node"]), str(body["conn"]))
        client = self.remotes.get(key)
        if body["op"] == "d":
            if client is not None:
                del self.remotes[key]
                client.gone()
                self.disconnect(client)  # type: ignore[arg-type]  # a client, remote
            return
        if client is None:
            client = RemoteClient(self.outbox, key[0], key[1], body["who"])
            self.remotes[key] = client
        client.inbound.append({**body, "table": table})
        if not client.draining:
            self.spawn(self._drain(client), f"remote-{key[1]}")

    async def _drain(self, client: RemoteClient) -> None:
        """What one remote socket said, in its order (a join waits for the database)."""
        client.draining = True
        try:
            while client.inbound and not client.closed:
                body = client.inbound.popleft()
                message = body.get("m") or {}
                actor = self.tables.get(body["table"])
                if actor is None:
                    client.error("table_moving", ref=message.get("id"))
                    if client.table is None:  # it follows nothing here: not kept
                        self.remotes.pop((client.node, client.conn), None)
                elif body["op"] == "a":
                    if self.seated.get(client.player) is actor:
                        actor.post(Attach(client))  # type: ignore[arg-type]
                else:
                    await Hub.dispatch(self, client, message)  # type: ignore[arg-type]
        finally:
            client.draining = False

    def _node_gone(self, node: str) -> None:
        """A node that held sockets at this node's tables is gone: so are they (their
        seats count as dropped, as after a closed socket)."""
        for key in [k for k in self.remotes if k[0] == node]:
            client = self.remotes.pop(key)
            client.gone()
            self.disconnect(client)  # type: ignore[arg-type]  # a client, remote

    def _to_player(self, player: str, body: Any) -> None:
        if not isinstance(body, dict):
            return
        if "send" in body:  # presence's: an invitation, say, from a friend on another node
            self.presence.send_here(player, str(body["send"]))
            return
        table = body.get("reattach")
        if table is None:
            return
        actor = self.tables.get(table)
        for client in list(self.local_clients.get(player, ())):
            if actor is not None:
                self.remote_of.pop(client, None)
                if self.seated.get(player) is actor:
                    actor.post(Attach(client))
            else:
                self.remote_of[client] = table
                self.spawn(self.forward(client, table, "a"), "attach")
