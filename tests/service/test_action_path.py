"""The one action path under a caller that goes away mid-write (a phone dropping).

These drive ``RoomService`` directly on a real SQLite file, with a writer
thread slowed down so the cancellation lands while the commit is under way.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from sqlmodel import select

from app.db.engine import make_async_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.models import RoomRow
from app.db.writer import SqliteWriter
from app.rules import actions as act
from app.rules.deck import builtin_deck_path, load_deck
from app.service.errors import StaleAction
from app.service.hub import RoomHub
from app.service.locks import RoomLocks
from app.service.presence import PresenceTracker
from app.service.rooms import RoomService, Seat
from tests.service.support import run_async


class SlowWriter(SqliteWriter):
    """Every transaction takes a while, as on a busy disk."""

    delay = 0.0

    def _commit(self, group):  # type: ignore[no-untyped-def]
        time.sleep(self.delay)
        super()._commit(group)


async def _game(tmp_path: Path, check) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    engine = make_async_engine(url)
    writer = SlowWriter(url)
    service = RoomService(
        make_sessionmaker(engine),
        load_deck(builtin_deck_path()),
        RoomHub(),
        RoomLocks(),
        PresenceTracker(30),
        writer=writer,
    )
    try:
        await check(service, writer)
    finally:
        writer.close()
        await engine.dispose()


async def _stored_seq(service: RoomService, code: str) -> int:
    async with service.sessions() as session:
        return (await session.exec(select(RoomRow.seq).where(RoomRow.code == code))).one()


def test_an_action_whose_caller_is_cancelled_mid_write_still_lands_and_the_room_goes_on(
    tmp_path: Path,
) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        room, _ = await service.create("Ada", 1)
        host = Seat(room.code, 0)
        await service.sync_presence(room.code)  # the host shown present: one write per act
        writer.delay = 0.3
        dropped = asyncio.create_task(service.act(room.code, host, act.Settings(decoys=2)))
        await asyncio.sleep(0.1)  # the write is in the writer thread now
        dropped.cancel()
        with pytest.raises(asyncio.CancelledError):
            await dropped
        writer.delay = 0.0
        # The dropped action is on disk and in the room; the next one is not refused as stale.
        after = await service.load(room.code)
        assert after.decoys == 2
        assert after.seq == await _stored_seq(service, room.code)
        again = (
            await service.act(room.code, host, act.Settings(decoys=3), expect_seq=after.seq)
        ).room
        assert again.decoys == 3
        assert again.seq == after.seq + 1 == await _stored_seq(service, room.code)

    run_async(_game(tmp_path, check))


def test_a_copy_behind_the_disk_is_refused_once_then_read_again(tmp_path: Path) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        room, _ = await service.create("Ada", 1)
        host = Seat(room.code, 0)
        behind = await service.load(room.code)
        await service.act(room.code, host, act.Settings(decoys=2))
        service._rooms[room.code] = behind  # as if a write had landed unseen
        with pytest.raises(StaleAction):
            await service.act(room.code, host, act.Settings(decoys=3))
        again = (await service.act(room.code, host, act.Settings(decoys=3))).room
        assert again.decoys == 3
        assert again.seq == await _stored_seq(service, room.code)

    run_async(_game(tmp_path, check))


def test_streams_reconnecting_together_after_a_restart_share_one_read_of_their_room(
    tmp_path: Path,
) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        room, _ = await service.create("Ada", 1)
        service._rooms.clear()  # as after a restart: nothing in memory
        loaded = await asyncio.gather(*(service.load(room.code) for _ in range(200)))
        bests = await asyncio.gather(*(service.best(room.code) for _ in range(200)))
        assert len({id(r) for r in loaded}) == 1
        assert loaded[0].code == room.code
        assert bests == [None] * 200
        assert not service._reading  # nothing left waiting

    run_async(_game(tmp_path, check))
