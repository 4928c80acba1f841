"""The wheel runs anywhere: built from the checkout, installed with the locked
dependencies into a venv of its own, then served from an empty folder and played
over HTTP, as someone who installed the program would.

A venv and an install are slow, so this runs only with SOCLOVER_TEST_WHEEL=1
(`make test-wheel`, which CI runs); otherwise it skips at once.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ..kit import http, wait_for

pytestmark = pytest.mark.skipif(
    os.environ.get("SOCLOVER_TEST_WHEEL") != "1",
    reason="building and installing the wheel is slow: SOCLOVER_TEST_WHEEL=1 (make test-wheel)",
)

ROOT = Path(__file__).resolve().parents[2]

DATA = {
    "static": "app/static",
    "migrations": "app/migrations",
    "app/templates": "app/templates",
    "app/locale": "app/locale",
    "app/bots": "app/bots",
}
"""The repository's folders the server reads, and where the wheel carries them."""


def uv() -> str:
    """The uv `make` installs (UV), else the checkout's, else one on PATH."""
    for candidate in (os.environ.get("UV"), ROOT / ".venv-tools" / "bin" / "uv", "uv"):
        if candidate and (found := shutil.which(candidate)):
            return found
    pytest.fail("uv not found: `make test-wheel` installs it")


def run(*command: str | Path, cwd: Path) -> str:
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, f"{' '.join(map(str, command))}:\n{done.stdout}{done.stderr}"
    return done.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    run(uv(), "build", "--wheel", "--out-dir", dist, "--python", sys.executable, cwd=ROOT)
    (built,) = dist.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel and exactly the locked versions of what it needs."""
    here = tmp_path_factory.mktemp("install")
    requirements = here / "requirements.txt"
    run(
        uv(),
        "export",
        "--frozen",
        "--no-dev",
        "--no-emit-project",
        "--format",
        "requirements.txt",
        "--output-file",
        requirements,
        cwd=ROOT,
    )
    venv = here / "venv"
    python = venv / "bin" / "python"
    run(uv(), "venv", "--python", sys.executable, venv, cwd=here)
    run(uv(), "pip", "install", "--python", python, "--requirements", requirements, cwd=here)
    run(uv(), "pip", "install", "--python", python, "--no-deps", wheel, cwd=here)
    run(uv(), "pip", "check", "--python", python, cwd=here)
    return venv


def test_the_wheel_carries_the_static_files_the_migrations_the_templates_and_the_deck(
    wheel: Path,
) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {"app/keywords.txt"}
    for folder, inside in DATA.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                expected.add(f"{inside}/{path.relative_to(ROOT / folder).as_posix()}")
    assert expected - names == set()


@pytest.fixture(scope="module")
def server(venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The installed `soclover`, started from an empty folder with nothing of the checkout."""
    folder = tmp_path_factory.mktemp("play")
    log = tmp_path_factory.mktemp("log") / "server.log"
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("SOCLOVER_") and name not in ("PYTHONPATH", "VIRTUAL_ENV")
    }
    env["SOCLOVER_DATABASE_URL"] = f"sqlite:///{folder / 'soclover.sqlite3'}"
    env["SOCLOVER_LOG_LEVEL"] = "warning"
    where = run(venv / "bin" / "python", "-c", "import app; print(app.__file__)", cwd=folder)
    assert Path(where.strip()).is_relative_to(venv), f"app imported from {where}"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [venv / "bin" / "soclover", "--port", str(port)],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:

        def health() -> object:
            assert process.poll() is None, f"soclover exited:\n{log.read_text()[-3000:]}"
            try:
                return http.get(f"{url}/healthz", timeout=1).json()
            except (httpx.HTTPError, ValueError):
                return None

        wait_for(health, lambda h: h == {"status": "ok"}, what="soclover to start", timeout=60)
        yield url
        assert (folder / "soclover.sqlite3").is_file()
        process.send_signal(signal.SIGTERM)
        # uvicorn shuts down, then ends itself by the signal it was sent
        assert process.wait(timeout=20) in (0, -signal.SIGTERM), log.read_text()[-3000:]
        assert "Traceback" not in log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_the_installed_program_serves_a_game_its_pages_and_its_static_files(server: str) -> None:
    def post(path: str, body: dict[str, object], token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return http.post(f"{server}{path}", json=body, headers=headers, timeout=10)

    created = post("/api/rooms", {"name": "Ada"})
    assert created.status_code == 201, created.text
    host = created.json()
    assert set(host) == {"code", "token", "seat"}
    code, token = host["code"], host["token"]
    for name in ("Bea", "Cy"):
        joined = post(f"/api/rooms/{code}/join", {"name": name})
        assert joined.status_code == 201, joined.text
    started = post(f"/api/rooms/{code}/actions", {"type": "start"}, token)
    assert started.status_code == 200, started.text

    room = http.get(
        f"{server}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"}, timeout=10
    ).json()
    assert room["phase"] == "clues"
    assert room["you"]["seat"] == 0
    clover = room["clover"]
    assert len(clover["cards"]) == 4
    assert all(len(card["words"]) == 4 for card in clover["cards"])

    home = http.get(f"{server}/", timeout=10)
    assert home.status_code == 200
    assert home.headers["content-type"].startswith("text/html")
    assert "So Clover!" in home.text
    # The catalogs came along: the French and Chinese interfaces.
    for language, said in (("fr", "Créer un salon"), ("zh", "创建房间")):
        translated = http.get(f"{server}/", headers={"Accept-Language": language}, timeout=10)
        assert f'<html lang="{language}' in translated.text, language
        assert said in translated.text and "Create a room" not in translated.text, language
    for name in ("table.css", "vendor/htmx-2.0.11.min.js"):
        served = http.get(f"{server}/static/{name}", timeout=10)
        assert served.status_code == 200, name
        assert served.content == (ROOT / "static" / name).read_bytes()

    page = http.get(f"{server}/r/{code}", cookies={f"soclover_{code}": token}, timeout=10)
    assert page.status_code == 200
    assert f"Room {code}" in page.text
    assert f'action="/r/{code}/join"' not in page.text  # a seat at the table, not its door
    assert clover["cards"][0]["words"][0] in page.text
