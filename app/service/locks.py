"""Per-room serialization. One process: an asyncio lock per room.

Kept behind this small interface so a multi-process deployment can swap in a
database lock without touching the action path.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class RoomLocks:
    """One lock per room code; a lock nobody holds or waits for is dropped."""

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._users: dict[str, int] = {}

    @asynccontextmanager
    async def hold(self, code: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(code, asyncio.Lock())
        self._users[code] = self._users.get(code, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[code] -= 1
            if self._users[code] == 0:
                del self._users[code]
                del self._locks[code]
