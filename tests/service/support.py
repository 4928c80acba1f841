"""Running a coroutine from a test, and the room service built as the server builds it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from app.db.engine import make_async_engine
from app.db.migrate import upgrade
from app.db.store import SqliteStore
from app.db.writer import SqliteWriter
from app.rules import actions as act
from app.rules.deck import builtin_deck_path, load_deck
from app.service import housekeeping
from app.service.build import build_service
from app.service.cluster import Cluster
from app.service.following import Update
from app.service.memory_store import MemoryRoomStore
from app.service.meter import UNMETERED, Meter
from app.service.presence import PresenceTracker
from app.service.ratelimit import RateLimiter
from app.service.rooms import RoomService, Seated
from app.service.seats import Seat

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
    clock: HandClock | None = None,
) -> AsyncIterator[RoomService]:
    """A room service on a fresh SQLite file in ``tmp_path``, as one server runs it
    (``cluster``: what it shares with other processes, none by default; ``writer_type``:
    a writer the test can hold up; ``clock``: the service's time, the wall clock if
    none; the rest as ``build_service`` takes them)."""
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
        **({} if clock is None else {"clock": clock.wall}),
    )
    try:
        yield service
    finally:
        writer.close()
        await engine.dispose()


class HandClock:
    """The service's time, moved on by the test alone: the wall clock of every action
    (the table's deadlines, seat requests running out) and the presence tracker's."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
        self.ticks = 1_000.0

    def wall(self) -> datetime:
        return self.now

    def monotonic(self) -> float:
        return self.ticks

    def forward(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)
        self.ticks += seconds


def memory_service(
    clock: HandClock | None = None, *, grace: float = 30, chat_limits: RateLimiter | None = None
) -> RoomService:
    """A room service on the store in memory, wired as a server's, on ``clock``'s time
    (``grace``: the seconds a sign of life counts)."""
    clock = clock or HandClock()
    return build_service(
        MemoryRoomStore(),
        DECK,
        clock=clock.wall,
        presence=PresenceTracker(grace, clock.monotonic),
        chat_limits=chat_limits,
    )


@dataclass(frozen=True)
class Table:
    """A room and the seats of its players, seat by seat as they sat down."""

    service: RoomService
    code: str
    seated: list[Seated]

    def seat(self, at: int) -> Seat:
        """The seat ``at`` as its own device holds it (pids follow the order of arrival)."""
        return Seat(self.code, self.seated[at].seat)


async def table(service: RoomService, *names: str, decoys: int = 1) -> Table:
    """A room opened by the first of ``names`` (with ``decoys``), the others seated in
    the lobby."""
    host = await service.create(names[0], decoys)
    seated = [host] + [await service.join(host.code, name) for name in names[1:]]
    return Table(service, host.code, seated)


async def quiet(t: Table, clock: HandClock, *seats: int) -> None:
    """The players of ``seats`` give no sign of life past the grace while the others do;
    then the server's presence sweep runs, as it does every few seconds."""
    clock.forward(t.service.presence.grace + 1)
    for seat, _ in enumerate(t.seated):
        if seat not in seats:
            t.service.touch(t.code, t.seat(seat).pid)
    await housekeeping.sweep_presence(t.service)


def clues_for(seat: int) -> tuple[str, str, str, str]:
    """Clues no keyword of a sensible deck could be."""
    return (f"Qz{seat}0", f"Qz{seat}1", f"Qz{seat}2", f"Qz{seat}3")


async def write_clues(t: Table) -> None:
    """The game started, every clue written and done: the first clover is up."""
    service = t.service
    await service.act(t.code, t.seat(0), act.Start())
    for seat, _ in enumerate(t.seated):
        await service.act(t.code, t.seat(seat), act.Clues(clues_for(seat)))
    for seat, _ in enumerate(t.seated):
        await service.act(t.code, t.seat(seat), act.Done())


async def solve(t: Table) -> Update:
    """The lock holder lays the clover being rebuilt as its Spectator wrote it and locks
    it in: the clover checked at the first try, six points (pids are seats here)."""
    service = t.service
    room = await service.load(t.code)
    holder, clover = room.lock_holder(), room.current_clover()
    assert holder is not None and clover is not None
    for spot, card in enumerate(clover.cards):
        place = act.Place(card.id, spot, clover.rotations[spot])
        await service.act(t.code, t.seat(holder), place)
    return await service.act(t.code, t.seat(holder), act.Lock())
