"""Who of a player's friends is online, and at which table: pushed over the socket.

A registered player who says hello gets a ``presence`` message with ``"full": true``:
their friends online and where each is (``docs/protocol.md`` §4, presence). After
that, changes: a friend comes online, goes offline, sits, leaves, starts watching,
or their table starts or ends. Changes are gathered for a short interval and each
friend online gets one message with all of them, never one per move: a table that
changes says only that something may have (:meth:`Presence.touch`), and the flush
sends what differs from what was sent before.

Going offline waits for the grace a reload needs (``waiting_grace_seconds``), so a
reload does not show a friend leaving and coming back. A private table is shown
as "at a private table", nothing more; friends only, and never between two players
one of whom blocked the other. Guests have no friends: they are not tracked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from sahrat.server import protocol
from sahrat.server.client import Client
from sahrat.server.people.circle import Circle
from sahrat.server.people.friends import circle_of
from sahrat.server.store import Store

#: How long changes are gathered before they go out.
INTERVAL = 0.5
OVER = ("finished", "closed")


class Place(Protocol):
    """What presence reads of a table."""

    @property
    def id(self) -> str: ...

    @property
    def game(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def status(self) -> str: ...

    def free_seats(self) -> list[int]: ...


class Elsewhere(Protocol):
    """The players online on other nodes of a cluster (none in a single process)."""

    def entry(self, player: str) -> dict[str, Any] | None:
        """``player`` online on another node, as that node last said; None: not there."""
        ...

    def publish(self, entries: list[dict[str, Any]]) -> None:
        """Tell the other nodes what changed among this node's players."""
        ...

    def circle_changed(self, what: str, a: str, b: str, on: bool) -> None:
        """Tell the other nodes of a friendship (``what`` ``friends``) or a block made or
        ended here."""
        ...

    def send_to(self, player: str, text: str) -> None:
        """Send ``text`` to ``player``'s sockets on other nodes."""
        ...


class Presence:
    """The registered players online, their connections, and what their friends were told."""

    #: The other nodes' players, in a cluster.
    elsewhere: Elsewhere | None = None
    #: In a cluster: the table of another node a player here follows, and as what
    #: (``seat`` or ``spectator``), where this node can tell.
    remote_place: Callable[[str], tuple[Place, str] | None] | None = None

    def __init__(
        self,
        store: Store,
        grace: float,
        seated: Mapping[str, Place],
        watched: Mapping[str, Place],
        interval: float = INTERVAL,
    ) -> None:
        self.store = store
        self.grace = grace
        self.seated = seated
        self.watched = watched
        self.interval = interval
        self.circle = Circle()
        #: Players online (or within their grace, with no connection), by id.
        self.connections: dict[str, set[Client]] = {}
        self.names: dict[str, str] = {}
        #: Where each online player's friends were last told they are.
        self.sent: dict[str, dict[str, Any] | None] = {}
        #: Players gone since the last flush, with the friends to tell.
        self._offline: dict[str, set[str]] = {}
        self._leaving: dict[str, asyncio.TimerHandle] = {}
        self._pending: asyncio.TimerHandle | None = None

    # -- what others ask ------------------------------------------------------------------

    def online(self, player: str) -> bool:
        """Whether ``player`` has a connection open now, here or on another node (within
        the grace is not enough to be sent anything)."""
        if self.connections.get(player):
            return True
        return self.elsewhere is not None and self.elsewhere.entry(player) is not None

    def _anywhere(self, player: str) -> dict[str, Any] | None:
        """``player``'s entry as friends see it, from here or another node; None: offline."""
        if player in self.connections:
            return self.entry(player)
        return None if self.elsewhere is None else self.elsewhere.entry(player)

    def where(self, player: str) -> dict[str, Any] | None:
        """The table ``player`` sits at or watches, as friends see it; None: none."""
        actor = self.seated.get(player)
        role = "seat"
        if actor is None or actor.status in OVER:
            actor, role = self.watched.get(player), "spectator"
        if (actor is None or actor.status in OVER) and self.remote_place is not None:
            actor, role = self.remote_place(player) or (None, role)
        if actor is None or actor.status in OVER:
            return None
        if actor.kind == "private":
            return {"private": True}
        return {
            "table": actor.id,
            "game": actor.game,
            "status": actor.status,
            "as": role,
            "free": len(actor.free_seats()),
        }

    def entry(self, player: str) -> dict[str, Any]:
        return self._entry_at(player, self.where(player))

    def _entry_at(self, player: str, at: dict[str, Any] | None) -> dict[str, Any]:
        """``player`` online at ``at``, as friends see them."""
        return {"player": player, "name": self.names.get(player, ""), "online": True, "at": at}

    def presence_of(self, player: str) -> dict[str, Any] | None:
        """For the friends list over REST: where ``player`` is, or None when offline."""
        found = self._anywhere(player)
        return None if found is None else {"online": True, "at": found["at"]}

    def send_to(self, player: str, message: dict[str, Any]) -> None:
        text = protocol.dumps(message)
        self.send_here(player, text)
        if self.elsewhere is not None and self.elsewhere.entry(player) is not None:
            self.elsewhere.send_to(player, text)

    def send_here(self, player: str, text: str) -> None:
        """To ``player``'s sockets on this node."""
        for client in self.connections.get(player, ()):
            client.send_text(text)

    # -- connections ----------------------------------------------------------------------

    async def connected(self, client: Client) -> None:
        """A registered player's connection said hello: load their circle if they were
        offline, send them their friends' presence."""
        if client.guest:
            return
        player = client.player
        leaving = self._leaving.pop(player, None)
        if leaving is not None:
            leaving.cancel()
        self.names[player] = client.name
        if not self.circle.loaded(player):
            circle = await self.store.run(circle_of, self.store.engine, player)
            if not self.circle.loaded(player):
                self.circle.load(player, *circle)
        self.connections.setdefault(player, set()).add(client)
        if client.closed:  # it went while the circle was read
            self.disconnected(client)
            return
        friends = [
            found
            for f in sorted(self.circle.friends_of(player))
            if not self.circle.between(player, f) and (found := self._anywhere(f)) is not None
        ]
        client.send({"type": "presence", "full": True, "friends": friends})
        self.touch()

    def disconnected(self, client: Client) -> None:
        player = client.player
        clients = self.connections.get(player)
        if clients is None or client not in clients:
            return
        clients.discard(client)
        if not clients and player not in self._leaving:
            loop = asyncio.get_running_loop()
            self._leaving[player] = loop.call_later(self.grace, self._gone, player)

    def _gone(self, player: str) -> None:
        self._leaving.pop(player, None)
        if self.connections.get(player):
            return
        self.connections.pop(player, None)
        if player in self.sent:
            del self.sent[player]
            self._offline[player] = set(self.circle.friends_of(player))
        self.circle.forget(player)
        self.names.pop(player, None)
        self.touch()

    # -- changes --------------------------------------------------------------------------

    def touch(self) -> None:
        """Something a friend may be shown changed: a flush is due within the interval.
        A player just gone counts even when nobody is left connected here: in a cluster
        their friends on other nodes are told by that flush."""
        if self._pending is None and (self.connections or self._offline):
            loop = asyncio.get_running_loop()
            self._pending = loop.call_later(self.interval, self.flush)

    def flush(self) -> None:
        """Send each friend online the changes since the last flush, in one message."""
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        out: dict[str, list[dict[str, Any]]] = {}
        changed: list[dict[str, Any]] = []
        for player in self.connections:
            at = self.where(player)
            if player in self.sent and self.sent[player] == at:
                continue
            self.sent[player] = at
            entry = self._entry_at(player, at)
            changed.append(entry)
            for friend in self._told(player, self.circle.friends_of(player)):
                out.setdefault(friend, []).append(entry)
        for player, friends in self._offline.items():
            gone = {"player": player, "online": False, "at": None}
            changed.append(gone)
            # Gone from here, maybe still online on another node: friends here see that.
            seen = self._anywhere(player) or gone
            for friend in self._told(player, friends):
                out.setdefault(friend, []).append(seen)
        self._offline.clear()
        for friend, entries in out.items():
            self._tell(friend, entries)
        if changed and self.elsewhere is not None:
            self.elsewhere.publish(changed)

    def local_entries(self) -> list[dict[str, Any]]:
        """Every player online here, as friends see them (what this node tells others)."""
        return [self._entry_at(p, self.sent[p]) for p in self.connections if p in self.sent]

    def arrived(self, entries: list[dict[str, Any]]) -> None:
        """Players of other nodes changed (``online`` false: gone from all of them): tell
        their friends here, in one message each."""
        out: dict[str, list[dict[str, Any]]] = {}
        for entry in entries:
            player = entry["player"]
            if player in self.connections:
                continue  # online here too: this node's own entry is what friends see
            for friend, clients in self.connections.items():
                if (
                    clients
                    and self.circle.are_friends(friend, player)
                    and not self.circle.between(player, friend)
                ):
                    out.setdefault(friend, []).append(entry)
        for friend, told in out.items():
            self._tell(friend, told)

    def _told(self, player: str, friends: set[str]) -> list[str]:
        """The friends online who may be told of ``player``."""
        return [f for f in friends if self.online(f) and not self.circle.between(player, f)]

    # -- friends and blocks changed over REST ---------------------------------------------

    def friends_changed(self, a: str, b: str, friends: bool, here_only: bool = False) -> None:
        """A friendship made or ended (over REST here, or on another node: ``here_only``,
        nothing to tell the others)."""
        if friends:
            self.circle.befriended(a, b)
            for one, other in ((a, b), (b, a)):
                found = self._anywhere(other)
                if found is not None:
                    self._tell(one, [found])
        else:
            self.circle.unfriended(a, b)
            self._hide(a, b)
        if self.elsewhere is not None and not here_only:
            self.elsewhere.circle_changed("friends", a, b, friends)

    def blocks_changed(
        self, blocker: str, blocked: str, blocking: bool, here_only: bool = False
    ) -> None:
        if blocking:
            self.circle.block(blocker, blocked)
            self._hide(blocker, blocked)
        else:
            self.circle.unblock(blocker, blocked)
        if self.elsewhere is not None and not here_only:
            self.elsewhere.circle_changed("blocks", blocker, blocked, blocking)

    def _hide(self, a: str, b: str) -> None:
        """Two players are no longer friends: each is shown as gone to the other."""
        for one, other in ((a, b), (b, a)):
            self._tell(one, [{"player": other, "online": False, "at": None}])

    def _tell(self, player: str, entries: list[dict[str, Any]]) -> None:
        """A ``presence`` message with ``entries`` to ``player``'s sockets here."""
        self.send_here(player, protocol.dumps({"type": "presence", "friends": entries}))
