"""Per-address token buckets for what costs the server storage: new guests, new tables.

The limits are generous on purpose: a carrier's NAT (CGNAT) can put a whole
town behind one address, and a family at one router is several players. They
stop one machine from filling the database in seconds, not a busy evening.
"""

from __future__ import annotations

import math
import time

from sahrat.server.protocol import ProtocolError

#: Addresses remembered at most; beyond it, buckets that have refilled are forgotten.
MAX_ADDRESSES = 50_000


class AddressBuckets:
    """``burst`` actions at once per address, then one more every ``every`` seconds."""

    def __init__(self, burst: int, every: float) -> None:
        self.burst = float(burst)
        self.every = every
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> float:
        """0 if the action may go ahead (and count it), else the seconds to wait."""
        now = time.monotonic()
        tokens, stamp = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) / self.every)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return (1 - tokens) * self.every
        self._buckets[address] = (tokens - 1, now)
        if len(self._buckets) > MAX_ADDRESSES:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [
            address
            for address, (tokens, stamp) in self._buckets.items()
            if tokens + (now - stamp) / self.every >= self.burst
        ]
        for address in full:
            del self._buckets[address]


class TooMany(ProtocolError):
    """Past an address's limit; ``retry_after`` whole seconds until the next is allowed."""

    def __init__(self, what: str, wait: float) -> None:
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(
            "too_many", f"too many {what} from your address: wait {self.retry_after} s"
        )


def take_or_refuse(buckets: AddressBuckets, address: str, what: str) -> None:
    """Count one of ``what`` for ``address``, or refuse it with :class:`TooMany`."""
    wait = buckets.take(address)
    if wait:
        raise TooMany(what, wait)
