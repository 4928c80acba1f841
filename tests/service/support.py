"""Running a coroutine from a test, whatever else the test session runs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from app.db.engine import make_async_engine
from app.db.migrate import upgrade
from app.db.store import SqliteStore
from app.db.writer import SqliteWriter
from app.rules.deck import builtin_deck_path, load_deck
from app.service.cluster import Cluster
from app.service.hub import RoomHub
from app.service.locks import RoomLocks
from app.service.presence import PresenceTracker
from app.service.rooms import RoomService

T = TypeVar("T")


def run_async(work: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: the browser tests' Playwright keeps
    an event loop running in the main thread for the whole session."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, work).result()


@contextlib.asynccontextmanager
async def sqlite_service(
    tmp_path: Path,
    cluster: Cluster | None = None,
    writer_type: type[SqliteWriter] = SqliteWriter,
) -> AsyncIterator[RoomService]:
    """A room service on a fresh SQLite file in ``tmp_path``, as one server runs it
    (``cluster``: what it shares with other processes, none by default; ``writer_type``:
    a writer the test can hold up)."""
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    engine = make_async_engine(url)
    writer = writer_type(url)
    service = RoomService(
        SqliteStore(engine, writer),
        load_deck(builtin_deck_path()),
        RoomHub(),
        RoomLocks(),
        PresenceTracker(30),
        cluster,
    )
    try:
        yield service
    finally:
        writer.close()
        await engine.dispose()
