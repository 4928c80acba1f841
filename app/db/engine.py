"""Database engines: the async one the app uses, the sync one Alembic uses.

SQLite needs care to be safe under concurrent writers: with its defaults a
read-modify-write from two requests can silently lose one of them. So every
connection runs in WAL mode with a busy timeout and foreign keys on, and every
transaction starts with ``BEGIN IMMEDIATE``, which takes the write lock up
front instead of failing (or worse) when a reader later tries to write.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import URL, Engine, make_url
from sqlalchemy.exc import ArgumentError, DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.jsontext import to_text

SQLITE_BUSY_TIMEOUT_MS = 10_000

log = logging.getLogger(__name__)


def async_url(url: str) -> URL:
    """The URL with the async driver this app uses for its backend."""
    parsed = make_url(_plain(url))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite+aiosqlite")
    if backend == "postgresql":
        query = dict(parsed.query)
        if "sslmode" in query:  # libpq's name; asyncpg calls it ssl
            query["ssl"] = query.pop("sslmode")
        return parsed.set(drivername="postgresql+asyncpg", query=query)
    raise ValueError(f"Unsupported database {backend!r}: use sqlite or postgresql.")


def sync_url(url: str) -> URL:
    """The URL with a synchronous driver, for migrations."""
    parsed = make_url(_plain(url))
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return parsed.set(drivername="sqlite")
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg")
    raise ValueError(f"Unsupported database {backend!r}: use sqlite or postgresql.")


def asyncpg_dsn(url: str) -> str:
    """A DSN for asyncpg itself: the connection that LISTENs, and those that save."""
    parsed = make_url(_plain(url)).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def _plain(url: str) -> str:
    # Hosting providers hand out postgres:// URLs; SQLAlchemy wants postgresql://.
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    try:
        make_url(url)
    except ArgumentError:
        raise ValueError(
            f"{url!r} is not a database URL (sqlite:///file or postgresql://...)"
        ) from None
    return url


def is_sqlite(url: str) -> bool:
    return make_url(_plain(url)).get_backend_name() == "sqlite"


PING_AFTER_IDLE_S = 5.0
"""A pooled PostgreSQL connection idle longer than this is checked before use."""


def make_async_engine(url: str) -> AsyncEngine:
    engine = create_async_engine(async_url(url), json_serializer=to_text)
    if is_sqlite(url):
        configure_sqlite(engine.sync_engine)
    else:
        ping_when_idle(engine.sync_engine, PING_AFTER_IDLE_S)
    return engine


def ping_when_idle(engine: Engine, after: float) -> None:
    """Check a pooled connection before use, but only one that sat idle ``after`` seconds.

    SQLAlchemy's ``pool_pre_ping`` checks at every checkout, and on asyncpg its check
    is three round trips (BEGIN, an empty query, ROLLBACK): more than the one
    statement that saves an action. A connection in steady use has just proved
    itself; one idle a while may have been cut (a database restart, a firewall),
    and a failed check makes the pool open a new one. A connection the database has
    closed is never handed out, idle or not.
    """

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _taken(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if dbapi_connection.driver_connection.is_closed():
            # The database ended it (a restart, an administrator): asyncpg heard so,
            # and telling costs no round trip, however recently it was used.
            raise DisconnectionError()
        if since is not None and time.monotonic() - since > after:
            try:
                engine.dialect.do_ping(dbapi_connection)
            except Exception as error:
                raise DisconnectionError() from error


SQLITE_FILE_MODE = 0o600
"""The database and its ``-wal`` and ``-shm`` files: every room's code and every seat's
token hash are in them, for the server's user alone (as ``soclover backup``'s copies)."""


def keep_sqlite_private(url: URL) -> None:
    """Make the SQLite file ``url`` names readable by its owner only, before any
    connection opens it: created empty with ``SQLITE_FILE_MODE`` if it is not there yet
    (an empty file is an empty database to SQLite), its mode narrowed if it is, and so
    are its ``-wal`` and ``-shm`` files left from before. SQLite makes those two with
    the database file's own mode, so later ones are private too. Nothing is done for a
    database in memory; a file owned by another user is left as it is, with a warning.
    """
    name = url.database
    if not name or name == ":memory:" or url.query.get("uri") or name.startswith("file:"):
        return
    path = Path(name)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SQLITE_FILE_MODE))
    for file in (path, path.with_name(f"{path.name}-wal"), path.with_name(f"{path.name}-shm")):
        try:
            mode = file.stat().st_mode & 0o777
            if mode & ~SQLITE_FILE_MODE:
                file.chmod(mode & SQLITE_FILE_MODE)
        except FileNotFoundError:
            continue
        except OSError as error:
            log.warning("could not make %s readable by its owner only: %s", file, error)


def configure_sqlite(engine: Engine) -> None:
    """WAL, busy timeout, foreign keys, full sync, and BEGIN IMMEDIATE for every transaction
    (reads run autocommitted, one statement each, and take no lock). The database's files
    are its owner's alone (``keep_sqlite_private``), before the first connection."""
    keep_sqlite_private(engine.url)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's "begin" event issue BEGIN itself (the driver's own
        # implicit BEGIN is a deferred one).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        if connection.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
            connection.exec_driver_sql("BEGIN IMMEDIATE")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    # SQLAlchemy's own session: the tables are SQLModel's, the queries plain SQLAlchemy.
    # expire_on_commit=False: rows stay readable after commit without a new query.
    return async_sessionmaker(engine, class_=AsyncSession, expire_on_commit=False)
