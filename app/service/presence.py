"""Who is at the table: an open stream, or any sign of life in the last 30 s.

The tracker only counts; ``PresenceReports`` turns its answer into a
``Presence`` action through the ordinary action path, so presence changes are
persisted, numbered and broadcast like every other change.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from app.rules.actions import Action, Presence
from app.rules.state import Room
from app.service.cluster import Cluster
from app.service.errors import RoomNotFound
from app.service.in_memory import RoomsInMemory

log = logging.getLogger(__name__)


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


class PresenceReports:
    """Presence as the table shows it: the tracker's answer (and, with several
    processes, the others') reported to a room as a ``Presence`` action, through
    ``apply``, the one action path."""

    def __init__(
        self,
        tracker: PresenceTracker,
        cluster: Cluster,
        in_memory: RoomsInMemory,
        apply: Callable[..., Awaitable[Room]],
    ) -> None:
        self.tracker = tracker
        self.cluster = cluster
        self.in_memory = in_memory
        self.apply = apply

    async def arrived(self, code: str, pid: int) -> None:
        """A first sign of life of a newcomer (a room's creator, a new seat or watcher),
        told to the other processes at once rather than at this one's next sweep: in
        between, another process serving the room would see them away (a proxy sends the
        room's next requests to the server of its own), and the host's controls would
        pass to someone else for a few seconds."""
        self.tracker.touch(code, pid)
        if self.cluster.shared:
            try:
                await self.cluster.seen({code: self.tracker.signs(code)}, self.tracker.grace)
            except Exception:  # the seat is taken and saved: the next sweep tells the rest
                log.warning("newcomer to %s not told to the other processes yet", code)

    async def sync(self, code: str, present: frozenset[int] | None = None) -> None:
        """Report who is present to the room (pids in ``present``), if that changed.

        Without ``present``: what this process sees, or with several processes, what
        any of them has seen lately.
        """
        if present is None:
            present = (await self.present_in([code])).get(code, frozenset())

        def presence_for(room: Room) -> Action | None:
            # Whom this process saw since ``present`` was read is here too (a sweep reads
            # every room's at once, then goes through the rooms): a player who joined
            # meanwhile must not be shown away until the next sweep, the host's controls
            # passing on between; a watcher would lose their place to the next.
            seen = present | self.tracker.present(code)
            seats = frozenset(s for s, p in enumerate(room.players) if p.pid in seen or p.bot)
            shown = frozenset(s for s, p in enumerate(room.players) if p.present)
            watching = frozenset(w.pid for w in room.watchers if w.pid in seen)
            watched = frozenset(w.pid for w in room.watchers if w.present)
            if seats == shown and watching == watched:
                return None
            return Presence(seats, watching)

        cached = self.in_memory.get(code)
        if cached is not None and presence_for(cached) is None:
            return  # nothing changed: no transaction needed
        try:
            await self.apply(code, None, presence_for)
        except RoomNotFound:
            self.tracker.forget(code)

    async def present_in(self, codes: list[str]) -> dict[str, frozenset[int]]:
        """Who is present in each room: as this process sees it, or any process lately."""
        tracker = self.tracker
        if not self.cluster.shared:
            return {code: tracker.present(code) for code in codes}
        await self.cluster.seen({code: tracker.signs(code) for code in codes}, tracker.grace)
        shared = await self.cluster.present(codes, tracker.grace)
        # Whom this process saw lately is present, whatever the table has caught up with.
        return {code: shared.get(code, frozenset()) | tracker.present(code) for code in codes}
