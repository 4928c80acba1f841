"""Seat cookies, cross-site requests, security headers, rate limits, tokens and codes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest

from ..kit import (
    NAMES,
    Player,
    Server,
    assert_error,
    create,
    http,
    join,
    public,
    table,
    table_of,
)

CODE = re.compile(r"^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{5,}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{22,}$")  # url-safe base64: 22 chars carry 132 bits


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def seat_cookie(r: httpx.Response, code: str) -> str:
    """The one Set-Cookie header of the answer, checked to be this room's seat cookie."""
    cookies = r.headers.get_list("set-cookie")
    assert len(cookies) == 1, cookies
    assert cookies[0].startswith(f"soclover_{code}="), cookies
    return cookies[0]


@contextmanager
def cookie_client(api: str, name: str = "Ada") -> Iterator[tuple[httpx.Client, str, str]]:
    """A browser-like client that created a room and holds only its cookie."""
    with http.Client(base_url=api, timeout=10) as client:
        r = client.post("/api/rooms", json={"name": name})
        assert r.status_code == 201, r.text
        body = r.json()
        yield client, body["code"], body["token"]


# --- the seat cookie --------------------------------------------------------------------------


def test_create_and_join_set_an_httponly_samesite_lax_cookie_per_room(api: str) -> None:
    r = http.post(f"{api}/api/rooms", json={"name": "Ada"})
    assert r.status_code == 201
    code, token = r.json()["code"], r.json()["token"]
    header = seat_cookie(r, code)
    parts = [p.strip() for p in header.split(";")]
    assert parts[0] == f"soclover_{code}={token}"
    flags = {p.split("=")[0].lower(): p.partition("=")[2].lower() for p in parts[1:]}
    assert "httponly" in flags
    assert flags["samesite"] == "lax"
    assert flags["path"] == "/"
    assert int(flags["max-age"]) > 0

    r = http.post(f"{api}/api/rooms/{code.lower()}/join", json={"name": "Bea"})
    assert r.status_code == 201
    header = seat_cookie(r, code)
    assert header.startswith(f"soclover_{code}={r.json()['token']};")
    assert "httponly" in header.lower() and "samesite=lax" in header.lower()

    other = http.post(f"{api}/api/rooms", json={"name": "Cy"})
    assert seat_cookie(other, other.json()["code"]).startswith(f"soclover_{other.json()['code']}=")
    assert other.json()["code"] != code


def test_the_cookie_seats_its_holder_instead_of_a_bearer_token(api: str) -> None:
    with cookie_client(api) as (client, code, _):
        assert client.get(f"/api/rooms/{code}").json()["you"] == {"seat": 0, "host": True}
        # a script sends neither Origin nor Sec-Fetch-Site: the cookie is enough
        r = client.post(f"/api/rooms/{code}/actions", json={"type": "settings", "decoys": 2})
        assert r.status_code == 200, r.text
        assert r.json()["state"]["decoys"] == 2
        assert r.json()["state"]["you"]["seat"] == 0


def test_a_cookie_seats_nobody_in_another_room(api: str) -> None:
    a = create(api, "Ada")
    b = create(api, "Bea")
    forged = {"Cookie": f"soclover_{b.code}={a.token}"}
    assert http.get(f"{api}/api/rooms/{b.code}", headers=forged).json()["you"] is None
    before = table_of(api, b.code)
    r = http.post(
        f"{api}/api/rooms/{b.code}/actions",
        json={"type": "settings", "decoys": 3},
        headers=forged,
    )
    assert_error(r, 401, code="not_seated")
    assert table_of(api, b.code) == before
    # and the right cookie under the wrong name is ignored too
    wrong_name = {"Cookie": f"soclover={a.token}; token={a.token}"}
    assert http.get(f"{api}/api/rooms/{a.code}", headers=wrong_name).json()["you"] is None


# --- cross-site requests ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
        {"Origin": "http://127.0.0.1:1"},
        {"Origin": "http://127.0.0.1.evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"},
    ],
    ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()),
)
def test_a_cookie_post_from_another_site_is_403_and_changes_nothing(
    api: str, headers: dict[str, str]
) -> None:
    with cookie_client(api) as (client, code, _):
        before = table_of(api, code)
        for action in (
            {"type": "settings", "decoys": 3},
            {"type": "say", "text": "sent by another site"},
            {"type": "leave"},
        ):
            r = client.post(f"/api/rooms/{code}/actions", json=action, headers=headers)
            assert_error(r, 403, code="forbidden")
        assert table_of(api, code) == before
        assert client.get(f"/api/rooms/{code}").json()["you"]["seat"] == 0


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "SELF"},
        {"Origin": "SELF", "Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "same-origin"},
        {"Sec-Fetch-Site": "none"},
    ],
    ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()),
)
def test_the_same_cookie_post_from_this_site_is_accepted(api: str, headers: dict[str, str]) -> None:
    headers = {k: api if v == "SELF" else v for k, v in headers.items()}
    with cookie_client(api) as (client, code, _):
        r = client.post(
            f"/api/rooms/{code}/actions", json={"type": "settings", "decoys": 4}, headers=headers
        )
        assert r.status_code == 200, r.text
    assert public(api, code)["decoys"] == 4


def test_bearer_requests_need_no_origin(api: str) -> None:
    """A bearer token is never sent by a browser on its own, so no cross-site check applies."""
    host = create(api, "Ada")
    for i, headers in enumerate(
        [
            {},
            {"Origin": "https://evil.example"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Origin": "null", "Sec-Fetch-Site": "cross-site"},
        ]
    ):
        r = http.post(
            f"{api}/api/rooms/{host.code}/actions",
            json={"type": "say", "text": f"from a bot {i}"},
            headers={**host.headers, **headers},
        )
        assert r.status_code == 200, r.text
    assert [line["text"] for line in public(api, host.code)["chat"]] == [
        f"from a bot {i}" for i in range(4)
    ]


def test_a_bearer_token_wins_over_a_foreign_cookie(api: str) -> None:
    """With both, the bearer token decides, so a page's cookie cannot hijack a bot's request."""
    a = create(api, "Ada")
    with cookie_client(api, "Bea") as (b_client, _, _):
        r = b_client.post(
            f"/api/rooms/{a.code}/actions",
            json={"type": "say", "text": "bearer"},
            headers={**a.headers, "Cookie": f"soclover_{a.code}=not-a-token"},
        )
        assert r.status_code == 200 and r.json()["state"]["you"]["seat"] == 0


# --- headers ----------------------------------------------------------------------------------


def _assert_security_headers(r: httpx.Response) -> None:
    csp = r.headers.get("content-security-policy")
    assert csp is not None, f"{r.request.method} {r.request.url}: no CSP"
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["script-src"] == ["'self'"], csp
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert directives.get("object-src") == ["'none'"]
    assert directives.get("frame-ancestors") == ["'none'"]
    assert r.headers.get("x-content-type-options") == "nosniff"


def test_every_kind_of_answer_carries_csp_and_nosniff(api: str) -> None:
    host = create(api, "Ada")
    answers = [
        http.get(f"{api}/healthz"),
        http.get(f"{api}/api/rooms/{host.code}"),
        http.get(f"{api}/api/rooms/{host.code}", headers=host.headers),
        http.post(f"{api}/api/rooms", json={"name": "Bea"}),
        host.post("say", text="hello"),
        http.get(f"{api}/api/legends"),
        http.get(f"{api}/openapi.json"),
        http.get(f"{api}/api/rooms/ZZZZZZ"),  # 404
        http.post(f"{api}/api/rooms/{host.code}/actions", json={"type": "say"}),  # 401
        host.post("say"),  # 422
        host.post("start"),  # 409
        http.post(f"{api}/api/rooms", content=b"{", headers={"content-type": "application/json"}),
        http.post(
            f"{api}/api/rooms",
            content=b"x" * 100_000,
            headers={"content-type": "application/json"},
        ),  # 413
        http.delete(f"{api}/api/rooms/{host.code}"),  # 405
        http.get(f"{api}/no/such/page"),
    ]
    assert {r.status_code for r in answers} >= {200, 201, 400, 401, 404, 405, 409, 413, 422}
    for r in answers:
        _assert_security_headers(r)
    with http.stream("GET", f"{api}/api/rooms/{host.code}/events", timeout=5) as stream:
        assert stream.status_code == 200
        _assert_security_headers(stream)


def test_streams_are_opened_and_refused_with_the_same_headers_and_errors(api: str) -> None:
    """The live streams are opened ahead of the middleware (``app.web.first``): what they
    answer, refusals included, is what the whole application would."""
    host = create(api, "Ada")
    refused = {
        "/api/rooms/ZZZZZZ/events": 404,
        "/r/ZZZZZZ/stream": 404,
        "/api/rooms/zz!/events": 404,
    }
    for path, status in refused.items():
        r = http.get(f"{api}{path}")
        assert r.status_code == status, (path, r.text)
        _assert_security_headers(r)
        assert r.headers["cache-control"] == "no-store"
        assert "Authorization" in r.headers["vary"]
        if path.startswith("/api/"):
            assert r.json()["error"]["code"] == "room_not_found"
        else:
            assert r.headers["content-type"].startswith("text/html")
    for path in (f"/api/rooms/{host.code}/events", f"/r/{host.code}/stream"):
        headers = {**host.headers, "Cookie": f"soclover_{host.code}={host.token}"}
        with http.stream("GET", f"{api}{path}", headers=headers, timeout=5) as stream:
            assert stream.status_code == 200
            _assert_security_headers(stream)
            assert stream.headers["cache-control"] == "no-store"
            assert "Authorization" in stream.headers["vary"]
        # A GET with a body is not one a browser sends: opened all the same, same headers.
        with http.stream(
            "GET", f"{api}{path}", headers=headers, content=b"{}", timeout=5
        ) as stream:
            assert stream.status_code == 200
            _assert_security_headers(stream)
    head = http.head(f"{api}/api/rooms/ZZZZZZ/events")
    assert head.status_code == 404
    _assert_security_headers(head)


def test_a_stream_that_fails_to_open_is_answered_as_any_failure() -> None:
    """A stream's opening that fails unexpectedly gets the application's 500 answer, with
    its headers, as any request would, and the error goes on to the server's log."""
    from fastapi.routing import APIRoute
    from starlette.testclient import TestClient

    from app.config import Settings
    from app.main import create_app
    from app.web.streams import StreamDoor

    async def broken(code: str) -> None:
        raise RuntimeError("the disk is gone")

    async def rest(scope: object, receive: object, send: object) -> None:
        raise AssertionError("a stream's GET went through the middleware")

    handlers = create_app(Settings(database_url="sqlite://")).exception_handlers
    door = StreamDoor(rest, [APIRoute("/api/rooms/{code}/events", broken)], handlers)
    # Starlette's client runs the app on a thread of its own: the browser tests leave
    # an event loop running on this one.
    r = TestClient(door, raise_server_exceptions=False).get("/api/rooms/ABCDEF/events")
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal"
    _assert_security_headers(r)


def test_seat_tokens_never_appear_in_the_room_state(api: str) -> None:
    players = table(api, 3)
    for p in players:
        text = http.get(f"{api}/api/rooms/{p.code}", headers=p.headers).text
        assert all(q.token not in text for q in players)


# --- rate limits ------------------------------------------------------------------------------


def test_joins_are_rate_limited_per_client(make_server) -> None:  # type: ignore[no-untyped-def]
    server = make_server(SOCLOVER_JOIN_RATE_PER_MINUTE="5", SOCLOVER_CREATE_RATE_PER_MINUTE="2")
    api = server.url
    first = create(api, "Ada")
    second = create(api, "Ada")
    for name in NAMES[1:4]:
        join(api, first.code, name)
    for name in NAMES[1:3]:
        join(api, second.code, name)
    before = table_of(api, second.code)
    r = http.post(f"{api}/api/rooms/{second.code}/join", json={"name": "Zed"})
    assert_error(r, 429, code="rate_limited")
    assert table_of(api, second.code) == before
    # every attempt counts, good or bad, so guessing codes is as slow as joining
    r = http.post(f"{api}/api/rooms/ZZZZZZ/join", json={"name": "Zed"})
    assert_error(r, 429, code="rate_limited")
    # the limit is per client: another address (as a reverse proxy on this host reports it)
    r = http.post(
        f"{api}/api/rooms/{second.code}/join",
        json={"name": "Zed"},
        headers={"X-Forwarded-For": "203.0.113.7"},
    )
    assert r.status_code == 201, r.text
    # creating rooms has its own limit (2 here)
    assert_error(http.post(f"{api}/api/rooms", json={"name": "Ada"}), 429, code="rate_limited")


# --- tokens and codes -------------------------------------------------------------------------


def test_tokens_are_long_and_random_and_codes_follow_the_contract(api: str) -> None:
    tokens: list[str] = []
    codes: list[str] = []
    for _ in range(25):
        host = create(api, "Ada")
        codes.append(host.code)
        tokens.append(host.token)
    for name in NAMES[1:]:
        tokens.append(join(api, codes[0], name).token)
    for token in tokens:
        assert TOKEN.match(token), token
    assert len(set(tokens)) == len(tokens)
    for code in codes:
        assert CODE.match(code), code
        assert not set(code) & set("0O1IL")
    assert len(set(codes)) == len(codes)
    # 25 codes of 6+ characters from 31 symbols: all of the alphabet shows up soon enough
    assert len(set("".join(codes))) > 20


def test_a_token_stands_for_its_own_seat_only(api: str) -> None:
    players: list[Player] = table(api, 3)
    # the token of seat 1 seats seat 1, whatever the request claims
    r = http.post(
        f"{api}/api/rooms/{players[0].code}/actions",
        json={"type": "settings", "decoys": 2},
        headers=players[1].headers,
    )
    assert_error(r, 403, code="not_host")
    assert public(api, players[0].code)["decoys"] == 1


# --- every post from another site ---------------------------------------------------------------


POSTED: dict[str, dict[str, object]] = {
    "/rooms": {"data": {"name": "Zed", "decoys": "2"}},
    "/join": {"data": {"code": "{code}"}},
    "/language": {"data": {"to": "fr", "back": "/"}},
    "/practice": {"data": {"name": "Zed"}},
    "/r/{code}/join": {"data": {"name": "Zed"}},
    "/r/{code}/watch": {"data": {"name": "Zed"}},
    "/r/{code}/seat": {"data": {"token": "{token}"}},
    "/r/{code}/act": {"data": {"type": "settings", "decoys": "3"}},
    "/r/{code}/check": {"data": {"leaf": "0", "clue0": "Qzq"}},
    "/r/{code}/claim": {"data": {"seat": "1"}},
    "/r/{code}/claim/withdraw": {"data": {}},
    "/api/rooms": {"json": {"name": "Zed"}},
    "/api/practice": {"json": {"name": "Zed"}},
    "/api/rooms/{code}/join": {"json": {"name": "Zed"}},
    "/api/rooms/{code}/watch": {"json": {"name": "Zed"}},
    "/api/rooms/{code}/claims": {"json": {"seat": 1}},
    "/api/rooms/{code}/actions": {"json": {"type": "settings", "decoys": 3}},
}
"""What each post sends, as our own pages (or a script) would: each would change
something if it were let through (a room, a seat, a cookie, a request)."""


FROM: list[str] = []
"""The seat requests made so far, one client address each."""


def test_every_post_route_is_in_the_table_above() -> None:
    from .routes import every_route

    assert {path for method, path in every_route() if method == "POST"} == set(POSTED)


@pytest.mark.parametrize(
    "foreign",
    [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}],
    ids=["Origin", "Sec-Fetch-Site"],
)
@pytest.mark.parametrize("path", POSTED)
def test_every_post_from_another_site_is_refused_before_anything_is_done(
    api: str, path: str, foreign: dict[str, str]
) -> None:
    """With the cookies a browser would send along (the seat's, and a pending seat
    request's), every post route answers 403 and sets, deletes and changes nothing:
    the check runs before the route does anything (the withdraw form deleted the
    request's cookie, leaving an allowed seat to no device)."""
    ada, bea, _ = table(api, 3)
    claim = http.post(
        f"{api}/api/rooms/{ada.code}/claims",
        json={"seat": 1},
        headers={"X-Forwarded-For": f"198.18.{len(FROM)}.1"},  # seat requests are limited
    ).json()
    FROM.append(claim["claim"])
    cookies = {
        f"soclover_{ada.code}": ada.token,
        f"soclover_claim_{ada.code}": f"{claim['claim']}.{claim['token']}",
    }
    before = ada.state()
    sent = {
        kind: {
            k: v.format(code=ada.code, token=bea.token) if isinstance(v, str) else v
            for k, v in fields.items()
        }
        for kind, fields in POSTED[path].items()
        if isinstance(fields, dict)
    }
    with http.Client(base_url=api, cookies=cookies, timeout=10) as client:
        r = client.post(path.format(code=ada.code), headers=foreign, **sent)  # type: ignore[arg-type]
    assert r.status_code == 403, f"{path}: {r.status_code} {r.text[:300]}"
    assert "set-cookie" not in r.headers, r.headers.get_list("set-cookie")
    if path.startswith("/api/"):
        assert_error(r, 403, code="forbidden")
    else:
        assert r.headers["content-type"].startswith("text/html")
        assert "That request came from another site." in r.text
    after = ada.state()
    for state in (before, after):
        del state["seq"]
        for player in state["players"]:
            del player["present"]
    assert after == before
    assert [c["id"] for c in after["claims"]] == [claim["claim"]]  # still waiting


# --- an unexpected error ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"),
    [("/api/rooms/ABCDEF", "application/json"), ("/r/ABCDEF", "text/html")],
)
def test_an_unexpected_error_is_a_500_with_every_header(
    tmp_path: pytest.TempPathFactory, path: str, kind: str
) -> None:
    """A route that fails unexpectedly answers the application's 500, JSON or a page,
    with the security headers: Starlette's error middleware, outside ours, sent it bare."""
    from starlette.testclient import TestClient

    from app.config import Settings
    from app.main import create_app

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is gone")

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path}/soclover.sqlite3"))
    # Starlette's client runs the app on a thread of its own: the browser tests leave
    # an event loop running on this one.
    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.service.view = broken
        r = client.get(path)
    assert r.status_code == 500
    assert r.headers["content-type"].startswith(kind)
    assert "the disk is gone" not in r.text
    _assert_security_headers(r)
    assert r.headers["cache-control"] == "no-store"
