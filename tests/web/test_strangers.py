"""Someone with only a room code, over HTTP: what every route by code tells them.

A code is a room's only secret, so a stranger (no token, a wrong one, or one of
another room) must not learn from a route that needs a seat whether a code is a
room: it answers them the same for a room and for no room. The routes that serve a
room to anyone with its code (its page, its state, its stream, joining, watching,
asking for a seat: the code is the invitation) tell them, and so every request by
code from someone without a seat counts against the lookup limit, on every route.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from ..kit import Player, Server, assert_error, create, http
from .routes import every_route

UNKNOWN = "ZZZZZZ"
"""A code in the alphabet that names no room here."""

LOOKUPS = 4
"""The lookup limit of the module's server."""

Route = tuple[str, str, dict[str, Any]]
"""method, path with ``{c}`` for the code, and what the request sends."""


def form(**data: str) -> dict[str, Any]:
    return {"data": data}


SEAT_ONLY: dict[str, Route] = {
    "an action": ("POST", "/api/rooms/{c}/actions", {"json": {"type": "say", "text": "hi"}}),
    "a claim's status": ("GET", "/api/rooms/{c}/claims/nope", {}),
    "a claim taken back": ("DELETE", "/api/rooms/{c}/claims/nope", {}),
    "the history page": ("GET", "/r/{c}/history", {}),
    "a form action": ("POST", "/r/{c}/act", form(type="say", text="hi")),
    "a form action by htmx": (
        "POST",
        "/r/{c}/act",
        {"data": {"type": "say", "text": "hi"}, "headers": {"HX-Request": "true"}},
    ),
    "a clue check": ("POST", "/r/{c}/check", form(leaf="0", clue0="Qzq")),
    "the waiting page": ("GET", "/r/{c}/claim", {}),
    "the waiting page's status": ("GET", "/r/{c}/claim/status", {}),
    "a claim withdrawn": ("POST", "/r/{c}/claim/withdraw", {}),
    "the seat link page": ("GET", "/r/{c}/seat", {}),
    "a seat link posted": ("POST", "/r/{c}/seat", form(token="nope")),
    "a seat link of the older form": ("GET", "/r/{c}/seat/nope", {}),
    "the invite QR code": ("GET", "/r/{c}/invite.svg", {"draws the code": True}),
}
"""The routes by code that serve nothing of a room without a seat (or a claim) in it."""

INVITATIONS: dict[str, Route] = {
    "the room's state": ("GET", "/api/rooms/{c}", {}),
    "the room's history": ("GET", "/api/rooms/{c}/history", {}),
    "the room's events": ("GET", "/api/rooms/{c}/events", {"stream": True}),
    "a join": ("POST", "/api/rooms/{c}/join", {"json": {"name": ""}}),
    "a watch": ("POST", "/api/rooms/{c}/watch", {"json": {"name": ""}}),
    "a seat request": ("POST", "/api/rooms/{c}/claims", {"json": {"seat": 99}}),
    "the room's page": ("GET", "/r/{c}", {}),
    "the room's page stream": ("GET", "/r/{c}/stream", {"stream": True}),
    "the join form": ("POST", "/r/{c}/join", form(name="")),
    "the watch form": ("POST", "/r/{c}/watch", form(name="")),
    "the seat request form": ("POST", "/r/{c}/claim", form(seat="99")),
}
"""The routes by code that serve a room to anyone with its code: the code is the invitation."""

EVERY_ROUTE = {**SEAT_ONLY, **INVITATIONS}


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    """A low lookup limit, which each test meets from addresses of its own (``address``)."""
    return {"SOCLOVER_LOOKUP_RATE_PER_MINUTE": str(LOOKUPS)}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


ADDRESSES = iter(range(1, 60000))


def address() -> dict[str, str]:
    """Headers of a client address no other request of the module came from (the server
    takes the address a local proxy forwards): a lookup limit of its own."""
    n = next(ADDRESSES)
    return {"X-Forwarded-For": f"10.{n // 250}.{n % 250}.1"}


@contextmanager
def asked(api: str, route: Route, code: str, headers: dict[str, str]) -> Iterator[httpx.Response]:
    """The answer to ``route`` for ``code``; a stream is closed once its head is read."""
    method, path, sent = route
    options = {k: v for k, v in sent.items() if k not in ("stream", "draws the code")}
    all_headers = {"Origin": api, **options.pop("headers", {}), **headers}
    with http.Client(base_url=api, timeout=10) as client:
        request = client.build_request(method, path.format(c=code), headers=all_headers, **options)
        r = client.send(request, stream=True)
        try:
            if not sent.get("stream") or r.status_code != 200:
                r.read()
            yield r
        finally:
            r.close()


def seen(r: httpx.Response, code: str) -> tuple[int, str, str]:
    """What an answer tells: its status, where it leads, and its body, with the code
    asked for written as CODE (a page says which code it was asked for)."""
    body = "" if r.headers.get("content-type", "").startswith("text/event-stream") else r.text
    where = r.headers.get("location", "")
    return r.status_code, where.replace(code, "CODE"), body.replace(code, "CODE")


def strangers(code: str, other: Player) -> dict[str, dict[str, str]]:
    """Everyone without a seat in ``code``, by what they send."""
    return {
        "no token": {},
        "a made-up token": {"Authorization": "Bearer not-a-token"},
        "a made-up cookie": {"Cookie": f"soclover_{code}=not-a-token"},
        "another room's token": other.headers,
        "another room's token as this room's cookie": {"Cookie": f"soclover_{code}={other.token}"},
        "a made-up seat request": {"Cookie": f"soclover_claim_{code}=abc.not-a-token"},
    }


def settled(host: Player) -> dict[str, Any]:
    """The room as its host sees it, less what presence moves (as ``table_of``, which
    reads without a seat: here that is a lookup, and the module's limit is small)."""
    state = host.state()
    del state["seq"]
    for player in state["players"]:
        del player["present"], player["host"]
    return state


@pytest.mark.parametrize("name", SEAT_ONLY)
def test_a_route_for_seats_answers_a_stranger_the_same_for_a_room_and_for_no_room(
    api: str, name: str
) -> None:
    host = create(api, "Ada")
    other = create(api, "Bea")
    before = settled(host)
    for who, headers in strangers(host.code, other).items():
        addr = address()  # one address per pair, far from the limit
        with asked(api, SEAT_ONLY[name], host.code, {**headers, **addr}) as r:
            room = seen(r, host.code)
            if "draws the code" in SEAT_ONLY[name][2]:  # an image of the code, not of a room
                room = (room[0], room[1], r.headers["content-type"])
        unknown_headers = {k: v.replace(host.code, UNKNOWN) for k, v in {**headers, **addr}.items()}
        with asked(api, SEAT_ONLY[name], UNKNOWN, unknown_headers) as r:
            no_room = seen(r, UNKNOWN)
            if "draws the code" in SEAT_ONLY[name][2]:
                no_room = (no_room[0], no_room[1], r.headers["content-type"])
        assert room[0] < 500, (who, room)
        assert room == no_room, f"{name}, {who}: the answers tell a room from no room"
    assert settled(host) == before


def test_an_action_without_a_seat_is_401_not_seated_whether_or_not_the_room_exists(
    api: str,
) -> None:
    """What the review found: 404 for an unknown code, 401 for a room. The contract's
    answer for an action without a seat is 401, so it is 401 for both."""
    host = create(api, "Ada")
    for code in (host.code, UNKNOWN):
        r = http.post(
            f"{api}/api/rooms/{code}/actions", json={"type": "say", "text": "x"}, headers=address()
        )
        assert_error(r, 401, code="not_seated")


@pytest.mark.parametrize("name", EVERY_ROUTE)
def test_every_route_by_code_counts_a_strangers_requests_against_the_lookup_limit(
    api: str, name: str
) -> None:
    host = create(api, "Ada")
    route = EVERY_ROUTE[name]
    here = address()
    for i in range(LOOKUPS):
        with asked(api, route, (host.code, UNKNOWN)[i % 2], here) as r:
            assert r.status_code != 429 and r.status_code < 500, (i, r.status_code, r.text[:300])
    answers = []
    for code in (host.code, UNKNOWN):
        with asked(api, route, code, here) as r:
            assert r.status_code == 429, f"{name} {code}: {r.status_code} {r.text[:300]}"
            answers.append(seen(r, code))
    assert answers[0] == answers[1], f"{name}: over the limit, a room and no room differ"
    # another address is not limited by this one's tries
    with asked(api, route, UNKNOWN, address()) as r:
        assert r.status_code != 429


def test_a_seated_players_requests_never_count_as_lookups(api: str) -> None:
    host = create(api, "Ada")
    here = address()
    cookie = {"Cookie": f"soclover_{host.code}={host.token}", **here}
    for i in range(3 * LOOKUPS):
        r = http.post(
            f"{api}/api/rooms/{host.code}/actions",
            json={"type": "say", "text": f"line {i}"},
            headers={**host.headers, **here},
        )
        assert r.status_code == 200, r.text
        for path in ("/r/{c}/history", "/r/{c}", "/r/{c}/seat", "/r/{c}/invite.svg"):
            assert http.get(f"{api}{path.format(c=host.code)}", headers=cookie).status_code == 200
        r = http.post(
            f"{api}/r/{host.code}/act",
            data={"type": "say", "text": f"page {i}"},
            headers={**cookie, "Origin": api, "HX-Request": "true"},
        )
        assert r.status_code == 204, r.text
    # the address's lookups are all still there for someone without a seat
    for _ in range(LOOKUPS):
        r = http.post(
            f"{api}/api/rooms/{UNKNOWN}/actions", json={"type": "say", "text": "x"}, headers=here
        )
        assert_error(r, 401, code="not_seated")


def test_every_route_by_code_is_one_of_these() -> None:
    """A new route by code must say here what it answers a stranger."""

    def template(path: str) -> str:
        named = "/{claim}" if "/claims/" in path else "/{token}"
        return path.replace("{c}", "{code}").replace("/nope", named)

    listed = {(method, template(path)) for method, path, _ in EVERY_ROUTE.values()}
    assert {(m, p) for m, p in every_route() if "{code}" in p} == listed
