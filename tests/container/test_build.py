"""The Containerfile's two build arguments for networks of one's own (docs/hosting.md,
"Building behind a proxy or from a mirror"): the base image taken from the name
PYTHON_IMAGE gives (a mirror, a registry of one's own), and the certificate
authorities of EXTRA_CA_CERT trusted by the image (a proxy that re-signs TLS).

Only the Containerfile's first stage is built here, the one both arguments act on:
a few seconds, without PyPI. The whole image is built with EXTRA_CA_CERT as well
wherever this machine has a certificate authority of its own (see
``support.network_arguments``), through its network's proxy."""

from __future__ import annotations

import ssl
import subprocess
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from .support import ROOT, SKIP_UNLESS_ENABLED, build, podman, tool, unique

pytestmark = SKIP_UNLESS_ENABLED

OFFICIAL = "docker.io/library/python:3.12-slim"
"""The Containerfile's default base (on CI, the stand-in that .ci/containers-setup tags so)."""

REACH = """
import sys, urllib.request
bundle = open("/etc/ssl/certs/ca-certificates.crt").read()
print("in the bundle:", sys.argv[2] in bundle)
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())
except OSError as error:
    print("refused:", error)
"""
"""Run in a container: whether the system bundle (pip's PIP_CERT, uv's and Python's
store) holds the certificate, and what an HTTPS request to the test's server gets."""


def openssl(*args: str, cwd: Path) -> None:
    done = subprocess.run([tool("openssl"), *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, f"openssl {' '.join(args)}: {done.stderr}"


def throwaway_ca(folder: Path) -> tuple[str, ssl.SSLContext]:
    """A certificate authority made for this test (its PEM) and a server context whose
    certificate, for localhost and 127.0.0.1, it signed: what a re-signing proxy shows."""
    openssl(
        "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
        "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
        "-subj", f"/CN=So Clover test proxy {uuid.uuid4().hex[:8]}",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        cwd=folder,
    )  # fmt: skip
    openssl(
        "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
        "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost",
        cwd=folder,
    )  # fmt: skip
    (folder / "server.ext").write_text(
        "subjectAltName=DNS:localhost,IP:127.0.0.1\n"
        "basicConstraints=critical,CA:FALSE\n"
        "keyUsage=critical,digitalSignature\n"
        "extendedKeyUsage=serverAuth\n"
        "subjectKeyIdentifier=hash\n"
        "authorityKeyIdentifier=keyid,issuer\n"
    )
    openssl(
        "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
        cwd=folder,
    )  # fmt: skip
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(folder / "server.pem", folder / "server.key")
    return (folder / "ca.pem").read_text(), context


class Hello(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"through the proxy"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def proxy(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """An HTTPS server on this machine with a certificate of a throwaway authority: its
    address and that authority's PEM."""
    ca, context = throwaway_ca(tmp_path)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://localhost:{server.server_address[1]}/", ca
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def images() -> Iterator[list[str]]:
    """Names of the images a test makes, removed at its end."""
    made: list[str] = []
    try:
        yield made
    finally:
        if made:
            podman("rmi", "--force", *made, check=False)


def test_the_base_image_and_an_extra_ca_come_from_build_arguments(
    proxy: tuple[str, str], images: list[str], tmp_path: Path
) -> None:
    url, ca = proxy
    # A "mirror": the base image under a mirror's name, marked so that an image built
    # on it shows it. Were PYTHON_IMAGE ignored, the build would take the official name.
    mark = uuid.uuid4().hex
    mirror = f"mirror.invalid/{unique('soclover-test-')}/python:3.12-slim"
    (tmp_path / "Mirror").write_text(f"FROM {OFFICIAL}\n")
    images.append(mirror)
    podman(
        "build", "--pull=never", "--format", "docker", "--tag", mirror,
        "--label", f"soclover.test.mirror={mark}", "--file", str(tmp_path / "Mirror"),
        str(tmp_path),
    )  # fmt: skip

    base = f"localhost/{unique('soclover-test-base-')}:latest"
    images.append(base)
    build(base, f"PYTHON_IMAGE={mirror}", f"EXTRA_CA_CERT={ca}", target="base")
    label = '{{index .Labels "soclover.test.mirror"}}'
    assert podman("image", "inspect", "--format", label, base).strip() == mark

    body = ca.strip().splitlines()[1]  # the certificate's first line of base64
    run = ["run", "--rm", "--network", "host"]
    trusted = podman(*run, base, "python3", "-c", REACH, url, body)
    assert trusted.split("\n")[:2] == ["in the bundle: True", "through the proxy"], trusted
    # The same request from the base image as it is: refused, so the CA made the change.
    plain = podman(*run, OFFICIAL, "python3", "-c", REACH, url, body)
    assert plain.startswith("in the bundle: False\nrefused:"), plain
    assert "CERTIFICATE_VERIFY_FAILED" in plain, plain


def test_an_extra_ca_that_is_no_certificate_stops_the_build(images: list[str]) -> None:
    """A mistake in EXTRA_CA_CERT (a file name, not its contents) says so, rather than
    building an image whose store, or a later TLS error, hides it."""
    tag = f"localhost/{unique('soclover-test-base-')}:latest"
    images.append(tag)
    done = subprocess.run(
        [
            tool("podman"), "build", "--pull=never", "--format", "docker", "--tag", tag,
            "--build-arg", "EXTRA_CA_CERT=company-ca.pem", "--target", "base",
            "--file", str(ROOT / "Containerfile"), str(ROOT),
        ],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode != 0
    assert "EXTRA_CA_CERT holds no PEM certificate" in done.stdout + done.stderr
