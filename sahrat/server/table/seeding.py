"""The start of a game: the commitment, the seats' seeds, the first deal (``fairness.md``).

Once every seat is taken the server commits to a secret seed (its SHA-256
is published) and asks each seat for a seed of its own. A bot's seed, and
the seed of a seat that sends none before the deadline, is derived from the
commitment, so the server chooses nothing after committing. With every
seed locked, the game starts and the first deal is made.

At a coin table every seat's stake moves to the table's escrow in the same
transaction that stores the commitment: a game either starts paid for or
does not start. A player who can no longer pay is unseated, and the table
waits again.
"""

from __future__ import annotations

from sahrat.errors import SahratError
from sahrat.fairness import DERIVED_PREFIX, check_id, commitment, derived_seed, new_server_seed
from sahrat.server import protocol
from sahrat.server.ledger.transfers import stakes
from sahrat.server.protocol import ProtocolError
from sahrat.server.table import views
from sahrat.server.table.core import TableCore
from sahrat.server.table.events import Committed, Started
from sahrat.server.table.host import ShortOfCoins
from sahrat.server.table.inbox import SeedDeadline
from sahrat.server.table.state import SEEDING, WAITING


class Seeding(TableCore):
    """The seeding part of a table actor."""

    async def maybe_begin(self) -> None:
        table = self.table
        if table.status == WAITING and not table.free_seats() and table.kind != "private":
            await self.begin_seeding()

    async def start_game(self) -> None:
        """The host of a private table starts the game."""
        table = self.table
        if table.status != WAITING or table.free_seats():
            raise ProtocolError("wrong_phase", "every seat must be taken, before the first deal")
        await self.begin_seeding()

    async def begin_seeding(self) -> None:
        table = self.table
        players = {n: s.player for n, s in table.seats.items() if s is not None}
        try:
            await self.commit(
                Committed(new_server_seed().hex()),
                stakes(table.id, table.stake, players) if table.stake else (),
            )
        except ShortOfCoins as short:
            await self._unseat_short(short.player)
            return
        self.seq_at_commit = table.seq
        self.client_seeds = {}
        self._bots_seed()
        self.send_to_seats(table.seat_numbers, views.seed_request(table))
        self.broadcast()
        self.host.lobby_changed()
        if len(self.client_seeds) == len(table.seat_numbers):
            await self.begin_play()
        else:
            self.later(self.settings.seed_seconds, SeedDeadline(self.seq_at_commit))

    async def _unseat_short(self, player: str) -> None:
        seat_number = self.table.seat_of(player)
        if seat_number is None:
            return
        need = self.table.stake
        self.send_to_seats(
            [seat_number],
            protocol.error("insufficient_coins", f"this table's stake is {need}", need=need),
        )
        await self.unseat(seat_number)
        self.forget(player)

    def resume_seeding(self) -> None:
        """After a restart: the seeds are collected again, with a new deadline."""
        self.seq_at_commit = self.table.seq
        self._bots_seed()
        self.later(self.settings.seed_seconds, SeedDeadline(self.seq_at_commit))

    def _bots_seed(self) -> None:
        for number, seat in self.table.seats.items():
            if seat is not None and (seat.bot or seat.left):
                self.client_seeds[number] = self.derived_seed(number)

    async def seed_deadline(self, seq_at_commit: int) -> None:
        if self.table.status == SEEDING and seq_at_commit == self.seq_at_commit:
            await self.begin_play()

    async def take_seed(self, seat_number: int, seed: str) -> None:
        if self.table.status != SEEDING:
            raise ProtocolError("wrong_phase", "seeds are collected just before the first deal")
        try:
            check_id(seed, "client seed")
        except SahratError as error:
            raise ProtocolError("bad_field", str(error)) from None
        if seed.startswith(DERIVED_PREFIX):
            raise ProtocolError("bad_field", f"your seed may not start with {DERIVED_PREFIX}")
        if seat_number in self.client_seeds:
            raise ProtocolError("wrong_phase", "your seed is already locked")
        self.client_seeds[seat_number] = seed
        if len(self.client_seeds) == len(self.table.seat_numbers):
            await self.begin_play()

    def derived_seed(self, seat_number: int) -> str:
        """``fairness.md`` §1: fixed by the commitment, so the server chooses nothing."""
        table = self.table
        assert table.server_seed is not None
        return derived_seed(commitment(table.server_seed), table.seating.index(seat_number))

    async def begin_play(self) -> None:
        """Seeds missing at the deadline are derived from the commitment, then the first deal."""
        table = self.table
        seeds = tuple(self.client_seeds.get(n) or self.derived_seed(n) for n in table.seat_numbers)
        await self.commit(Started(table.id, seeds))
        self.after_change(new_turn=True)
        self.host.lobby_changed()
