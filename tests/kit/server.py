"""A real server for the API tests: uvicorn in a subprocess on a real SQLite file.

Streams need a real server (an in-process transport does not stream), and the
crash test needs a process it can kill.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from .waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PortTaken(RuntimeError):
    """The server could not listen: another process has its port."""


POSTGRES = os.environ.get("SOCLOVER_TEST_POSTGRES", "")
"""A PostgreSQL server URL without a database (postgresql://user@host:port): when set,
every test server gets a fresh database there instead of an SQLite file."""


def fresh_database(sqlite_file: Path) -> str:
    """A database URL nobody has used: an SQLite file, or a new PostgreSQL database."""
    if not POSTGRES:
        return f"sqlite:///{sqlite_file}"
    import psycopg

    name = f"soclover_test_{secrets.token_hex(6)}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{POSTGRES}/{name}"


def drop_database(url: str) -> None:
    """Remove a test database made by ``fresh_database`` (SQLite files go with tmp_path)."""
    if not url.startswith("postgresql"):
        return
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Server:
    def __init__(self, database: Path | str, log: Path, **env: str) -> None:
        self.database_url = database if isinstance(database, str) else f"sqlite:///{database}"
        self.log = log
        self.env = env
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.started = False

    def start(self) -> Server:
        """Start the server and wait until it serves. On its first start, a port another
        test process took meanwhile (the tests run in two) is traded for another."""
        for _ in range(3):
            try:
                return self._start()
            except PortTaken:
                if self.started:
                    raise
                self.port = free_port()
                self.url = f"http://127.0.0.1:{self.port}"
        return self._start()

    def _start(self) -> Server:
        env = {
            **os.environ,
            "SOCLOVER_DATABASE_URL": self.database_url,
            "SOCLOVER_LOG_LEVEL": "warning",
            # Tests read rooms without a seat and chat far more than people do; the
            # tests of those limits set their own.
            "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "100000",
            "SOCLOVER_CHAT_BURST": "100000",
            **self.env,
        }
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app.cli", "--port", str(self.port)],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_for(self._health, lambda status: status == "ok", what="/healthz ok", timeout=30)
        except AssertionError as slow:
            log = self.log.read_text()[-2000:]
            raise RuntimeError(f"server did not start ({slow}): {log}") from None
        self.started = True
        return self

    def _health(self) -> str | None:
        """What /healthz says now; ``None`` while nothing answers. A server that exited
        never will: that is raised at once, with its log."""
        assert self.process is not None
        if self.process.poll() is not None:
            log = self.log.read_text()[-2000:]
            if f"'127.0.0.1', {self.port}): address already in use" in log:
                raise PortTaken(log)
            raise RuntimeError(f"server exited: {log}")
        try:
            return str(httpx.get(f"{self.url}/healthz", timeout=1).json()["status"])
        except (httpx.HTTPError, ValueError, KeyError):
            return None

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def kill(self) -> None:
        """kill -9: no shutdown, no flush, nothing but what is on disk survives."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()


@contextmanager
def running(folder: Path, **env: str) -> Iterator[Server]:
    """A server on a fresh database for a whole module; stopped and dropped after."""
    url = fresh_database(folder / "soclover.sqlite3")
    server = Server(url, folder / "server.log", **env).start()
    try:
        yield server
    finally:
        server.stop()
        drop_database(url)
