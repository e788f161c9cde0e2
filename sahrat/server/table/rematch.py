"""Play again: a finished table's players ask for a rematch with the same seats.

Each person still at the finished table (following it on a connection, not
gone to the lobby) answers ``rematch``; bots accept at once at a free table.
When everyone still there has accepted, the table asks its host for a new
table like itself (game, options, seats, kind, stake, turn time): the new
table stores that it is this one's rematch (a ``Rematched`` event, so the
link survives a restart), seats the same players in the same seats and
starts at once when every seat is taken. Everyone still following the old
table is moved to the new one. At a coin table no bot plays again: the seat
of someone who does not come back (or can no longer pay) is free for the
lobby to fill.
"""

from __future__ import annotations

import time
from typing import Any

from sahrat.server.client import Client
from sahrat.server.names import bot_name
from sahrat.server.protocol import ProtocolError
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import HostChanged, Rematched, Seated
from sahrat.server.table.inbox import GraceOver, Reseat
from sahrat.server.table.state import FINISHED


class Rematches(TableCore):
    """The rematch part of a table actor (both the old table's and the new one's side)."""

    #: The players who accepted, and the new table once it is open (set by the actor).
    rematch_yes: set[str]
    rematch_next: str | None

    # -- at the finished table ------------------------------------------------------------

    def rematch_needed(self) -> list[str]:
        """The people still at the table: they must all accept."""
        return [p for p in self.table.humans() if p not in self.released and p in self.watchers]

    async def answer_rematch(self, client: Client, accept: bool) -> None:
        if self.table.status != FINISHED:
            raise ProtocolError("wrong_phase", "a rematch is offered once the game is over")
        if self.rematch_next is None:
            if accept:
                self.rematch_yes.add(client.player)
            else:
                self.rematch_yes.discard(client.player)
        await self.maybe_rematch()
        if self.rematch_next is not None:
            client.send(self.rematch_status())

    async def maybe_rematch(self, answered_only: bool = False) -> None:
        """Open the rematch once everyone still here has accepted; else say who waits.
        ``answered_only``: the time is up, those who accepted go on without the others."""
        if self.table.status != FINISHED or self.rematch_next is not None:
            return
        needed = self.rematch_needed()
        if answered_only:
            needed = [p for p in needed if p in self.rematch_yes]
        if not needed or not self.rematch_yes.issuperset(needed):
            self.send_rematch_status()
            return
        table = self.table
        seats: dict[int, tuple[str, str, bool]] = {}
        for number, seat in table.seats.items():
            if seat is not None and seat.player in needed:
                seats[number] = (seat.player, seat.name, False)
            elif not table.stake:
                seats[number] = (f"bot:{number}", bot_name(number), True)
        clients = [c for player in needed for c in self.watchers.get(player, ())]
        self.rematch_next = await self.host.rematch(self, seats, clients)
        self.send_rematch_status()
        self.host.lobby_changed()

    def rematch_status(self) -> dict[str, Any]:
        """Who accepted and who is still asked (seat numbers), and the new table if open."""
        table = self.table
        needed = self.rematch_needed()
        seats = {seat.player: n for n, seat in table.seats.items() if seat is not None}
        return {
            "type": "rematch",
            "table": table.id,
            "accepted": sorted(seats[p] for p in self.rematch_yes if p in seats),
            "waiting": sorted(seats[p] for p in needed if p not in self.rematch_yes),
            "next": self.rematch_next,
        }

    def send_rematch_status(self) -> None:
        if self.rematch_yes or self.rematch_next is not None:
            self.send_to_seats(self.table.seat_numbers, self.rematch_status())

    # -- at the new table -----------------------------------------------------------------

    async def reseat(self, message: Reseat) -> None:
        """Seat the players of the finished table ``message.of``; start when full."""
        table = self.table
        await self.commit(Rematched(message.of))
        for number, player, name, bot in message.seats:
            await self.commit(Seated(number, player, name, bot))
        people = table.humans()
        if table.kind == "private" and people:
            host = table.host if table.host in people else people[0]
            await self.commit(HostChanged(host))
        for client in message.clients:
            if not client.closed and table.seat_of(client.player) is not None:
                self.attach(client)
        now = time.time()
        for player in people:
            place = table.seat_of(player)
            seat = None if place is None else table.seats[place]
            if seat is not None and not seat.connected:
                # Gone between the acceptance and now: the seat is kept for the usual grace.
                seat.dropped_at = now
                seat.grace = self.settings.waiting_grace_seconds
                self.later(seat.grace, GraceOver(player, now))
        self.broadcast()
        self.host.lobby_changed()
        if not table.free_seats():
            await self.begin_seeding()

    # -- defined by the other parts of the actor ------------------------------------------

    def attach(self, client: Client) -> None:
        """Follow the table on ``client`` (:mod:`~.seats`)."""
        raise NotImplementedError

    async def begin_seeding(self) -> None:
        """Commit the server seed and collect the seeds (:mod:`~.seeding`)."""
        raise NotImplementedError
