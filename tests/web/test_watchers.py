"""Watchers over HTTP: watching a room, chatting while the host allows it, sitting down
in the lobby, and every refusal a watcher or a would-be watcher can meet."""

from __future__ import annotations

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    assert_error,
    create,
    http,
    public,
    room_when,
    start_and_write_clues,
    table,
    watch,
)

MANY = {
    "SOCLOVER_JOIN_RATE_PER_MINUTE": "1000",
    "SOCLOVER_CREATE_RATE_PER_MINUTE": "1000",
    "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "1000",
}
"""Watchers and tables come from many places; in a test they all come from one address."""


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    return MANY


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def page_headers(api: str, who: Player) -> dict[str, str]:
    """A request from the room's own page, carrying ``who``'s cookie."""
    return {"Origin": api, "HX-Request": "true", "Cookie": f"soclover_{who.code}={who.token}"}


def test_anyone_with_the_link_watches_under_a_name(api: str) -> None:
    """The API's answer and cookie; what a watcher sees and may do is the service's
    (``tests/service/test_watchers.py``)."""
    ada = create(api, "Ada")
    r = http.post(f"{api}/api/rooms/{ada.code.lower()}/watch", json={"name": "  Gus  "})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"code", "token", "watcher"} and body["code"] == ada.code
    assert len(body["token"]) >= 22 and f"soclover_{ada.code}" in r.headers["set-cookie"]
    gus = Player(api, ada.code, body["token"], -1, "Gus")
    state = gus.state()
    assert state["you"] == {"seat": None, "host": False, "watcher": True}
    assert state["watchers"] == [{"id": body["watcher"], "name": "Gus", "present": True}]


def test_a_watchers_lines_are_marked_and_the_host_turns_their_chat_off_and_on(api: str) -> None:
    """The refusals and the pages; the lines and the switch are the service's."""
    ada, bea, _ = table(api, 3)
    gus = watch(api, ada.code, "Gus")
    gus.act("say", text="hello table")
    bea.act("say", text="hi Gus")
    # only the host switches it
    bea.refused(403, "not_host", "watchers_chat", on=False)
    ada.act("watchers_chat", on=False)
    error = gus.refused(403, "watchers_chat_off", "say", text="still here?")
    assert "watchers' chat off" in error["message"]
    # the page's chat form is gone for the watcher, said why
    page = http.get(f"{api}/r/{ada.code}", headers=page_headers(api, gus)).text
    assert "turned the watchers' chat off" in page and 'name="text"' not in page
    ada.act("watchers_chat", on=True)
    gus.act("say", text="thanks")
    # on every page, a watcher's line carries its mark
    page = http.get(f"{api}/r/{ada.code}", headers=page_headers(api, bea)).text
    assert page.count('class="by-watcher"') == 2 and "watcher-tag" in page


def test_no_seat_to_sit_in_once_seated_the_game_started_or_the_lobby_is_full(api: str) -> None:
    full = table(api, 6)
    gus = watch(api, full[0].code, "Gus")
    gus.refused(409, "room_full", "sit")
    started = table(api, 3)
    hal = watch(api, started[0].code, "Hal")
    ivy = watch(api, started[0].code, "Ivy")
    assert ivy.act("sit")["you"] == {"seat": 3, "host": False}
    ivy.refused(409, "already_seated", "sit")
    started[0].act("start")
    hal.refused(409, "game_started", "sit")


def test_a_watcher_acting_as_a_player_is_told_so_never_a_500(api: str) -> None:
    players = table(api, 3)
    gus = watch(api, players[0].code, "Gus")
    for type_, fields in (("start", {}), ("settings", {"decoys": 2}), ("add_bot", {})):
        gus.refused(403, "watcher_cannot_play", type_, **fields)
    state = start_and_write_clues(players)
    card = state["resolution"]["pool"][0]["card"]
    for type_, fields in (
        ("place", {"card": card, "spot": 0, "rotation": 0}),
        ("agree", {}),
        ("lock", {}),
        ("clues", {"clues": ["a", "b", "c", "d"]}),
        ("kick", {"seat": 1}),
        ("drop", {"seat": 1}),
        ("watchers_chat", {"on": False}),
    ):
        error = gus.refused(403, "watcher_cannot_play", type_, **fields)
        assert "watching" in error["message"]
    # a watcher's malformed action is refused as anyone's
    assert_error(gus.post("place", card=card, spot="x"), 422)
    assert_error(gus.post("watch", name="Gus"), 422)
    # and the board is as it was
    assert public(api, players[0].code)["resolution"]["board"] == state["resolution"]["board"]


@pytest.mark.parametrize(
    ("name", "status", "code"),
    # Each refusal once: which names are refused is the service's and the rules'.
    [("", 422, "bad_name"), ("gUS", 422, "name_taken")],
)
def test_a_watchers_name_is_refused_as_a_seats_would_be(
    api: str, name: str, status: int, code: str
) -> None:
    ada = create(api, "Ada")
    watch(api, ada.code, "Gus")
    r = http.post(f"{api}/api/rooms/{ada.code}/watch", json={"name": name})
    assert_error(r, status, code=code)
    assert [w["name"] for w in ada.state()["watchers"]] == ["Gus"]


def test_bad_watch_requests_are_4xx(api: str) -> None:
    ada = create(api, "Ada")
    watch(api, ada.code, "Gus")
    for body in ({}, {"name": 3}, {"name": "Hal", "seat": 1}, {"name": "x" * 101}):
        assert_error(http.post(f"{api}/api/rooms/{ada.code}/watch", json=body), 422)
    assert_error(http.post(f"{api}/api/rooms/{ada.code}/watch", content=b"{"), 422)
    assert_error(http.post(f"{api}/api/rooms/ZZZZZZ/watch", json={"name": "Hal"}), 404)
    assert_error(http.post(f"{api}/api/rooms/no!/watch", json={"name": "Hal"}), 404)


def test_a_watcher_who_leaves_loses_the_room_and_their_token_with_it(api: str) -> None:
    ada = create(api, "Ada")
    gus = watch(api, ada.code, "Gus")
    # a watcher's token reads the room's history, as a seat's does
    assert http.get(f"{api}/api/rooms/{ada.code}/history", headers=gus.headers).status_code == 200
    gus.act("leave")
    assert_error(gus.post("say", text="hello?"), 401)
    r = http.get(f"{api}/api/rooms/{ada.code}", headers=gus.headers)
    assert r.json()["you"] is None
    # someone without a seat or a watcher's token sends nothing
    assert_error(http.post(f"{api}/api/rooms/{ada.code}/actions", json={"type": "sit"}), 401)


# --- the pages ----------------------------------------------------------------------


def test_the_join_page_offers_to_watch_and_the_form_sets_the_watchers_cookie(api: str) -> None:
    ada = create(api, "Ada")
    page = http.get(f"{api}/r/{ada.code}").text
    assert f'formaction="/r/{ada.code}/watch"' in page and "Take a seat" in page
    r = http.post(f"{api}/r/{ada.code}/watch", data={"name": "Gus"}, headers={"Origin": api})
    assert r.status_code == 303 and r.headers["location"] == f"/r/{ada.code}"
    token = r.cookies[f"soclover_{ada.code}"]
    gus = Player(api, ada.code, token, -1, "Gus")
    room_when(api, ada.code, lambda s: s["watchers"][0]["present"], what="Gus shown here")
    room = http.get(f"{api}/r/{ada.code}", cookies={f"soclover_{ada.code}": token}).text
    assert 'id="watching-bar"' in room and 'value="sit"' in room and "Stop watching" in room
    assert "Leave the room" not in room and "Play on another device" not in room
    assert "Watching 1:" in room and 'data-me="' in room
    assert f'data-me="{gus.state()["watchers"][0]["id"]}"' in room


def test_during_a_game_the_join_page_offers_to_watch_it(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    page = http.get(f"{api}/r/{players[0].code}").text
    assert "Watch this game" in page and f'action="/r/{players[0].code}/watch"' in page
    r = http.post(f"{api}/r/{players[0].code}/watch", data={"name": "Gus"}, headers={"Origin": api})
    cookie = {f"soclover_{players[0].code}": r.cookies[f"soclover_{players[0].code}"]}
    room = http.get(f"{api}/r/{players[0].code}", cookies=cookie).text
    assert 'id="watching-bar"' in room and 'value="sit"' not in room
    assert 'value="clues"' not in room  # no clover, no clue form


@pytest.mark.parametrize(
    ("name", "status"), [("", 422), ("Ada", 422), ("y" * 30, 422)], ids=["empty", "taken", "long"]
)
def test_a_refused_watch_form_says_why_and_keeps_the_name(api: str, name: str, status: int) -> None:
    ada = create(api, "Ada")
    r = http.post(f"{api}/r/{ada.code}/watch", data={"name": name}, headers={"Origin": api})
    assert r.status_code == status
    assert 'class="error"' in r.text and f'value="{name[:200]}"' in r.text
    assert "set-cookie" not in r.headers


def test_the_watch_form_from_another_site_is_refused(api: str) -> None:
    ada = create(api, "Ada")
    r = http.post(
        f"{api}/r/{ada.code}/watch", data={"name": "Gus"}, headers={"Origin": "https://evil.test"}
    )
    assert r.status_code == 403 and "set-cookie" not in r.headers
    assert public(api, ada.code)["watchers"] == []


def test_watchers_sit_and_leave_from_the_page(api: str) -> None:
    ada = create(api, "Ada")
    gus = watch(api, ada.code, "Gus")
    hal = watch(api, ada.code, "Hal")
    r = http.post(f"{api}/r/{ada.code}/act", data={"type": "sit"}, headers=page_headers(api, gus))
    assert r.status_code == 204 and r.headers.get("hx-refresh") == "true"
    r = http.post(f"{api}/r/{ada.code}/act", data={"type": "leave"}, headers=page_headers(api, hal))
    assert r.status_code == 204 and r.headers["hx-redirect"] == f"/?left={ada.code}"
    state = public(api, ada.code)
    assert [p["name"] for p in state["players"]] == ["Ada", "Gus"] and state["watchers"] == []
    # the host's switch, from the page
    watch(api, ada.code, "Ivy")
    r = http.post(
        f"{api}/r/{ada.code}/act",
        data={"type": "watchers_chat", "on": "false"},
        headers=page_headers(api, ada),
    )
    assert r.status_code == 204 and public(api, ada.code)["watchers_chat"] is False
    r = http.post(
        f"{api}/r/{ada.code}/act",
        data={"type": "place", "card": "x", "spot": "0"},
        headers=page_headers(api, watch(api, ada.code, "Jo")),
    )
    assert r.status_code == 403 and "watching" in r.text


def test_watching_and_a_watchers_chat_are_rate_limited_as_a_seats_are(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    api = make_server(
        SOCLOVER_JOIN_RATE_PER_MINUTE="2",
        SOCLOVER_CHAT_BURST="2",
        SOCLOVER_CHAT_LINES_PER_MINUTE="1",
    ).url
    ada = create(api, "Ada")
    gus = watch(api, ada.code, "Gus")
    watch(api, ada.code, "Hal")
    late = http.post(f"{api}/api/rooms/{ada.code}/watch", json={"name": "Ivy"})
    assert_error(late, 429, code="rate_limited")
    page = http.post(f"{api}/r/{ada.code}/watch", data={"name": "Ivy"}, headers={"Origin": api})
    assert page.status_code == 429 and "Too many tries" in page.text
    gus.act("say", text="one")
    gus.act("say", text="two")
    gus.refused(429, "chat_too_fast", "say", text="three")
    assert [w["name"] for w in public(api, ada.code)["watchers"]] == ["Gus", "Hal"]


# --- one person, one place; a crowd at once; names --------------------------------------


def test_the_spectators_browser_cannot_watch_under_another_name(api: str) -> None:
    """A seated device asking to watch its own room is refused, by the API (token or
    cookie) and by the form alike: the Spectator stays silent in every role."""
    players = table(api, 3)
    start_and_write_clues(players)
    spectator = players[players[0].state()["resolution"]["spectator"]]
    code = spectator.code
    by_token = http.post(
        f"{api}/api/rooms/{code}/watch", json={"name": "Ghost"}, headers=spectator.headers
    )
    assert "set-cookie" not in by_token.headers
    error = assert_error(by_token, 409, code="already_seated")
    assert "already have a seat" in error["message"]
    by_cookie = http.post(
        f"{api}/api/rooms/{code}/watch",
        json={"name": "Ghost"},
        headers=page_headers(api, spectator),
    )
    assert_error(by_cookie, 409, code="already_seated")
    form = http.post(
        f"{api}/r/{code}/watch",
        data={"name": "Ghost"},
        headers={"Origin": api, "Cookie": f"soclover_{code}={spectator.token}"},
    )
    assert form.status_code == 409 and "already have a seat" in form.text
    assert "set-cookie" not in form.headers
    assert public(api, code)["watchers"] == []
    spectator.refused(403, "spectator_silent", "say", text="psst, top left")
    # a watcher's device does not watch twice either
    gus = watch(api, code, "Gus")
    again = http.post(f"{api}/api/rooms/{code}/watch", json={"name": "Hal"}, headers=gus.headers)
    assert_error(again, 409, code="already_watching")


def test_the_host_sends_a_watcher_away_and_their_device_cannot_come_back(api: str) -> None:
    ada, bea, _ = table(api, 3)
    gus = watch(api, ada.code, "Gus")
    gus_id = ada.state()["watchers"][0]["id"]
    error = bea.refused(403, "not_host", "send_away", watcher=gus_id)
    assert "host" in error["message"]
    ada.refused(409, "no_such_watcher", "send_away", watcher=gus_id + 100)
    ada.act("send_away", watcher=gus_id)
    assert_error(gus.post("say", text="hello?"), 401)
    # the same device, by its token or its cookie, may not watch again under any name
    by_token = http.post(
        f"{api}/api/rooms/{ada.code}/watch", json={"name": "Gus 2"}, headers=gus.headers
    )
    error = assert_error(by_token, 403, code="sent_away")
    assert "sent you away" in error["message"]
    form = http.post(
        f"{api}/r/{ada.code}/watch",
        data={"name": "Gus 3"},
        headers={"Origin": api, "Cookie": f"soclover_{ada.code}={gus.token}"},
    )
    assert form.status_code == 403 and "sent you away" in form.text
    assert public(api, ada.code)["watchers"] == []
    # another device watches at once
    watch(api, ada.code, "Hal")


def test_the_host_sends_a_watcher_away_from_the_page(api: str) -> None:
    ada, *_ = table(api, 3)
    watch(api, ada.code, "Gus")
    gus_id = ada.state()["watchers"][0]["id"]
    page = http.get(f"{api}/r/{ada.code}", headers=page_headers(api, ada)).text
    assert 'name="type" value="send_away"' in page and f'value="{gus_id}"' in page
    r = http.post(
        f"{api}/r/{ada.code}/act",
        data={"type": "send_away", "watcher": str(gus_id)},
        headers=page_headers(api, ada),
    )
    assert r.status_code in (200, 204), r.text
    assert public(api, ada.code)["watchers"] == []


def test_seventy_at_once_fifty_watch_and_every_token_given_opens_the_room(api: str) -> None:
    """Newcomers count as here from their first request: the cap turns the late ones
    away (409 ``watchers_full``) instead of giving them a place the next one takes. The
    join page says so rather than offering a form that would be refused; who makes room
    for a newcomer at the cap is the service's."""
    from concurrent.futures import ThreadPoolExecutor

    host = create(api, "Ada")

    def one(n: int) -> httpx.Response:
        return http.post(f"{api}/api/rooms/{host.code}/watch", json={"name": f"W{n}"}, timeout=30)

    with ThreadPoolExecutor(max_workers=35) as pool:
        answers = list(pool.map(one, range(70)))
    given = [r.json()["token"] for r in answers if r.status_code == 201]
    assert len(given) == 50, [r.status_code for r in answers]
    for r in answers:
        if r.status_code != 201:
            error = assert_error(r, 409, code="watchers_full")
            assert "as many watchers" in error["message"] and "try again later" in error["message"]
    assert 'formaction="/r/' not in http.get(f"{api}/r/{host.code}").text
    for token in given:
        seen = http.get(
            f"{api}/api/rooms/{host.code}", headers={"Authorization": f"Bearer {token}"}
        )
        assert seen.json()["you"] == {"seat": None, "host": False, "watcher": True}
    assert len(public(api, host.code)["watchers"]) == 50


# Which names pass for the staff is the rules' and the service's: here, each way in says so.
@pytest.mark.parametrize("name", ["Admin", "管理员"])
def test_a_name_that_passes_for_the_tables_staff_is_refused_everywhere(api: str, name: str) -> None:
    ada = create(api, "Ada")
    for path in ("/api/rooms", f"/api/rooms/{ada.code}/join", f"/api/rooms/{ada.code}/watch"):
        r = http.post(f"{api}{path}", json={"name": name})
        error = assert_error(r, 422, code="reserved_name")
        assert "could pass for the people who run this table" in error["message"]
    french = http.post(
        f"{api}/api/rooms/{ada.code}/watch", json={"name": name}, headers={"Accept-Language": "fr"}
    )
    assert "could pass" not in assert_error(french, 422, code="reserved_name")["message"]
    form = http.post(f"{api}/r/{ada.code}/watch", data={"name": name}, headers={"Origin": api})
    assert form.status_code == 422 and "could pass for the people who run this table" in form.text
    state = ada.state()
    assert [p["name"] for p in state["players"]] == ["Ada"] and state["watchers"] == []
