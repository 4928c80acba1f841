"""compose.yaml as a self-hoster runs it: `cp .env.example .env`, a password set,
`podman-compose up -d`. The table on PostgreSQL keeps a game across a restart of
its container, a stop and start, a start before its database (it waits), and
new containers on the same volumes."""

from __future__ import annotations

import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..kit import start_and_write_clues, table
from ..kit.server import free_port
from ..kit.waiting import wait_for
from .support import ROOT, SKIP_UNLESS_ENABLED, logs, podman, tool, unique, wait_healthy

pytestmark = SKIP_UNLESS_ENABLED


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


@pytest.fixture
def project(image: str, tmp_path: Path) -> Iterator[Project]:
    made = Project(tmp_path)
    try:
        yield made
    finally:
        made.compose("down", "--volumes", timeout=120)
        made.remove()
        left = podman("ps", "--all", "--format", "{{.Names}}").split()
        assert not [name for name in left if name.startswith(made.name)]


def test_a_game_on_postgresql_outlives_restarts_and_new_containers(project: Project) -> None:
    project.compose("up", "--detach")
    project.serving()

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
