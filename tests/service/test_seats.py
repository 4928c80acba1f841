"""Seat tokens as a second process meets them: every seat of a room read at once.

With several workers, a player's stream and actions land on any of them, and each
worker finds out whom a token stands for by reading the database. The first token of
a room a worker meets reads every seat of that room, so the room's other players cost
it no read at all; a token given since, or one that stands for nothing, is one row
asked for, however many seats the room has.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

from app.db.engine import make_async_engine
from app.db.migrate import upgrade
from app.db.store import SqliteStore
from app.db.writer import SqliteWriter
from app.service.build import build_service
from app.service.rooms import RoomService
from app.service.seats import SeatBook
from tests.service.support import DECK, run_async


class CountingStore(SqliteStore):
    """The SQLite store, counting its reads of seat tokens."""

    reads: Counter[str]

    async def seat(self, token_hash: str) -> tuple[str, int, str] | None:
        self.reads["seat"] += 1
        return await super().seat(token_hash)

    async def seats(self, code: str) -> list[tuple[str, int, str]]:
        self.reads["seats"] += 1
        return await super().seats(code)


Check = Callable[[RoomService, SeatBook, Counter[str]], Awaitable[None]]


async def _two_processes(tmp_path: Path, check: Check) -> None:
    """Two processes on one database: a service seats the players, and the seat book
    of another meets their tokens (its reads counted)."""
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    engine = make_async_engine(url)
    writer = SqliteWriter(url)
    counting = CountingStore(engine, writer)
    counting.reads = Counter()
    first = build_service(SqliteStore(engine, writer), DECK)
    second = build_service(counting, DECK)
    try:
        await check(first, second.seats, counting.reads)
    finally:
        writer.close()
        await engine.dispose()


def test_the_first_token_of_a_room_reads_every_seat_of_it(tmp_path: Path) -> None:
    async def check(first: RoomService, second: SeatBook, reads: Counter[str]) -> None:
        host = await first.create("Ada", 1)
        seated = [host] + [await first.join(host.code, name) for name in ("Bea", "Cy", "Dot")]
        found = [await second.token(host.code, s.token) for s in seated]
        assert [seat.pid if seat else None for seat in found] == [0, 1, 2, 3]
        assert reads == {"seats": 1}  # the room's four seats, in one read

        late = await first.join(host.code, "Eve")  # given after that read
        seat = await second.token(host.code, late.token)
        assert seat is not None and seat.pid == 4
        assert reads == {"seats": 1, "seat": 1}
        assert await second.token(host.code, late.token) == seat
        assert reads == {"seats": 1, "seat": 1}

        # A token that stands for nothing: one row asked for each time, never the room.
        for _ in range(3):
            assert await second.token(host.code, "x" * 32) is None
        assert reads == {"seats": 1, "seat": 4}

    run_async(_two_processes(tmp_path, check))


def test_a_token_stands_for_its_own_room_only(tmp_path: Path) -> None:
    async def check(first: RoomService, second: SeatBook, reads: Counter[str]) -> None:
        one = await first.create("Ada", 1)
        other = await first.create("Bea", 1)
        assert await second.token(other.code, one.token) is None
        assert await second.token(one.code, other.token) is None
        seat = await second.token(one.code, one.token)
        assert seat is not None and seat.code == one.code
        # A code that names no room is not remembered as read: each try reads again.
        for _ in range(2):
            assert await second.token("ZZZZZ", "x" * 32) is None
        assert reads["seats"] == 3

    run_async(_two_processes(tmp_path, check))
