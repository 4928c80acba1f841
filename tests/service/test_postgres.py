"""The one action path on PostgreSQL: an action costs one round trip, two processes
never both apply against one ``seq``, and whom a process saw is present.

These drive two ``RoomService``s (two server processes, as far as the database can
tell) on one fresh PostgreSQL database. Every statement and every plain query the
driver sends is counted: a prepared statement through SQLAlchemy's cursor events,
BEGIN/ROLLBACK, pings and the saves through asyncpg's query logger. Run with
SOCLOVER_TEST_POSTGRES (``make test-postgres``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import pytest
from sqlalchemy import event, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import asyncpg_dsn, make_async_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.models import ActionRow
from app.db.shared import PostgresCluster
from app.db.store import PostgresStore
from app.rules import actions as act
from app.service.build import build_service
from app.service.errors import StaleAction
from app.service.ratelimit import RateLimiter
from app.service.rooms import RoomService
from app.service.seats import Seat
from tests.kit.server import POSTGRES, drop_database, fresh_database
from tests.service.support import DECK, run_async

if not POSTGRES:
    if os.environ.get("SOCLOVER_REQUIRE_POSTGRES"):
        raise RuntimeError("SOCLOVER_REQUIRE_POSTGRES is set but SOCLOVER_TEST_POSTGRES is not")
    pytest.skip("needs PostgreSQL: set SOCLOVER_TEST_POSTGRES", allow_module_level=True)


def counted(engine: AsyncEngine, sent: list[str]) -> None:
    """Add to ``sent`` what the driver sends over ``engine``'s connections from now on."""

    @event.listens_for(engine.sync_engine, "connect")
    def _logged(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.driver_connection.add_query_logger(lambda q: sent.append(q.query))

    @event.listens_for(engine.sync_engine, "before_cursor_execute")
    def _statement(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement)


def service_on(url: str, engine: AsyncEngine, sent: list[str] | None = None) -> RoomService:
    """A service as a worker of several runs it (our copies may lag behind the database;
    no listener here brings them along); with ``sent``, every statement it sends is
    added there."""

    async def logged(connection: Any) -> None:
        if sent is not None:
            connection.add_query_logger(lambda q: sent.append(q.query))

    if sent is not None:
        counted(engine, sent)
    return build_service(
        PostgresStore(engine, asyncpg_dsn(url), on_connect=logged),
        DECK,
        cluster=PostgresCluster(url, make_sessionmaker(engine), {}),
        chat_limits=RateLimiter(60_000, burst=1_000),  # the races below chat fast
    )


Check = Callable[[RoomService, RoomService, list[str], AsyncEngine], Awaitable[None]]


async def _two_workers(tmp_path: Any, check: Check) -> None:
    url = fresh_database(tmp_path / "unused.sqlite3")
    try:
        await asyncio.to_thread(upgrade, url)
        engines = [make_async_engine(url), make_async_engine(url)]
        sent: list[str] = []
        services = [service_on(url, engines[0], sent), service_on(url, engines[1])]
        try:
            await check(*services, sent, engines[0])
        finally:
            for service, engine in zip(services, engines, strict=True):
                await service.store.close()
                await engine.dispose()
    finally:
        drop_database(url)


def test_an_action_is_one_round_trip(tmp_path: Any) -> None:
    async def check(ours: RoomService, _: RoomService, sent: list[str], __: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        host = Seat(code, 0)
        await ours.act(code, host, act.Settings(decoys=2))  # statements prepared, pool warm
        for decoys in (3, 4, 1):
            sent.clear()
            update = await ours.act(code, host, act.Settings(decoys=decoys))
            assert len(sent) == 1, sent
            assert sent[0].startswith("WITH saved AS (UPDATE room")
            assert (await update.view())["decoys"] == decoys

    run_async(_two_workers(tmp_path, check))


def test_a_worker_behind_the_other_reads_the_room_again_and_loses_nothing(
    tmp_path: Any,
) -> None:
    """Each worker decides on its own copy; the one whose save finds the ``seq`` moved
    on writes nothing, brings its copy along and decides again."""

    async def check(ours: RoomService, other: RoomService, _: list[str], db: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        host = Seat(code, 0)
        await ours.act(code, host, act.Settings(decoys=2))
        await other.load(code)  # the other worker now holds its own copy
        await ours.act(code, host, act.Say("first, on ours"))
        # the other's copy is behind: its save is refused by the database, not merged
        update = await other.act(code, host, act.Say("second, on the other"))
        assert [line.text for line in (await other.load(code)).chat] == [
            "first, on ours",
            "second, on the other",
        ]
        # the rules judge against the stored room: a seq the other had not seen is current
        await other.act(code, host, act.Settings(decoys=3), expect_seq=update.seq)
        with pytest.raises(StaleAction):
            await ours.act(code, host, act.Settings(decoys=4), expect_seq=update.seq)

        async def many(service: RoomService, n: int) -> dict[str, int]:
            """Lines said through one worker: each accepted one with its seq; a save
            that lost the race five times over is refused (409), never merged."""
            said = {}
            for i in range(15):
                with contextlib.suppress(StaleAction):
                    said[f"{n}-{i}"] = (await service.act(code, host, act.Say(f"{n}-{i}"))).seq
            return said

        said = await asyncio.gather(many(ours, 0), many(other, 1))
        accepted = {**said[0], **said[1]}
        assert said[0] and said[1]
        assert len(set(accepted.values())) == len(accepted), "two workers applied at one seq"
        async with db.connect() as conn:
            logged = list(
                (
                    await conn.execute(
                        select(ActionRow.seq).where(ActionRow.room == code).order_by(ActionRow.seq)
                    )
                ).scalars()
            )
        assert logged == list(range(logged[-1] + 1)), "the log has a gap or a repeat"
        room = await ours.load(code)
        assert room.seq == logged[-1]
        lines = {line.text: line for line in room.chat if "-" in line.text}
        assert set(lines) == set(accepted), "a refused line was kept or an accepted one lost"

    run_async(_two_workers(tmp_path, check))


def test_a_worker_follows_the_others_changes_from_their_news_alone(tmp_path: Any) -> None:
    """Each change's ``NOTIFY`` carries its logged actions: a worker following the room
    replays them onto its copy without reading the action log, and its streams get
    every change in order."""

    async def check(ours: RoomService, other: RoomService, sent: list[str], _: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        host = Seat(code, 0)
        await ours.act(code, host, act.Settings(decoys=2))
        await other.load(code)
        followed = await ours.load(code)
        seen = ours.hub.subscribe(code)
        await ours.cluster.start(ours.catch_up, ours.followed, ours.behind)
        try:
            sent.clear()
            for text in ("one", "two", "three"):
                await other.act(code, host, act.Say(text))
            last = (await other.load(code)).seq
            for _ in range(200):
                if ours.in_memory.get(code).seq == last:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.02)
        finally:
            await ours.cluster.stop()
        room = ours.in_memory.get(code)
        assert room is not None and room.seq == last
        assert [line.text for line in room.chat] == ["one", "two", "three"]
        assert room == await ours.store.read(code)
        assert [c.seq for c in seen.pending] == list(range(followed.seq + 1, last + 1))
        assert not [q for q in sent if "action" in q.lower()], sent  # no read of the log

    run_async(_two_workers(tmp_path, check))


def test_a_room_served_elsewhere_is_read_again_when_asked_not_at_every_change(
    tmp_path: Any,
) -> None:
    """A worker holding a copy of a room it neither streams nor has heard from lately
    (its creator's, when a proxy sends each room to one worker) does not replay the
    room's changes as they are announced; asked for the room, it reads it again."""

    async def check(ours: RoomService, other: RoomService, sent: list[str], _: AsyncEngine) -> None:
        elsewhere = (await ours.create("Ada", 1)).code
        here = (await ours.create("Bea", 1)).code
        ours.presence.forget(elsewhere)  # as a minute after its creator went to the other
        held = await ours.load(elsewhere)
        seen = ours.hub.subscribe(here)
        await ours.cluster.start(ours.catch_up, ours.followed, ours.behind)
        try:
            for text in ("one", "two"):
                await other.act(elsewhere, Seat(elsewhere, 0), act.Say(text))
            # Heard in order: once the streamed room's news is in, the other's was heard.
            await other.act(here, Seat(here, 0), act.Say("three"))
            last = (await other.load(here)).seq
            for _ in range(200):
                if ours.in_memory.get(here).seq == last:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.02)
            assert ours.in_memory.get(here).seq == last  # type: ignore[union-attr]
            assert seen.pending[-1].seq == last  # type: ignore[union-attr]
            assert ours.in_memory.get(elsewhere) == held  # not brought along
            room = await ours.load(elsewhere)
        finally:
            await ours.cluster.stop()
        assert [line.text for line in room.chat] == ["one", "two"]
        assert room == await ours.store.read(elsewhere)

    run_async(_two_workers(tmp_path, check))


def test_a_newcomer_is_present_for_every_worker_at_once(tmp_path: Any) -> None:
    """A room made on one worker and joined on it: its players are present for the
    other worker at once, not from the first worker's next sweep of signs of life."""

    async def check(ours: RoomService, other: RoomService, _: list[str], __: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        await ours.join(code, "Bea")
        watcher = await ours.watch(code, "Cy")
        assert (await other.present_in([code]))[code] == {0, 1, watcher.watcher}

    run_async(_two_workers(tmp_path, check))


def test_whom_this_process_saw_lately_is_present_whatever_the_table_holds_yet(
    tmp_path: Any,
) -> None:
    """A host shown away taps Start while a sweep's write of their sign of life is still
    under way: this process saw them, so they are present and act as host."""

    async def check(ours: RoomService, _: RoomService, __: list[str], ___: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        await ours.join(code, "Bea")
        await ours.join(code, "Cy")
        bea, cy = (await ours.load(code)).players[1:]
        await ours.sync_presence(code, frozenset({bea.pid, cy.pid}))  # the host shown away

        seen = ours.cluster.seen

        async def hosts_sign_still_being_written(
            signs: dict[str, dict[int, float]], grace: float
        ) -> None:
            """The others' signs reach the table; the host's is still on its way."""
            await seen(
                {c: {pid: t for pid, t in s.items() if pid != 0} for c, s in signs.items()}, grace
            )

        ours.cluster.seen = hosts_sign_still_being_written  # type: ignore[method-assign]
        ours.presence.touch(code, bea.pid)
        ours.presence.touch(code, cy.pid)
        update = await ours.act(code, Seat(code, 0), act.Start())
        assert (await update.view())["phase"] == "clues"

    run_async(_two_workers(tmp_path, check))


def test_a_connection_the_database_ended_is_not_handed_out_again(tmp_path: Any) -> None:
    """A restart of PostgreSQL ends every connection. One used a moment ago is not
    pinged before its next use (that would cost a round trip an action), but asyncpg
    has heard it end: the pool opens a new one instead of failing the next read, as it
    did when a worker caught up its rooms after the database came back."""

    async def check(ours: RoomService, _: RoomService, __: list[str], db: AsyncEngine) -> None:
        code = (await ours.create("Ada", 1)).code
        async with db.connect() as conn:
            backend = (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one()
        async with db.connect() as conn:  # the same connection, back from the pool
            assert (await conn.execute(text("SELECT pg_backend_pid()"))).scalar_one() == backend
        # ended from another connection, as a restart or an administrator would
        other = await asyncpg.connect(asyncpg_dsn(db.url.render_as_string(hide_password=False)))
        try:
            assert await other.fetchval("SELECT pg_terminate_backend($1)", backend)
        finally:
            await other.close()
        # The end reaches asyncpg: the scenario is a connection ended a moment before its
        # next use, and nothing outside the pool's own connections shows it arrived.
        await asyncio.sleep(0.3)
        assert await ours.store.seq(code) is not None

    run_async(_two_workers(tmp_path, check))
