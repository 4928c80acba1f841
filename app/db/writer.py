"""SQLite's one writer, as one thread, committing writes in groups.

SQLite lets one connection write at a time. Through the async driver a write
transaction is five trips between the event loop and the driver's thread
(BEGIN, UPDATE, INSERT, INSERT, COMMIT), each waiting for a busy loop to come
round, while every other writer queues behind it: that, not the CPU, would
cap the actions per second. Here each write runs in one trip, in one thread that
owns the only writing connection, so writers queue in order and the database
is handed over the moment a commit ends. Reads stay on the async engine: WAL
lets them run beside the writer.

A commit waits for the disk (``synchronous=FULL``: an answered action survives
a power cut), and that wait, not the writing, is most of a write's time
(docs/performance.md, "SQLite writes: one writer thread, grouped commits"). So the
writer takes every write that queued while it was busy and commits them
together: each in its own savepoint, so one refused write rolls back alone,
and every caller is answered only after the shared commit.

Writes run on the driver's own connection (``sqlite3``), with statements compiled
once (``app/db/sqlite_writes.py``): the thread does SQLite's work, not SQLAlchemy's.
"""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import create_engine, pool

from app.db.engine import configure_sqlite, sync_url
from app.jsontext import to_text

T = TypeVar("T")

GROUP = 64
"""Writes committed together at most."""

_Work = tuple[Callable[[sqlite3.Connection], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class SqliteWriter:
    def __init__(self, database_url: str) -> None:
        # One connection, opened and kept in the one thread that uses it; the engine
        # reads the URL and sets the connection up as every other one (WAL, full sync).
        self.engine = create_engine(
            sync_url(database_url),
            poolclass=pool.SingletonThreadPool,
            json_serializer=to_text,
        )
        configure_sqlite(self.engine)
        self._queue: queue.SimpleQueue[_Work | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="sqlite-writer", daemon=True)
        self._thread.start()

    async def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in a write transaction; its result once that is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((work, loop, future))
        return await future

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        connection = self.engine.raw_connection()
        db = connection.driver_connection
        assert isinstance(db, sqlite3.Connection)
        while True:
            first = self._queue.get()
            if first is None:
                break
            group = [first]
            stop = False
            while len(group) < GROUP:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                group.append(more)
            self._commit(db, group)
            if stop:
                break
        connection.close()
        self.engine.dispose()

    def _commit(self, db: sqlite3.Connection, group: list[_Work]) -> None:
        outcomes: list[tuple[bool, Any]] = []
        # A write alone (most of them, unless the disk is slow) needs no savepoint: its
        # transaction rolls back alone. Two statements fewer for SQLite to run.
        alone = len(group) == 1
        try:
            db.execute("BEGIN IMMEDIATE")
            for work, _, _ in group:
                if not alone:
                    db.execute("SAVEPOINT write")
                try:
                    outcomes.append((True, work(db)))
                except Exception as refused:  # this write alone rolls back
                    db.execute("ROLLBACK" if alone else "ROLLBACK TO write")
                    outcomes.append((False, refused))
                if not alone:
                    db.execute("RELEASE write")
            if db.in_transaction:
                db.execute("COMMIT")
        except Exception as failed:  # the commit itself failed: nothing was written
            if db.in_transaction:
                db.execute("ROLLBACK")
            outcomes = [(False, failed)] * len(group)
        for (_, loop, future), (ok, value) in zip(group, outcomes, strict=True):
            loop.call_soon_threadsafe(_settle, future, ok, value)


def _settle(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)
