"""In-memory stand-ins for what a table is given: its log, its host, its connections.

A :class:`~sahrat.server.table.TableActor` sees the rest of the server only
through a ``TableHost`` and a ``TableLog``, and its players only through the
attributes of a ``Client`` it uses; these fakes record what the table does
with each, so a table runs alone in memory, with no database and no socket.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sahrat.games import GAMES
from sahrat.server import protocol
from sahrat.server.ledger.transfers import SOURCE, Transfer
from sahrat.server.settings import Settings
from sahrat.server.table.events import Ended, Event
from sahrat.server.table.host import LogConflict, SeatResult, ShortOfCoins, Unavailable


def settings(data_dir: Path, **changes: Any) -> Settings:
    """Settings with short times, so a test waits milliseconds, never seconds.

    Bots play at once; a person's turn is long enough never to run out unless a
    test says otherwise; graces, the seed collection and the linger are short.
    """
    values: dict[str, Any] = {
        "bot_delay": 0.0,
        "seed_seconds": 0.05,
        "turn_seconds": 30.0,
        "grace_seconds": 0.1,
        "waiting_grace_seconds": 0.05,
        "finished_linger": 0.05,
        "search_workers": 0,
    }
    values.update(changes)
    return Settings(data_dir=data_dir, **values)


class Row(NamedTuple):
    """One stored event, as the database holds it (a ``StoredEvent``)."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


#: ``fail_when(seq, event)``: whether this append is the one to refuse.
FailWhen = Callable[[int, Event], bool]


@dataclass
class MemoryLog:
    """A ``TableLog`` in memory: rows per table, a taken number is a conflict.

    Data goes through JSON on the way in, as it does to the database, so what
    is read back is what a restart would read. Coins move between ``balances``
    as the database's ledger moves them: all of an event's transfers or none,
    no account but the source below zero, no key twice.
    """

    rows: dict[str, list[Row]] = field(default_factory=dict)
    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    balances: dict[str, int] = field(default_factory=dict)
    transfers: dict[str, Transfer] = field(default_factory=dict)
    results: dict[str, list[SeatResult]] = field(default_factory=dict)
    closed: list[str] = field(default_factory=list)
    #: Appends refused as :class:`Unavailable`, as ``(seq, kind)``.
    refused: list[tuple[int, str]] = field(default_factory=list)
    _failures: list[FailWhen] = field(default_factory=list)

    def fail_next(self, when: FailWhen | None = None) -> None:
        """Refuse the next append (or the next for which ``when`` holds) as unavailable."""
        self._failures.append(when or (lambda seq, event: True))

    def of(self, table_id: str) -> list[Row]:
        return self.rows.get(table_id, [])

    def kinds(self, table_id: str) -> list[str]:
        return [row.kind for row in self.of(table_id)]

    def _store(self, table_id: str, seq: int, event: Event, at: float) -> None:
        rows = self.rows.setdefault(table_id, [])
        if any(row.seq == seq for row in rows):
            raise LogConflict(table_id)
        for failure in self._failures:
            if failure(seq, event):
                self._failures.remove(failure)
                self.refused.append((seq, event.KIND))
                raise Unavailable(table_id)
        rows.append(Row(seq, event.KIND, json.loads(json.dumps(event.data())), at))

    def _check(self, transfers: Sequence[Transfer]) -> dict[str, int]:
        """The balances after ``transfers``, or the refusal the database would give."""
        after = dict(self.balances)
        for transfer in transfers:
            if transfer.key in self.transfers:
                raise LogConflict(transfer.table_id or "")
            for account, amount in transfer.legs:
                after[account] = after.get(account, 0) + amount
                if after[account] < 0 and account != SOURCE:
                    raise ShortOfCoins(account.removeprefix("player:"))
        return after

    def _move(self, transfers: Sequence[Transfer], after: dict[str, int]) -> None:
        self.balances = after
        self.transfers.update((t.key, t) for t in transfers)

    async def append(
        self, table_id: str, seq: int, event: Event, at: float, transfers: Sequence[Transfer] = ()
    ) -> None:
        after = self._check(transfers)
        self._store(table_id, seq, event, at)
        self._move(transfers, after)

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
        moved = [] if settlement is None else [settlement]
        after = self._check(moved)
        self._store(table_id, seq, event, at)
        self._move(moved, after)
        self.records[table_id] = json.loads(json.dumps(record))
        self.results[table_id] = list(results)

    async def close(self, table_id: str) -> None:
        self.closed.append(table_id)


@dataclass
class RecordingHost:
    """A ``TableHost`` that writes down every call, in order.

    ``calls`` holds ``(name, player)`` for seat changes and ``(name, None)``
    for the rest; ``tables`` the table each call named.
    """

    calls: list[tuple[str, str | None]] = field(default_factory=list)
    tables: list[Any] = field(default_factory=list)
    autopiloted: list[str] = field(default_factory=list)

    def _note(self, name: str, player: str | None, table: Any = None) -> None:
        self.calls.append((name, player))
        self.tables.append(table)

    def player_seated(self, player: str, table: Any) -> None:
        self._note("player_seated", player, table)

    def player_unseated(self, player: str, table: Any) -> None:
        self._note("player_unseated", player, table)

    def lobby_changed(self) -> None:
        self._note("lobby_changed", None)

    def closed(self, table: Any) -> None:
        self._note("closed", None, table)

    def diverged(self, table: Any) -> None:
        self._note("diverged", None, table)

    def lost(self, table: Any) -> None:
        self._note("lost", None, table)

    async def autopilot(self, game: str, state: Any) -> Any:
        """The least useful card where the seat has no choice, else the first legal action:
        at once, in the event loop (no search, so tests stay fast and repeatable)."""
        self.autopiloted.append(game)
        stuck = GAMES[game].bots.stuck(state)
        return stuck if stuck is not None else state.legal_actions()[0]

    def seat_calls(self) -> list[tuple[str, str | None]]:
        """The calls that say who sits at the table, in order."""
        return [c for c in self.calls if c[0] in ("player_seated", "player_unseated")]

    def count(self, name: str) -> int:
        return sum(1 for call in self.calls if call[0] == name)


class FakeClient:
    """What a table (and presence) uses of a connection, recording every message it is
    sent (decoded)."""

    #: A registered player's connection, as presence sees it.
    guest = False

    def __init__(self, player: str, name: str | None = None) -> None:
        self.player = player
        self.name = name or player.title()
        self.table: Any = None
        self.closed = False
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(protocol.dumps(message))

    def send_text(self, text: str | bytes) -> None:
        if not self.closed:
            self.sent.append(json.loads(text))

    def error(self, code: str, detail: str = "", ref: object = None, **extra: Any) -> None:
        self.send(protocol.error(code, detail, ref, **extra))

    # -- what tests read --------------------------------------------------------------------

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == kind]

    def last(self, kind: str) -> dict[str, Any] | None:
        found = self.of_type(kind)
        return found[-1] if found else None

    def errors(self) -> list[str]:
        return [m["code"] for m in self.of_type("error")]

    def __repr__(self) -> str:
        return f"FakeClient({self.player!r})"
