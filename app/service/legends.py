"""The Record of Legends: finished games, a room's best, and whether it is a new record.

A room's best and its record are asked for by every view of the room, so they are
kept in memory, until the room's next game finishes or for ``KEPT`` at most: the
operator hides a legend from another process (``soclover legends hide``), and a
hidden legend is hidden everywhere, the room's own best and its record included,
within those few seconds.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TypeVar, cast

from app.rules.scoring import max_score
from app.rules.state import Room
from app.service.clock import Clock, utcnow
from app.service.in_memory import RoomsInMemory
from app.service.room_state import Legend
from app.service.store import LegendRecord, RoomStore

T = TypeVar("T")


KEPT = timedelta(seconds=10)
"""How long a room's best and record are kept before the store is asked again: a legend
hidden by the operator leaves the room's page within this, and a busy room asks the
store once in this time, not at every move."""


class LegendBook:
    def __init__(self, store: RoomStore, in_memory: RoomsInMemory, clock: Clock = utcnow) -> None:
        self.store = store
        self.in_memory = in_memory
        self.clock = clock
        self._best: dict[str, tuple[datetime, Legend | None]] = {}
        self._record: dict[str, tuple[datetime, bool]] = {}

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
        kept = self._fresh(self._best.get(code))
        if kept is None:
            rows = await self.in_memory.once(
                ("best", code), lambda: self.listed(room=code, limit=1)
            )
            kept = self._best[code] = (self.clock(), rows[0] if rows else None)
        return kept[1]

    async def is_record(self, code: str) -> bool:
        """Whether the room's latest game beat every earlier one. A hidden game counts
        for nothing: hidden, the latest is no record, and an earlier one sets none."""
        kept = self._fresh(self._record.get(code))
        if kept is None:
            scores = await self.in_memory.once(("record", code), lambda: self.store.scores(code))
            latest, earlier = (scores[0], scores[1:]) if scores else (None, [])
            record = latest is not None and all(latest > s for s in earlier if s is not None)
            kept = self._record[code] = (self.clock(), record)
        return kept[1]

    def _fresh(self, kept: tuple[datetime, T] | None) -> tuple[datetime, T] | None:
        """``kept`` while it is younger than ``KEPT``, else ``None``: ask the store again."""
        if kept is None or self.clock() - kept[0] >= KEPT:
            return None
        return kept

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
