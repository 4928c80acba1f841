from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .server import Server


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers on one SQLite file in this test's folder; all stopped at the end."""
    started: list[Server] = []

    def make(**env: str) -> Server:
        server = Server(tmp_path / "soclover.sqlite3", tmp_path / "server.log", **env)
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
