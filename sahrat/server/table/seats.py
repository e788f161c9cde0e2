"""Seats and reconnection: who sits where, and what happens when a connection drops.

A connection of a seated player is *attached* to the table and receives its
messages; a dropped seat is kept for a grace (short before the first deal,
longer in a game), then freed (waiting) or given to a bot (seeding or
playing); at a coin table the seat is not given to anyone: its player has
left, and the server plays it to the end. Joining, leaving, changing seats,
the host's order of the seats and filling the empty ones with bots are here
too (``docs/protocol.md`` §2, §4). A free table nobody else joins for a few
seconds is filled with bots, and one whose last person leaves closes: bots
never play for nobody.
"""

from __future__ import annotations

import time

from sahrat.server.client import Client
from sahrat.server.names import bot_name
from sahrat.server.protocol import ProtocolError
from sahrat.server.table import views
from sahrat.server.table.chat import history_for
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import (
    Assigned,
    Closed,
    HostChanged,
    Left,
    Seated,
    TurnTimeSet,
    Unseated,
)
from sahrat.server.table.inbox import AutoFill, GraceOver
from sahrat.server.table.state import PLAYING, SEEDING, WAITING


class SeatKeeping(TableCore):
    """The seat-related handlers of a table actor."""

    #: The last join's number: an autofill set before a later join does nothing.
    autofill_token = 0

    # -- connections ----------------------------------------------------------------------

    def attach(self, client: Client) -> None:
        """A connection of a seated player: send it everything, mark the seat back."""
        table = self.table
        seat_number = table.seat_of(client.player)
        if seat_number is None:
            # The hub reserved the seat and the table refused the join meanwhile (a
            # hello in between asked to attach): the join's own error said why.
            return
        self.watchers.setdefault(client.player, set()).add(client)
        client.table = self
        seat = table.seats[seat_number]
        assert seat is not None
        returning = not seat.connected
        seat.connected = True
        seat.dropped_at = None
        channels = ("table", "team") if len(table.seat_numbers) == 4 else ("table",)
        client.send(
            {
                "type": "chat_history",
                "table": table.id,
                "messages": history_for(self, client.player, table.chat_for(seat_number)),
                "channels": channels,
            }
        )
        if table.status == SEEDING and seat_number not in self.client_seeds:
            client.send(views.seed_request(table))
        if returning:
            self.broadcast()
            self.lobby_changed()
        else:
            client.send(views.whole(table, self.deadline, client.player, self.watching))
        pause = self.pause_message()
        if pause is not None:
            client.send(pause)

    def detached(self, client: Client) -> None:
        clients = self.watchers.get(client.player)
        if clients is None or client not in clients:
            return
        clients.discard(client)
        if clients:
            return
        del self.watchers[client.player]
        seat_number = self.table.seat_of(client.player)
        if seat_number is None:
            return
        seat = self.table.seats[seat_number]
        assert seat is not None
        seat.connected = False
        seat.dropped_at = time.time()
        seat.grace = self.grace()
        self.later(seat.grace, GraceOver(client.player, seat.dropped_at))
        self.broadcast()
        self.lobby_changed()

    def forget(self, player: str) -> None:
        """Stop following the table for ``player`` (moved on, or the linger is over)."""
        for client in self.watchers.pop(player, set()):
            if client.table is self:
                client.table = None

    async def grace_over(self, player: str, dropped_at: float) -> None:
        table = self.table
        seat_number = table.seat_of(player)
        if seat_number is None:
            return
        seat = table.seats[seat_number]
        assert seat is not None
        if seat.connected or seat.dropped_at != dropped_at:
            return
        left = dropped_at + max(seat.grace, self.grace()) - time.time()
        if left > 0:  # the game started meanwhile: its longer grace applies
            self.later(left, GraceOver(player, dropped_at))
            return
        if table.status == WAITING:
            await self.unseat(seat_number)  # after a restart, an absent player frees the seat
        else:
            await self.replace_by_bot(seat_number)

    def grace(self) -> float:
        """How long a dropped seat is kept: short before the first deal, longer in a game."""
        if self.table.status == WAITING:
            return self.settings.waiting_grace_seconds
        return self.settings.grace_seconds

    # -- seats ----------------------------------------------------------------------------

    async def replace_by_bot(self, seat_number: int) -> None:
        """The player has left: at a free table a bot takes the seat; at a coin table the
        seat stays the leaver's (their stake is in the pot) and the server plays it."""
        table = self.table
        seat = table.seats[seat_number]
        if table.over:
            if seat is not None:
                self.release(seat.player)
            return
        self.tell_left(seat_number)
        if not table.stake and seat is not None and table.humans() == [seat.player]:
            await self.abandon()
            return
        if table.stake:
            await self.commit(Left(seat_number))
        else:
            await self.commit(
                Seated(seat_number, f"bot:{seat_number}", bot_name(seat_number), True)
            )
        if table.status == SEEDING:
            # The bot's seed is set at once: the others need not wait for the deadline.
            # A bot's seed is always its derived one, even where the player it replaces
            # had sent one: the record marks the seat a bot, and Verify checks that.
            self.client_seeds[seat_number] = self.derived_seed(seat_number)
            if len(self.client_seeds) == len(table.seat_numbers):
                await self.begin_play()
            return
        self.after_change(new_turn=False)

    async def abandon(self) -> None:
        """The last person left a free table before its end: it closes, and leaves the lobby."""
        await self.close()
        for task in self._thinking:
            task.cancel()
        for player in self.table.humans():
            self.release(player)
        self.broadcast()
        self.lobby_changed()

    def tell_left(self, seat_number: int) -> None:
        """Tell the others (a private table's host above all) who left, and from which seat."""
        seat = self.table.seats[seat_number]
        if seat is None or seat.bot:
            return
        others = [n for n in self.table.seat_numbers if n != seat_number]
        message = {"type": "player_left", "table": self.id, "seat": seat_number, "name": seat.name}
        self.send_to_seats(others, message)

    async def unseat(self, seat_number: int) -> None:
        table = self.table
        seat = table.seats[seat_number]
        self.tell_left(seat_number)
        await self.commit(Unseated(seat_number))
        if seat is not None and seat.player == table.host:
            others = table.humans()
            await self.commit(HostChanged(others[0] if others else None))
        if not table.humans():
            await self.close()
        self.broadcast()
        self.lobby_changed()

    async def close(self) -> None:
        await self.commit(Closed())
        await self.log.close(self.id)
        self.cancel_timers()

    async def join(self, client: Client, wanted: int | None) -> None:
        table = self.table
        if table.seat_of(client.player) is not None:
            self.attach(client)
            return
        if table.status != WAITING:
            raise ProtocolError("wrong_phase", "the game has started")
        free = table.free_seats()
        if not free:
            raise ProtocolError("table_full")
        if wanted is not None:
            if wanted not in table.seats:
                raise ProtocolError("bad_field", f"no seat {wanted} at this table")
            if wanted not in free:
                raise ProtocolError("seat_taken")
        seat_number = wanted if wanted is not None else free[0]
        await self.commit(Seated(seat_number, client.player, client.name, False))
        if table.host is None and table.kind == "private":
            await self.commit(HostChanged(client.player))
        self.attach(client)  # tells everyone: the seat is new, so "returning"
        await self.maybe_begin()
        self.arm_autofill()

    def arm_autofill(self) -> None:
        """At a free table with free seats, bots come if nobody else joins in time."""
        table = self.table
        wait = self.settings.autofill_seconds
        if table.kind == "free" and table.status == WAITING and table.free_seats() and wait > 0:
            self.autofill_token += 1
            self.later(wait, AutoFill(self.autofill_token))

    async def autofill(self, token: int) -> None:
        table = self.table
        if token == self.autofill_token and table.status == WAITING and table.humans():
            await self.seat_bots()

    async def leave(self, client: Client, seat_number: int) -> None:
        table = self.table
        self.watchers.pop(client.player, None)
        client.table = None
        if table.status == WAITING:
            await self.unseat(seat_number)
        elif table.status in (SEEDING, PLAYING):
            await self.replace_by_bot(seat_number)
        else:
            self.release(client.player)  # the game is over: the seat stays in its record
        client.send({"type": "left", "table": table.id})
        self.lobby_changed()

    async def sit(self, client: Client, seat_number: int, wanted: int) -> None:
        table = self.table
        if table.status != WAITING:
            raise ProtocolError("wrong_phase", "seats are fixed once the game starts")
        if wanted not in table.seats:
            raise ProtocolError("bad_field", f"no seat {wanted} at this table")
        if table.seats[wanted] is not None:
            raise ProtocolError("seat_taken")
        order = [seat.player if seat else None for seat in table.seats.values()]
        numbers = table.seat_numbers
        order[numbers.index(wanted)] = client.player
        order[numbers.index(seat_number)] = None
        await self.commit(Assigned(tuple(order)))
        self.broadcast()
        self.lobby_changed()

    def require_host(self, client: Client) -> None:
        if self.table.kind != "private" or client.player != self.table.host:
            raise ProtocolError("not_host")

    async def assign(self, client: Client, order: list[object]) -> None:
        """The host of a private table puts the players in seats (who partners whom)."""
        table = self.table
        self.require_host(client)
        if table.status != WAITING:
            raise ProtocolError("wrong_phase", "seats are fixed once the game starts")
        if len(order) != len(table.seat_numbers) or not all(
            p is None or isinstance(p, str) for p in order
        ):
            raise ProtocolError("bad_field", "order lists a player id or null for each seat")
        present = sorted(s.player for s in table.seats.values() if s is not None)
        if sorted(p for p in order if isinstance(p, str)) != present:
            raise ProtocolError("bad_field", "order must place exactly the players at the table")
        await self.commit(Assigned(tuple(p if isinstance(p, str) else None for p in order)))
        self.broadcast()
        self.lobby_changed()

    async def set_turn_time(self, client: Client, seconds: float) -> None:
        self.require_host(client)
        low, high = self.settings.min_turn_seconds, self.settings.max_turn_seconds
        if not low <= seconds <= high:
            raise ProtocolError("bad_field", f"a turn lasts {low:g} to {high:g} seconds")
        await self.commit(TurnTimeSet(float(seconds)))
        self.broadcast()
        self.lobby_changed()

    async def fill_with_bots(self, client: Client) -> None:
        table = self.table
        if table.stake:
            raise ProtocolError("no_bots_at_coin_tables")
        if table.kind == "private":
            self.require_host(client)
        if table.status != WAITING:
            raise ProtocolError("wrong_phase", "the game has started")
        await self.seat_bots()

    async def seat_bots(self) -> None:
        table = self.table
        for number in table.free_seats():
            await self.commit(Seated(number, f"bot:{number}", bot_name(number), True))
        self.broadcast()
        self.lobby_changed()
        await self.maybe_begin()
