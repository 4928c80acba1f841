"""A room store in memory: the storage port's promises, kept with no database.

For tests that run the whole service fast (``tests/service``), and for whoever
wants to read what the port asks of a store in a few lines. It keeps what the SQL
stores keep (``app/db/store.py``), as they keep it: a room saved only over the
``seq`` it was read at, a room opened only while its code is nobody's, the action
log, the seat tokens and the Record of Legends, all of a save or none of it.
What it gives back is what a database gives: a room read is a new one, data is
as JSON reads it back. ``tests/service/test_store_contract.py`` holds it, SQLite
and PostgreSQL to the same promises.

Nothing survives the process, and nothing is shared with another: it is no store
for a server.
"""

from __future__ import annotations

import asyncio
import json
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import count

from app.jsontext import to_text
from app.rules.codec import room_from_data, room_to_data
from app.rules.state import UNOPENED, Room
from app.service.clock import iso
from app.service.errors import StaleAction
from app.service.store import (
    ActionRecord,
    CodeTaken,
    Data,
    LegendRecord,
    Logged,
    Record,
    SeatRecord,
)


def _as_stored(data: Data) -> Data:
    """``data`` as a JSON column gives it back: lists for tuples, copies, never the
    caller's own objects."""
    stored: Data = json.loads(to_text(data))
    return stored


@dataclass
class _Room:
    seq: int
    state: Data
    updated_at: datetime
    log: list[tuple[Logged, datetime]] = field(default_factory=list)
    """The action log, in ``seq`` order."""


@dataclass(frozen=True)
class _Seat:
    room: str
    pid: int
    device: str


@dataclass(frozen=True)
class _Legend:
    id: int
    record: LegendRecord


class MemoryRoomStore:
    """``store.RoomStore`` in memory: one process, nothing kept once it ends.

    Each call gives way to the event loop once before it does anything (as a
    round trip to a database would); what it then does, it does at once, so a save
    is checked and written with nothing in between.
    """

    def __init__(self) -> None:
        self._rooms: dict[str, _Room] = {}
        self._seats: dict[str, _Seat] = {}
        self._legends: list[_Legend] = []
        self._ids = count(1)

    async def save(self, old_seq: int, room: Room, records: Sequence[Record], at: datetime) -> None:
        await asyncio.sleep(0)
        stored = self._rooms.get(room.code)
        if old_seq == UNOPENED:
            if stored is not None:
                raise CodeTaken()
        elif stored is None or stored.seq != old_seq:
            raise StaleAction()
        self._check(room.code, records)
        if stored is None:
            stored = self._rooms[room.code] = _Room(room.seq, {}, at)
        stored.seq, stored.state, stored.updated_at = room.seq, _as_stored(room_to_data(room)), at
        for record in records:
            self._insert(record)

    def _check(self, code: str, records: Sequence[Record]) -> None:
        """What a database's constraints would refuse, refused before anything is written:
        a record of a room that is not there, a ``seq`` logged twice, a token given twice."""
        logged: set[tuple[str, int]] = set()
        tokens: set[str] = set()
        for record in records:
            if isinstance(record, LegendRecord):
                continue  # a legend stays when its room goes: it points at none
            if record.room != code and record.room not in self._rooms:
                raise ValueError(f"no room {record.room} to save a record of")
            if isinstance(record, ActionRecord):
                key = (record.room, record.seq)
                if key in logged or record.seq in {e.seq for e in self._log(record.room)}:
                    raise ValueError(f"seq {record.seq} of {record.room} is logged already")
                logged.add(key)
            elif record.token_hash in self._seats or record.token_hash in tokens:
                raise ValueError("that seat token is given already")
            else:
                tokens.add(record.token_hash)

    def _insert(self, record: Record) -> None:
        if isinstance(record, ActionRecord):
            state = None if record.state is None else _as_stored(record.state)
            entry = Logged(record.seq, record.seat, _as_stored(record.action), state, record.player)
            insort(self._rooms[record.room].log, (entry, record.at), key=lambda e: e[0].seq)
        elif isinstance(record, SeatRecord):
            self._seats[record.token_hash] = _Seat(record.room, record.pid, record.device)
        else:
            self._legends.append(_Legend(next(self._ids), record))

    async def read(self, code: str) -> Room | None:
        await asyncio.sleep(0)
        stored = self._rooms.get(code)
        return None if stored is None else room_from_data(stored.state)

    async def seq(self, code: str) -> int | None:
        await asyncio.sleep(0)
        stored = self._rooms.get(code)
        return None if stored is None else stored.seq

    async def logged(self, code: str, after: int, upto: int) -> list[Logged]:
        await asyncio.sleep(0)
        return [entry for entry in self._log(code) if after < entry.seq <= upto]

    async def game_log(self, code: str, upto: int) -> list[Logged]:
        await asyncio.sleep(0)
        log = [entry for entry in self._log(code) if entry.seq <= upto]
        starts = [i for i, entry in enumerate(log) if entry.state is not None]
        return log[starts[-1] :] if starts else []

    def _log(self, code: str) -> list[Logged]:
        stored = self._rooms.get(code)
        return [] if stored is None else [entry for entry, _ in stored.log]

    async def seat(self, token_hash: str) -> tuple[str, int, str] | None:
        await asyncio.sleep(0)
        found = self._seats.get(token_hash)
        return None if found is None else (found.room, found.pid, found.device)

    async def seats(self, code: str) -> list[tuple[str, int, str]]:
        await asyncio.sleep(0)
        return [(h, s.pid, s.device) for h, s in self._seats.items() if s.room == code]

    async def legends(
        self,
        *,
        players: int | None,
        decoys: int | None,
        room: str | None,
        limit: int,
        language: str | None = None,
    ) -> list[Data]:
        await asyncio.sleep(0)
        found = [
            legend
            for legend in self._legends
            if (players is None or legend.record.player_count == players)
            and (decoys is None or legend.record.decoys == decoys)
            and (room is None or legend.record.room == room)
            and (language is None or legend.record.language == language)
        ]
        found.sort(key=lambda g: (-g.record.score, g.record.finished_at, g.id))
        return [
            {
                "id": legend.id,
                **({"room": legend.record.room} if room is not None else {}),
                "finished_at": iso(legend.record.finished_at),
                "players": list(legend.record.players),
                "player_count": legend.record.player_count,
                "decoys": legend.record.decoys,
                "score": legend.record.score,
                "max": legend.record.max,
                "language": legend.record.language,
            }
            for legend in found[:limit]
        ]

    async def scores(self, code: str) -> list[int | None]:
        await asyncio.sleep(0)
        found = [legend for legend in self._legends if legend.record.room == code]
        found.sort(key=lambda g: (g.record.finished_at, g.id), reverse=True)
        return [legend.record.score for legend in found]

    async def hidden_legends(self) -> frozenset[int]:
        await asyncio.sleep(0)
        return frozenset()  # nobody hides a legend kept in memory

    async def expire(self, idle_since: datetime) -> list[str]:
        await asyncio.sleep(0)
        codes = [code for code, room in self._rooms.items() if room.updated_at < idle_since]
        for code in codes:
            del self._rooms[code]  # its log goes with it, as its seats do; its legends stay
        self._seats = {h: s for h, s in self._seats.items() if s.room not in codes}
        return codes

    async def close(self) -> None:
        """Nothing to close."""
