"""The server's metrics, for ``GET /metrics`` (the Prometheus text format).

Counters are module-level objects the code that counts imports and increments
(``metrics.MOVES.inc()``); gauges read their value when scraped, from functions the
application binds (:func:`bind`), so counting a table or a socket costs nothing on the
hot path.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.exposition import CONTENT_TYPE_LATEST

# A counter's creation time as a series of its own doubles what a scrape carries for
# nothing a dashboard here uses.
disable_created_metrics()  # type: ignore[no-untyped-call]  # untyped upstream

#: The server's own registry: what ``/metrics`` shows, and nothing another library in the
#: process registered by default.
REGISTRY = CollectorRegistry(auto_describe=True)

MOVES = Counter("sahrat_moves", "Moves accepted by this node's tables.", registry=REGISTRY)
LEASE_RENEWALS = Counter(
    "sahrat_lease_renewals", "Table leases renewed (confirmed by Redis).", registry=REGISTRY
)
LEASE_LOSSES = Counter(
    "sahrat_lease_losses", "Table leases found to belong to another node.", registry=REGISTRY
)
FAILOVERS = Counter(
    "sahrat_failovers", "Tables taken over from a node that stopped renewing.", registry=REGISTRY
)
TABLES = Gauge("sahrat_tables", "Live tables on this node.", registry=REGISTRY)
SOCKETS = Gauge("sahrat_sockets", "Open WebSocket connections on this node.", registry=REGISTRY)

#: The Content-Type of :func:`exposition`.
CONTENT_TYPE = CONTENT_TYPE_LATEST


def bind(tables: Callable[[], float], sockets: Callable[[], float]) -> None:
    """Where the gauges read from (the newest server in the process wins, which is the
    only one outside of tests)."""
    TABLES.set_function(tables)
    SOCKETS.set_function(sockets)


def exposition() -> bytes:
    """Every metric, in the Prometheus text format."""
    return generate_latest(REGISTRY)
