"""SQLite's one writer: writes that queue up are committed together, each on its own terms."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path

import pytest

from app.db.writer import SqliteWriter
from app.jsontext import to_bytes, to_text
from tests.kit import wait_for
from tests.service.support import run_async


def test_writes_queued_together_commit_together_and_a_refused_one_rolls_back_alone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "w.sqlite3"

    statements: list[str] = []
    busy_started, release = threading.Event(), threading.Event()

    def busy(_db: object) -> None:
        busy_started.set()
        release.wait(10)

    async def scenario() -> list[object]:
        writer = SqliteWriter(f"sqlite:///{path}")
        try:
            await writer.write(lambda s: s.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)"))
            # every statement the writer's connection runs from now on
            await writer.write(lambda s: s.set_trace_callback(statements.append))
            held = asyncio.ensure_future(writer.write(busy))
            # the writer is busy: the next ones queue up behind it
            await asyncio.to_thread(wait_for, busy_started.is_set, what="the busy write begun")

            def insert(k: int):  # type: ignore[no-untyped-def]
                return lambda s: s.execute("INSERT INTO t VALUES (?)", (k,)) and k

            queued = asyncio.gather(
                *(writer.write(insert(k)) for k in (1, 2, 1, 3)), return_exceptions=True
            )
            # Each write is handed to the writer in its task's first step; tasks take their
            # first step in the order they were made, all before this: then the writer may go.
            asyncio.get_running_loop().call_soon(release.set)
            results = await queued
            await held
            return results
        finally:
            writer.close()

    results = run_async(scenario())
    assert results[0] == 1 and results[1] == 2 and results[3] == 3
    assert isinstance(results[2], sqlite3.IntegrityError)
    # this write, the busy one, then the four queued ones in one commit, one undone alone
    commits = [s for s in statements if s in ("COMMIT", "ROLLBACK TO write")]
    assert commits == ["COMMIT", "COMMIT", "ROLLBACK TO write", "COMMIT"], statements
    with sqlite3.connect(path) as db:
        assert [k for (k,) in db.execute("SELECT k FROM t ORDER BY k")] == [1, 2, 3]


def test_a_write_answers_only_once_it_is_committed(tmp_path: Path) -> None:
    path = tmp_path / "w.sqlite3"

    async def scenario() -> None:
        writer = SqliteWriter(f"sqlite:///{path}")
        try:
            await writer.write(lambda s: s.execute("CREATE TABLE t (k INTEGER)"))
            await writer.write(lambda s: s.execute("INSERT INTO t VALUES (7)"))
            # Another connection sees it the moment the write has answered.
            with sqlite3.connect(path) as db:
                assert db.execute("SELECT k FROM t").fetchall() == [(7,)]
            with pytest.raises(ZeroDivisionError):
                await writer.write(lambda s: 1 / 0)
            # A write alone that fails after writing leaves nothing of it behind.
            with pytest.raises(ZeroDivisionError):
                await writer.write(lambda s: s.execute("INSERT INTO t VALUES (8)") and 1 / 0)
            count = await writer.write(lambda s: s.execute("SELECT count(*) FROM t").fetchone()[0])
            assert count == 1
        finally:
            writer.close()

    run_async(scenario())


def test_json_text_keeps_a_seed_past_64_bits_whole() -> None:
    data = {"seed": 2**80 + 1, "name": "Zoë"}
    assert json.loads(to_text(data)) == data
    assert json.loads(to_bytes({"seq": 3})) == {"seq": 3}
