"""The server's start waits for a database that does not answer yet (PostgreSQL
started beside it by compose), for a while, saying so in the log; then gives up."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from sqlalchemy.exc import OperationalError

from app.config import Settings
from app.db import migrate
from app.db.migrate import wait_for_database

URL = "postgresql://soclover:s3cret-word@db.example:5432/soclover"


class FakeTime:
    """A clock that moves only when slept on: the waits take no real time."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def refusing(times: int) -> tuple[list[object], object]:
    """A stand-in for one connection: refused ``times`` times, then accepted."""
    calls: list[object] = []

    def connect(engine: object) -> None:
        calls.append(engine)
        if len(calls) <= times:
            raise OperationalError("connect", {}, Exception("connection refused\nmore"))

    return calls, connect


def test_the_default_wait_is_a_minute_and_a_setting_changes_it() -> None:
    assert Settings().database_wait_seconds == 60
    assert Settings(database_wait_seconds=0).database_wait_seconds == 0
    with pytest.raises(ValueError):
        Settings(database_wait_seconds=-1)


def test_sqlite_and_no_wait_at_all_try_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls, connect = refusing(1000)
    monkeypatch.setattr(migrate, "_connect", connect)
    wait_for_database("sqlite:////nowhere/soclover.sqlite3", 60)
    wait_for_database(URL, 0)
    assert calls == []


def test_a_database_that_answers_at_once_costs_no_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    calls, connect = refusing(0)
    monkeypatch.setattr(migrate, "_connect", connect)
    fake = FakeTime()
    wait_for_database(URL, 60, clock=fake.clock, sleep=fake.sleep)
    assert len(calls) == 1
    assert fake.slept == []


def test_the_start_waits_until_the_database_answers_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls, connect = refusing(25)
    monkeypatch.setattr(migrate, "_connect", connect)
    fake = FakeTime()
    with caplog.at_level(logging.INFO, logger="app.db.migrate"):
        wait_for_database(URL, 60, clock=fake.clock, sleep=fake.sleep)
    assert len(calls) == 26
    assert fake.slept == [1.0] * 25
    lines = [record.getMessage() for record in caplog.records]
    # the first refusal, then one line each 10 s, then the answer: not one per try
    assert len(lines) == 4
    assert lines[0] == (
        "Waiting for the database at db.example:5432/soclover (connection refused): "
        "trying again for 60 s more (SOCLOVER_DATABASE_WAIT_SECONDS)"
    )
    assert lines[-1] == "The database at db.example:5432/soclover answered after 25 s"
    assert all(record.levelno == logging.WARNING for record in caplog.records)
    assert "s3cret" not in caplog.text


def test_past_its_time_the_start_fails_with_the_database_s_error(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    calls, connect = refusing(1000)
    monkeypatch.setattr(migrate, "_connect", connect)
    fake = FakeTime()
    with pytest.raises(OperationalError, match="connection refused"):
        wait_for_database(URL, 5, pause=2, clock=fake.clock, sleep=fake.sleep)
    assert fake.slept == [2, 2, 1]  # never past the 5 s
    assert len(calls) == 4
    assert "did not answer within 5 s" in caplog.records[-1].getMessage()


def test_a_port_nobody_listens_on_is_waited_for_then_refused() -> None:
    """The real driver: a refused connection is what the wait retries."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free once the socket is closed
    started = time.monotonic()
    with pytest.raises(OperationalError):
        wait_for_database(f"postgresql://u:p@127.0.0.1:{port}/db", 1, pause=0.2)
    assert 0.9 < time.monotonic() - started < 5


def test_the_migrations_wait_first(monkeypatch: pytest.MonkeyPatch) -> None:
    waited: list[tuple[str, float]] = []
    monkeypatch.setattr(migrate, "wait_for_database", lambda url, s: waited.append((url, s)))
    monkeypatch.setattr(migrate.command, "upgrade", lambda config, revision: None)
    migrate.upgrade(URL, wait_seconds=7)
    assert waited == [(URL, 7)]
