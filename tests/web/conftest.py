from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ..kit import Server, ThreadServer, drop_database, fresh_database, running


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


SHARED = {"SOCLOVER_CREATE_RATE_PER_MINUTE": "100000", "SOCLOVER_JOIN_RATE_PER_MINUTE": "100000"}
"""A shared server's limits: its module's tests together create and join far more than
one address may in a minute (the tests of those limits start their own server)."""


@pytest.fixture(scope="module")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """One server on a fresh database for a whole module whose tests each play in rooms
    of their own, and read nothing server-wide (legends, metrics, limits). A module
    opts in by overriding ``api`` at module scope with its URL, and may name settings of
    its server in ``SHARED_SERVER_SETTINGS``; a test of the module that needs a database
    or settings of its own still takes ``make_server``."""
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".")[-1])
    settings = {**SHARED, **getattr(request.module, "SHARED_SERVER_SETTINGS", {})}
    with running(folder, **settings) as s:
        yield s
