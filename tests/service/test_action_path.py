"""The one action path under a caller that goes away mid-write (a phone dropping).

These drive ``RoomService`` directly on a real SQLite file, with a writer
thread held at its commit so the cancellation lands while the commit is under way.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.engine import make_async_engine
from app.db.models import RoomRow
from app.db.store import SqliteStore
from app.db.writer import SqliteWriter
from app.rules import actions as act
from app.service.build import build_service
from app.service.cluster import Cluster, LocalCluster
from app.service.errors import RoomNotFound
from app.service.rooms import RoomService
from app.service.seats import Seat
from tests.kit import wait_for
from tests.service.support import run_async, sqlite_service


class SlowWriter(SqliteWriter):
    """A writer whose transactions can be held at the commit, as on a busy disk."""

    def __init__(self, database_url: str) -> None:
        self.holding = False
        self.under_way = threading.Event()
        """Set once a held transaction has reached the writer thread."""
        self.go_on = threading.Event()
        super().__init__(database_url)

    def _commit(self, db, group):  # type: ignore[no-untyped-def]
        if self.holding:
            self.under_way.set()
            self.go_on.wait(10)
        super()._commit(db, group)


async def _game(tmp_path: Path, check, cluster: Cluster | None = None) -> None:  # type: ignore[no-untyped-def]
    async with sqlite_service(tmp_path, cluster, writer_type=SlowWriter) as service:
        assert isinstance(service.store, SqliteStore)
        await check(service, service.store.writer)


async def _stored_seq(service: RoomService, code: str) -> int:
    assert isinstance(service.store, SqliteStore)
    async with service.store.engine.connect() as db:
        seq: int = (await db.execute(select(RoomRow.seq).where(RoomRow.code == code))).scalar_one()
        return seq


def test_an_action_whose_caller_is_cancelled_mid_write_still_lands_and_the_room_goes_on(
    tmp_path: Path,
) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        room = await service.load((await service.create("Ada", 1)).code)
        host = Seat(room.code, 0)
        await service.sync_presence(room.code)  # the host shown present: one write per act
        writer.holding = True
        dropped = asyncio.create_task(service.act(room.code, host, act.Settings(decoys=2)))
        await asyncio.to_thread(
            wait_for, writer.under_way.is_set, what="the write in the writer thread"
        )
        dropped.cancel()
        writer.holding = False
        writer.go_on.set()
        with pytest.raises(asyncio.CancelledError):
            await dropped
        # The dropped action is on disk and in the room; the next one is not refused as stale.
        after = await service.load(room.code)
        assert after.decoys == 2
        assert after.seq == await _stored_seq(service, room.code)
        again = await service.act(room.code, host, act.Settings(decoys=3), expect_seq=after.seq)
        assert (await again.view())["decoys"] == 3
        assert again.seq == after.seq + 1 == await _stored_seq(service, room.code)

    run_async(_game(tmp_path, check))


def test_a_copy_behind_the_disk_is_brought_along_and_the_action_decided_again(
    tmp_path: Path,
) -> None:
    """As with two processes on one database: ours saves over a room the other moved on."""

    async def check(service: RoomService, writer: SlowWriter) -> None:
        code = (await service.create("Ada", 1)).code
        host = Seat(code, 0)
        await service.act(code, host, act.Settings(decoys=2))
        behind = await service.load(code)
        async with another_process(service, tmp_path) as other:
            await other.act(code, host, act.Say("from the other process"))
        seen = service.hub.subscribe(code)
        again = await service.act(code, host, act.Settings(decoys=3))
        # the change we missed is replayed from the log for our streams, then ours applies
        published = [c.seq for c in list(seen.pending)]
        assert published == [behind.seq + 1, behind.seq + 2]
        assert (await again.view())["decoys"] == 3
        assert [line["text"] for line in (await again.view())["chat"]] == []  # only what ours added
        assert again.seq == behind.seq + 2 == await _stored_seq(service, code)
        room = await service.load(code)
        assert room.decoys == 3 and room.chat[-1].text == "from the other process"

    run_async(_game(tmp_path, check))


def test_a_room_let_go_of_while_it_is_brought_along_is_read_from_disk(tmp_path: Path) -> None:
    """Housekeeping may drop our copy while another process's change is replayed into
    it: the room is still there, so whoever asked for it gets it (not a 404)."""

    async def check(service: RoomService, writer: SlowWriter) -> None:
        code = (await service.create("Ada", 1)).code
        await service.act(code, Seat(code, 0), act.Say("still here"))
        catch_up = service.replay.catch_up

        async def let_go_meanwhile(code: str, seq: int | None = None) -> None:
            await catch_up(code, seq)
            service.in_memory.drop(code)

        service.replay.catch_up = let_go_meanwhile  # type: ignore[method-assign]
        room = await service.load(code)
        assert room.chat[-1].text == "still here"
        await service.store.expire(service.clock() + timedelta(seconds=1))
        service.in_memory.put(room)
        with pytest.raises(RoomNotFound):
            await service.load(code)  # deleted meanwhile: that one is gone

    run_async(_game(tmp_path, check, SharedCluster({})))


class SharedCluster(LocalCluster):
    """As on PostgreSQL: other processes may change our rooms (and have seen nobody)."""

    shared = True

    async def present(self, codes: list[str], grace: float) -> dict[str, frozenset[int]]:
        return {}


def service_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


@contextlib.asynccontextmanager
async def another_process(service: RoomService, tmp_path: Path) -> AsyncIterator[RoomService]:
    """A second service on the same database file, as another server process."""
    writer = SqliteWriter(service_url(tmp_path))
    engine = make_async_engine(service_url(tmp_path))
    try:
        yield build_service(SqliteStore(engine, writer), service.deck)
    finally:
        writer.close()
        await engine.dispose()


def test_streams_reconnecting_together_after_a_restart_share_one_read_of_their_room(
    tmp_path: Path,
) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        room = await service.load((await service.create("Ada", 1)).code)
        service.in_memory.drop(room.code)  # as after a restart: nothing in memory
        assert service.in_memory.get(room.code) is None
        loaded = await asyncio.gather(*(service.load(room.code) for _ in range(200)))
        assert service.in_memory.get(room.code) is loaded[0]  # read back, and held again
        bests = await asyncio.gather(*(service.legends.best(room.code) for _ in range(200)))
        assert len({id(r) for r in loaded}) == 1
        assert loaded[0].code == room.code
        assert bests == [None] * 200
        assert not service.in_memory.reading()  # nothing left waiting

    run_async(_game(tmp_path, check))


def test_a_host_shown_away_in_a_room_let_go_of_from_memory_acts_as_host_on_return(
    tmp_path: Path,
) -> None:
    """The host's tap is a sign of life: it counts even when the room was read back
    from disk showing them away (their first request after a long pause)."""

    async def check(service: RoomService, writer: SlowWriter) -> None:
        code = (await service.create("Ada", 1)).code
        await service.join(code, "Bea")
        await service.join(code, "Cy")
        bea, cy = (await service.load(code)).players[1:]
        await service.sync_presence(code, frozenset({bea.pid, cy.pid}))  # the host away
        service.in_memory.drop(code)  # and the room let go of by housekeeping
        update = await service.act(code, Seat(code, 0), act.Start())
        assert (await update.view())["phase"] == "clues"

    run_async(_game(tmp_path, check))
