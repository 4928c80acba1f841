"""What several server processes share: changes, presence and rate limits.

One process on SQLite needs none of this: ``LocalCluster`` keeps presence and
rate limits in memory and hears of no changes but its own. On PostgreSQL,
``app/db/shared.py`` lets any number of processes serve the same rooms.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from app.service.ratelimit import RateLimiter
from app.service.store import Logged

CatchUp = Callable[[str, int | None, Sequence[Logged] | None], Awaitable[None]]
"""Told that a room changed elsewhere, up to a seq (``None``: check it), with the
actions logged up to it when the news carried them (``None``: read the log)."""
Behind = Callable[[str, int], bool]
"""Whether this process holds a copy of a room that is behind a seq: news worth reading."""


class Cluster(Protocol):
    shared: bool

    async def start(
        self, catch_up: CatchUp, followed: Callable[[], set[str]], behind: Behind
    ) -> None: ...
    async def stop(self) -> None: ...
    async def allow(self, kind: str, key: str) -> bool: ...
    async def seen(self, signs: dict[str, dict[int, float]], grace: float) -> None: ...
    async def present(self, codes: list[str], grace: float) -> dict[str, frozenset[int]]: ...


class LocalCluster:
    """One process: nothing to share."""

    shared = False

    def __init__(self, limits: dict[str, int]) -> None:
        self._limiters = {kind: RateLimiter(rate) for kind, rate in limits.items()}

    async def start(
        self, catch_up: CatchUp, followed: Callable[[], set[str]], behind: Behind
    ) -> None:
        return None

    async def stop(self) -> None:
        return None

    async def allow(self, kind: str, key: str) -> bool:
        return self._limiters[kind].allow(key)

    async def seen(self, signs: dict[str, dict[int, float]], grace: float) -> None:
        return None

    async def present(self, codes: list[str], grace: float) -> dict[str, frozenset[int]]:
        raise NotImplementedError("one process keeps presence in its own tracker")
