"""compose.yaml as a self-hoster runs it: `cp .env.example .env`, a password set,
`podman-compose up -d`. The table on PostgreSQL keeps a game across a restart of
its container, a stop and start, a start before its database (it waits), and
new containers on the same volumes; and docs/hosting.md's backup, run as written,
brings a game back into a new database. One project serves the module's tests."""

from __future__ import annotations

import re
import secrets
import shutil
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..kit import start_and_write_clues, table
from ..kit.server import free_port
from ..kit.waiting import wait_for
from .support import (
    ROOT,
    SKIP_UNLESS_ENABLED,
    inspect,
    logs,
    podman,
    tool,
    unique,
    wait_healthy,
)

pytestmark = SKIP_UNLESS_ENABLED

HOSTING = ROOT / "docs" / "hosting.md"


def documented(*words: str) -> list[str]:
    """The `docker compose` lines of docs/hosting.md's first shell block holding all of
    ``words``, as a self-hoster would copy them."""
    for block in re.findall(r"```sh\n(.*?)```", HOSTING.read_text(), re.S):
        lines = [line for line in block.splitlines() if line.startswith("docker compose ")]
        if lines and all(word in block for word in words):
            return lines
    pytest.fail(f"docs/hosting.md has no `docker compose` block with {words}")


class Project:
    """One compose project: compose.yaml and an .env made from .env.example in a
    folder of its own, under a name no one else uses."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.name = unique("soclovertest")
        self.port = free_port()
        shutil.copyfile(ROOT / "compose.yaml", folder / "compose.yaml")
        self.password = secrets.token_hex(16)
        env = (ROOT / ".env.example").read_text()
        assert "\nPOSTGRES_PASSWORD=\n" in env, "the example leaves the password to be set"
        env = env.replace("\nPOSTGRES_PASSWORD=\n", f"\nPOSTGRES_PASSWORD={self.password}\n")
        env = env.replace("\nTABLE_PORT=8000\n", f"\nTABLE_PORT={self.port}\n")
        (folder / ".env").write_text(env)
        self.url = f"http://127.0.0.1:{self.port}"

    def compose(self, *args: str, timeout: float = 180) -> str:
        done = subprocess.run(
            [tool("podman-compose"), "--project-name", self.name, *args],
            cwd=self.folder, capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
        assert done.returncode == 0, f"podman-compose {' '.join(args)}:\n{done.stdout}{done.stderr}"
        return done.stdout

    def run(self, line: str) -> str:
        """A line of docs/hosting.md run in the project's folder as written, but with
        podman-compose for `docker compose`: what it printed, stdout and stderr."""
        assert line.startswith("docker compose ")
        command = f"{tool('podman-compose')} --project-name {self.name} {line[15:]}"
        done = subprocess.run(
            ["sh", "-c", command], cwd=self.folder, capture_output=True, text=True, timeout=180
        )
        said = done.stdout + done.stderr
        assert done.returncode == 0, f"{line}:\n{said}"
        # podman-compose 1.0.3 ends 0 whatever the command it ran in a container did,
        # and prints that command's own exit code last.
        assert re.findall(r"^exit code: (\d+)$", said, re.M) in ([], ["0"]), f"{line}:\n{said}"
        return said

    def up(self) -> None:
        """Started, unless it is already (by an earlier test of the module)."""
        table = self.container("table")
        if podman("ps", "--quiet", "--filter", f"name=^{table}$").strip():
            assert inspect(table, "{{.State.Running}}") == "true"
        else:
            self.compose("up", "--detach")
        self.serving()

    def container(self, service: str) -> str:
        return f"{self.name}_{service}_1"

    def serving(self) -> None:
        wait_healthy(self.url, self.container("table"))

    def psql(self, query: str) -> str:
        return podman(
            "exec", self.container("db"), "psql", "-U", "soclover", "-d", "soclover", "-tAc", query
        ).strip()

    def remove(self) -> None:
        """Whatever the project made, found by its label (images stay, as cache)."""
        label = f"label=io.podman.compose.project={self.name}"
        for kind, remove in (
            ("container", ["rm", "--force", "--time", "0"]),
            ("volume", ["volume", "rm", "--force"]),
            ("network", ["network", "rm", "--force"]),
        ):
            listing = ["ps", "--all"] if kind == "container" else [kind, "ls"]
            made = podman(*listing, "--quiet", "--filter", label, check=False).split()
            if made:
                podman(*remove, *made, check=False)


@pytest.fixture(scope="module")
def project(image: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    made = Project(tmp_path_factory.mktemp("compose"))
    try:
        yield made
    finally:
        made.compose("down", "--volumes", timeout=120)
        made.remove()
        left = podman("ps", "--all", "--format", "{{.Names}}").split()
        assert not [name for name in left if name.startswith(made.name)]


def test_a_game_on_postgresql_outlives_restarts_and_new_containers(project: Project) -> None:
    project.up()

    players = table(project.url, 3)
    code = players[0].code
    state = start_and_write_clues(players)
    spectator = state["resolution"]["spectator"]
    guesser = next(p for p in players if p.seat != spectator)
    card = guesser.state()["resolution"]["pool"][0]["card"]
    placed = guesser.act("place", card=card, spot=0, rotation=0)
    assert placed["resolution"]["board"][0]["card"] == card
    # in PostgreSQL, not in a file of the table's container
    assert project.psql(f"SELECT count(*) FROM room WHERE code = '{code}'") == "1"
    actions = int(project.psql("SELECT count(*) FROM action"))
    before = [player.state() for player in players]

    def unchanged() -> None:
        """Every seat's room as it was: the game, its board, its clues."""
        for seat, was in zip(players, before, strict=True):
            now = seat.state()
            for block in ("phase", "clover", "resolution", "chat", "results"):
                assert now[block] == was[block], (seat.name, block)
            assert [p["name"] for p in now["players"]] == ["Ada", "Bea", "Cy"]
        assert int(project.psql("SELECT count(*) FROM action")) == actions

    project.compose("restart", "table")
    project.serving()
    unchanged()

    project.compose("stop", "table")
    project.compose("start", "table")
    project.serving()
    unchanged()

    # The table started before its database waits for it, then serves.
    project.compose("stop", "table", "db")
    project.compose("start", "table")
    wait_for(
        lambda: logs(project.container("table")),
        lambda log: "Waiting for the database at db:5432/soclover" in log,
        what="the table to wait for its database",
        timeout=60,
    )
    project.compose("start", "db")
    project.serving()
    unchanged()
    assert project.password not in logs(project.container("table"))

    # New containers on the same volumes: the game goes on where it was.
    project.compose("down")
    project.compose("up", "--detach")
    project.serving()
    unchanged()
    turned = guesser.act("rotate", spot=0, turns=1)
    assert turned["resolution"]["board"][0] == {**before[guesser.seat]["resolution"]["board"][0],
                                                "rotation": 1}  # fmt: skip
    assert int(project.psql("SELECT count(*) FROM action")) == actions + 1


def test_the_documented_backup_brings_a_game_back_into_a_new_database(project: Project) -> None:
    """docs/hosting.md's compose backup and restore, as written: the dump file holds the
    dump alone (pg_restore takes it), is the owner's only, nothing shows the password,
    and the game is back, whole, in a database made anew."""
    project.up()
    players = table(project.url, 3)
    start_and_write_clues(players)
    spectator = players[0].state()["resolution"]["spectator"]
    guesser = next(p for p in players if p.seat != spectator)  # the Spectator is silent
    guesser.act("say", text="worth a backup")
    before = [player.state() for player in players]

    said = "".join(project.run(line) for line in documented("pg_dump"))
    assert project.password not in said
    assert "pg_dump:" not in said, said
    # one file, under its name (the temporary one renamed), the owner's only
    dumps = sorted((project.folder / "backups").iterdir())
    assert len(dumps) == 1, dumps
    dump = dumps[0]
    assert re.fullmatch(r"soclover-\d{4}-\d\d-\d\d\.dump", dump.name), dump
    assert stat.S_IMODE(dump.stat().st_mode) == 0o600
    data = dump.read_bytes()
    # pg_dump's custom format from its first byte, nothing of the compose tool's in it
    assert data.startswith(b"PGDMP")
    assert b"podman" not in data and project.password.encode() not in data

    # A new database: the volumes gone, the table started on an empty one.
    project.compose("down", "--volumes")
    project.up()
    gone = players[0].http.get(f"{project.url}/api/rooms/{players[0].code}")
    assert gone.status_code == 404

    restore = [
        re.sub(r"soclover-\d{4}-\d\d-\d\d\.dump", dump.name, line)
        for line in documented("pg_restore")
    ]
    assert any(dump.name in line for line in restore), restore
    said = "".join(project.run(line) for line in restore)
    assert project.password not in said
    assert "pg_restore:" not in said, said  # its errors and warnings
    project.serving()
    for player, was in zip(players, before, strict=True):
        now = player.state()
        for block in ("phase", "clover", "resolution", "chat", "seq"):
            assert now[block] == was[block], (player.name, block)
    # and the game goes on from there
    spectator = before[0]["resolution"]["spectator"]
    guesser = next(p for p in players if p.seat != spectator)
    card = before[guesser.seat]["resolution"]["pool"][0]["card"]
    placed = guesser.act("place", card=card, spot=0, rotation=0)
    assert placed["resolution"]["board"][0]["card"] == card
