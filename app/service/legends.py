"""The Record of Legends: finished games, a room's best, and whether it is a new record.

A room's best and its record are asked for by every view of the room, so
they are kept in memory until the room's next game finishes.
"""

from __future__ import annotations

from datetime import datetime
from typing import cast

from app.rules.scoring import max_score
from app.rules.state import Room
from app.service.in_memory import RoomsInMemory
from app.service.room_state import Legend
from app.service.store import LegendRecord, RoomStore


class LegendBook:
    def __init__(self, store: RoomStore, in_memory: RoomsInMemory) -> None:
        self.store = store
        self.in_memory = in_memory
        self._best: dict[str, Legend | None] = {}
        self._record: dict[str, bool] = {}

    async def listed(
        self,
        *,
        players: int | None = None,
        decoys: int | None = None,
        room: str | None = None,
        limit: int = 20,
        language: str | None = None,
    ) -> list[Legend]:
        """Best score first. A room code is the room's only secret (it reads the chat
        and joins the next game), so legends carry one only when asked for one room's,
        which the web layer answers to that room's own players alone."""
        rows = await self.store.legends(
            players=players, decoys=decoys, room=room, limit=limit, language=language
        )
        return cast(list[Legend], rows)  # the store's rows, in the shape the API declares

    async def best(self, code: str) -> Legend | None:
        if code not in self._best:
            rows = await self.in_memory.once(
                ("best", code), lambda: self.listed(room=code, limit=1)
            )
            self._best[code] = rows[0] if rows else None
        return self._best[code]

    async def is_record(self, code: str) -> bool:
        """Whether the room's latest game beat every earlier one."""
        if code not in self._record:
            scores = await self.in_memory.once(("record", code), lambda: self.store.scores(code))
            self._record[code] = bool(scores) and all(scores[0] > s for s in scores[1:])
        return self._record[code]

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
