"""The Record of Legends: finished games, a room's best, and whether it is a new record.

A room's best and its record are asked for by every view of the room, so they are
kept in memory until the room's next game finishes. The operator hides a legend from
another process (``soclover legends hide``), and a hidden legend is hidden everywhere,
the room's own best and its record included, within ``KEPT``: once in that time the
server asks the store which legends are hidden, one read for every room, and lets go
of every room's best and record when the answer changed. A room asking the store
itself every ``KEPT`` cost a read at every other move of a busy server
(docs/performance.md, "A room's best read once").
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import cast

from app.rules.scoring import max_score
from app.rules.state import Room
from app.service.clock import Clock, utcnow
from app.service.in_memory import RoomsInMemory
from app.service.room_state import Legend
from app.service.store import LegendRecord, RoomStore

KEPT = timedelta(seconds=10)
"""How often the store is asked which legends are hidden: a legend hidden (or shown
again) by the operator reaches every room's page within this."""

HIDDEN = ("hidden", "")
"""The read of the hidden legends, shared by every view that asks at once."""


class LegendBook:
    def __init__(self, store: RoomStore, in_memory: RoomsInMemory, clock: Clock = utcnow) -> None:
        self.store = store
        self.in_memory = in_memory
        self.clock = clock
        self._best: dict[str, Legend | None] = {}
        self._record: dict[str, bool] = {}
        self._hidden: frozenset[int] | None = None
        self._hidden_read: datetime | None = None
        self._reads = 0
        """Times every room's best and record were let go of: a read that began before
        is not kept."""

    async def listed(
        self,
        *,
        players: int | None = None,
        decoys: int | None = None,
        room: str | None = None,
        limit: int = 20,
        language: str | None = None,
    ) -> list[Legend]:
        """Best score first, hidden legends left out. A room code is the room's only
        secret (it reads the chat and joins the next game), so legends carry one only
        when asked for one room's, which the web layer answers to that room's own
        players alone."""
        rows = await self.store.legends(
            players=players, decoys=decoys, room=room, limit=limit, language=language
        )
        return cast(list[Legend], rows)  # the store's rows, in the shape the API declares

    async def best(self, code: str) -> Legend | None:
        """The room's best game in the Record (hidden ones are in no list)."""
        await self._hidden_now()
        if code in self._best:
            return self._best[code]
        reads = self._reads
        rows = await self.in_memory.once(("best", code), lambda: self.listed(room=code, limit=1))
        best = rows[0] if rows else None
        if reads == self._reads:
            self._best[code] = best
        return best

    async def is_record(self, code: str) -> bool:
        """Whether the room's latest game beat every earlier one. A hidden game counts
        for nothing: hidden, the latest is no record, and an earlier one sets none."""
        await self._hidden_now()
        if code in self._record:
            return self._record[code]
        reads = self._reads
        scores = await self.in_memory.once(("record", code), lambda: self.store.scores(code))
        latest, earlier = (scores[0], scores[1:]) if scores else (None, [])
        record = latest is not None and all(latest > s for s in earlier if s is not None)
        if reads == self._reads:
            self._record[code] = record
        return record

    async def _hidden_now(self) -> None:
        """Every room's best and record let go of when the legends hidden are no longer
        those they were read with; the store asked at most once in ``KEPT``."""
        now = self.clock()
        if self._hidden_read is not None and now - self._hidden_read < KEPT:
            return
        self._hidden_read = now
        hidden = await self.in_memory.once(HIDDEN, self.store.hidden_legends)
        if hidden != self._hidden:
            self._best.clear()
            self._record.clear()
            self._reads += 1
            self._hidden = hidden

    def forget(self, code: str) -> None:
        """A game of ``code`` finished, or the room is gone: ask the store again."""
        self._best.pop(code, None)
        self._record.pop(code, None)

    @staticmethod
    def record(room: Room, now: datetime) -> LegendRecord:
        """The legend of a game that just finished in ``room``."""
        return LegendRecord(
            room=room.code,
            finished_at=now,
            # Who finished the game, and the clovers it played (a drop plays one fewer).
            players=[p.name for p in room.players if not p.out],
            player_count=sum(not p.out for p in room.players),
            decoys=room.decoys,
            score=room.total(),
            max=max_score(room.clovers_played()),
            language=room.language,
        )
