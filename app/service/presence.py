"""Who is at the table: an open stream, or any sign of life in the last 30 s.

The tracker only counts; the room service turns its answer into a
``Presence`` action through the ordinary action path, so presence changes are
persisted, numbered and broadcast like every other change.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class PresenceTracker:
    def __init__(self, grace_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.grace = grace_seconds
        self.clock = clock
        self._streams: dict[str, dict[int, int]] = {}
        self._seen: dict[str, dict[int, float]] = {}

    def connected(self, code: str, pid: int) -> None:
        streams = self._streams.setdefault(code, {})
        streams[pid] = streams.get(pid, 0) + 1
        self.touch(code, pid)

    def disconnected(self, code: str, pid: int) -> None:
        streams = self._streams.get(code, {})
        streams[pid] = streams.get(pid, 1) - 1
        if streams[pid] <= 0:
            del streams[pid]
        if not streams:
            self._streams.pop(code, None)
        self.touch(code, pid)

    def touch(self, code: str, pid: int) -> None:
        """A sign of life: a stream opening or closing, an action, a page load."""
        self._seen.setdefault(code, {})[pid] = self.clock()

    def present(self, code: str) -> frozenset[int]:
        """The pids of ``code`` present now."""
        now = self.clock()
        recent = {pid for pid, seen in self._seen.get(code, {}).items() if now - seen <= self.grace}
        return frozenset(recent | set(self._streams.get(code, {})))

    def signs(self, code: str) -> dict[int, float]:
        """How many seconds ago each pid of ``code`` was last seen (0: streaming now)."""
        now = self.clock()
        ago = {pid: max(0.0, now - seen) for pid, seen in self._seen.get(code, {}).items()}
        for pid in self._streams.get(code, {}):
            ago[pid] = 0.0
        return ago

    def rooms(self) -> set[str]:
        """Rooms whose presence may still change without a new sign of life."""
        return set(self._seen) | set(self._streams)

    def in_use(self, code: str) -> bool:
        """Whether ``code`` is one of ``rooms``."""
        return code in self._seen or code in self._streams

    def prune(self) -> None:
        """Forget rooms where nobody streams and every sign of life is long past."""
        cutoff = self.clock() - 2 * self.grace - 1
        for code in list(self._seen):
            if code not in self._streams and all(t < cutoff for t in self._seen[code].values()):
                del self._seen[code]

    def forget(self, code: str) -> None:
        self._seen.pop(code, None)
        self._streams.pop(code, None)
