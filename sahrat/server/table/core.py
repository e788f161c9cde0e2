"""What every part of a table actor shares: its state, its inbox and timers, its log.

:class:`TableCore` holds a table's :class:`~sahrat.server.table.state.TableState`
and the runtime beside it (connections, timers, the clock, seeds being
collected), and the two ways it changes: :meth:`TableCore.commit` stores an
event, then applies it with the reducer, then tells the host who came and
went; :meth:`TableCore.broadcast` sends every connection its ``table``
message. The parts of the actor (seats, seeding, the clock, chat) build on
it; :mod:`~sahrat.server.table.actor` puts them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sahrat.game import Bot
from sahrat.server import protocol
from sahrat.server.client import Client
from sahrat.server.ledger.transfers import Transfer
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings
from sahrat.server.table import reducer, views
from sahrat.server.table.events import Event, from_stored
from sahrat.server.table.host import LogConflict, StoredEvent, TableHost, TableLog, Unavailable
from sahrat.server.table.inbox import Detach, InboxMessage
from sahrat.server.table.state import TableState

#: What spectators are sent of the messages to every seat: table chat and reactions
#: (never a seed request, a rematch or anything meant for the seats alone).
SPECTATORS_HEAR = frozenset({"chat", "react"})


class Diverged(Exception):
    """The table's log already has the next event: someone else wrote to it."""


class TableCore:
    """A table's state and runtime; see :class:`~sahrat.server.table.actor.TableActor`."""

    def __init__(
        self, table: TableState, settings: Settings, host: TableHost, log: TableLog
    ) -> None:
        self.table = table
        self.settings = settings
        self.host = host
        self.log = log
        #: The connections following the table, by player.
        self.watchers: dict[str, set[Client]] = {}
        #: The connections of people watching the table without a seat, by player.
        self.spectators: dict[str, set[Client]] = {}
        self.inbox: asyncio.Queue[InboxMessage] = asyncio.Queue()
        self._timers: set[asyncio.TimerHandle] = set()
        self._thinking: set[asyncio.Task[None]] = set()
        # The clock: a turn's token, whose seat, which turn, until when; timers carry
        # the token.
        self.turn_token = 0
        self.turn_seat: int | None = None
        self.turn_number = -1
        self.deadline: float | None = None
        #: When the pause after a scored hand ends (epoch seconds), or None.
        self.resumes_at: float | None = None
        self.expired = False
        self.expired_counted = False
        # Seeds sent (or derived) while the table is seeding, by seat.
        self.client_seeds: dict[int, str] = {}
        self.seq_at_commit = 0
        self.chat_times: dict[str, deque[float]] = {}
        #: Players the host has been told have left (each is told once).
        self.released: set[str] = set()
        self.bots: dict[int, Bot] = {}
        self.rng = random.Random(secrets.randbits(64))
        #: Something the lobby shows may have changed since the lobby last looked.
        self.lobby_dirty = True

    # -- what the rest of the server reads ----------------------------------------------

    @property
    def id(self) -> str:
        return self.table.id

    @property
    def game(self) -> str:
        return self.table.rules.name

    @property
    def kind(self) -> str:
        return self.table.kind

    @property
    def code(self) -> str | None:
        return self.table.code

    @property
    def status(self) -> str:
        return self.table.status

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return self.table.seat_numbers

    def free_seats(self) -> list[int]:
        return self.table.free_seats()

    def humans(self) -> list[str]:
        return self.table.humans()

    def summary(self) -> dict[str, Any]:
        return views.summary(self.table)

    def record(self) -> dict[str, Any] | None:
        """The running game's record (shuffles, deals and the seed come with the end)."""
        recorder = self.table.recorder
        return None if recorder is None else recorder.to_json()

    def lobby_changed(self) -> None:
        """A change the event log does not see (a seat's connection): tell the lobby."""
        self.lobby_dirty = True
        self.host.lobby_changed()

    # -- inbox and timers -----------------------------------------------------------------

    def post(self, message: InboxMessage) -> None:
        self.inbox.put_nowait(message)

    def detach(self, client: Client) -> None:
        self.post(Detach(client))

    def later(self, delay: float, message: InboxMessage) -> None:
        """Post ``message`` to the inbox after ``delay`` seconds, unless cancelled first."""
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def fire() -> None:
            self._timers.discard(handle)  # a fired timer is forgotten, or they pile up
            self.inbox.put_nowait(message)

        handle = loop.call_later(max(delay, 0.0), fire)
        self._timers.add(handle)

    def cancel_timers(self) -> None:
        for handle in self._timers:
            handle.cancel()
        self._timers.clear()

    # -- the event log --------------------------------------------------------------------

    async def commit(self, event: Event, transfers: Sequence[Transfer] = ()) -> None:
        """Store an event (with the coin transfers that belong to it), then apply it;
        nothing changes if the log refuses it."""
        at = time.time()
        with self.log_refusals():
            await self.log.append(self.id, self.table.seq + 1, event, at, transfers)
        self.table.seq += 1
        self.apply(event, at)

    @contextlib.contextmanager
    def log_refusals(self) -> Iterator[None]:
        """A write the log refused: :class:`Diverged` if its number is taken (the table is
        rebuilt from the log), ``unavailable`` if the store could not be reached."""
        try:
            yield
        except LogConflict as error:
            raise Diverged(self.id) from error
        except Unavailable as error:
            raise ProtocolError("unavailable") from error

    def apply(self, event: Event, at: float) -> None:
        """Apply a stored event, then tell the host who came and who went."""
        before = set(self.table.humans())
        self.lobby_dirty = True
        reducer.apply(self.table, event, at, self.settings.away_after)
        after = set(self.table.humans())
        for player in before - after:
            self.release(player)
        for player in after - before:
            self.released.discard(player)
            self.host.player_seated(player, self)

    def release(self, player: str) -> None:
        """Tell the host ``player`` has left this table, once."""
        if player not in self.released:
            self.released.add(player)
            self.host.player_unseated(player, self)

    def restore(self, events: Iterable[StoredEvent]) -> None:
        """Apply a stored log; the game is where it was, every seat disconnected.

        Only the reducer runs: the host hears of the players at the table once,
        from :meth:`announce`, not once per event of the past.
        """
        for stored in events:
            self.table.seq = stored.seq
            reducer.apply(
                self.table,
                from_stored(stored.kind, stored.data),
                stored.at,
                self.settings.away_after,
            )
        now = time.time()
        for seat in self.table.seats.values():
            if seat is not None and not seat.bot:
                seat.connected = False
                seat.dropped_at = now

    def announce(self) -> None:
        """Tell the host who sits here (after a restore)."""
        for player in self.table.humans():
            self.host.player_seated(player, self)

    # -- what the seats are sent ----------------------------------------------------------

    @property
    def watching(self) -> int:
        """How many people watch the table (what the seats are shown)."""
        return len(self.spectators)

    def broadcast(self) -> None:
        # What every seat sees alike is encoded once; each seat's own part is added to it.
        shared = views.encode_shared(self.table, self.deadline, self.watching)
        for player, clients in self.watchers.items():
            if clients:
                text = views.encode_for(shared, self.table, player)
                for client in clients:
                    client.send_text(text)
        if self.spectators:
            # Every spectator sees the same: no hand, no legal moves.
            text = views.encode_spectator(shared, self.table)
            for clients in self.spectators.values():
                for client in clients:
                    client.send_text(text)

    def pause_message(self) -> dict[str, Any] | None:
        """The ``pause`` message while the next hand waits for its summary to be read;
        sent to whoever arrives during the pause too, so their countdown is right."""
        if self.resumes_at is None or self.resumes_at <= time.time():
            return None
        seconds = self.settings.hand_pause_seconds
        return {"type": "pause", "table": self.id, "resumes_at": self.resumes_at,
                "seconds": seconds}  # fmt: skip

    def send_to_seats(self, seats: Iterable[int], message: dict[str, Any]) -> None:
        """Send ``message`` to every connection of the players at ``seats``; a chat line
        or reaction to the whole table goes to the spectators too."""
        numbers = set(seats)
        for number in numbers:
            seat = self.table.seats.get(number)
            if seat is not None and not seat.bot:
                for client in self.watchers.get(seat.player, ()):
                    client.send(message)
        if (
            self.spectators
            and message.get("type") in SPECTATORS_HEAR
            and numbers >= set(self.table.seat_numbers)
        ):
            text = protocol.dumps(message)
            for clients in self.spectators.values():
                for client in clients:
                    client.send_text(text)

    # -- defined by the parts that start and run the game (seeding, the clock) ------------

    async def maybe_begin(self) -> None:
        """Start seeding if every seat of a public table is taken."""
        raise NotImplementedError

    async def unseat(self, seat_number: int) -> None:
        """Free a seat before the first deal (the host passes on; nobody left closes it)."""
        raise NotImplementedError

    def forget(self, player: str) -> None:
        """Stop following the table for ``player``."""
        raise NotImplementedError

    async def begin_play(self) -> None:
        """Lock the seeds and deal."""
        raise NotImplementedError

    def derived_seed(self, seat_number: int) -> str:
        """The seed of a seat that sends none (``fairness.md`` §1)."""
        raise NotImplementedError

    def after_change(self, new_turn: bool) -> None:
        """After a move: the clock, the next bot, the broadcast."""
        raise NotImplementedError
