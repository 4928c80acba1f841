"""SQLite's one writer, as one thread.

SQLite lets one connection write at a time. Through the async driver a write
transaction is five trips between the event loop and the driver's thread
(BEGIN, UPDATE, INSERT, INSERT, COMMIT), each waiting for a busy loop to come
round, while every other writer queues behind it: that, not the CPU, capped
the actions per second. Here the whole transaction runs in one trip, in one
thread that owns the only writing connection, so writers queue in order and
the database is handed over the moment a commit ends. Reads stay on the async
engine: WAL lets them run beside the writer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from sqlalchemy import create_engine, pool
from sqlalchemy.orm import Session

from app.db.engine import configure_sqlite, sync_url

T = TypeVar("T")


class SqliteWriter:
    def __init__(self, database_url: str) -> None:
        # One connection, kept in the one thread that uses it.
        self.engine = create_engine(sync_url(database_url), poolclass=pool.SingletonThreadPool)
        configure_sqlite(self.engine)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")

    async def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one write transaction (BEGIN IMMEDIATE ... COMMIT); its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._transaction, work)

    def _transaction(self, work: Callable[[Session], T]) -> T:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            return work(session)

    def close(self) -> None:
        self._thread.submit(self.engine.dispose).result()
        self._thread.shutdown(wait=True)
