"""The documented proxy, for real: nginx with ``docs/deploy/nginx.conf`` in front of a
server that trusts its address (``SOCLOVER_TRUSTED_PROXIES``, 127.0.0.1 by default).

A client chooses nothing of what the table judges it by: whatever ``X-Forwarded-For``
or ``X-Forwarded-Proto`` it sends, the table sees the address and the scheme nginx
saw. So a new forged address on every request still meets the lookup limit, a
forged address neither opens nor closes ``/metrics``, and a forged ``https`` marks no
cookie ``Secure``. A file that passed the client's own header on
(``$proxy_add_x_forwarded_for``, as this one once did) fails here: the address
before the proxy's, which the server trusts, is the client's own word, and the
client here is on the machine, which the server trusts as it trusts its proxy.

nginx comes from Debian's package ``nginx``: without it these tests skip, saying so;
with ``SOCLOVER_REQUIRE_NGINX=1`` (CI) they fail (tests/kit/nginx.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ..kit import Server, assert_error, http
from ..kit.nginx import REQUIRED, Nginx, missing

LOOKUPS = 5
"""The lookup limit of the module's server."""
UNKNOWN = "ZZZZZZ"
"""A code that names no room: a stranger's guess."""


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    return {"SOCLOVER_LOOKUP_RATE_PER_MINUTE": str(LOOKUPS)}


@pytest.fixture(scope="module")
def nginx(shared_server: Server) -> Iterator[Nginx]:
    reason = missing()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"nginx required (SOCLOVER_REQUIRE_NGINX=1) but {reason}")
        pytest.skip(f"nginx tests skipped: {reason}")
    proxy = Nginx(shared_server.port).start()
    try:
        yield proxy
    finally:
        proxy.stop()


def test_a_new_forged_address_on_every_request_still_meets_the_lookup_limit(
    nginx: Nginx,
) -> None:
    for n in range(LOOKUPS):
        forged = {"X-Forwarded-For": f"198.51.100.{n}, 203.0.113.{n}"}
        r = http.get(f"{nginx.url}/api/rooms/{UNKNOWN}", headers=forged)
        assert_error(r, 404, code="room_not_found")
    forged = {"X-Forwarded-For": "198.51.100.77"}
    assert_error(http.get(f"{nginx.url}/api/rooms/{UNKNOWN}", headers=forged), 429)
    # A stranger's own lookups are theirs, whatever they claim to be: the machine's
    # address, which has used its budget, or a new one each time.
    with nginx.stranger() as stranger:
        for n in range(LOOKUPS):
            forged = {"X-Forwarded-For": "127.0.0.1" if n % 2 else f"192.0.2.{n}"}
            assert_error(stranger.get(f"/api/rooms/{UNKNOWN}", headers=forged), 404)
        forged = {"X-Forwarded-For": "192.0.2.99"}
        assert_error(stranger.get(f"/api/rooms/{UNKNOWN}", headers=forged), 429)


def test_a_forged_address_neither_opens_nor_closes_the_metrics(nginx: Nginx) -> None:
    # On this machine (the client nginx sees at 127.0.0.1), a scraper reads them,
    # whatever address it claims.
    assert http.get(f"{nginx.url}/metrics").status_code == 200
    for forged in ("203.0.113.9", "203.0.113.9, 198.51.100.1", "unknown"):
        r = http.get(f"{nginx.url}/metrics", headers={"X-Forwarded-For": forged})
        assert r.status_code == 200, forged
    # From anywhere else, claiming the machine's address opens nothing.
    with nginx.stranger() as stranger:
        assert stranger.get("/metrics").status_code == 404
        for forged in ("127.0.0.1", "127.0.0.1, 203.0.113.9", "::1", "203.0.113.9, 127.0.0.1"):
            r = stranger.get("/metrics", headers={"X-Forwarded-For": forged})
            assert r.status_code == 404, forged


def test_a_forged_https_marks_no_cookie_secure(nginx: Nginx) -> None:
    """nginx says the scheme it was asked over (plain http here), whatever the client
    claims: the seat cookie is not ``Secure``, which a browser on http would drop."""
    r = http.post(
        f"{nginx.url}/api/rooms",
        json={"name": "Ada"},
        headers={"X-Forwarded-Proto": "https"},
    )
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("soclover_") and "secure" not in cookie.lower()
