"""podman from the tests: images built from the repository's Containerfile, and
containers, volumes and networks that are removed again by their names."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import httpx
import pytest

from ..kit import http
from ..kit.waiting import wait_for

ENABLED = os.environ.get("SOCLOVER_TEST_CONTAINERS") == "1"
SKIP_UNLESS_ENABLED = pytest.mark.skipif(
    not ENABLED,
    reason="images and containers are slow: SOCLOVER_TEST_CONTAINERS=1 (make test-containers)",
)

ROOT = Path(__file__).resolve().parents[2]
IMAGE = "localhost/soclover-table:latest"
"""The name compose.yaml gives the image (`image: soclover-table`), as podman spells it."""
NO_BOTS_IMAGE = "localhost/soclover-table:no-bots"

CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
"""The machine's certificates, lent to the build when it has none of its own to pass (see
``network_arguments``); they do not end up in the image."""
LOCAL_CAS = Path("/usr/local/share/ca-certificates")
"""Where Debian keeps the certificate authorities a machine adds to its store: a proxy
that re-signs TLS has its own there."""


def tool(name: str) -> str:
    """A program the tests need: missing is a failure, never a skip."""
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} not found: `make test-containers` installs it (.ci/containers-setup)")
    return found


def podman(*args: str, timeout: float = 120, check: bool = True) -> str:
    """podman's output; a failure quotes what it said."""
    done = subprocess.run([tool("podman"), *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        pytest.fail(f"podman {' '.join(args)}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


def network_arguments() -> list[str]:
    """What lets a build reach PyPI from this machine's network, as docs/hosting.md says
    to do: the certificate authorities the machine adds to its store (where a proxy
    re-signs TLS, its own is among them) given as the EXTRA_CA_CERT build argument; on
    a machine with none, its whole bundle lent to the build's steps, in case."""
    added = sorted(LOCAL_CAS.rglob("*.crt")) if LOCAL_CAS.is_dir() else []
    if added:
        pems = "".join(path.read_text() for path in added)
        return ["--build-arg", f"EXTRA_CA_CERT={pems}"]
    return ["--volume", f"{CA_BUNDLE}:{CA_BUNDLE}:ro"] if CA_BUNDLE.is_file() else []


def build(tag: str, *build_args: str, target: str | None = None) -> float:
    """The repository's Containerfile built as it is, tagged ``tag``; the seconds it took.

    --format docker: podman's own (OCI) format has no HEALTHCHECK. --pull=never: the
    base image is already here (CI makes a stand-in; no registry is reached). A build
    given its own EXTRA_CA_CERT gets nothing of the machine's."""
    own_ca = any(arg.startswith("EXTRA_CA_CERT=") for arg in build_args)
    network = [] if own_ca else network_arguments()
    arguments = [arg for pair in build_args for arg in ("--build-arg", pair)]
    stage = ["--target", target] if target else []
    started = time.monotonic()
    podman(
        "build", "--pull=never", "--format", "docker", "--tag", tag, *network, *arguments,
        *stage, "--file", str(ROOT / "Containerfile"), str(ROOT),
        timeout=900,
    )  # fmt: skip
    return time.monotonic() - started


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


def inspect(container: str, template: str) -> str:
    return podman("inspect", "--format", template, container).strip()


def logs(container: str) -> str:
    """What the container wrote, its stdout and its stderr (uvicorn's own lines) together."""
    done = subprocess.run(
        [tool("podman"), "logs", container], capture_output=True, text=True, timeout=60
    )
    return done.stdout + done.stderr


def running(container: str) -> bool:
    return inspect(container, "{{.State.Running}}") == "true"


def wait_healthy(url: str, container: str, timeout: float = 120) -> None:
    """Until the server in ``container`` answers /healthz; a container that stops
    fails at once, with its log."""

    def health() -> object:
        if not running(container):
            pytest.fail(f"{container} stopped:\n{logs(container)[-3000:]}")
        try:
            return http.get(f"{url}/healthz", timeout=2).json()
        except (httpx.HTTPError, ValueError):
            return None

    wait_for(health, lambda h: h == {"status": "ok"}, what=f"{container} to serve", timeout=timeout)


def image_size_mb(image: str) -> float:
    return int(podman("image", "inspect", "--format", "{{.Size}}", image)) / 1e6
