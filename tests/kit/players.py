"""Players at a table through the JSON API, as a bot or script would play, and the
room as anyone without a seat reads it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from . import http
from .checks import assert_error
from .waiting import wait_for


@dataclass
class Player:
    base: str
    code: str
    token: str
    seat: int
    name: str
    http: httpx.Client = field(default_factory=lambda: http.Client(timeout=10))

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def state(self) -> dict[str, Any]:
        r = self.http.get(f"{self.base}/api/rooms/{self.code}", headers=self.headers)
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, type: str, **fields: Any) -> httpx.Response:
        return self.http.post(
            f"{self.base}/api/rooms/{self.code}/actions",
            json={"type": type, **fields},
            headers=self.headers,
        )

    def act(self, type: str, **fields: Any) -> dict[str, Any]:
        r = self.post(type, **fields)
        assert r.status_code == 200, f"{type} {fields}: {r.status_code} {r.text}"
        body = r.json()
        assert body["seq"] == body["state"]["seq"]
        return body["state"]

    def refused(self, status: int, code: str, type: str, **fields: Any) -> dict[str, Any]:
        return assert_error(self.post(type, **fields), status, code=code)


def create(base: str, name: str, decoys: int = 1) -> Player:
    r = http.post(f"{base}/api/rooms", json={"name": name, "decoys": decoys})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(base, body["code"], body["token"], body["seat"], name)


def join(base: str, code: str, name: str) -> Player:
    r = http.post(f"{base}/api/rooms/{code}/join", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(base, body["code"], body["token"], body["seat"], name)


def watch(base: str, code: str, name: str) -> Player:
    """Someone watching the room through the API: a ``Player`` whose ``seat`` is -1 (a
    watcher has none) and whose token reads the room and sends a watcher's actions."""
    r = http.post(f"{base}/api/rooms/{code}/watch", json={"name": name})
    assert r.status_code == 201, r.text
    body = r.json()
    return Player(base, body["code"], body["token"], -1, name)


NAMES = ["Ada", "Bea", "Cy", "Dot", "Eve", "Flo"]


def table(base: str, players: int, decoys: int = 1) -> list[Player]:
    host = create(base, NAMES[0], decoys)
    return [host, *(join(base, host.code, name) for name in NAMES[1:players])]


def clues_for(seat: int) -> list[str]:
    """Clues no keyword of a sensible deck could be."""
    return [f"Qz{seat}{leaf}" for leaf in range(4)]


def start_and_write_clues(players: list[Player]) -> dict[str, Any]:
    players[0].act("start")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
    state = {}
    for p in players:
        state = p.act("done")
    assert state["phase"] == "resolution"
    return state


def spectator_of(players: list[Player]) -> Player:
    """The Spectator's seat, asked without a seat: a seated read is a sign of life,
    which would bring back a player a test has sent away."""
    spectator = public(players[0].base, players[0].code)["resolution"]["spectator"]
    return players[spectator]


def solution(players: list[Player]) -> list[dict[str, Any]]:
    """The truth, read from the one seat allowed to see it: the Spectator's."""
    res = spectator_of(players).state()["resolution"]
    assert res["solution"] is not None
    return res["solution"]


# --- the room as anyone reads it ----------------------------------------------------------

_reader = http.Client(timeout=10)
"""One client for every read without a seat: a new client per request costs more than
the request."""


def public(api: str, code: str) -> dict[str, Any]:
    """The room as someone without a seat sees it (reading is no sign of life)."""
    r = _reader.get(f"{api}/api/rooms/{code}")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def table_of(api: str, code: str) -> dict[str, Any]:
    """The public view less what presence moves: what an action refused must leave alone.

    Who sits where, the settings, the game, the board and the chat all stay in. Left
    out: who is present, and what follows from it (the stand-in host, the lock
    holder), and ``seq``: the server's presence sweep reports a change of presence
    at any moment, numbered like any change.
    """
    state = public(api, code)
    del state["seq"]
    for player in state["players"]:
        del player["present"], player["host"]
    if state["resolution"] is not None:
        del state["resolution"]["lock_holder"]
    return state


def room_when(
    api: str,
    code: str,
    until: Callable[[dict[str, Any]], Any],
    *,
    what: str,
    timeout: float = 10.0,
) -> dict[str, Any]:
    """The public view once ``until`` holds of it (see ``wait_for``)."""
    return wait_for(lambda: public(api, code), until, what=what, timeout=timeout)
