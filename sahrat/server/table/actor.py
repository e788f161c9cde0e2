"""One table, one actor: an asyncio task that alone changes its table.

Everything that may change a table arrives in its inbox
(:mod:`~sahrat.server.table.inbox`) and is handled in order, so there are
no races. A change is first checked (the engine decides what is legal), then
appended to the table's event log, then applied by the reducer, then
broadcast: a table is restored after a crash by applying its log again
(:meth:`TableActor.restore`), through the very code that applied it live.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sahrat.game import Game
from sahrat.server import messages
from sahrat.server.client import Client
from sahrat.server.messages import (
    Act,
    Assign,
    Bots,
    Chat,
    Join,
    Leave,
    React,
    Rematch,
    Seed,
    Sit,
    Spectators,
    Start,
    TurnTime,
)
from sahrat.server.protocol import ProtocolError
from sahrat.server.settings import Settings
from sahrat.server.table.chat import ChatRoom
from sahrat.server.table.clock import Clock
from sahrat.server.table.core import Diverged
from sahrat.server.table.host import TableHost, TableLog, TableLost
from sahrat.server.table.inbox import (
    Attach,
    AutoFill,
    AutopilotChose,
    Begin,
    BotDue,
    ClockRanOut,
    Detach,
    Finish,
    ForgetPlayer,
    FromClient,
    GraceOver,
    InboxMessage,
    LingerOver,
    Reseat,
    SeedDeadline,
)
from sahrat.server.table.reactions import Reactions
from sahrat.server.table.rematch import Rematches
from sahrat.server.table.seats import SeatKeeping
from sahrat.server.table.seeding import Seeding
from sahrat.server.table.spectators import Spectating
from sahrat.server.table.state import PLAYING, SEEDING, WAITING, TableState

log = logging.getLogger("sahrat.table")

#: How long a table waits before retrying a step the database refused.
RETRY_SECONDS = 1.0


class TableActor(SeatKeeping, Seeding, Clock, ChatRoom, Rematches, Reactions, Spectating):
    """A table's state and its inbox; started with :meth:`start`, or restored first."""

    def __init__(
        self,
        row: dict[str, Any],
        rules: Game[Any],
        settings: Settings,
        host: TableHost,
        log: TableLog,
    ) -> None:
        table = TableState.from_row(row, rules, settings.turn_seconds)
        super().__init__(table, settings, host, log)
        self._task: asyncio.Task[None] | None = None
        self.rematch_yes = set()
        self.rematch_next = None
        self.reaction_times = {}

    # -- running --------------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    def halt(self) -> list[FromClient]:
        """Stop the clock and the bots; the client messages not yet handled, to hand on."""
        self.cancel_timers()
        for task in self._thinking:
            task.cancel()
        waiting = []
        while not self.inbox.empty():
            message = self.inbox.get_nowait()
            if isinstance(message, FromClient):
                waiting.append(message)
        return waiting

    async def stop(self) -> None:
        self.halt()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def resume(self) -> None:
        """After :meth:`restore`: clocks start afresh, bots and the seed collection go on."""
        table = self.table
        if table.status == WAITING:
            self.arm_autofill()
            if not table.free_seats():
                self.inbox.put_nowait(Begin())
        elif table.status == SEEDING:
            self.resume_seeding()
        elif table.status == PLAYING:
            self.resume_play()
        for player in table.humans():
            seat_number = table.seat_of(player)
            assert seat_number is not None
            seat = table.seats[seat_number]
            if seat is not None and seat.dropped_at is not None:
                # Coming back after a restart takes longer than after a reload (the
                # clients back off while the server is down): every table, waiting
                # ones included, keeps its seats for the full grace.
                seat.grace = self.settings.grace_seconds
                self.later(seat.grace, GraceOver(player, seat.dropped_at))

    async def _run(self) -> None:
        while True:
            message = await self.inbox.get()
            try:
                await self._handle(message)
            except Diverged:
                # The log holds events this actor never applied: retrying the same seq
                # would fail forever, so the table is rebuilt from the log instead.
                log.error("table %s: its log moved on without it; reloading", self.id)
                if isinstance(message, FromClient):
                    message.client.error("unavailable", "", message.message.get("id"))
                self.host.diverged(self)
                return
            except TableLost:
                # Another node owns the table now and goes on from the log: this copy
                # stops at once, and everyone waiting on it is told to come back.
                log.warning("table %s: moved to another node; stopping here", self.id)
                waiting = self.halt()
                if isinstance(message, FromClient):
                    waiting.insert(0, message)
                for moving in waiting:
                    moving.client.error(
                        "table_moving",
                        "the table is moving to another server; try again",
                        moving.message.get("id"),
                    )
                self.host.lost(self)
                return
            except ProtocolError as error:
                if isinstance(message, FromClient):
                    ref = message.message.get("id")
                    message.client.error(error.code, error.detail, ref, **error.extra)
                elif error.code == "unavailable":
                    # A bot's move, the autopilot or the end could not be stored: nothing
                    # changed, so the same step is tried again rather than the table stalling.
                    self.later(RETRY_SECONDS, message)
            except asyncio.CancelledError:
                raise
            except Exception:
                # A bug must cost one message, never the table.
                log.exception("table %s: failed on %s", self.id, type(message).__name__)
            if self.table.over and not self.watchers:
                # Its timers (the linger, graces) have nothing left to do; a message that
                # came in meanwhile (a spectator's chat) is answered, not dropped.
                for lost in self.halt():
                    lost.client.error("not_seated", "the table has closed", lost.message.get("id"))
                self.host.closed(self)
                return

    async def _handle(self, message: InboxMessage) -> None:
        match message:
            case FromClient(client=client, message=raw):
                await self._from_client(client, raw)
            case Attach(client=client):
                self.attach(client)
            case Detach(client=client):
                if not self.spectator_gone(client):
                    self.detached(client)
                    await self.maybe_rematch()  # one fewer to wait for
            case ClockRanOut(token=token):
                self.clock_ran_out(token)
            case AutopilotChose(moves=moves, action=action):
                await self.autopilot_chose(moves, action)
            case BotDue(moves=moves):
                await self.bot_due(moves)
            case GraceOver(player=player, dropped_at=dropped_at):
                await self.grace_over(player, dropped_at)
            case SeedDeadline(seq_at_commit=seq):
                await self.seed_deadline(seq)
            case Finish():
                await self.finish()
            case Begin():
                await self.maybe_begin()
            case LingerOver():
                # Those who accepted a rematch go on without those who never answered.
                await self.maybe_rematch(answered_only=True)
                for player in self.table.humans():
                    self.release(player)
                for player in list(self.watchers):
                    self.forget(player)
                self.forget_spectators()
            case ForgetPlayer(player=player):
                self.forget(player)
            case AutoFill(token=token):
                await self.autofill(token)
            case Reseat() as reseat:
                await self.reseat(reseat)

    # -- messages from seats --------------------------------------------------------------

    async def _from_client(self, client: Client, raw: dict[str, Any]) -> None:
        if raw["type"] == "join":
            try:
                join = messages.decode(raw)
                await self.join(client, join.seat if isinstance(join, Join) else None)
            except ProtocolError:
                # The hub reserved this table for the player; a refused join releases it.
                if self.table.seat_of(client.player) is None:
                    self.host.player_unseated(client.player, self)
                raise
            return
        seat = self.table.seat_of(client.player)
        if raw["type"] == "watch":
            if seat is not None:
                self.attach(client)  # a seat watches its own table as a seat
            else:
                self.watch(client)
            return
        if raw["type"] == "unwatch":
            self.unwatch(client, tell=not raw.get("quiet"))
            return
        if seat is None:
            if client.player in self.spectators:
                await self._from_spectator(client, raw)
                return
            raise ProtocolError("not_seated")
        match messages.decode(raw):
            case Act(action=action, moves=moves):
                await self.act(seat, action, moves)
            case Chat(text=text, channel=channel):
                await self.chat(client, seat, text, channel)
            case Leave():
                await self.leave(client, seat)
                await self.maybe_rematch()  # one fewer to wait for
            case Rematch(accept=accept):
                await self.answer_rematch(client, accept)
            case React(reaction=reaction, channel=channel):
                self.react(client, seat, reaction, channel)
            case Sit(seat=wanted):
                await self.sit(client, seat, wanted)
            case Assign(order=order):
                await self.assign(client, order)
            case TurnTime(seconds=seconds):
                await self.set_turn_time(client, seconds)
            case Spectators(allow=allow, chat=chat):
                await self.set_spectators(client, allow, chat)
            case Bots():
                await self.fill_with_bots(client)
            case Start():
                self.require_host(client)
                await self.start_game()
            case Seed(seed=seed):
                await self.take_seed(seat, seed)
            case other:
                raise ProtocolError("wrong_phase", f"{other.TYPE!r} is not a table message")

    async def _from_spectator(self, client: Client, raw: dict[str, Any]) -> None:
        """A spectator may write in the table chat (where allowed) and nothing else: what
        a spectator may not send is refused as such before its fields are looked at."""
        if raw["type"] != "chat":
            raise ProtocolError("spectator", f"a spectator cannot send {raw['type']!r}")
        self.spectator_may_write(raw.get("channel", "table"))
        chat = messages.decode(raw)
        assert isinstance(chat, Chat)
        await self.spectator_chat(client, chat.text)
