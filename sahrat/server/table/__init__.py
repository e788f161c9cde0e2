"""A table: one actor per table, and the narrow interface it has to the rest of the server.

- :mod:`~sahrat.server.table.actor`: the actor (its inbox, dispatched with ``match``);
- :mod:`~sahrat.server.table.events` and :mod:`~sahrat.server.table.reducer`: what the
  event log holds, and the pure function that applies it to the
  :mod:`~sahrat.server.table.state`;
- :mod:`~sahrat.server.table.seats`, :mod:`~sahrat.server.table.seeding`,
  :mod:`~sahrat.server.table.clock`, :mod:`~sahrat.server.table.chat`: the parts of
  the actor (seats and reconnection; the seeds and the first deal; moves, the clock,
  bots and the autopilot; chat);
- :mod:`~sahrat.server.table.views`: what each seat is sent;
- :mod:`~sahrat.server.table.host`: what a table asks of the server (``TableHost``,
  ``TableLog``), injected.
"""

from sahrat.server.table.actor import TableActor
from sahrat.server.table.host import LogConflict, TableHost, TableLog, Unavailable

__all__ = ["LogConflict", "TableActor", "TableHost", "TableLog", "Unavailable"]
