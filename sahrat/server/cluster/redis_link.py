"""The connection to Redis, and the one error every cluster call raises when it is gone.

Redis calls are bounded: a socket timeout on every command and no silent retries, so a
missing Redis is a :class:`ClusterUnavailable` within about :data:`TIMEOUT` seconds,
never a hang. Callers decide what to do without it (keep playing the tables they own,
refuse what needs another node).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from sahrat.errors import SahratError

#: Seconds a Redis command (and a connection attempt) may take before it has failed.
TIMEOUT = 1.0


class ClusterUnavailable(SahratError):
    """Redis cannot be reached: what needs the cluster cannot be done now."""


def connect(url: str, timeout: float = TIMEOUT) -> Redis:
    """A client for ``url`` (``redis://host:port/db``) that fails fast rather than waits."""
    client: Redis = Redis.from_url(
        url,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        # A failed command is reported, not retried: the caller's loop retries on its own
        # schedule, and a request waiting on Redis would rather hear "no" now.
        retry=Retry(NoBackoff(), 0),
        health_check_interval=0,
        decode_responses=False,
    )
    return client


@contextlib.asynccontextmanager
async def guard(what: str, timeout: float = TIMEOUT * 2) -> AsyncIterator[None]:
    """Run Redis calls, turning every way they can fail into :class:`ClusterUnavailable`
    (the outer timeout covers a connection pool waiting for a free connection)."""
    try:
        async with asyncio.timeout(timeout):
            yield
    except (RedisError, OSError, TimeoutError) as error:
        raise ClusterUnavailable(
            f"{what}: Redis is unreachable ({error or type(error).__name__})"
        ) from error
