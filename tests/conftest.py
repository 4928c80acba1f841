"""Settings every test process shares, before any app or test server starts; and the one
way to a server for a whole module (``shared_server``), for the API and browser tests."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from .kit import Server, ThreadServer, drop_database, fresh_database

# The bots' word vectors (several MB, computed once) are kept with the checkout's test
# caches, not in the user's own cache folder; test servers inherit the environment.
os.environ.setdefault(
    "SOCLOVER_BOT_CACHE", str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "bots")
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "own_process: the test's server runs in a subprocess of its own, not on a thread "
        "of the tests' (it kills the server, or reads its log): see tests/kit/server.py",
    )


LONGEST_FIRST = ("browser", "bots", "web", "rules")
"""The test folders whose modules take longest, in the order their modules are handed out.

``make test`` runs two processes, each given a whole module at a time (``--dist loadfile``,
with ``--no-loadscope-reorder``: xdist's own order puts the modules with the most tests
first, which left a browser game of one test, nearly a minute long, for the end while the
other process sat idle). The long modules (a browser's whole game, a bot's game, the rules'
properties) start early, and the many short ones of the other folders fill the end."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The folders of ``LONGEST_FIRST`` first, in that order; within a folder, and for the
    rest, the collection's own order (a stable sort keeps each module's tests together)."""

    def rank(item: pytest.Item) -> int:
        parts = item.path.relative_to(Path(__file__).parent).parts
        return LONGEST_FIRST.index(parts[0]) if parts[0] in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)


SHARED = {"SOCLOVER_CREATE_RATE_PER_MINUTE": "100000", "SOCLOVER_JOIN_RATE_PER_MINUTE": "100000"}
"""A shared server's limits: its module's tests together create and join far more than
one address may in a minute (the tests of those limits start their own server)."""


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    """The settings of the module's shared server, over ``SHARED``: none of its own unless
    the module overrides this fixture (at module scope) with ``SOCLOVER_*`` values."""
    return {}


@pytest.fixture(scope="module")
def shared_server(
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
    shared_server_settings: dict[str, str],
) -> Iterator[Server]:
    """The one way to a server for a whole module: a ``ThreadServer`` on a fresh database,
    for a module whose tests each play in rooms of their own and read nothing
    server-wide (legends, metrics, limits). A module opts in by overriding ``api`` (the
    API tests) or ``server`` (the browser tests) with it, or takes it as it is, and names
    the settings of its server by overriding ``shared_server_settings``. A test that
    needs a database or settings of its own starts its own server (``make_server`` in
    tests/web, the ``server`` of tests/browser)."""
    folder = tmp_path_factory.mktemp(request.module.__name__.rsplit(".")[-1])
    url = fresh_database(folder / "soclover.sqlite3")
    settings = {**SHARED, **shared_server_settings}
    server = ThreadServer(url, folder / "server.log", **settings).start()
    try:
        yield server
    finally:
        server.stop()
        drop_database(url)
