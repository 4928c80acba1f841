"""``soclover backup`` on a real SQLite file: a database the app wrote, still open, copied
whole and standalone; what it refuses; and a target that is the old file or the whole new
copy, never a part."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from app import cli
from app.config import get_settings
from app.db import backup as backup_module
from app.db.backup import BackupFailed, BackupRefused, backup, database_file
from app.rules.actions import Say
from app.service.seats import Seat
from tests.kit import wait_for
from tests.service.support import run_async, sqlite_service


def _rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return db.execute(sql).fetchall()


def test_a_live_database_is_copied_whole_into_one_standalone_file(tmp_path: Path) -> None:
    live = tmp_path / "live"
    live.mkdir()
    target = tmp_path / "backup.sqlite3"

    async def scenario() -> tuple[list[str], dict[str, list[str]]]:
        async with sqlite_service(live) as service:
            codes = []
            for host in ("Ada", "Bea"):
                code = (await service.create(host, 1)).code
                await service.join(code, "Cy")
                for n in range(5):
                    await service.act(code, Seat(code, n % 2), Say(f"{code} line {n}"))
                codes.append(code)
            # The server is still running: its latest writes are in the -wal file.
            wal = live / "rooms.sqlite3-wal"
            assert wal.stat().st_size > 0
            copied = backup(f"sqlite:///{live / 'rooms.sqlite3'}", target)
            assert copied.rooms == 2 and copied.size == target.stat().st_size
            return codes, {c: [f"{c} line {n}" for n in range(5)] for c in codes}

    codes, said = run_async(scenario())
    assert sorted(target.parent.iterdir()) == [target, tmp_path / "live"], "nothing beside it"
    assert _rows(target, "PRAGMA journal_mode") == [("delete",)]
    assert _rows(target, "PRAGMA integrity_check") == [("ok",)]

    # Restored: a service on the copy reads every room, chat and all, and plays on.
    restored = tmp_path / "restored"
    restored.mkdir()
    (restored / "rooms.sqlite3").write_bytes(target.read_bytes())

    async def after() -> None:
        async with sqlite_service(restored) as service:
            for code in codes:
                view = await service.view(code, 0)
                assert [line["text"] for line in view["chat"]] == said[code]
                assert [p["name"] for p in view["players"]][1:] == ["Cy"]
            update = await service.act(codes[0], Seat(codes[0], 1), Say("after the restore"))
            assert (await update.view())["chat"][-1]["text"] == "after the restore"

    run_async(after())


def test_the_copy_is_one_snapshot_and_finishes_while_a_writer_never_stops(
    tmp_path: Path,
) -> None:
    """SQLite's stepped backup starts over whenever another connection writes between two
    steps; held to one snapshot it finishes, and holds whole transactions only."""
    source = tmp_path / "busy.sqlite3"
    with contextlib.closing(sqlite3.connect(source, isolation_level=None)) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE pair (k INTEGER PRIMARY KEY, v BLOB)")
        db.execute("BEGIN")
        db.executemany("INSERT INTO pair (v) VALUES (randomblob(900))", [()] * 4000)
        db.execute("COMMIT")
    stop, commits = threading.Event(), [0]

    def writer() -> None:
        # Rows go in two at a time: a copy with an odd count holds half a transaction.
        with contextlib.closing(sqlite3.connect(source, isolation_level=None)) as db:
            while not stop.is_set():
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO pair (v) VALUES (randomblob(50))")
                db.execute("INSERT INTO pair (v) VALUES (randomblob(50))")
                db.execute("COMMIT")
                commits[0] += 1

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        wait_for(lambda: commits[0], lambda n: n >= 20, what="the writer writing")
        before = commits[0]
        copied = backup(f"sqlite:///{source}", tmp_path / "copy.sqlite3", pages_per_step=8)
        during = commits[0] - before
    finally:
        stop.set()
        thread.join()
    assert copied.pages > 8 * 100, "many steps"
    assert during > 0, "the writer was not held up"
    (count,) = _rows(tmp_path / "copy.sqlite3", "SELECT count(*) FROM pair")[0]
    assert isinstance(count, int) and count % 2 == 0 and count >= 4000 + 2 * before


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://table:secret@db:5432/soclover",
        "postgres://table:secret@db/soclover?sslmode=require",
        "postgresql+asyncpg://table:secret@db/soclover",
    ],
)
def test_postgresql_is_refused_with_the_pg_dump_command(tmp_path: Path, url: str) -> None:
    with pytest.raises(BackupRefused) as refused:
        backup(url, tmp_path / "b.sqlite3")
    message = str(refused.value)
    assert "pg_dump -Fc" in message and "'postgresql://table:***@db" in message
    assert "secret" not in message
    assert list(tmp_path.iterdir()) == []


def test_a_missing_database_is_refused_and_not_created(tmp_path: Path) -> None:
    with pytest.raises(BackupRefused, match=r"no database at .*missing\.sqlite3"):
        backup(f"sqlite+aiosqlite:///{tmp_path / 'missing.sqlite3'}", tmp_path / "b.sqlite3")
    assert list(tmp_path.iterdir()) == []


def test_urls_name_the_file_the_server_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert database_file("sqlite:///soclover.sqlite3") == tmp_path / "soclover.sqlite3"
    assert database_file("sqlite+aiosqlite:////data/s.sqlite3") == Path("/data/s.sqlite3")
    for memory in ("sqlite://", "sqlite:///:memory:"):
        with pytest.raises(BackupRefused, match="in memory"):
            database_file(memory)


def _database(path: Path) -> Path:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE room (code TEXT PRIMARY KEY)")
        db.execute("INSERT INTO room VALUES ('K7QMX6')")
        db.commit()
    return path


def test_an_existing_target_is_kept_unless_forced(tmp_path: Path) -> None:
    source = _database(tmp_path / "s.sqlite3")
    target = tmp_path / "b.sqlite3"
    target.write_bytes(b"last night's backup")
    with pytest.raises(BackupRefused, match="exists already: pass --force"):
        backup(f"sqlite:///{source}", target)
    assert target.read_bytes() == b"last night's backup"
    with pytest.raises(BackupRefused, match="the database itself"):
        backup(f"sqlite:///{source}", source, force=True)
    assert backup(f"sqlite:///{source}", target, force=True).rooms == 1
    assert _rows(target, "SELECT code FROM room") == [("K7QMX6",)]


def test_a_copy_that_fails_leaves_the_target_as_it_was_and_nothing_beside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _database(tmp_path / "s.sqlite3")
    target = tmp_path / "b.sqlite3"
    target.write_bytes(b"last night's backup")

    def unsound(part: Path) -> int:
        assert part.parent == target.parent and part.name.endswith(".part")
        assert part.stat().st_size > 0, "the pages went to the temporary file"
        assert target.read_bytes() == b"last night's backup"
        raise BackupFailed("the copy failed its integrity check: page 2 is never used")

    monkeypatch.setattr(backup_module, "_check", unsound)
    with pytest.raises(BackupFailed):
        backup(f"sqlite:///{source}", target, force=True)
    assert target.read_bytes() == b"last night's backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.sqlite3", "s.sqlite3"]


# --- the command line ----------------------------------------------------------------------


def _soclover(
    args: list[str], url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setenv("SOCLOVER_DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        code = cli.main(args)
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_says_what_it_copied_or_why_not_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env of the checkout's
    source = _database(tmp_path / "soclover.sqlite3")
    code, out, err = _soclover(
        ["backup", "b.sqlite3"], "sqlite:///soclover.sqlite3", monkeypatch, capsys
    )
    assert code == 0 and err == ""
    assert out.startswith(f"soclover backup: {source} copied to {tmp_path / 'b.sqlite3'}: 1 rooms")

    code, out, err = _soclover(
        ["backup", "b.sqlite3"], "sqlite:///soclover.sqlite3", monkeypatch, capsys
    )
    assert (code, out) == (2, "") and err.count("\n") == 1 and "--force" in err

    code, out, err = _soclover(
        ["backup", "c.sqlite3"], "postgresql://u:pw@db/s", monkeypatch, capsys
    )
    assert (code, out) == (2, "") and err.count("\n") == 1 and "pg_dump -Fc" in err

    code, out, err = _soclover(
        ["backup", "c.sqlite3"], "sqlite:///gone.sqlite3", monkeypatch, capsys
    )
    assert (code, out) == (2, "") and err.count("\n") == 1 and "no database at" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.sqlite3", "soclover.sqlite3"]


def test_help_lists_serving_and_backing_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for args, said in (
        (["--help"], ("serve", "backup", "--port")),
        (["backup", "--help"], ("FILE", "--force", "pg_dump")),
    ):
        with pytest.raises(SystemExit) as done:
            cli.main(args)
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert all(word in out for word in said), out
