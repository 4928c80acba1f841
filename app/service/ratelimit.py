"""Per-client rate limits for what brute force would lean on: joining, creating."""

from __future__ import annotations

import time
from collections.abc import Callable


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
