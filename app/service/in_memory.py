"""The rooms this process holds in memory, and one read at a time of each.

On SQLite in one process the copy is the truth: every write goes through
this process. With several processes the copy may lag behind the database;
the replay (``app/service/replay.py``) brings it along.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

from app.rules.state import Room
from app.service.errors import RoomNotFound
from app.service.store import RoomStore

T = TypeVar("T")


class RoomsInMemory:
    """The rooms this process holds, by code (``RoomService.in_memory``)."""

    def __init__(self, store: RoomStore, on_first_read: Callable[[Room], None]) -> None:
        self.store = store
        self.on_first_read = on_first_read
        """Told of a room read from disk that this process did not hold yet."""
        self._rooms: dict[str, Room] = {}
        self._reading: dict[tuple[str, str], asyncio.Future[Any]] = {}

    def get(self, code: str) -> Room | None:
        return self._rooms.get(code)

    def put(self, room: Room) -> None:
        self._rooms[room.code] = room

    def drop(self, code: str) -> None:
        self._rooms.pop(code, None)

    def codes(self) -> set[str]:
        return set(self._rooms)

    def rooms(self) -> list[Room]:
        return list(self._rooms.values())

    async def read(self, code: str) -> Room:
        """The room as stored, read once for everyone asking at the same time."""
        return await self.once(("room", code), lambda: self._read(code))

    async def _read(self, code: str) -> Room:
        room = await self.store.read(code)
        if room is None:
            self.drop(code)
            raise RoomNotFound()
        current = self._rooms.get(code)
        if current is None:
            self.on_first_read(room)
        if current is None or current.seq <= room.seq:
            self._rooms[code] = room
        return self._rooms[code]

    async def once(self, key: tuple[str, str], fetch: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """One database read for everyone asking the same thing at once.

        After a restart every phone of a room reconnects in the same second;
        without this each of their streams read the room and its best game
        itself, and a thousand rooms ran the connection pool dry.
        """
        pending = self._reading.get(key)
        if pending is None:
            pending = self._reading[key] = asyncio.ensure_future(fetch())
            pending.add_done_callback(lambda _: self._reading.pop(key, None))
        result: T = await asyncio.shield(pending)
        return result

    def reading(self) -> bool:
        """Whether a read is under way (tests look for none left waiting)."""
        return bool(self._reading)
