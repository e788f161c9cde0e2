"""The hub: players, connections, the lobby, and the table actors they talk to.

The hub owns no game state: it routes each client message to the table the
player sits at (one table per player at a time), creates tables, answers
"play now", keeps the lobby's subscribers up to date, and restores every
live table from its event log when the server starts. To its tables it is
their :class:`~sahrat.server.table.TableHost`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

from sahrat.bots.autopilot import autopilot_action
from sahrat.bots.worker import SearchPool
from sahrat.errors import SahratError
from sahrat.games import GAMES, game_named
from sahrat.server import messages, protocol
from sahrat.server.accounts.service import AccountError, Accounts
from sahrat.server.address_limits import AddressBuckets, take_or_refuse
from sahrat.server.client import Client, CloseCode
from sahrat.server.invitations import Invitations
from sahrat.server.lobby import LobbyFeed
from sahrat.server.messages import Create, Hello, Join, Lobby, Ping, PlayNow, Pong, Unwatch, Watch
from sahrat.server.new_tables import new_table_row, table_options
from sahrat.server.people.service import People
from sahrat.server.presence import Presence
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings
from sahrat.server.stakes import afford, checked_stake
from sahrat.server.store import Store
from sahrat.server.table import TableActor
from sahrat.server.table.events import SpectatorsSet, TurnTimeSet
from sahrat.server.table.inbox import Attach, ForgetPlayer, FromClient, Reseat
from sahrat.server.table_log import StoreLog
from sahrat.server.watching import Watching

log = logging.getLogger("sahrat.hub")

RELOAD_RETRY_SECONDS = 1.0


class Hub:
    def __init__(self, settings: Settings, store: Store | None = None) -> None:
        self.settings = settings
        self.store = store or Store(settings.url)
        self.log = StoreLog(self.store)
        self.tables: dict[str, TableActor] = {}
        self.by_code: dict[str, TableActor] = {}
        self.seated: dict[str, TableActor] = {}
        self.lobby_feed = LobbyFeed(self.tables)
        self.watching = Watching(self.tables, self.by_code, self.seated)
        self.presence = Presence(self.store, settings.waiting_grace_seconds, self.seated,
                                 self.watching.by_player)  # fmt: skip
        self.watching.changed = self.presence.touch
        self.invitations = Invitations(
            self.presence, self.seated, lasts=settings.invitation_seconds,
            burst=settings.invites_burst, every=settings.invites_every,
        )  # fmt: skip
        self.people = People(  # its REST routes share it
            self.store, self.presence, min_games=settings.leaderboard_min_games,
            requests_burst=settings.friend_requests_burst,
            requests_every=settings.friend_requests_every,
        )  # fmt: skip
        self.accounts = Accounts(self.store, settings)
        #: Connections by the session they said hello with (closed when it ends).
        self.by_session: dict[str, set[Client]] = {}
        self._pool: SearchPool | None = None
        #: Players whose create or "play now" is under way (it awaits the database).
        self._reserving: set[str] = set()
        self._reloads: set[asyncio.Task[None]] = set()
        self._new_tables = AddressBuckets(settings.tables_burst, settings.tables_every)

    # -- life ---------------------------------------------------------------------------

    async def startup(self) -> None:
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        await self.store.run(self.store.migrate)
        await self.accounts.start()
        if self.settings.search_workers > 0:
            self._pool = SearchPool(self.settings.search_workers)
        await self._restore_all()
        log.info("restored %d tables", len(self.tables))

    async def _restore_all(self) -> None:
        for row in await self.store.run(self.store.live_tables):
            self._restore(row)

    async def _claim(self, table_id: str) -> None:
        """Make ``table_id``, about to be stored, this process's to write (a lease)."""

    def _new_actor(self, row: dict[str, Any]) -> TableActor:
        return TableActor(row, GAMES[row["game"]], self.settings, self, self.log)

    def _restore(self, row: dict[str, Any]) -> TableActor | None:
        try:
            actor = self._new_actor(row)
            actor.restore(row["events"])
        except Exception:
            log.exception("table %s: its log does not replay; it stays closed", row.get("id"))
            return None
        self._register(actor)
        actor.announce()
        actor.start()
        actor.resume()
        return actor

    def diverged(self, stale: TableActor) -> None:
        """Replace a table whose log moved on without it by one restored from that log."""
        task = asyncio.create_task(self._reload(stale), name=f"reload-{stale.id}")
        self._reloads.add(task)
        task.add_done_callback(self._reloads.discard)

    async def _reload(self, stale: TableActor) -> None:
        waiting = stale.halt()
        watchers = [client for clients in stale.watchers.values() for client in clients]
        self._unregister(stale)
        while True:
            try:
                row = await self.store.run(self.store.live_table, stale.id)
                break
            except Exception:
                log.exception("table %s: could not read its log; trying again", stale.id)
                await asyncio.sleep(RELOAD_RETRY_SECONDS)
        fresh = None if row is None else self._restore(row)
        for client in watchers:
            if client.table is stale:
                client.table = None
            if fresh is not None and not client.closed:
                fresh.post(Attach(client))
        if fresh is not None:
            for message in waiting:
                fresh.post(message)
        self.lobby_changed()

    async def shutdown(self) -> None:
        self.invitations.close()
        for actor in list(self.tables.values()):
            await actor.stop()
        if self._pool is not None:
            self._pool.close()
        self.store.close()

    def _register(self, actor: TableActor) -> None:
        self.tables[actor.id] = actor
        if actor.code:
            self.by_code[actor.code] = actor

    def _unregister(self, actor: TableActor) -> None:
        self.tables.pop(actor.id, None)
        self.lobby_feed.removed(actor.id)
        self.watching.table_gone(actor)
        if actor.code:
            self.by_code.pop(actor.code, None)
        for player in [p for p, a in self.seated.items() if a is actor]:
            del self.seated[player]

    def closed(self, actor: TableActor) -> None:
        """A finished or closed table with nobody watching, or one that another node
        took over (:meth:`lost`), leaves memory."""
        self._unregister(actor)
        self.lobby_changed()

    lost = closed

    # -- players ------------------------------------------------------------------------

    def table_of(self, player: str) -> str | None:
        actor = self.seated.get(player)
        return None if actor is None else actor.id

    def sessions_ended(self, sessions: list[str]) -> None:
        """Close the connections of sessions that ended (logout, new password, revoked)."""
        for session in sessions:
            for client in self.by_session.pop(session, set()):
                client.close(CloseCode.SESSION_ENDED)

    def player_seated(self, player: str, actor: TableActor) -> None:
        previous = self.seated.get(player)
        if previous is not None and previous is not actor:
            previous.post(ForgetPlayer(player))  # a finished table the player moved on from
        self.seated[player] = actor
        self.presence.touch()

    def player_unseated(self, player: str, actor: TableActor) -> None:
        if self.seated.get(player) is actor:
            del self.seated[player]
            self.presence.touch()

    # -- the lobby ----------------------------------------------------------------------

    def lobby(self) -> list[dict[str, Any]]:
        """Public tables that are waiting or playing, newest first."""
        return self.lobby_feed.entries()

    def lobby_changed(self) -> None:
        self.lobby_feed.changed()
        self.presence.touch()  # a table started or ended, a seat changed hands

    async def rematch(
        self, old: TableActor, seats: dict[int, tuple[str, str, bool]], clients: Sequence[Client]
    ) -> str:
        """A new table like ``old`` for the same seats (a coin table's stake checked again)."""
        table = old.table
        for number, (player, _, bot) in list(seats.items()):
            if not bot and table.stake and await self.accounts.balance(player) < table.stake:
                del seats[number]
                for client in clients:
                    if client.player == player:
                        client.error("insufficient_coins", need=table.stake)
        moving = [c for c in clients if any(c.player == s[0] for s in seats.values())]
        people = {c.player for c in moving}
        self._reserving |= people  # no "play now" elsewhere while the table opens
        try:
            actor = await self.create_table(
                old.game, table.options, len(table.seat_numbers), table.kind == "private",
                table.turn_seconds, table.host, table.stake,
                (table.spectators_allowed, table.spectator_chat),
            )  # fmt: skip
        finally:
            self._reserving -= people
        placed = tuple((n, *seat) for n, seat in sorted(seats.items()))
        actor.post(Reseat(old.id, placed, tuple(moving)))
        return actor.id

    # -- bots -------------------------------------------------------------------------------

    async def autopilot(self, game: str, state: Any) -> Any:
        """The autopilot's action, computed off the event loop."""
        if self._pool is not None:
            return await self._pool.autopilot(game, state, self.settings.autopilot_ms)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, autopilot_action, GAMES[game].bots, state, self.settings.autopilot_ms
        )

    # -- messages -----------------------------------------------------------------------

    async def dispatch(self, client: Client, message: dict[str, Any]) -> None:
        """Handle a client message whose envelope is checked (:func:`messages.parse`)."""
        ref = message.get("id")
        try:
            scope = messages.REGISTRY[message["type"]].SCOPE
            if scope == "connection":
                await self._connection_message(client, message)
            elif not client.authenticated:
                raise ProtocolError("not_authenticated")
            elif scope == "hub":
                await self._hub_message(client, message)
            else:
                self._route_to_table(client, message)
        except ProtocolError as error:
            client.error(error.code, error.detail, ref, **error.extra)

    async def _connection_message(self, client: Client, message: dict[str, Any]) -> None:
        if message["type"] == "hello" and client.authenticated:
            raise ProtocolError("wrong_phase", "already introduced")
        match messages.decode(message):
            case Ping():
                ref = message.get("id")
                client.send({"type": "pong", **({"id": ref} if ref is not None else {})})
            case Pong():
                pass
            case Hello(token=token, name=name):
                await self._hello(client, token, name)

    async def _hub_message(self, client: Client, message: dict[str, Any]) -> None:
        match messages.decode(message):
            case Lobby():
                self.lobby_feed.subscribe(client)
            case Create() as create:
                await self._create(client, create)
            case Join() as join:
                await self._join(client, join, message)
            case Watch() as watch:
                self.watching.watch(client, watch, message)
            case Unwatch():
                self.watching.unwatch(client)
            case PlayNow(game=game, seats=seats, stake=stake):
                await self._play_now(client, game, seats, stake)
            case messages.Invite() as invite:
                self.invitations.invite(client, invite, message.get("id"))

    def _route_to_table(self, client: Client, message: dict[str, Any]) -> None:
        """A table message goes to the player's table, which checks its fields."""
        actor = self.seated.get(client.player)
        if actor is None:
            self.watching.route(client, message)  # a spectator's, or refused
            return
        wanted = message.get("table")
        if wanted is not None and wanted != actor.id:
            raise ProtocolError("not_seated", "you do not sit at that table")
        if client.table is not actor:
            actor.post(Attach(client))
        actor.post(FromClient(client, message))

    async def _hello(self, client: Client, token: str | None, name: object) -> None:
        try:
            if token:
                found = await self.accounts.identify(token)
                if found is None:
                    raise ProtocolError("bad_token")
                identity, token = found
            else:
                identity, token = await self.accounts.guest(name, client.address)
        except AccountError as error:
            raise ProtocolError(error.code, error.detail) from None
        player = identity.player
        client.player, client.name = player, identity.name
        client.guest, client.session = identity.guest, identity.session
        self.by_session.setdefault(identity.session, set()).add(client)
        balance = None if identity.guest else await self.accounts.balance(player)
        client.send(
            {
                "type": "welcome",
                "protocol": protocol.VERSION,
                "token": token,
                "player": {
                    "id": player,
                    "name": identity.name,
                    "guest": identity.guest,
                    "balance": balance,
                },
            }
        )
        actor = self.seated.get(player)
        if actor is not None:
            actor.post(Attach(client))
        await self.presence.connected(client)

    async def _create(self, client: Client, create: Create) -> None:
        self._not_elsewhere(client)
        turn = self.settings.turn_seconds if create.turn_seconds is None else create.turn_seconds
        low, high = self.settings.min_turn_seconds, self.settings.max_turn_seconds
        if not low <= turn <= high:
            raise ProtocolError("bad_field", f"a turn lasts {low:g} to {high:g} seconds")
        try:
            rules = game_named(create.game)
            seats = rules.seat_counts[0] if create.seats is None else create.seats
            options = table_options(create.game, create.options, seats)
        except SahratError as error:
            raise ProtocolError("bad_field", str(error)) from None
        stake = checked_stake(self.settings, client, create.stake)
        take_or_refuse(self._new_tables, client.address, "new tables")
        self._reserving.add(client.player)
        try:
            await afford(self.accounts, client, stake)
            actor = await self.create_table(
                rules.name,
                options,
                seats,
                create.private,
                float(turn),
                client.player if create.private else None,
                stake,
                (create.spectators, create.spectator_chat),
            )
        finally:
            self._reserving.discard(client.player)
        self._sit(client, actor, {"type": "join", "v": protocol.VERSION})

    async def create_table(
        self,
        game: str,
        options: dict[str, Any],
        seats: int,
        private: bool,
        turn_seconds: float,
        host: str | None,
        stake: int = 0,
        spectators: tuple[bool, bool] = (False, False),
    ) -> TableActor:
        """A new table; ``spectators``: may a private one be watched, may spectators write."""
        row = new_table_row(game, options, seats, private, host, stake)
        await self._claim(row["id"])
        await self.store.run(self.store.add_table, row)
        actor = self._new_actor({**row, "turn_seconds": turn_seconds})
        await self.log.append(actor.id, 1, TurnTimeSet(turn_seconds), time.time())
        actor.table.seq = 1
        if any(spectators):
            at = time.time()
            await self.log.append(actor.id, 2, SpectatorsSet(*spectators), at)
            actor.table.seq = 2
            actor.apply(SpectatorsSet(*spectators), at)
        self._register(actor)
        actor.start()
        self.lobby_changed()
        return actor

    async def _join(self, client: Client, join: Join, message: dict[str, Any]) -> None:
        actor = None
        if join.code is not None:
            actor = self.by_code.get(join.code.strip().upper())
        elif join.table is not None:
            actor = self.tables.get(join.table)
            if (
                actor is not None
                and actor.kind == "private"
                and self.seated.get(client.player) is not actor
            ):
                actor = None  # a private table is reached by its code only
        if actor is None or actor.status in ("finished", "closed"):
            raise ProtocolError("no_such_table")
        if self.seated.get(client.player) is actor:
            self._sit(client, actor, message)
            return
        self._not_elsewhere(client)
        stake = actor.table.stake
        if stake and client.guest:
            raise ProtocolError("guest_no_coins")
        self._reserving.add(client.player)
        try:
            await afford(self.accounts, client, stake)
        finally:
            self._reserving.discard(client.player)
        if actor.status in ("finished", "closed"):
            raise ProtocolError("no_such_table")  # it ended while the balance was read
        self._sit(client, actor, message)

    async def _play_now(
        self, client: Client, game: str, seats: int | None, stake_wanted: int | None
    ) -> None:
        """Join the fullest waiting public table of the game (and stake), or open one."""
        self._not_elsewhere(client)
        if game not in GAMES:
            raise ProtocolError("bad_field", f"game is {' or '.join(GAMES)}")
        stake = checked_stake(self.settings, client, stake_wanted)
        self._reserving.add(client.player)
        try:
            await afford(self.accounts, client, stake)
        finally:
            self._reserving.discard(client.player)
        actor = self.fitting(game, seats, stake)
        if actor is None:
            count = GAMES[game].seat_counts[0] if seats is None else seats
            try:
                options = table_options(game, {}, count)
            except SahratError as error:
                raise ProtocolError("bad_field", str(error)) from None
            take_or_refuse(self._new_tables, client.address, "new tables")
            self._reserving.add(client.player)
            try:
                actor = await self.create_table(
                    game, options, count, False, self.settings.turn_seconds, None, stake
                )
            finally:
                self._reserving.discard(client.player)
        self._sit(client, actor, {"type": "join", "v": protocol.VERSION})

    def fitting(self, game: str, seats: int | None, stake: int) -> TableActor | None:
        """The fullest waiting public table here that "play now" may seat a player at."""
        fitting = [
            a
            for a in self.tables.values()
            if a.kind == ("coin" if stake else "free")
            and a.table.stake == stake
            and a.status == "waiting"
            and a.game == game
            and a.free_seats()
            and (seats is None or len(a.seat_numbers) == seats)
        ]
        return min(fitting, key=lambda a: len(a.free_seats()), default=None)

    def _sit(self, client: Client, actor: TableActor, message: dict[str, Any]) -> None:
        # Bound at once, so a second create or join in the same breath is refused; the
        # table releases the player if it refuses the seat.
        self.watching.stop(client)
        self.player_seated(client.player, actor)
        actor.post(FromClient(client, message))

    def _not_elsewhere(self, client: Client) -> None:
        """Refuse a second live table; reserve the player until the new one seats them."""
        actor = self.seated.get(client.player)
        if actor is not None and actor.status not in ("finished", "closed"):
            raise ProtocolError("already_seated")
        if client.player in self._reserving:
            raise ProtocolError("already_seated")

    def disconnect(self, client: Client) -> None:
        self.lobby_feed.unsubscribe(client)
        self.presence.disconnected(client)
        clients = self.by_session.get(client.session)
        if clients is not None:
            clients.discard(client)
            if not clients:
                del self.by_session[client.session]
        if client.table is not None:
            client.table.detach(client)
