"""The tables' event logs in the database: the :class:`~sahrat.server.table.TableLog` a
table is given, over :class:`~sahrat.server.store.Store`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from sahrat.server.store import Store
from sahrat.server.table.events import Ended, Event
from sahrat.server.table.host import LogConflict, Unavailable

log = logging.getLogger("sahrat.store")


class StoreLog:
    """Appends go to the store's writer thread, in order; a taken number is a conflict."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def append(self, table_id: str, seq: int, event: Event, at: float) -> None:
        await self._write(table_id, event.KIND, self.store.append, table_id, seq, event.KIND,
                          event.data(), at)  # fmt: skip

    async def finish(
        self, table_id: str, seq: int, event: Ended, at: float, record: dict[str, Any]
    ) -> None:
        await self._write(table_id, "the end", self.store.finish, table_id, seq, event.data(), at,
                          record)  # fmt: skip

    async def _write(self, table_id: str, what: str, call: Callable[..., None], *args: Any) -> None:
        try:
            await self.store.run(call, *args)
        except IntegrityError as error:
            raise LogConflict(table_id) from error
        except Exception as error:
            log.exception("table %s: could not store %s", table_id, what)
            raise Unavailable(table_id) from error

    async def close(self, table_id: str) -> None:
        await self.store.run(self.store.set_status, table_id, "closed")
