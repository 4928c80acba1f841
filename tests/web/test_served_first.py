"""Actions are applied ahead of the middleware (``app.web.first``): every answer, refusals
included, is the one the whole application gives.

One application, two roads to it: the door as the server runs it, and the whole
application behind the door (``WHOLE``). Each request below is sent down both roads
and must get the same status, the same body and the same headers; a request the door
serves must not reach the application behind it, and one it does not serve must
reach it with its body whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.types import Receive, Scope, Send

from app.config import Settings
from app.main import create_app
from app.web.first import ServedFirst
from app.web.security import MAX_BODY_BYTES

WHOLE = "x-road-whole"
"""A header of these tests only: send this request to the whole application."""


class Roads:
    """The application, reached through the door or straight through its middleware,
    counting the requests that reach the middleware."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.behind = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        door: ServedFirst = self.app.middleware_stack
        if not isinstance(door.app, Counted):
            door.app = Counted(door.app, self)
        if any(name == WHOLE.encode() for name, _ in scope["headers"]):
            scope["app"] = self.app
            await door.app.app(scope, receive, send)
        else:
            await self.app(scope, receive, send)


class Counted:
    def __init__(self, app: Any, roads: Roads) -> None:
        self.app, self.roads = app, roads

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.roads.behind += 1
        await self.app(scope, receive, send)


@pytest.fixture(scope="module")
def roads(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Roads]]:
    folder: Path = tmp_path_factory.mktemp("first")
    settings = Settings(
        database_url=f"sqlite:///{folder / 'soclover.sqlite3'}",
        join_rate_per_minute=100_000,
        create_rate_per_minute=100_000,
        lookup_rate_per_minute=100_000,
    )
    both = Roads(create_app(settings))
    # Starlette's client runs the app on a thread of its own: the browser tests leave
    # an event loop running on this one.
    with TestClient(both, base_url="http://table.test") as client:
        yield client, both


@pytest.fixture(scope="module")
def room(roads: tuple[TestClient, Roads]) -> dict[str, Any]:
    client, _ = roads
    host = client.post("/api/rooms", json={"name": "Ada"}).json()
    seats = [host] + [
        client.post(f"/api/rooms/{host['code']}/join", json={"name": name}).json()
        for name in ("Bo", "Cy")
    ]
    client.cookies.clear()  # each request below says itself which seat it is
    tokens = [s["token"] for s in seats]
    for token in tokens:  # a seat's first action also marks it present: done here
        say = {"type": "say", "text": "hi"}
        r = client.post(f"/api/rooms/{host['code']}/actions", json=say, headers=bearer(token))
        assert r.status_code == 200, r.text
    return {"code": host["code"], "tokens": tokens}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def send_both(
    client: TestClient, roads: Roads, path: str, content: bytes, headers: dict[str, str]
) -> tuple[Any, Any, int]:
    """The answers of the door and of the whole application, and whether the door's
    request reached the middleware (1) or was served at the door (0)."""
    before = roads.behind
    first = client.post(path, content=content, headers=headers)
    whole = client.post(path, content=content, headers={**headers, WHOLE: "1"})
    return first, whole, roads.behind - before


def same(first: Any, whole: Any) -> None:
    assert first.status_code == whole.status_code, (first.text, whole.text)
    assert first.content == whole.content
    assert sorted(first.headers.multi_items()) == sorted(whole.headers.multi_items())


JSON = {"Content-Type": "application/json"}
SAY = b'{"type": "say", "text": "hello"}'
AGREE = b'{"type": "agree"}'  # refused in the lobby


def refusals(code: str, tokens: list[str]) -> dict[str, tuple[str, bytes, dict[str, str], bool]]:
    """Requests a person or a script can send that change nothing, by what is wrong: the
    path, the body, the headers, and whether the door serves it (a well-formed action)
    or hands it to the whole application."""
    path = f"/api/rooms/{code}/actions"
    host, guest = {**JSON, **bearer(tokens[0])}, {**JSON, **bearer(tokens[1])}
    long_text = b'{"type": "say", "text": "%b"}' % (b"x" * 5000)
    too_large = b'{"type": "say", "text": "%b"}' % (b"x" * MAX_BODY_BYTES)
    other_site = {**JSON, "Cookie": f"soclover_{code}={tokens[0]}", "Origin": "https://evil.test"}
    return {
        "no such room": ("/api/rooms/ZZZZZZ/actions", SAY, host, True),
        "not a code": ("/api/rooms/zz!/actions", SAY, host, True),
        "no seat": (path, SAY, JSON, True),
        "a bad token": (path, SAY, {**JSON, **bearer("nope")}, True),
        "a cookie from another site": (path, SAY, other_site, True),
        "not the host's to start": (path, b'{"type": "start"}', guest, True),
        "not the phase": (path, b'{"type": "agree"}', host, True),
        "a stale seq": (path, b'{"type": "say", "text": "hi", "seq": 0}', host, True),
        "in French": (path, b'{"type": "agree"}', {**host, "Accept-Language": "fr"}, True),
        "broken JSON": (path, b'{"type": ', host, False),
        "not text": (path, b"\xff\xfe\x00", host, False),
        "nested too deep": (path, b"[" * 100_000, host, False),
        "no content type": (path, SAY, bearer(tokens[0]), False),
        "a form": (path, b"type=say", {**bearer(tokens[0]), "Content-Type": FORM}, False),
        "JSON sent as text": (
            path,
            SAY,
            {**bearer(tokens[0]), "Content-Type": "text/plain"},
            False,
        ),
        "JSON as a problem": (path, AGREE, {**bearer(tokens[0]), "Content-Type": PROBLEM}, True),
        "an empty body": (path, b"", host, False),
        "a list": (path, b"[]", host, False),
        "no such action": (path, b'{"type": "join"}', host, False),
        "a field too long": (path, long_text, host, False),
        "a field too many": (path, b'{"type": "say", "text": "hi", "x": 1}', host, False),
        "too large": (path, too_large, host, False),
        "malformed, no seat": (path, b"[]", JSON, False),
        "malformed, no such room": ("/api/rooms/ZZZZZZ/actions", b"[]", host, False),
    }


FORM = "application/x-www-form-urlencoded"
PROBLEM = "application/problem+json; charset=utf-8"  # any application/*+json is JSON
CASES = list(refusals("ABCDEF", ["t0", "t1"]))


@pytest.mark.parametrize("case", CASES)
def test_a_refusal_is_the_whole_applications(
    roads: tuple[TestClient, Roads], room: dict[str, Any], case: str
) -> None:
    client, both = roads
    before = client.get(f"/api/rooms/{room['code']}", headers=bearer(room["tokens"][0])).json()
    path, content, headers, served = refusals(room["code"], room["tokens"])[case]
    first, whole, behind = send_both(client, both, path, content, headers)
    assert 400 <= first.status_code < 500
    same(first, whole)
    after = client.get(f"/api/rooms/{room['code']}", headers=bearer(room["tokens"][0])).json()
    assert (after["seq"], after["chat"]) == (before["seq"], before["chat"])  # nothing applied
    assert behind == (0 if served else 1), "served at the door" if behind == 0 else "handed on"


def test_an_action_is_answered_as_the_whole_application_answers_it(
    roads: tuple[TestClient, Roads], room: dict[str, Any]
) -> None:
    client, both = roads
    path = f"/api/rooms/{room['code']}/actions"
    seq = client.get(path.removesuffix("/actions"), headers=bearer(room["tokens"][0])).json()
    first, whole, behind = send_both(
        client,
        both,
        path,
        b'{"type": "say", "text": "hello"}',
        {**JSON, **bearer(room["tokens"][2])},
    )
    assert behind == 0  # the first was served at the door
    assert first.status_code == whole.status_code == 200
    assert whole.json()["seq"] == first.json()["seq"] + 1 == seq["seq"] + 2
    assert first.json()["state"].keys() == whole.json()["state"].keys()
    assert [line["text"] for line in first.json()["state"]["chat"]][-1:] == ["hello"]
    headers = {name: value for name, value in first.headers.items() if name != "content-length"}
    assert headers == {n: v for n, v in whole.headers.items() if n != "content-length"}
    assert "Authorization" in first.headers["vary"]
    assert first.headers["cache-control"] == "no-store"
    assert "default-src 'self'" in first.headers["content-security-policy"]


def test_a_players_own_page_acts_with_its_cookie_through_the_door(
    roads: tuple[TestClient, Roads], room: dict[str, Any]
) -> None:
    """A browser's fetch carries the room's cookie and its own Origin."""
    client, both = roads
    headers = {
        **JSON,
        "Cookie": f"soclover_{room['code']}={room['tokens'][1]}",
        "Origin": "http://table.test",
    }
    before = both.behind
    r = client.post(f"/api/rooms/{room['code']}/actions", content=SAY, headers=headers)
    assert r.status_code == 200, r.text
    assert both.behind == before
    client.cookies.clear()  # as the room's fixture left it


def test_a_body_in_pieces_is_read_whole(
    roads: tuple[TestClient, Roads], room: dict[str, Any]
) -> None:
    """A body sent in chunks, without a length: read whole at the door, and handed on
    whole when it is not served there."""
    client, both = roads
    path = f"/api/rooms/{room['code']}/actions"
    headers = {**JSON, **bearer(room["tokens"][0])}

    def pieces(body: bytes) -> Iterator[bytes]:
        yield from (body[i : i + 7] for i in range(0, len(body), 7))

    before = both.behind
    r = client.post(path, content=pieces(b'{"type": "say", "text": "in pieces"}'), headers=headers)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["chat"][-1]["text"] == "in pieces"
    assert both.behind == before
    r = client.post(path, content=pieces(b'{"type": "say", "text": 5}'), headers=headers)
    assert r.status_code == 422
    assert r.json()["error"]["details"][0]["where"] == "say.text"
    assert both.behind == before + 1
