"""The SQLite database's files are its owner's alone: the database, and the ``-wal`` and
``-shm`` files SQLite makes beside it, hold every room's code and every seat token's
hash. Created 0600 on a fresh start, narrowed to it on a start over older files."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from starlette.testclient import TestClient

from app.config import Settings
from app.db.engine import configure_sqlite, sync_url
from app.main import create_app


@pytest.fixture(autouse=True)
def usual_umask() -> Iterator[None]:
    """The umask most systems start servers with: files are 0644 unless asked otherwise."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def modes(database: Path) -> dict[str, int]:
    """The mode of the database and of each file SQLite keeps beside it."""
    return {
        file.name.removeprefix(database.name) or "db": stat.S_IMODE(file.stat().st_mode)
        for file in database.parent.glob(f"{database.name}*")
    }


def test_a_fresh_database_and_its_wal_and_shm_are_the_owners_alone(tmp_path: Path) -> None:
    database = tmp_path / "soclover.sqlite3"
    settings = Settings(database_url=f"sqlite:///{database}", bots=False)
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as client:
        assert client.post("/api/rooms", json={"name": "Ada"}).status_code == 201
        # While the server runs, SQLite keeps its write-ahead log and shared memory.
        assert modes(database) == {"db": 0o600, "-wal": 0o600, "-shm": 0o600}


def test_older_files_are_narrowed_at_start(tmp_path: Path) -> None:
    database = tmp_path / "soclover.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{database}{suffix}").touch(mode=0o644)
    engine = create_engine(sync_url(f"sqlite:///{database}"))
    configure_sqlite(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("CREATE TABLE t (x)")
        assert modes(database) == {"db": 0o600, "-wal": 0o600, "-shm": 0o600}
    engine.dispose()


def test_a_database_in_memory_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for url in ("sqlite://", "sqlite:///:memory:"):
        engine = create_engine(sync_url(url))
        configure_sqlite(engine)
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
        engine.dispose()
    assert list(tmp_path.iterdir()) == []
