"""Every cookie the table sets is ``Secure`` when its page came over HTTPS, and only
then: to the server itself, or through a proxy it trusts (``SOCLOVER_TRUSTED_PROXIES``)
that says so in ``X-Forwarded-Proto``. Over plain http a browser would drop a
``Secure`` cookie, and a client the server does not trust cannot claim https.

Real servers: uvicorn reads ``X-Forwarded-Proto`` and sets the request's scheme. The
test client is on this machine, a trusted proxy by default; the server of the last
tests trusts another address only.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import httpx

from ..kit import ROOT, Server, http

HTTPS = {"X-Forwarded-Proto": "https"}


def cookies_set(api: str, headers: dict[str, str]) -> dict[str, str]:
    """Each cookie a browser gets on the way through the table, by name: a seat by the
    API and by the home page's form, the interface's language, and a seat cookie taken
    back when its player leaves."""
    found: dict[str, str] = {}

    def keep(r: httpx.Response, kind: str) -> None:
        assert r.status_code < 400, r.text
        for header in r.headers.get_list("set-cookie"):
            found[kind] = header

    r = http.post(f"{api}/api/rooms", json={"name": "Ada"}, headers=headers)
    keep(r, "seat, by the API")
    code, token = r.json()["code"], r.json()["token"]
    keep(http.post(f"{api}/rooms", data={"name": "Bea"}, headers=headers), "seat, by a form")
    keep(http.post(f"{api}/language", data={"to": "fr"}, headers=headers), "language")
    left = http.post(
        f"{api}/r/{code}/act",
        data={"type": "leave"},
        headers={**headers, "Cookie": f"soclover_{code}={token}"},
    )
    keep(left, "seat, taken back")
    assert len(found) == 4, found
    return found


def secure(cookie: str) -> bool:
    return "secure" in [part.strip().lower() for part in cookie.split(";")]


def test_over_plain_http_no_cookie_is_secure(make_server: Callable[..., Server]) -> None:
    found = cookies_set(make_server().url, {})
    assert not any(secure(c) for c in found.values()), found


def test_over_https_through_a_trusted_proxy_every_cookie_is_secure(
    make_server: Callable[..., Server],
) -> None:
    found = cookies_set(make_server().url, HTTPS)
    assert all(secure(c) for c in found.values()), found
    assert all("httponly" in c.lower() and "samesite=lax" in c.lower() for c in found.values())


def test_an_untrusted_client_cannot_claim_https(make_server: Callable[..., Server]) -> None:
    api = make_server(SOCLOVER_TRUSTED_PROXIES="192.0.2.1").url
    found = cookies_set(api, HTTPS)
    assert not any(secure(c) for c in found.values()), found
    # Nor another address: this machine's own reads the metrics, whatever it forwards.
    r = http.get(f"{api}/metrics", headers={"X-Forwarded-For": "203.0.113.5"})
    assert r.status_code == 200


def test_the_setting_still_makes_every_cookie_secure(make_server: Callable[..., Server]) -> None:
    found = cookies_set(make_server(SOCLOVER_SECURE_COOKIES="true").url, {})
    assert all(secure(c) for c in found.values()), found


def test_every_cookie_is_set_and_taken_back_in_one_place() -> None:
    """``deps.set_cookie`` and ``deps.forget_cookie`` decide a cookie's attributes: no
    other module of the web layer calls Starlette's own."""
    callers = []
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr in ("set_cookie", "delete_cookie"):
                callers.append(str(Path(path).relative_to(ROOT)))
    assert callers == ["app/web/deps.py", "app/web/deps.py"], callers
