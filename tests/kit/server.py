"""Real servers for the API and browser tests, on a real database and a real socket.

Two kinds, with one interface (``url``, ``database_url``, ``start``, ``stop``):

- ``ThreadServer``, what ``make_server``, ``server``, ``api`` and ``shared_server`` give:
  the app served by uvicorn on a thread of the test process, on a socket of its own.
  Streams, client addresses, rate limits per address and ``/metrics`` (loopback
  only) behave as on any server, and a start costs a tenth of a second: the test
  process imports the app, reads the decks and warms the clue checkers once, not
  once a server.
- ``Server``: ``soclover`` in a subprocess, as people run it. Only for what a
  thread cannot be: a server killed with kill -9 (``kill``), several workers on one
  database, and a log file to read (the access log, tracebacks), since a process's
  logging is shared by every server on its threads. ``make_server(process=True)``.

Settings come as ``SOCLOVER_*`` variables for both: a subprocess reads them from its
environment, a thread's ``Settings`` gets them as its own values (over the process's
environment, as the subprocess's would be).
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from unittest import mock

import httpx
import uvicorn
from fastapi import FastAPI

from . import http
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


TEST_LIMITS = {
    # Tests read rooms without a seat and chat far more than people do; the tests of
    # those limits set their own.
    "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "100000",
    "SOCLOVER_CHAT_BURST": "100000",
}


class Server:
    """``soclover`` in a subprocess: for kill -9, several workers, or its log file."""

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
            return str(http.get(f"{self.url}/healthz", timeout=1).json()["status"])
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


class ThreadServer(Server):
    """The app served by uvicorn on a thread of the test process, on its own socket.

    A ``Server`` in all but its process: no ``kill`` (kill -9 needs a process of its
    own) and no log file (the process's logging is the tests' own: what the app logs
    shows in a failing test's report). Each ``start`` builds the app anew on the
    same database, as a restarted process would.
    """

    def __init__(self, database: Path | str, log: Path, **env: str) -> None:
        super().__init__(database, log, **env)
        self.port, self.url = 0, ""  # known once it listens
        self._uvicorn: uvicorn.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.app: FastAPI | None = None

    def start(self) -> ThreadServer:
        from app.cli import proxy_options
        from app.config import Settings
        from app.main import create_app
        from app.service import housekeeping

        values = {**TEST_LIMITS, "SOCLOVER_DATABASE_URL": self.database_url, **self.env}
        settings = Settings(**{k.removeprefix("SOCLOVER_").lower(): v for k, v in values.items()})
        # Bound here and handed to uvicorn: no other process can take the port between
        # its choice and the listening. A restart listens on the same port again, and so
        # does a server given another's port before its start (one killed, taken over).
        listening = socket.socket()
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(("127.0.0.1", self.port))
        self.port = listening.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(settings)
        config = uvicorn.Config(
            self.app,
            log_config=None,  # the process's logging stays the tests'
            log_level="warning",
            access_log=False,
            **proxy_options(settings),  # as app.cli serves
            timeout_graceful_shutdown=3,
        )
        self._uvicorn = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._serve, args=(config, listening), name=f"server:{self.port}", daemon=True
        )
        # The app calms the collector for a server's whole process at its start
        # (housekeeping's calm_garbage_collector: a full collection, then everything
        # frozen): here the process is the tests', whose garbage is its own business,
        # and a full collection of all it holds (every test module, the word data) took
        # a fifth of a second at every start of a server.
        with mock.patch.object(housekeeping, "calm_garbage_collector", lambda: None):
            self._thread.start()
            wait_for(
                lambda: self._uvicorn is not None and (self._uvicorn.started or not self._alive()),
                what=f"the server on {self.url} to start",
                timeout=30,
            )
        if not self._uvicorn.started:
            raise RuntimeError(f"server did not start on {self.url}: see its log above")
        self.started = True
        return self

    def _serve(self, config: uvicorn.Config, listening: socket.socket) -> None:
        assert self._uvicorn is not None
        try:
            with asyncio.Runner(loop_factory=config.get_loop_factory()) as runner:
                self._loop = runner.get_loop()
                runner.run(self._uvicorn.serve(sockets=[listening]))
        finally:
            listening.close()

    def _alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self) -> None:
        """Stop as on SIGTERM: the live streams are ended, then uvicorn shuts down."""
        if not self._alive():
            return
        assert self._uvicorn is not None and self._loop is not None and self.app is not None
        # On SIGTERM the app has the hub end every stream (close_streams_at_shutdown);
        # a thread gets no signal, so the hub is told here, in the server's loop.
        service = getattr(self.app.state, "service", None)
        if service is not None:
            self._loop.call_soon_threadsafe(service.hub.close)
        self._uvicorn.should_exit = True
        assert self._thread is not None
        self._thread.join(15)
        assert not self._thread.is_alive(), f"the server on {self.url} did not stop"

    def kill(self) -> None:
        raise TypeError("kill -9 needs a server in a process of its own: Server, not ThreadServer")
