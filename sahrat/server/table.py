"""One table, one actor: an asyncio task that alone changes its game.

Everything that may change a table — a seat's message, a timer, a bot's
turn, the autopilot's answer, a dropped connection — arrives in the inbox
and is handled in order, so there are no races. A change is first checked
(the engine decides what is legal), then appended to the table's event log
in the database, then applied, then broadcast: a table is restored after a
crash by applying its log again (:meth:`TableActor.restore`), through the
very code that applied it live.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError

from sahrat.errors import SahratError
from sahrat.fairness import (
    DERIVED_PREFIX,
    Seeds,
    check_id,
    commitment,
    derived_seed,
    new_server_seed,
)
from sahrat.game import CHANCE, Words
from sahrat.games import GAMES
from sahrat.records import Recorder
from sahrat.server import protocol
from sahrat.server.names import bot_name
from sahrat.server.protocol import JSON_STYLE, ProtocolError, field
from sahrat.server.store import Event
from sahrat.server.text import clean_line
from sahrat.simulation import SimSource

if TYPE_CHECKING:
    from sahrat.server.hub import Client, Hub

log = logging.getLogger("sahrat.table")

#: How long a table waits before retrying a step the database refused.
RETRY_SECONDS = 1.0
#: Chat lines kept for players who (re)join; last moves shown in words.
CHAT_KEPT = 100
LAST_KEPT = 8


@dataclass
class Seat:
    player: str  # a player id, or ``bot:<seat>``
    name: str
    bot: bool = False
    connected: bool = False
    away: bool = False
    #: Turns in a row the server played for this seat.
    autopiloted: int = 0
    dropped_at: float | None = None
    #: How long this drop is forgiven (a waiting table's reload, a restart, a game).
    grace: float = 0.0

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            # Player ids are public (the token is the secret): a host assigns seats by them.
            "player": self.player,
            "name": self.name,
            "bot": self.bot,
            "connected": self.bot or self.connected,
            "away": self.away,
        }


class TableActor:
    """A table's state and its inbox; create with :meth:`Hub.create_table` or restore."""

    def __init__(self, hub: Hub, row: dict[str, Any]) -> None:
        self.hub = hub
        self.settings = hub.settings
        self.id: str = row["id"]
        self.game: str = row["game"]
        self.options: dict[str, Any] = row["options"]
        self.kind: str = row["kind"]  # "free" or "private"
        self.code: str | None = row.get("code")
        self.host: str | None = row.get("host")
        self.turn_seconds: float = float(row.get("turn_seconds") or hub.settings.turn_seconds)
        self.rules = GAMES[self.game]
        self.seating = self.rules.seating(self.rules.options_from_json(self.options))
        self.seat_numbers = self.seating.seats
        self.seats: dict[int, Seat | None] = dict.fromkeys(self.seat_numbers)
        self.status = "waiting"
        self.seq = 0
        self.server_seed: bytes | None = None
        self.seeds: Seeds | None = None
        self.client_seeds: dict[int, str] = {}
        self.recorder: Recorder | None = None
        self.moves = 0
        # Chat lines by audience (the seats a line went to): one side's team chat never
        # pushes lines out of what the other side is shown.
        self.chat: dict[tuple[int, ...], deque[dict[str, Any]]] = {}
        self.chat_lines = 0
        self.last: deque[dict[str, Any]] = deque(maxlen=LAST_KEPT)
        self.watchers: dict[str, set[Client]] = {}
        self.inbox: asyncio.Queue[tuple[Any, ...]] = asyncio.Queue()
        # The clock: a turn's token, whose seat, until when; timers carry the token.
        self.turn_token = 0
        self.turn_seat: int | None = None
        self.deadline: float | None = None
        self.expired = False
        self._timers: set[asyncio.TimerHandle] = set()
        self._event_time = time.time()
        self._chat_times: dict[str, deque[float]] = {}
        self._bots: dict[int, Any] = {}
        self._rng = random.Random(secrets.randbits(64))
        self._task: asyncio.Task[None] | None = None
        self._thinking: set[asyncio.Task[None]] = set()

    # -- running ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    def halt(self) -> list[tuple[Any, ...]]:
        """Stop the clock and the bots; the client messages not yet handled, to hand on."""
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()
        for task in self._thinking:
            task.cancel()
        waiting = []
        while not self.inbox.empty():
            message = self.inbox.get_nowait()
            if message[0] == "client":
                waiting.append(message)
        return waiting

    async def stop(self) -> None:
        self.halt()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def post(self, *message: Any) -> None:
        self.inbox.put_nowait(message)

    def _later(self, delay: float, *message: Any) -> None:
        """Post ``message`` to the inbox after ``delay`` seconds, unless cancelled first."""
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)  # a fired timer is forgotten, or they pile up
            self.inbox.put_nowait(message)

        handle = loop.call_later(max(delay, 0.0), fire)
        self._timers.add(handle)

    async def _run(self) -> None:
        while True:
            message = await self.inbox.get()
            try:
                await self._handle(message)
            except Diverged:
                # The log holds events this actor never applied: retrying the same seq
                # would fail forever, so the table is rebuilt from the log instead.
                log.error("table %s: its log moved on without it; reloading", self.id)
                if message[0] == "client":
                    message[1].error("unavailable", "", message[2].get("id"))
                self.hub.reload(self)
                return
            except ProtocolError as error:
                if message[0] == "client":
                    message[1].error(error.code, error.detail, message[2].get("id"))
                elif error.code == "unavailable":
                    # A bot's move, the autopilot or the end could not be stored: nothing
                    # changed, so the same step is tried again rather than the table stalling.
                    self._later(RETRY_SECONDS, *message)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A bug must cost one message, never the table.
                log.exception("table %s: failed on %s", self.id, message[0])
            if self.status in ("finished", "closed") and not self.watchers:
                self.hub.forget(self)
                return

    async def _handle(self, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "client":
            await self._client_message(message[1], message[2])
        elif kind == "attach":
            self._attach(message[1])
        elif kind == "detach":
            await self._detach(message[1])
        elif kind == "clock":
            await self._clock_expired(message[1])
        elif kind == "auto":
            await self._autopilot_answer(message[1], message[2])
        elif kind == "bot":
            await self._bot_turn(message[1])
        elif kind == "grace":
            await self._grace_over(message[1], message[2])
        elif kind == "finish":
            await self._finish()
        elif kind == "linger_over":
            for player in self.humans():
                self.hub.unbind(player, self)
            for clients in self.watchers.values():
                for client in clients:
                    if client.table is self:
                        client.table = None
            self.watchers.clear()
        elif kind == "forget_player":
            for client in self.watchers.pop(message[1], set()):
                if client.table is self:
                    client.table = None
        elif (
            kind == "seed_timeout" and self.status == "seeding" and message[1] == self.seq_at_commit
        ):
            await self._begin_play()

    # -- the event log ------------------------------------------------------------------

    async def _commit(self, kind: str, data: dict[str, Any]) -> None:
        """Persist an event, then apply it; nothing changes if the database refuses."""
        at = time.time()
        try:
            await self.hub.store.run(self.hub.store.append, self.id, self.seq + 1, kind, data, at)
        except IntegrityError as error:
            raise Diverged(self.id) from error
        except Exception as error:
            log.exception("table %s: could not store %s", self.id, kind)
            raise ProtocolError("unavailable") from error
        self.seq += 1
        self._apply(kind, data, at)

    def restore(self, events: Iterable[Event]) -> None:
        """Apply a stored log; the game is where it was, every seat disconnected."""
        for event in events:
            self.seq = event.seq
            self._apply(event.kind, event.data, event.at)
        now = time.time()
        for seat in self.seats.values():
            if seat is not None and not seat.bot:
                seat.connected = False
                seat.dropped_at = now

    def _apply(self, kind: str, data: dict[str, Any], at: float) -> None:
        if kind != "chat":  # what a record shows must not move with team chat either
            self._event_time = at
        if kind == "seat":
            seat = data["seat"]
            old = self.seats[seat]
            if old is not None and not old.bot and old.player != data["player"]:
                self.hub.unbind(old.player, self)  # the player has left this table
            self.seats[seat] = Seat(data["player"], data["name"], bot=data["bot"])
            if not data["bot"]:
                self.hub.bind(data["player"], self)
        elif kind == "unseat":
            old = self.seats[data["seat"]]
            self.seats[data["seat"]] = None
            if old is not None and not old.bot:
                self.hub.unbind(old.player, self)
        elif kind == "assign":
            by_player = {s.player: s for s in self.seats.values() if s is not None}
            self.seats = {
                seat: by_player.get(player) if player else None
                for seat, player in zip(self.seat_numbers, data["order"], strict=True)
            }
        elif kind == "host":
            self.host = data["player"]
        elif kind == "turn_time":
            self.turn_seconds = float(data["seconds"])
        elif kind == "commit":
            self.server_seed = bytes.fromhex(data["server_seed"])
            self.status = "seeding"
        elif kind == "start":
            self._start_game(data)
        elif kind == "move":
            self._apply_move(data)
        elif kind == "chat":
            self._add_chat(data)
        elif kind == "close":
            self.status = "closed"
        elif kind == "end":
            self.status = "finished"

    def _add_chat(self, data: dict[str, Any]) -> None:
        self.chat_lines += 1
        # Lines stored before chat was cleaned are cleaned on the way in; one left empty
        # is skipped (it still counts in the log).
        text = clean_line(str(data.get("text", "")))
        if not text:
            return
        line = {**data, "text": text, "name": clean_line(str(data.get("name", ""))) or "?"}
        line["order"] = self.chat_lines
        audience = tuple(sorted(data.get("to", ())))
        self.chat.setdefault(audience, deque(maxlen=CHAT_KEPT)).append(line)

    def chat_for(self, seat_number: int) -> list[dict[str, Any]]:
        """The latest lines this seat was sent, oldest first."""
        lines = [
            line for audience, kept in self.chat.items() if seat_number in audience for line in kept
        ]
        lines.sort(key=lambda line: line["order"])
        return lines[-CHAT_KEPT:]

    def _start_game(self, data: dict[str, Any]) -> None:
        assert self.server_seed is not None
        self.seeds = Seeds(self.server_seed, data["game_id"], tuple(data["client_seeds"]))
        players = [
            {"seat": s, "name": seat.name, "bot": seat.bot}
            for s, seat in self.seats.items()
            if seat is not None
        ]
        self.recorder = Recorder(
            self.game, self.options, self.seeds, players, clock=lambda: self._event_time
        )
        self.recorder.run_chance()
        self.status = "playing"

    def _apply_move(self, data: dict[str, Any]) -> None:
        recorder = self.recorder
        assert recorder is not None
        seat_number = data["seat"]
        state = recorder.state
        action = state.parse_action(data["action"])
        seat = self.seats[seat_number]
        name = seat.name if seat is not None else str(seat_number)
        names = {n: s.name for n, s in self.seats.items() if s is not None}
        try:
            words = self.rules.describe(state, seat_number, action, names).to_json()
        except Exception:
            # A line in a list of moves must never stop a table.
            log.exception("table %s: no words for %s", self.id, data["action"])
            words = Words(f"{name} played", f"{name} لعب").to_json()
        recorder.play(seat_number, action)
        self.moves += 1
        self.last.append(
            {
                "seat": seat_number,
                "action": data["action"],
                "auto": data["auto"],
                "words": words,
                "at": self._event_time,
            }
        )
        if seat is not None and not seat.bot:
            if data["auto"]:
                if data.get("turn_start"):
                    seat.autopiloted += 1
                    seat.away = seat.autopiloted >= self.settings.away_after
            else:
                seat.autopiloted = 0
                seat.away = False

    # -- who is here ----------------------------------------------------------------------

    def seat_of(self, player: str) -> int | None:
        for number, seat in self.seats.items():
            if seat is not None and seat.player == player:
                return number
        return None

    def humans(self) -> list[str]:
        return [s.player for s in self.seats.values() if s is not None and not s.bot]

    def free_seats(self) -> list[int]:
        return [number for number, seat in self.seats.items() if seat is None]

    def summary(self) -> dict[str, Any]:
        """What the lobby shows (never a private table's code)."""
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "seats": len(self.seat_numbers),
            "free": len(self.free_seats()),
            "kind": self.kind,
            "turn_seconds": self.turn_seconds,
            "status": self.status,
            "players": [seat.public(n) for n, seat in self.seats.items() if seat is not None],
        }

    def _attach(self, client: Client) -> None:
        """A connection of a seated player: send it everything, mark the seat back."""
        seat_number = self.seat_of(client.player)
        if seat_number is None:
            client.error("not_seated")
            return
        self.watchers.setdefault(client.player, set()).add(client)
        client.table = self
        seat = self.seats[seat_number]
        assert seat is not None
        returning = not seat.connected
        seat.connected = True
        seat.dropped_at = None
        channels = ("table", "team") if len(self.seat_numbers) == 4 else ("table",)
        client.send(
            {
                "type": "chat_history",
                "table": self.id,
                "messages": [_chat_out(m) for m in self.chat_for(seat_number)],
                "channels": channels,
            }
        )
        if self.status == "seeding" and seat_number not in self.client_seeds:
            client.send(self._seed_request())
        if returning:
            self._broadcast()
            self.hub.lobby_changed()
        else:
            client.send(self._state_for(client.player))

    async def _detach(self, client: Client) -> None:
        clients = self.watchers.get(client.player)
        if clients is None or client not in clients:
            return
        clients.discard(client)
        if clients:
            return
        del self.watchers[client.player]
        seat_number = self.seat_of(client.player)
        if seat_number is None:
            return
        seat = self.seats[seat_number]
        assert seat is not None
        seat.connected = False
        seat.dropped_at = time.time()
        seat.grace = self._grace()
        self._later(seat.grace, "grace", client.player, seat.dropped_at)
        self._broadcast()
        self.hub.lobby_changed()

    async def _grace_over(self, player: str, dropped_at: float) -> None:
        seat_number = self.seat_of(player)
        if seat_number is None:
            return
        seat = self.seats[seat_number]
        assert seat is not None
        if seat.connected or seat.dropped_at != dropped_at:
            return
        left = dropped_at + max(seat.grace, self._grace()) - time.time()
        if left > 0:  # the game started meanwhile: its longer grace applies
            self._later(left, "grace", player, dropped_at)
            return
        if self.status == "waiting":
            await self._unseat(seat_number)  # after a restart, an absent player frees the seat
        else:
            await self._replace_by_bot(seat_number)

    def _grace(self) -> float:
        """How long a dropped seat is kept: short before the first deal, longer in a game."""
        if self.status == "waiting":
            return self.settings.waiting_grace_seconds
        return self.settings.grace_seconds

    async def _replace_by_bot(self, seat_number: int) -> None:
        """The player has left: at a free table a bot takes the seat."""
        if self.status in ("finished", "closed"):
            seat = self.seats[seat_number]
            if seat is not None:
                self.hub.unbind(seat.player, self)
            return
        await self._commit(
            "seat",
            {
                "seat": seat_number,
                "player": f"bot:{seat_number}",
                "name": bot_name(seat_number),
                "bot": True,
            },
        )
        if self.status == "seeding":
            # The bot's seed is set at once: the others need not wait for the deadline.
            # A bot's seed is always its derived one, even where the player it replaces
            # had sent one: the record marks the seat a bot, and Verify checks that.
            self.client_seeds[seat_number] = self._derived_seed(seat_number)
            if len(self.client_seeds) == len(self.seat_numbers):
                await self._begin_play()
            return
        self._after_change(new_turn=False)

    async def _unseat(self, seat_number: int) -> None:
        seat = self.seats[seat_number]
        await self._commit("unseat", {"seat": seat_number})
        if seat is not None and seat.player == self.host:
            others = self.humans()
            await self._commit("host", {"player": others[0] if others else None})
        if not self.humans():
            await self._close()
        self._broadcast()
        self.hub.lobby_changed()

    async def _close(self) -> None:
        await self._commit("close", {})
        await self.hub.store.run(self.hub.store.set_status, self.id, "closed")
        self._cancel_timers()

    # -- messages from seats ------------------------------------------------------------

    async def _client_message(self, client: Client, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "join":
            try:
                await self._join(client, message)
            except ProtocolError:
                # The hub reserved this table for the player; a refused join releases it.
                if self.seat_of(client.player) is None:
                    self.hub.unbind(client.player, self)
                raise
            return
        seat_number = self.seat_of(client.player)
        if seat_number is None:
            raise ProtocolError("not_seated")
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise ProtocolError("wrong_phase", f"{kind!r} is not a table message")
        await handler(client, seat_number, message)

    async def _join(self, client: Client, message: dict[str, Any]) -> None:
        if self.seat_of(client.player) is not None:
            self._attach(client)
            return
        if self.status != "waiting":
            raise ProtocolError("wrong_phase", "the game has started")
        wanted = field(message, "seat", int, None)
        free = self.free_seats()
        if not free:
            raise ProtocolError("table_full")
        if wanted is not None:
            if wanted not in self.seats:
                raise ProtocolError("bad_field", f"no seat {wanted} at this table")
            if wanted not in free:
                raise ProtocolError("seat_taken")
        seat_number = wanted if wanted is not None else free[0]
        await self._commit(
            "seat",
            {"seat": seat_number, "player": client.player, "name": client.name, "bot": False},
        )
        if self.host is None and self.kind == "private":
            await self._commit("host", {"player": client.player})
        self._attach(client)  # tells everyone: the seat is new, so "returning"
        await self._maybe_begin()

    async def _on_leave(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        self.watchers.pop(client.player, None)
        client.table = None
        if self.status == "waiting":
            await self._unseat(seat_number)
        elif self.status in ("seeding", "playing"):
            await self._replace_by_bot(seat_number)
            self.hub.unbind(client.player, self)
        else:
            self.hub.unbind(client.player, self)
        client.send({"type": "left", "table": self.id})
        self.hub.lobby_changed()

    async def _on_sit(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        if self.status != "waiting":
            raise ProtocolError("wrong_phase", "seats are fixed once the game starts")
        wanted = field(message, "seat", int)
        if wanted not in self.seats:
            raise ProtocolError("bad_field", f"no seat {wanted} at this table")
        if self.seats[wanted] is not None:
            raise ProtocolError("seat_taken")
        order = [
            self.seats[s].player if self.seats[s] is not None else None  # type: ignore[union-attr]
            for s in self.seat_numbers
        ]
        order[self.seat_numbers.index(wanted)] = client.player
        order[self.seat_numbers.index(seat_number)] = None
        await self._commit("assign", {"order": order})
        self._broadcast()
        self.hub.lobby_changed()

    async def _on_assign(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        """The host of a private table puts the players in seats (who partners whom)."""
        self._require_host(client)
        if self.status != "waiting":
            raise ProtocolError("wrong_phase", "seats are fixed once the game starts")
        order = field(message, "order", list)
        if len(order) != len(self.seat_numbers) or not all(
            p is None or isinstance(p, str) for p in order
        ):
            raise ProtocolError("bad_field", "order lists a player id or null for each seat")
        present = sorted(s.player for s in self.seats.values() if s is not None)
        if sorted(p for p in order if p is not None) != present:
            raise ProtocolError("bad_field", "order must place exactly the players at the table")
        await self._commit("assign", {"order": order})
        self._broadcast()
        self.hub.lobby_changed()

    async def _on_turn_time(self, client: Client, seat: int, message: dict[str, Any]) -> None:
        self._require_host(client)
        seconds = field(message, "seconds", (int, float))
        low, high = self.settings.min_turn_seconds, self.settings.max_turn_seconds
        if not low <= seconds <= high:
            raise ProtocolError("bad_field", f"a turn lasts {low:g} to {high:g} seconds")
        await self._commit("turn_time", {"seconds": float(seconds)})
        self._broadcast()
        self.hub.lobby_changed()

    async def _on_bots(self, client: Client, seat: int, message: dict[str, Any]) -> None:
        if self.kind == "private":
            self._require_host(client)
        if self.status != "waiting":
            raise ProtocolError("wrong_phase", "the game has started")
        for number in self.free_seats():
            await self._commit(
                "seat",
                {"seat": number, "player": f"bot:{number}", "name": bot_name(number), "bot": True},
            )
        self._broadcast()
        self.hub.lobby_changed()
        await self._maybe_begin()

    async def _on_start(self, client: Client, seat: int, message: dict[str, Any]) -> None:
        self._require_host(client)
        if self.status != "waiting" or self.free_seats():
            raise ProtocolError("wrong_phase", "every seat must be taken, before the first deal")
        await self._begin_seeding()

    async def _on_seed(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        if self.status != "seeding":
            raise ProtocolError("wrong_phase", "seeds are collected just before the first deal")
        seed = field(message, "seed", str, limit=64)
        try:
            check_id(seed, "client seed")
        except SahratError as error:
            raise ProtocolError("bad_field", str(error)) from None
        if seed.startswith(DERIVED_PREFIX):
            raise ProtocolError("bad_field", f"your seed may not start with {DERIVED_PREFIX}")
        if seat_number in self.client_seeds:
            raise ProtocolError("wrong_phase", "your seed is already locked")
        self.client_seeds[seat_number] = seed
        if len(self.client_seeds) == len(self.seat_numbers):
            await self._begin_play()

    async def _on_act(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        text = field(message, "action", str, limit=200)
        expected = field(message, "moves", int, None)
        if self.status != "playing" or self.recorder is None:
            raise ProtocolError("wrong_phase", "the game is not running")
        if expected is not None and expected != self.moves:
            raise ProtocolError("stale", f"the position has moved on (moves {self.moves})")
        state = self.recorder.state
        if state.current_player() != seat_number:
            raise ProtocolError("not_your_turn")
        try:
            action = state.parse_action(text)
            state.clone().apply_action(action)  # the engine checks it before anything is stored
        except SahratError as error:
            raise ProtocolError("illegal_move", str(error)) from None
        await self._play(seat_number, str(action), auto=False)

    async def _on_chat(self, client: Client, seat_number: int, message: dict[str, Any]) -> None:
        channel = field(message, "channel", str, "table")
        text = clean_line(field(message, "text", str, limit=4 * self.settings.chat_max_chars))
        if channel not in ("table", "team"):
            raise ProtocolError("bad_field", "channel is table or team")
        if not text:
            raise ProtocolError("bad_field", "empty message")
        if len(text) > self.settings.chat_max_chars:
            raise ProtocolError(
                "chat_too_long", f"at most {self.settings.chat_max_chars} characters"
            )
        now = time.monotonic()
        times = self._chat_times.setdefault(client.player, deque())
        while times and now - times[0] > 60:
            times.popleft()
        if len(times) >= self.settings.chat_per_minute:
            raise ProtocolError("chat_rate")
        to = list(self.seat_numbers)
        if channel == "team":
            to = list(self.seating.partners(seat_number))
            if len(to) < 2:
                raise ProtocolError("no_partner")
        seat = self.seats[seat_number]
        assert seat is not None
        await self._commit(
            "chat",
            {
                "channel": channel,
                "seat": seat_number,
                "name": seat.name,
                "text": text,
                "to": to,
                "at": time.time(),
            },
        )
        times.append(now)
        out = {"type": "chat", "table": self.id, **_chat_out(self.chat[tuple(sorted(to))][-1])}
        for number in to:
            target = self.seats[number]
            if target is not None and not target.bot:
                for watcher in self.watchers.get(target.player, ()):
                    watcher.send(out)

    def _require_host(self, client: Client) -> None:
        if self.kind != "private" or client.player != self.host:
            raise ProtocolError("not_host")

    # -- the start: commitment, seeds, first deal ---------------------------------------

    async def _maybe_begin(self) -> None:
        if self.status == "waiting" and not self.free_seats() and self.kind != "private":
            await self._begin_seeding()

    async def _begin_seeding(self) -> None:
        await self._commit("commit", {"server_seed": new_server_seed().hex()})
        self.seq_at_commit = self.seq
        self.client_seeds = {}
        for number, seat in self.seats.items():
            if seat is not None and seat.bot:
                self.client_seeds[number] = self._derived_seed(number)
        request = self._seed_request()
        for seat in self.seats.values():
            if seat is not None and not seat.bot:
                for client in self.watchers.get(seat.player, ()):
                    client.send(request)
        self._broadcast()
        self.hub.lobby_changed()
        if len(self.client_seeds) == len(self.seat_numbers):
            await self._begin_play()
        else:
            self._later(self.settings.seed_seconds, "seed_timeout", self.seq_at_commit)

    def _seed_request(self) -> dict[str, Any]:
        assert self.server_seed is not None
        return {
            "type": "seed_request",
            "table": self.id,
            "commitment": commitment(self.server_seed),
        }

    def _derived_seed(self, seat_number: int) -> str:
        """``fairness.md`` §1: fixed by the commitment, so the server chooses nothing."""
        assert self.server_seed is not None
        position = self.seat_numbers.index(seat_number)
        return derived_seed(commitment(self.server_seed), position)

    async def _begin_play(self) -> None:
        """Seeds missing at the deadline are derived from the commitment, then the first deal."""
        seeds = [self.client_seeds.get(n) or self._derived_seed(n) for n in self.seat_numbers]
        await self._commit("start", {"game_id": self.id, "client_seeds": seeds})
        self._after_change(new_turn=True)
        self.hub.lobby_changed()

    # -- play ---------------------------------------------------------------------------

    async def _play(self, seat_number: int, action: str, auto: bool) -> None:
        data: dict[str, Any] = {"seat": seat_number, "action": action, "auto": auto}
        if auto and not self.expired_counted:
            data["turn_start"] = True
            self.expired_counted = True
        await self._commit("move", data)
        self._after_change(new_turn=False)

    def _after_change(self, new_turn: bool) -> None:
        recorder = self.recorder
        if recorder is None:
            self._broadcast()
            return
        state = recorder.state
        if state.is_terminal():
            self._cancel_timers()
            self.deadline = None
            self._broadcast()
            self.post("finish")
            return
        current = state.current_player()
        if new_turn or current != self.turn_seat or state.turn_count() != self.turn_number:
            self._new_turn(current, state.turn_count())
        seat = self.seats.get(current)
        if seat is not None and seat.bot:
            self._later(self.settings.bot_delay, "bot", self.moves)
        elif self.expired:
            self._request_autopilot()
        self._broadcast()

    def _new_turn(self, current: int, number: int) -> None:
        self.turn_token += 1
        self.turn_seat = current
        self.turn_number = number
        self.expired = False
        self.expired_counted = False
        seat = self.seats.get(current)
        if seat is None or seat.bot:
            self.deadline = None
            return
        self.deadline = time.time() + self.turn_seconds
        self._later(self.turn_seconds, "clock", self.turn_token)

    async def _clock_expired(self, token: int) -> None:
        if token != self.turn_token or self.status != "playing":
            return
        self.expired = True
        self._request_autopilot()

    def _request_autopilot(self) -> None:
        assert self.recorder is not None
        state = self.recorder.state.clone()
        task = asyncio.create_task(self._think(state, self.moves))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _think(self, state: Any, moves: int) -> None:
        try:
            action = await self.hub.autopilot(self.game, state)
        except Exception:
            log.exception("table %s: autopilot failed", self.id)
            action = state.legal_actions()[0]
        self.post("auto", moves, str(action))

    async def _autopilot_answer(self, moves: int, action: str) -> None:
        if moves != self.moves or not self.expired or self.recorder is None:
            return  # the player moved in the meantime
        seat = self.recorder.state.current_player()
        await self._play(seat, action, auto=True)

    async def _bot_turn(self, moves: int) -> None:
        if moves != self.moves or self.recorder is None or self.status != "playing":
            return
        state = self.recorder.state
        seat_number = state.current_player()
        seat = self.seats.get(seat_number)
        if seat is None or not seat.bot:
            return
        bot = self._bots.get(seat_number)
        if bot is None:
            bot = self._bots[seat_number] = self.rules.bots.heuristic(
                random.Random(self._rng.getrandbits(64))
            )
        # The bot sees what its seat may see: the hidden cards are dealt again at random.
        world = state.determinize(seat_number, SimSource(self._rng))
        action = bot.choose(world)
        await self._play(seat_number, str(action), auto=False)

    async def _finish(self) -> None:
        """Store the end, the record (seed revealed) and the status in one transaction."""
        recorder = self.recorder
        if recorder is None or self.status == "finished":
            return
        record = recorder.to_json()
        winners = record["result"]["winners"] if record["result"] else []
        at = time.time()
        try:
            await self.hub.store.run(
                self.hub.store.finish, self.id, self.seq + 1, {"winners": winners}, at, record
            )
        except IntegrityError as error:
            raise Diverged(self.id) from error
        except Exception as error:
            log.exception("table %s: could not store the end", self.id)
            raise ProtocolError("unavailable") from error
        self.seq += 1
        self._apply("end", {"winners": winners}, at)
        self._broadcast()
        # The players stay at the table a while (the result, the record link, a last word
        # in the chat); a new table takes them at once.
        self._later(self.settings.finished_linger, "linger_over")
        self.hub.lobby_changed()

    def _cancel_timers(self) -> None:
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()

    def resume(self) -> None:
        """After :meth:`restore`: clocks start afresh, bots and the seed collection go on."""
        if self.status == "seeding":
            self.seq_at_commit = self.seq
            for number, seat in self.seats.items():
                if seat is not None and seat.bot:
                    self.client_seeds[number] = self._derived_seed(number)
            self._later(self.settings.seed_seconds, "seed_timeout", self.seq_at_commit)
        elif self.status == "playing":
            if self.recorder is not None and self.recorder.state.is_terminal():
                self.post("finish")
                return
            self.turn_seat = None
            self._after_change(new_turn=True)
        for player in self.humans():
            seat_number = self.seat_of(player)
            assert seat_number is not None
            seat = self.seats[seat_number]
            if seat is not None and seat.dropped_at is not None:
                # Coming back after a restart takes longer than after a reload (the
                # clients back off while the server is down): every table, waiting
                # ones included, keeps its seats for the full grace.
                seat.grace = self.settings.grace_seconds
                self._later(seat.grace, "grace", player, seat.dropped_at)

    # -- what each seat sees ------------------------------------------------------------

    expired_counted = False
    seq_at_commit = 0
    turn_number = -1

    def _broadcast(self) -> None:
        # What every seat sees alike is encoded once; each seat's own part is added to it.
        shared = protocol.dumps(self._shared_state())[:-1]
        for player, clients in self.watchers.items():
            if clients:
                text = shared + "," + json.dumps(self._own_state(player), **JSON_STYLE)[1:]
                for client in clients:
                    client.send_text(text)

    def _state_for(self, player: str) -> dict[str, Any]:
        """The table as ``player`` may see it: its own view from the engine, nobody else's."""
        return {**self._shared_state(), **self._own_state(player)}

    def _own_state(self, player: str) -> dict[str, Any]:
        """The part of the table message only ``player``'s seat receives."""
        seat_number = self.seat_of(player)
        own: dict[str, Any] = {"you": seat_number}
        recorder = self.recorder
        if recorder is not None and seat_number is not None:
            state = recorder.state
            own["view"] = state.view(seat_number).to_json()
            if state.current_player() == seat_number and self.status == "playing":
                own["legal"] = [str(a) for a in state.legal_actions()]
        return own

    def _shared_state(self) -> dict[str, Any]:
        """The part of the table message every seat receives alike."""
        message: dict[str, Any] = {
            "type": "table",
            "table": {**self.summary(), "code": self.code, "host": self.host},
            "seats": [
                seat.public(n) if seat is not None else {"seat": n, "empty": True}
                for n, seat in self.seats.items()
            ],
            # Chat lines are not counted: a seat's view must not change with the other
            # side's team chat.
            "seq": self.seq - self.chat_lines,
            "moves": self.moves,
        }
        if self.server_seed is not None:
            message["commitment"] = commitment(self.server_seed)
        if self.seeds is not None:
            message["client_seeds"] = list(self.seeds.client_seeds)
            message["game_id"] = self.seeds.game_id
        recorder = self.recorder
        if recorder is not None:
            state = recorder.state
            current = state.current_player()
            message["to_move"] = current if current >= 0 else None
            message["deadline"] = self.deadline
            message["last"] = list(self.last)
            if state.is_terminal():
                outcome = state.outcome()
                message["result"] = {
                    "winners": list(outcome.winners) if outcome else [],
                    "record": f"/api/records/{self.id}",
                }
                if self.status == "finished" and self.server_seed is not None:
                    # The reveal: with it anyone can check the commitment and every shuffle.
                    message["server_seed"] = self.server_seed.hex()
        return message


def _chat_out(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: entry[k] for k in ("channel", "seat", "name", "text", "at")}


class Diverged(Exception):
    """The table's log already has the next event: someone else wrote to it."""


__all__ = ["CHANCE", "Diverged", "Seat", "TableActor"]
