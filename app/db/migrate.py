"""Bring the schema up to date with Alembic before the app serves."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from app.db.engine import is_sqlite, sync_url
from app.resources import migrations_dir

MIGRATIONS = migrations_dir()

log = logging.getLogger(__name__)

WAIT_LOG_EVERY_S = 10.0
"""While waiting for the database, a line this often (and at the first failure)."""


def alembic_config(database_url: str) -> Config:
    config = Config(str(MIGRATIONS / "alembic.ini"))
    config.set_main_option("script_location", str(MIGRATIONS))
    # The app is importable already; alembic.ini's prepend_sys_path (the checkout, for
    # alembic by hand) would be the package folder itself in an installed wheel.
    config.set_main_option("prepend_sys_path", "")
    config.set_main_option(
        "sqlalchemy.url", sync_url(database_url).render_as_string(hide_password=False)
    )
    config.attributes["configure_logger"] = False
    return config


def upgrade(database_url: str, revision: str = "head", *, wait_seconds: float = 0.0) -> None:
    """The schema brought to ``revision``, once the database answers (see
    :func:`wait_for_database`; the server's start waits, a command by hand need not)."""
    wait_for_database(database_url, wait_seconds)
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str) -> None:
    command.downgrade(alembic_config(database_url), revision)


def wait_for_database(
    database_url: str,
    seconds: float,
    *,
    pause: float = 1.0,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
) -> None:
    """Return once PostgreSQL takes a connection, trying again for up to ``seconds``.

    A server started beside its database (compose, a host's reboot) may be up
    first: PostgreSQL takes seconds to accept connections, longer at its first
    start, and not every compose waits for its healthcheck. Failing at once
    would leave the table down until someone starts it again, so the first
    connection is retried, with a line in the log saying so; past ``seconds``
    the last error is raised as it is. SQLite is a file: nothing to wait for.
    """
    if seconds <= 0 or is_sqlite(database_url):
        return
    url = sync_url(database_url)
    where = f"{url.host or 'localhost'}:{url.port or 5432}/{url.database or ''}"
    engine = create_engine(
        url, poolclass=NullPool, connect_args={"connect_timeout": max(1, min(10, int(seconds)))}
    )
    started = clock()
    logged: float | None = None
    try:
        while True:
            try:
                _connect(engine)
            except OperationalError as error:
                now = clock()
                left = seconds - (now - started)
                if left <= 0:
                    log.error("The database at %s did not answer within %g s", where, seconds)
                    raise
                if logged is None or now - logged >= WAIT_LOG_EVERY_S:
                    logged = now
                    reason = str(error.orig or error).strip().splitlines()[0]
                    log.warning(
                        "Waiting for the database at %s (%s): trying again for %.0f s more "
                        "(SOCLOVER_DATABASE_WAIT_SECONDS)",
                        where,
                        reason,
                        left,
                    )
                sleep(min(pause, left))
            else:
                if logged is not None:
                    log.warning(
                        "The database at %s answered after %.0f s", where, clock() - started
                    )
                return
    finally:
        engine.dispose()


def _connect(engine: Engine) -> None:
    """One connection opened and closed: the database is there (tests replace this)."""
    with engine.connect():
        pass
