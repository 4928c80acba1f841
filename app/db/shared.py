"""PostgreSQL shared by several server processes: changes heard, presence, rate limits.

- every committed change is announced with ``NOTIFY`` by the store
  (``app/db/store.py``), inside the transaction that saves it, with its logged
  actions when they fit (``app/db/announce.py``); each process LISTENs on one
  dedicated connection and brings the rooms it follows along, replaying those
  actions (or reading them from the action log), so its streams get every
  change in order. The listener reconnects by itself and then catches up
  every room it follows;
- presence: each process writes the signs of life it sees, all read them;
- rate limits: a counter per client and minute in a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Table, delete, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db.announce import CHANNEL, heard
from app.db.engine import asyncpg_dsn
from app.db.models import PresenceRow, RateRow
from app.service.cluster import Behind, CatchUp
from app.service.store import Logged

log = logging.getLogger(__name__)

LISTENER_NAME = "soclover-listener"
"""The listening connection's application_name, to find it in pg_stat_activity."""


_PRESENCE: Table = PresenceRow.__table__  # type: ignore[attr-defined]  # set by SQLModel
_RATE: Table = RateRow.__table__  # type: ignore[attr-defined]  # likewise
# Every sign of a sweep in one statement: arrays unnested into rows, upserted at once.
# (Run once per row, thousands of upserts every few seconds held the database's CPU
# long enough to show in the latency of actions.)
_UPSERT_SEEN = text(
    "INSERT INTO presence (room, pid, seen_at)"
    " SELECT * FROM unnest(CAST(:rooms AS varchar[]), CAST(:pids AS integer[]),"
    " CAST(:seen AS timestamptz[]))"
    " ON CONFLICT (room, pid) DO UPDATE SET seen_at = greatest(presence.seen_at, excluded.seen_at)"
)


class PostgresCluster:
    shared = True

    def __init__(
        self,
        database_url: str,
        sessions: async_sessionmaker[AsyncSession],
        limits: dict[str, int],
    ) -> None:
        self.dsn = asyncpg_dsn(database_url)
        self.sessions = sessions
        self.limits = limits
        self._task: asyncio.Task[None] | None = None
        self._worker: asyncio.Task[None] | None = None
        self._changes: asyncio.Queue[tuple[str, int | None, list[Logged] | None]] = asyncio.Queue()
        self.connected = asyncio.Event()
        self._written: dict[tuple[str, int], datetime] = {}
        self._behind: Behind = lambda _code, _seq: True

    # --- live changes ---------------------------------------------------------------

    async def start(
        self, catch_up: CatchUp, followed: Callable[[], set[str]], behind: Behind
    ) -> None:
        self._behind = behind
        self._task = asyncio.create_task(self._listen(followed))
        self._worker = asyncio.create_task(self._apply_changes(catch_up))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), 10)

    async def stop(self) -> None:
        for task in (self._task, self._worker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _listen(self, followed: Callable[[], set[str]]) -> None:
        """Keep one LISTEN connection open; after every (re)connection, catch up."""
        import asyncpg

        delay = 0.2
        while True:
            conn = None
            try:
                conn = await asyncpg.connect(
                    self.dsn, server_settings={"application_name": LISTENER_NAME}
                )
                lost = asyncio.Event()
                conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                await conn.add_listener(CHANNEL, self._on_notify)
                self.connected.set()
                delay = 0.2
                for code in followed():
                    self._changes.put_nowait((code, None, None))
                while not lost.is_set() and not conn.is_closed():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(lost.wait(), 5)
                    if not lost.is_set():
                        await conn.execute("SELECT 1")  # notice a silently dead link
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: try again
                log.warning("room change listener lost its connection: %s", error)
            finally:
                self.connected.clear()
                if conn is not None and not conn.is_closed():
                    with contextlib.suppress(Exception):
                        await conn.close(timeout=2)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        change = heard(payload, self._behind)
        if change is not None:
            self._changes.put_nowait(change)

    async def _apply_changes(self, catch_up: CatchUp) -> None:
        while True:
            code, seq, logged = await self._changes.get()
            try:
                await catch_up(code, seq, logged)
            except Exception:
                log.exception("catching up room %s failed", code)

    # --- rate limits --------------------------------------------------------------------

    async def allow(self, kind: str, key: str) -> bool:
        """A sliding-window count: this minute's requests plus the share of last
        minute's that still falls within the last 60 s (no free burst at :00)."""
        now = time.time()
        window = int(now // 60)
        key = f"{kind}:{key}"[:80]
        async with self.sessions() as session, session.begin():
            r = _RATE.c
            statement = (
                pg_insert(_RATE)
                .values(key=key, window=window, count=1)
                .on_conflict_do_update(
                    index_elements=["key", "window"], set_={"count": r.count + 1}
                )
                .returning(r.count)
            )
            count: int = (await session.execute(statement)).scalar_one()
            previous: int = (
                await session.execute(select(r.count).where(r.key == key, r.window == window - 1))
            ).scalar_one_or_none() or 0
            if count == 1 and window % 10 == 0:
                await session.execute(delete(_RATE).where(r.window < window - 1))
        weight = 1 - (now % 60) / 60
        return count + previous * weight <= self.limits[kind]

    # --- presence ---------------------------------------------------------------------------

    async def seen(self, signs: dict[str, dict[int, float]], grace: float) -> None:
        """Write when this process last saw each player; a later sign never moves back.

        A sign less than half the grace newer than the one written before is
        skipped: a thousand streaming players need not be written every sweep, and
        what is written still keeps them present for the other processes.
        """
        now = datetime.now(UTC)
        rooms: list[str] = []
        pids: list[int] = []
        seen: list[datetime] = []
        for code, signs_of_room in signs.items():
            for pid, ago in signs_of_room.items():
                seen_at = now - timedelta(seconds=ago)
                written = self._written.get((code, pid))
                if written is None or (seen_at - written).total_seconds() > grace / 2:
                    rooms.append(code)
                    pids.append(pid)
                    seen.append(seen_at)
        if not rooms:
            return
        async with self.sessions() as session, session.begin():
            await session.execute(_UPSERT_SEEN, {"rooms": rooms, "pids": pids, "seen": seen})
        # Only once committed: a sign still being written is no reason for another
        # caller to skip it and then read the table without it.
        for code, pid, seen_at in zip(rooms, pids, seen, strict=True):
            self._written[(code, pid)] = seen_at

    async def present(self, codes: list[str], grace: float) -> dict[str, frozenset[int]]:
        """Who any process has seen in the last ``grace`` seconds, for each room; one query."""
        since = datetime.now(UTC) - timedelta(seconds=grace)
        found: dict[str, set[int]] = {}
        async with self.sessions() as session:
            p = _PRESENCE.c
            rows = await session.execute(
                select(p.room, p.pid).where(p.room.in_(codes), p.seen_at >= since)
            )
            for room, pid in rows:
                found.setdefault(room, set()).add(pid)
        return {code: frozenset(pids) for code, pids in found.items()}
