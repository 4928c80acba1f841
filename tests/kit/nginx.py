"""A real nginx in front of a test server, configured by the very file self-hosters copy.

``docs/deploy/nginx.conf`` is read as it is shipped, and only what must differ on a
test machine is changed: where it listens (a free port on 127.0.0.1, and a Unix socket
beside it: a client nginx sees at an address that is not the machine's) and the one
server it sends to (the test server's port). Every other line, the headers it sets
first of all, is the shipped file's. nginx runs as a process of the test's, never as
root (as root, it is started as ``nobody``), with its files in a folder of its own.

Debian's package ``nginx`` provides it. Without it the tests that need it skip, saying
so; with ``SOCLOVER_REQUIRE_NGINX=1`` (CI, ``.ci/run``) they fail instead.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path

import httpx

from . import http
from .server import ROOT, free_port
from .waiting import wait_for

NGINX = Path(os.environ.get("SOCLOVER_NGINX", "/usr/sbin/nginx"))
REQUIRED = os.environ.get("SOCLOVER_REQUIRE_NGINX") == "1"
SHIPPED = ROOT / "docs" / "deploy" / "nginx.conf"
NOBODY = 65534
"""Debian's ``nobody`` and ``nogroup``: who nginx runs as when the tests run as root."""

LISTEN = re.compile(r"^(\s*)listen 80;$", re.MULTILINE)
UPSTREAM = re.compile(r"^(\s*)server 127\.0\.0\.1:8001;$", re.MULTILINE)
"""The one ``server`` line of the upstream that is not a comment."""


def missing() -> str | None:
    """Why nginx cannot run here, or None."""
    if not os.access(NGINX, os.X_OK):
        return f"no nginx at {NGINX} (apt-get install nginx)"
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        return "running as root, and no setpriv to start nginx as nobody"
    return None


def site(shipped: str, port: int, socket: Path, upstream: int) -> str:
    """The shipped site with its listening and its server changed, each exactly once: a
    file whose shape changed fails here, rather than being tested as something else."""
    text, listens = LISTEN.subn(rf"\1listen 127.0.0.1:{port};\n\1listen unix:{socket};", shipped)
    text, servers = UPSTREAM.subn(rf"\1server 127.0.0.1:{upstream};", text)
    assert (listens, servers) == (1, 1), "docs/deploy/nginx.conf no longer has the lines replaced"
    return text


MAIN = """\
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
"""
"""What nginx's own /etc/nginx/nginx.conf gives the site, here in the test's folder."""


class Nginx:
    """nginx serving ``SHIPPED`` (or ``conf``) in front of the server on ``upstream``."""

    def __init__(self, upstream: int, conf: Path = SHIPPED) -> None:
        self.upstream = upstream
        self.conf = conf
        self.folder = Path(tempfile.mkdtemp(prefix="soclover-nginx-"))
        self.socket = self.folder / "nginx.sock"
        self.port = 0
        self.url = ""
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Nginx:
        """Start it and wait until it answers for the server; another free port if the
        one chosen was taken meanwhile (the tests run in two processes)."""
        if os.geteuid() == 0:
            os.chown(self.folder, NOBODY, NOBODY)
        for attempt in range(3):
            self.port = free_port()
            self.url = f"http://127.0.0.1:{self.port}"
            (self.folder / "site.conf").write_text(
                site(self.conf.read_text(), self.port, self.socket, self.upstream)
            )
            (self.folder / "nginx.conf").write_text(MAIN.format(folder=self.folder))
            as_nobody = (
                ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
                if os.geteuid() == 0
                else []
            )
            self.process = subprocess.Popen(
                [
                    *as_nobody,
                    str(NGINX),
                    "-p",
                    str(self.folder),
                    "-c",
                    str(self.folder / "nginx.conf"),
                    "-e",
                    str(self.folder / "error.log"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            if wait_for(self._answer, lambda state: state != "starting", what="nginx") == "ok":
                return self
            if "Address already in use" not in self.log() or attempt == 2:
                raise RuntimeError(f"nginx did not start: {self.log()}")
        raise AssertionError("unreachable")

    def _answer(self) -> str:
        """``ok`` once nginx passes /healthz on to the server, ``exited`` if it stopped."""
        assert self.process is not None
        if self.process.poll() is not None:
            return "exited"
        try:
            ok = http.get(f"{self.url}/healthz", timeout=1).status_code == 200
        except httpx.HTTPError:
            ok = False
        return "ok" if ok and self.socket.exists() else "starting"

    def log(self) -> str:
        error_log = self.folder / "error.log"
        return error_log.read_text()[-2000:] if error_log.exists() else "(no error log)"

    def stranger(self) -> httpx.Client:
        """A client nginx sees at an address that is not the machine's: through its Unix
        socket (``$remote_addr`` is ``unix:`` there), as if from the internet."""
        return http.Client(
            transport=httpx.HTTPTransport(uds=str(self.socket)),
            base_url="http://clover.example.org",
            timeout=5,
        )

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
