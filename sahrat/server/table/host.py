"""What a table needs from the rest of the server: a narrow interface, injected.

A table stores its events through a :class:`TableLog`, and tells its
:class:`TableHost` who sits at it, that the lobby changed, that it is
over, or that its log moved on without it. Nothing else of the server is
visible to it, so a table runs alone in memory in a test, and routing
(one process or a cluster) and storage (SQLite, PostgreSQL, a ledger)
each change in one place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sahrat.server.ledger.transfers import Transfer
from sahrat.server.table.events import Ended, Event


class StoredEvent(Protocol):
    """One event of a log as it was stored: its number, kind, data and time."""

    @property
    def seq(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def data(self) -> dict[str, Any]: ...

    @property
    def at(self) -> float: ...


class LogConflict(Exception):
    """The log already holds an event at that number: someone else wrote to it."""


class Unavailable(Exception):
    """The log could not be written; nothing was stored."""


class TableLost(Exception):
    """This node no longer owns the table: it must stop, and write or broadcast nothing
    more for it (the node that took it over carries on from the log)."""


class ShortOfCoins(Exception):
    """A transfer stored with an event would take ``player`` below zero; nothing was stored."""

    def __init__(self, player: str) -> None:
        super().__init__(f"{player} has too few coins")
        self.player = player


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A person's seat in a finished game, for their history."""

    seat: int
    player: str
    won: bool
    left: bool
    stake: int
    #: Coins received at the settlement minus the stake (0 at a free table).
    coins: int


class TableLog(Protocol):
    """A table's event log; each call is stored before it returns (or raises)."""

    async def append(
        self, table_id: str, seq: int, event: Event, at: float, transfers: Sequence[Transfer] = ()
    ) -> None:
        """Store ``event`` as number ``seq``, with the coin ``transfers`` that go with it (the
        stakes), all or nothing; :class:`LogConflict` if that number is taken,
        :class:`ShortOfCoins` if a player cannot pay, :class:`Unavailable` if the store
        cannot be reached, :class:`TableLost` if another node owns the table now."""
        ...

    async def finish(
        self,
        table_id: str,
        seq: int,
        event: Ended,
        at: float,
        record: dict[str, Any],
        results: Sequence[SeatResult],
        settlement: Transfer | None,
    ) -> None:
        """Store the last event, the game's record, the table's end, the players' results
        and the pot's settlement, all or nothing."""
        ...

    async def close(self, table_id: str) -> None:
        """Mark a table closed before its first deal (nobody is left)."""
        ...


class TableHost(Protocol):
    """The rest of the server, as a table sees it."""

    def player_seated(self, player: str, table: Any) -> None:
        """``player`` now sits at ``table`` (their one live table)."""
        ...

    def player_unseated(self, player: str, table: Any) -> None:
        """``player`` has left ``table``."""
        ...

    def lobby_changed(self) -> None: ...

    def closed(self, table: Any) -> None:
        """``table`` is over and nobody follows it any more: it may leave memory."""
        ...

    def diverged(self, table: Any) -> None:
        """``table``'s log holds events it never applied: rebuild it from the log."""
        ...

    def lost(self, table: Any) -> None:
        """``table`` has stopped because another node owns it now: it may leave memory."""
        ...

    async def rematch(
        self, table: Any, seats: dict[int, tuple[str, str, bool]], clients: Sequence[Any]
    ) -> str:
        """Open a new table like ``table`` (game, options, seat count, kind, stake, turn
        time) for ``seats`` (``(player, name, bot)`` by seat number) and move ``clients``
        to it; its id. At a coin table a player short of the stake is left out (and told)."""
        ...

    async def autopilot(self, game: str, state: Any) -> Any:
        """The move the server plays for a seat whose clock ran out (off the event loop)."""
        ...
