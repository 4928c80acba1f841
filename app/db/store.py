"""The room store on SQL: every statement the room service needs, for SQLite and PostgreSQL.

Reads go through the async engine on both. Writes differ only in how they
reach the database: on SQLite through its one writer thread
(``app/db/writer.py``), which commits queued writes together; on PostgreSQL
in one autocommitted statement that also calls ``pg_notify``
(``app/db/announce.py``), so other processes hear of a change exactly when it is
committed. Both write a room only ``WHERE seq`` is still the one it was read at:
if another process got there first, nothing is written.

Statements are SQLAlchemy Core, built once: through the ORM the same write
costs several times as much Python, more than the SQLite commit itself
(docs/performance.md, "SQLite writes: one writer thread, grouped commits").
The hot writes go further and reach the driver
as SQL text: SQLite's in ``app/db/sqlite_writes.py``, PostgreSQL's save below.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache
from typing import Any

from sqlalchemy import (
    JSON,
    Connection,
    Executable,
    delete,
    desc,
    false,
    func,
    select,
    true,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db import sqlite_writes
from app.db.announce import CHANNEL, announcement
from app.db.engine import make_sessionmaker
from app.db.rows import ACTION, LEGEND, ROOM, SEAT, TABLES, new_room_row, room_over
from app.db.writer import SqliteWriter
from app.jsontext import to_text
from app.rules.codec import room_from_data
from app.rules.state import UNOPENED, Room
from app.service.clock import iso
from app.service.errors import StaleAction
from app.service.store import (
    CodeTaken,
    Data,
    Logged,
    Record,
)


def _values(record: Record) -> dict[str, Any]:
    return dict(record.__dict__)


def _expire(db: Connection, idle_since: datetime) -> list[str]:
    codes = list(db.execute(select(ROOM.c.code).where(ROOM.c.updated_at < idle_since)).scalars())
    if codes:
        db.execute(delete(ROOM).where(ROOM.c.code.in_(codes)))
    return codes


class SqlStore:
    """Reads, on both databases; the subclasses write.

    Every read is one statement, run outside any transaction of ours: on PostgreSQL
    one round trip instead of three (BEGIN, SELECT, ROLLBACK); on SQLite no
    ``BEGIN IMMEDIATE``, which would wait for the writer's lock just to read.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    async def _rows(self, query: Executable) -> Sequence[Any]:
        async with self.autocommit.connect() as db:
            return (await db.execute(query)).all()

    async def _one(self, query: Executable) -> Any:
        """The first column of the one row ``query`` finds, or ``None``."""
        rows = await self._rows(query)
        return rows[0][0] if rows else None

    async def read(self, code: str) -> Room | None:
        state = await self._one(select(ROOM.c.state).where(ROOM.c.code == code))
        return None if state is None else room_from_data(state)

    async def seq(self, code: str) -> int | None:
        found: int | None = await self._one(select(ROOM.c.seq).where(ROOM.c.code == code))
        return found

    async def logged(self, code: str, after: int, upto: int) -> list[Logged]:
        a = ACTION.c
        query = (
            select(a.seq, a.seat, a.action, a.state, a.player)
            .where(a.room == code, a.seq > after, a.seq <= upto)
            .order_by(a.seq)
        )
        rows = await self._rows(query)
        return [Logged(*row) for row in rows]

    async def game_log(self, code: str, upto: int) -> list[Logged]:
        a = ACTION.c
        # The latest whole state (a game's start) by the room's (room, seq) index; then
        # the rows from there, in one statement: no write can come between the two.
        start = (
            select(func.max(a.seq))
            .where(a.room == code, a.seq <= upto, a.state.is_not(None))
            .scalar_subquery()
        )
        query = (
            select(a.seq, a.seat, a.action, a.state, a.player)
            .where(a.room == code, a.seq >= start, a.seq <= upto)
            .order_by(a.seq)
        )
        rows = await self._rows(query)
        return [Logged(*row) for row in rows]

    async def seat(self, token_hash: str) -> tuple[str, int, str] | None:
        query = select(SEAT.c.room, SEAT.c.pid, SEAT.c.device).where(
            SEAT.c.token_hash == token_hash
        )
        rows = await self._rows(query)
        return (rows[0].room, rows[0].pid, rows[0].device) if rows else None

    async def seats(self, code: str) -> list[tuple[str, int, str]]:
        s = SEAT.c
        query = select(s.token_hash, s.pid, s.device).where(s.room == code)
        return [(r.token_hash, r.pid, r.device) for r in await self._rows(query)]

    async def legends(
        self,
        *,
        players: int | None,
        decoys: int | None,
        room: str | None,
        limit: int,
        language: str | None = None,
    ) -> list[Data]:
        g = LEGEND.c
        query = (
            select(LEGEND).where(g.hidden.is_(false())).order_by(desc(g.score), g.finished_at, g.id)
        )
        if players is not None:
            query = query.where(g.player_count == players)
        if decoys is not None:
            query = query.where(g.decoys == decoys)
        if room is not None:
            query = query.where(g.room == room)
        if language is not None:
            query = query.where(g.language == language)
        rows = await self._rows(query.limit(limit))
        return [
            {
                "id": r.id,
                **({"room": r.room} if room is not None else {}),
                "finished_at": iso(r.finished_at),
                "players": list(r.players),
                "player_count": r.player_count,
                "decoys": r.decoys,
                "score": r.score,
                "max": r.max,
                "language": r.language,
            }
            for r in rows
        ]

    async def scores(self, code: str) -> list[int | None]:
        g = LEGEND.c
        query = (
            select(g.score, g.hidden)
            .where(g.room == code)
            .order_by(desc(g.finished_at), desc(g.id))
        )
        return [None if hidden else score for score, hidden in await self._rows(query)]

    async def hidden_legends(self) -> frozenset[int]:
        g = LEGEND.c
        return frozenset(r.id for r in await self._rows(select(g.id).where(g.hidden.is_(true()))))

    async def close(self) -> None:
        """Close what the store opened itself (the engine is its owner's to dispose of)."""


class SqliteStore(SqlStore):
    """SQLite in one process: every write through the one writer thread."""

    def __init__(self, engine: AsyncEngine, writer: SqliteWriter) -> None:
        super().__init__(engine)
        self.writer = writer

    async def save(self, old_seq: int, room: Room, records: Sequence[Record], at: datetime) -> None:
        await self.writer.write(lambda db: sqlite_writes.save(db, old_seq, room, records, at))

    async def expire(self, idle_since: datetime) -> list[str]:
        return await self.writer.write(lambda db: sqlite_writes.expire(db, idle_since))


_PG = postgresql.dialect()  # type: ignore[no-untyped-call]  # SQLAlchemy's dialect class

SAVERS = 4
"""Connections a process keeps for saving actions (each save holds one for a round trip)."""
SAVER_NAME = "soclover-saver"
"""How the saving connections name themselves in ``pg_stat_activity``."""


@dataclass(frozen=True)
class SaveStatement:
    """The one statement that saves a room with its records, as asyncpg takes it."""

    sql: str
    names: tuple[str, ...]
    """The parameters' names, in the order of ``$1, $2, ...``."""
    json: frozenset[str]
    """The parameters sent as JSON text."""

    def arguments(self, params: dict[str, Any]) -> list[Any]:
        return [
            to_text(params[n]) if n in self.json and params[n] is not None else params[n]
            for n in self.names
        ]


@lru_cache(maxsize=16)
def save_in_one(kinds: tuple[type, ...], opening: bool = False) -> SaveStatement:
    """One statement that saves a room over its ``seq`` with records of ``kinds``,
    and announces it: a data-modifying CTE, so a single round trip and, autocommitted,
    a single transaction.

    The room is updated only where ``seq`` is still the one read; every record is
    inserted ``FROM saved`` and the ``NOTIFY`` selected from it too, so a stale save
    writes and announces nothing, and answers no row. ``opening``: the room is new,
    inserted only if its code is nobody's; a code taken answers no row likewise.
    """
    quote = _PG.identifier_preparer.quote
    names: list[str] = []
    json: set[str] = set()

    def param(name: str, column: Any = None) -> str:
        names.append(name)
        if column is None:
            return f"${len(names)}"
        if isinstance(column.type, JSON):
            json.add(name)
        return f"CAST(${len(names)} AS {column.type.compile(dialect=_PG)})"

    room = ROOM.c
    if opening:
        columns = [room.code, room.seq, room.phase, room.state, room.created_at, room.updated_at]
        parts = [
            f"WITH saved AS (INSERT INTO room ({', '.join(quote(c.name) for c in columns)})"
            f" VALUES ({', '.join(param(c.name, c) for c in columns)})"
            " ON CONFLICT DO NOTHING RETURNING code)"
        ]
    else:
        parts = [
            f"WITH saved AS (UPDATE room SET seq = {param('seq', room.seq)},"
            f" phase = {param('phase', room.phase)}, state = {param('state', room.state)},"
            f" updated_at = {param('updated_at', room.updated_at)}"
            f" WHERE code = {param('b_code', room.code)} AND seq = {param('b_seq', room.seq)}"
            " RETURNING code)"
        ]
    for i, kind in enumerate(kinds):
        table = TABLES[kind]
        columns = [table.c[f.name] for f in fields(kind)]
        values = ", ".join(param(f"r{i}_{c.name}", c) for c in columns)
        parts.append(
            f", r{i} AS (INSERT INTO {quote(table.name)}"
            f" ({', '.join(quote(c.name) for c in columns)}) SELECT {values} FROM saved)"
        )
    parts.append(f" SELECT pg_notify({param('channel')}, {param('payload')}) FROM saved")
    return SaveStatement("".join(parts), tuple(names), frozenset(json))


async def _nothing_to_reset(_connection: Any) -> None:
    """A saving connection runs single autocommitted statements and sets nothing, so
    it goes back to the pool as it is: asyncpg's own reset is a round trip more."""


class PostgresStore(SqlStore):
    """PostgreSQL, any number of processes: each change announced as it commits.

    A save is one autocommitted statement (``save_in_one``): one round trip where a
    transaction of its own took six (BEGIN, UPDATE, INSERT, NOTIFY, COMMIT and the
    pool's ping). It goes through asyncpg's own pool, not SQLAlchemy's: the save is
    the hot path, and SQLAlchemy's checkout, greenlets and binding were about half the
    CPU of it (docs/performance.md, "PostgreSQL: the save through asyncpg's own pool").
    Everything else still goes through SQLAlchemy.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        dsn: str,
        *,
        on_connect: Callable[[Any], Awaitable[None]] | None = None,
    ) -> None:
        """``dsn`` for asyncpg (``app.db.engine.asyncpg_dsn``); ``on_connect`` is handed
        each saving connection as it opens (a query logger, say)."""
        super().__init__(engine)
        self.sessions = make_sessionmaker(engine)
        self.dsn = dsn
        self.on_connect = on_connect
        self._pool: Any = None
        self._opening = asyncio.Lock()

    async def _savers(self) -> Any:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    import asyncpg

                    self._pool = await asyncpg.create_pool(
                        self.dsn,
                        # opened as saves need them: none to reopen while the database is away
                        min_size=0,
                        max_size=SAVERS,
                        init=self.on_connect,
                        reset=_nothing_to_reset,
                        server_settings={"application_name": SAVER_NAME},
                    )
        return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def save(self, old_seq: int, room: Room, records: Sequence[Record], at: datetime) -> None:
        opening = old_seq == UNOPENED
        params = new_room_row(room, at) if opening else room_over(old_seq, room, at)
        params.update(channel=CHANNEL, payload=announcement(room.code, room.seq, records))
        for i, record in enumerate(records):
            params.update({f"r{i}_{k}": v for k, v in _values(record).items()})
        statement = save_in_one(tuple(type(r) for r in records), opening)
        pool = await self._savers()
        async with pool.acquire() as db:
            saved = await db.fetchrow(statement.sql, *statement.arguments(params))
        if saved is None:
            raise CodeTaken() if opening else StaleAction()

    async def expire(self, idle_since: datetime) -> list[str]:
        async with self.sessions() as session, session.begin():
            return await session.run_sync(lambda s: _expire(s.connection(), idle_since))
