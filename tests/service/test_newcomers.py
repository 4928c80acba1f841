"""A newcomer's first sign of life, told to the other processes at once: when that
cannot be written, the seat stays taken and answered; the next sweep tells the rest."""

from __future__ import annotations

from pathlib import Path

from app.service.cluster import LocalCluster
from tests.service.support import run_async, sqlite_service


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
        cluster = UnreachableCluster()
        async with sqlite_service(tmp_path, cluster) as service:
            host = await service.create("Ada", 1)
            seated = await service.join(host.code, "Bea")
            assert seated.seat == 1
            assert await service.seat_for(host.code, seated.token) is not None
            assert cluster.tries == 2

    run_async(check())
