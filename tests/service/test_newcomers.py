"""A newcomer's first sign of life, told to the other processes at once: when that
cannot be written, the seat stays taken and answered; the next sweep tells the rest."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.db.engine import make_async_engine
from app.db.migrate import upgrade
from app.db.store import SqliteStore
from app.db.writer import SqliteWriter
from app.rules.deck import builtin_deck_path, load_deck
from app.service.cluster import LocalCluster
from app.service.hub import RoomHub
from app.service.locks import RoomLocks
from app.service.presence import PresenceTracker
from app.service.rooms import RoomService
from tests.service.support import run_async


class UnreachableCluster(LocalCluster):
    """Shared with other processes, whose table of signs of life cannot be written."""

    shared = True

    def __init__(self) -> None:
        super().__init__({})
        self.tries = 0

    async def seen(self, signs: dict[str, dict[int, float]], grace: float) -> None:
        self.tries += 1
        raise ConnectionError("the database went away")


def test_a_seat_is_taken_even_when_the_others_cannot_be_told_yet(tmp_path: Path) -> None:
    async def check() -> None:
        url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
        await asyncio.to_thread(upgrade, url)
        engine = make_async_engine(url)
        writer = SqliteWriter(url)
        cluster = UnreachableCluster()
        service = RoomService(
            SqliteStore(engine, writer),
            load_deck(builtin_deck_path()),
            RoomHub(),
            RoomLocks(),
            PresenceTracker(30),
            cluster,
        )
        try:
            host = await service.create("Ada", 1)
            seated = await service.join(host.code, "Bea")
            assert seated.seat == 1
            assert await service.seat_for(host.code, seated.token) is not None
            assert cluster.tries == 2
        finally:
            writer.close()
            await engine.dispose()

    run_async(check())
