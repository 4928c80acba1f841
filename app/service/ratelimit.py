"""Per-client rate limits for what brute force would lean on: joining, creating, reading
a room by its code; and what counts as one client for them (``address_key``)."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

IPV6_PREFIX = 64
"""The IPv6 network one client gets: a home, a phone's connection, a rented server each
get a /64 at least, and pick any address in it at will."""


def address_key(host: str) -> str:
    """What the per-address limits count a client address as (lookups, joins, rooms
    created, seat requests, watchers): an IPv4 address is itself; an IPv6 address counts
    as its /64, since whoever has one address of a /64 has all 2^64 of them, and a limit
    per address would give them as many budgets; an IPv4-mapped IPv6 address
    (``::ffff:203.0.113.9``, as a dual-stack socket reports an IPv4 client) counts as
    its IPv4 address. Anything that is no address (a Unix socket's, none) stays as it
    is: one key, shared by all who come that way."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv4Address):
        return str(address)
    if address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    network = ipaddress.IPv6Network((int(address), IPV6_PREFIX), strict=False)
    return str(network)


class RateLimiter:
    """A token bucket per key: ``per_minute`` on average, bursts up to ``burst``
    (by default as many as a minute allows)."""

    def __init__(
        self,
        per_minute: int,
        clock: Callable[[], float] = time.monotonic,
        *,
        burst: int | None = None,
    ) -> None:
        self.capacity = float(per_minute if burst is None else burst)
        self.refill = per_minute / 60.0
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, last = self._buckets.get(key, (self.capacity, now))
        tokens = min(self.capacity, tokens + (now - last) * self.refill)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > 10_000:
            self._prune(now)
        return True

    def _prune(self, now: float) -> None:
        full = [
            k
            for k, (t, last) in self._buckets.items()
            if t + (now - last) * self.refill >= self.capacity
        ]
        for key in full:
            del self._buckets[key]
