"""A consistent copy of a live SQLite database, taken while the server runs and writes.

Copying the file by hand while the server runs is not a backup: the latest
actions sit in the ``-wal`` file beside it, and a copy taken mid-write can hold
half a commit. SQLite's online backup API copies the database page by page as
one reader sees it, whatever the writer does meanwhile.

Two things make that hold on a busy table:

- **One snapshot for the whole copy.** SQLite's backup takes a read lock per
  step and lets it go in between; a write by another connection between two
  steps starts the copy over from the first page, so with players acting every
  few milliseconds a large database would never finish. Here the source keeps
  one read transaction open across the steps (in WAL mode a reader never holds
  the writer up), so the copy is the database exactly as of its first step, and
  the steps only keep each call short. A database not in WAL mode (the server
  always sets WAL; a file from elsewhere may not be) is copied the plain way:
  there a held read lock would stop the writer's commit for the whole copy.
- **Nothing half-written.** The pages go into a temporary file beside the
  target, which is made a standalone file (its journal back to ``DELETE``, so it
  needs no ``-wal``), checked with ``PRAGMA integrity_check``, flushed to disk,
  and only then renamed over the target: the target is the old file or the whole
  new copy, never a part.

The source is opened read-only (``mode=ro``): a mistyped path is refused
instead of becoming a new empty database.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from app.db.engine import SQLITE_BUSY_TIMEOUT_MS, is_sqlite, sync_url

PAGES_PER_STEP = 1024
"""Pages copied per step (4 MB at SQLite's default page size)."""

PG_DUMP = "pg_dump -Fc -f soclover.dump"
"""What to run instead on PostgreSQL, before the database's URL (docs/hosting.md,
"Backups", says more, restoring too)."""


class BackupRefused(Exception):
    """Nothing was copied, for a reason the person running the backup can fix."""


class BackupFailed(Exception):
    """The copy was made but is not sound: the target is left as it was."""


@dataclass(frozen=True)
class Copied:
    """What a finished backup holds."""

    source: Path
    target: Path
    rooms: int | None
    """Rooms in the copy; ``None`` for a database without the table yet (never served)."""
    pages: int
    size: int
    """The copy's size in bytes."""


def database_file(database_url: str) -> Path:
    """The SQLite file a database URL names, as the server would open it (relative to
    the working directory); ``BackupRefused`` for PostgreSQL or a database in memory."""
    try:
        url = sync_url(database_url)
    except ValueError as error:
        raise BackupRefused(str(error)) from None
    if not is_sqlite(database_url):
        # pg_dump takes libpq's URL: no driver name; the password stays out of sight.
        shown = url.set(drivername="postgresql").render_as_string(hide_password=True)
        raise BackupRefused(
            f"the database is PostgreSQL: back it up with {PG_DUMP} '{shown}' "
            "(docs/hosting.md, Backups)"
        )
    name = url.database or ""
    if name in ("", ":memory:") or url.query.get("mode") == "memory":
        raise BackupRefused("the database is in memory: there is no file to back up")
    if name.startswith("file:"):  # a URI filename (sqlite:///file:path?uri=true)
        name = name.removeprefix("file:")
    return Path(name).absolute()


def backup(
    database_url: str,
    target: Path,
    *,
    force: bool = False,
    pages_per_step: int = PAGES_PER_STEP,
) -> Copied:
    """Copy the SQLite database of ``database_url`` to ``target``, atomically.

    ``target`` is left alone if it exists, unless ``force``; its folder must exist.
    """
    source = database_file(database_url)
    target = target.absolute()
    if not source.is_file():
        raise BackupRefused(
            f"no database at {source}: nothing to back up (is SOCLOVER_DATABASE_URL the "
            "server's, and this the server's working directory?)"
        )
    if target.exists() and target.resolve() == source.resolve():
        raise BackupRefused(f"{target} is the database itself: back it up to another file")
    if target.is_dir():
        raise BackupRefused(f"{target} is a folder: name the backup file")
    if target.exists() and not force:
        raise BackupRefused(f"{target} exists already: pass --force to replace it")
    if not target.parent.is_dir():
        raise BackupRefused(f"no folder {target.parent} to write the backup in")

    handle, part_name = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".part"
    )
    os.close(handle)
    part = Path(part_name)
    try:
        pages = _copy(source, part, pages_per_step)
        rooms = _check(part)
        _flush(part)
        os.replace(part, target)
        _flush(target.parent)
    except BaseException:
        for leftover in (part, Path(f"{part}-journal")):
            leftover.unlink(missing_ok=True)
        raise
    return Copied(source, target, rooms, pages, target.stat().st_size)


def _copy(source: Path, part: Path, pages_per_step: int) -> int:
    """Copy ``source`` into the empty file ``part`` as one snapshot; its page count."""
    try:
        src = sqlite3.connect(
            f"file:{quote(str(source))}?mode=ro",
            uri=True,
            timeout=SQLITE_BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,
        )
    except sqlite3.Error as error:
        raise BackupRefused(f"cannot open {source}: {error}") from None
    try:
        try:
            wal = src.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            if wal:
                # The snapshot: a read transaction begins at its first read.
                src.execute("BEGIN")
                src.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as error:
            raise BackupRefused(f"cannot read {source}: {error}") from None
        dst = sqlite3.connect(part, isolation_level=None)
        try:
            src.backup(dst, pages=pages_per_step)
            if wal:
                src.execute("COMMIT")
            # The pages carry the source's header, which says WAL: back to a rollback
            # journal, so the copy is one file that opens anywhere with nothing beside it.
            dst.execute("PRAGMA journal_mode=DELETE").fetchone()
            pages: int = dst.execute("PRAGMA page_count").fetchone()[0]
        finally:
            dst.close()
    finally:
        src.close()
    return pages


def _check(part: Path) -> int | None:
    """Check the copy page by page; the rooms it holds (``None`` without a room table)."""
    with contextlib.closing(sqlite3.connect(f"file:{quote(str(part))}?mode=ro", uri=True)) as db:
        verdict = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if verdict != ["ok"]:
            raise BackupFailed(f"the copy failed its integrity check: {'; '.join(verdict[:5])}")
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "delete":
            raise BackupFailed("the copy still depends on a write-ahead log")
        has_rooms = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'room'"
        ).fetchone()
        if not has_rooms:
            return None
        count: int = db.execute("SELECT count(*) FROM room").fetchone()[0]
        return count


def _flush(path: Path) -> None:
    """Make a file, or a folder's entries (a rename), durable before saying it is done."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
