from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ..kit import Server, ThreadServer, drop_database, fresh_database


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """One fresh database for this test: SQLite, or PostgreSQL with SOCLOVER_TEST_POSTGRES."""
    url = fresh_database(tmp_path / "soclover.sqlite3")
    yield url
    drop_database(url)


@pytest.fixture
def make_server(tmp_path: Path, database_url: str) -> Iterator[Callable[..., Server]]:
    """Start servers on this test's database; all stopped at the end. Each a
    ``ThreadServer``; a subprocess ``Server`` with ``process=True``, for a test that
    kills it or reads its log (see tests/kit/server.py)."""
    started: list[Server] = []

    def make(*, process: bool = False, **env: str) -> Server:
        kind = Server if process else ThreadServer
        server = kind(database_url, tmp_path / "server.log", **env)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.stop()


@pytest.fixture
def server(make_server: Callable[..., Server]) -> Server:
    return make_server()


@pytest.fixture
def api(server: Server) -> str:
    """The base URL of a fresh server."""
    return server.url
