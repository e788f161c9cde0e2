"""Cluster mode's part of ``/readyz``: Redis answers, and the leases are being renewed."""

from __future__ import annotations

import inspect

from redis.asyncio import Redis

from sahrat.server.cluster.leases import Leases
from sahrat.server.cluster.redis_link import ClusterUnavailable, guard
from sahrat.server.operations import Check


def cluster_checks(redis: Redis, leases: Leases) -> list[Check]:
    """Checks for :func:`sahrat.server.operations.operations_routes`."""

    async def redis_answers() -> str | None:
        try:
            async with guard("readiness"):
                # redis-py types ping() for its sync and async clients at once.
                answer = redis.ping()
                if inspect.isawaitable(answer):
                    await answer
        except ClusterUnavailable as error:
            return str(error)
        return None

    async def leases_renewing() -> str | None:
        return leases.problem()

    return [redis_answers, leases_renewing]
