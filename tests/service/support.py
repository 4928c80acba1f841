"""Running a coroutine from a test, and the room service built as the server builds it."""

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
from app.service.build import build_service
from app.service.cluster import Cluster
from app.service.meter import UNMETERED, Meter
from app.service.rooms import RoomService

T = TypeVar("T")

DECK = load_deck(builtin_deck_path())
"""The built-in English deck, read once for the tests' services."""


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
    *,
    meter: Meter = UNMETERED,
    bot_languages: frozenset[str] = frozenset(),
) -> AsyncIterator[RoomService]:
    """A room service on a fresh SQLite file in ``tmp_path``, as one server runs it
    (``cluster``: what it shares with other processes, none by default; ``writer_type``:
    a writer the test can hold up; the rest as ``build_service`` takes them)."""
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    await asyncio.to_thread(upgrade, url)
    engine = make_async_engine(url)
    writer = writer_type(url)
    service = build_service(
        SqliteStore(engine, writer),
        DECK,
        cluster=cluster,
        meter=meter,
        bot_languages=bot_languages,
    )
    try:
        yield service
    finally:
        writer.close()
        await engine.dispose()
