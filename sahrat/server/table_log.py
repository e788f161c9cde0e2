"""The tables' event logs in the database: the :class:`~sahrat.server.table.TableLog` a
table is given, over :class:`~sahrat.server.store.Store`."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from sahrat.server.cluster.fencing import StaleOwner
from sahrat.server.ledger.book import AlreadyDone, Insufficient
from sahrat.server.ledger.transfers import Transfer
from sahrat.server.people.ratings import finish_and_rate
from sahrat.server.store import Store, append_event
from sahrat.server.table.events import Ended, Event
from sahrat.server.table.host import (
    LogConflict,
    SeatResult,
    ShortOfCoins,
    TableLost,
    Unavailable,
)

log = logging.getLogger("sahrat.store")


#: The fence of this node's lease on a table, as ``(fence, node)``; None if it holds none.
Fences = Callable[[str], tuple[int, str] | None]


class StoreLog:
    """Appends go to the store's writer thread, in order; a taken number is a conflict.

    ``fences`` (cluster mode): every write carries the table's fence, and a table this
    node has no lease on, or whose log has a newer owner, is :class:`TableLost`.
    """

    def __init__(self, store: Store, fences: Fences | None = None) -> None:
        self.store = store
        self.fences = fences

    async def append(
        self, table_id: str, seq: int, event: Event, at: float, transfers: Sequence[Transfer] = ()
    ) -> None:
        fence = self._fence(table_id)
        await self._write(table_id, event.KIND, append_event, table_id, seq, event.KIND,
                          event.data(), at, transfers, fence)  # fmt: skip

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
        rows = [{"table_id": table_id, "game": record["game"], **dataclasses.asdict(r)}
                for r in results]  # fmt: skip
        rows = [{**row, "player_id": row.pop("player")} for row in rows]
        fence = self._fence(table_id)
        # The ratings are updated in the transaction that records the end.
        await self._write(table_id, "the end", finish_and_rate, table_id, seq, event.data(), at,
                          record, rows, settlement, fence)  # fmt: skip

    def _fence(self, table_id: str) -> tuple[int, str] | None:
        if self.fences is None:
            return None
        fence = self.fences(table_id)
        if fence is None:
            # The lease lapsed: another node may own the table already, so nothing is
            # written, not even with the last fence known (the database would take it if
            # the new owner has not written yet).
            raise TableLost(table_id)
        return fence

    async def _write(self, table_id: str, what: str, call: Callable[..., None], *args: Any) -> None:
        try:
            await self.store.write(call, *args)
        except StaleOwner as error:
            log.warning("table %s: another node owns it now; stopping it here", table_id)
            raise TableLost(table_id) from error
        except Insufficient as error:
            raise ShortOfCoins(error.account.removeprefix("player:")) from error
        except (IntegrityError, AlreadyDone) as error:
            # The number is taken, or the coins of that step already moved: either way the
            # log holds what this table has not applied.
            raise LogConflict(table_id) from error
        except Exception as error:
            log.exception("table %s: could not store %s", table_id, what)
            raise Unavailable(table_id) from error

    async def close(self, table_id: str) -> None:
        await self.store.run(self.store.set_status, table_id, "closed")
