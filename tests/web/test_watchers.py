"""Watchers over HTTP: watching a room, chatting while the host allows it, sitting down
in the lobby, and every refusal a watcher or a would-be watcher can meet."""

from __future__ import annotations

import json

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    Stream,
    assert_error,
    create,
    http,
    join,
    public,
    room_when,
    start_and_write_clues,
    table,
    wait_for,
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


def test_anyone_with_the_link_watches_under_a_name_and_sees_what_a_guesser_sees(api: str) -> None:
    ada, bea, cy = table(api, 3)
    r = http.post(f"{api}/api/rooms/{ada.code.lower()}/watch", json={"name": "  Gus  "})
    assert r.status_code == 201, r.text
    body = r.json()
    assert set(body) == {"code", "token", "watcher"} and body["code"] == ada.code
    assert len(body["token"]) >= 22 and f"soclover_{ada.code}" in r.headers["set-cookie"]
    gus = Player(api, ada.code, body["token"], -1, "Gus")
    state = gus.state()
    assert state["you"] == {"seat": None, "host": False, "watcher": True}
    assert state["watchers"] == [{"id": body["watcher"], "name": "Gus", "present": True}]
    # watching is a sign of life, as sitting is: the table soon shows them here
    room_when(api, ada.code, lambda s: s["watchers"][0]["present"], what="Gus shown here")
    assert state["can"]["sit"] and state["can"]["say"] and not state["can"]["start"]
    # the table sees who watches
    assert [w["name"] for w in ada.state()["watchers"]] == ["Gus"]
    # in the game, what a guesser sees: no clover of anyone's, no solution, no decoys
    start_and_write_clues([ada, bea, cy])
    seen = gus.state()
    assert seen["clover"] is None
    assert seen["resolution"]["solution"] is None and seen["resolution"]["decoys"] is None
    assert seen["resolution"]["pool"] == public(api, ada.code)["resolution"]["pool"]


def test_a_watchers_lines_are_marked_and_the_host_turns_their_chat_off_and_on(api: str) -> None:
    ada, bea, _ = table(api, 3)
    gus = watch(api, ada.code, "Gus")
    line = gus.act("say", text="hello table")["chat"][-1]
    assert (line["name"], line["text"], line["watcher"]) == ("Gus", "hello table", True)
    assert bea.act("say", text="hi Gus")["chat"][-1]["watcher"] is False
    # only the host switches it
    bea.refused(403, "not_host", "watchers_chat", on=False)
    assert ada.act("watchers_chat", on=False)["watchers_chat"] is False
    error = gus.refused(403, "watchers_chat_off", "say", text="still here?")
    assert "watchers' chat off" in error["message"]
    assert not gus.state()["can"]["say"]
    bea.act("say", text="players still talk")
    # the page's chat form is gone for the watcher, said why
    page = http.get(f"{api}/r/{ada.code}", headers=page_headers(api, gus)).text
    assert "turned the watchers' chat off" in page and 'name="text"' not in page
    ada.act("watchers_chat", on=True)
    gus.act("say", text="thanks")
    texts = [(c["text"], c["watcher"]) for c in public(api, ada.code)["chat"]]
    assert texts == [
        ("hello table", True),
        ("hi Gus", False),
        ("players still talk", False),
        ("thanks", True),
    ]
    # on every page, a watcher's line carries its mark
    page = http.get(f"{api}/r/{ada.code}", headers=page_headers(api, bea)).text
    assert page.count('class="by-watcher"') == 2 and "watcher-tag" in page


def test_a_watcher_sits_down_in_the_lobby_as_who_they_are(api: str) -> None:
    ada, _, _ = table(api, 3)
    gus = watch(api, ada.code, "Gus")
    gus.act("say", text="may I play?")
    state = gus.act("sit")
    assert state["you"] == {"seat": 3, "host": False}
    assert state["watchers"] == []
    assert state["players"][3]["name"] == "Gus"
    # the same id as before: the chat line is still theirs, the token is their seat's
    assert gus.state()["chat"][-1]["player"] == gus.state()["players"][3]["id"]
    gus.refused(409, "already_seated", "sit")
    gus.act("say", text="seated now")
    assert gus.state()["chat"][-1]["watcher"] is False


def test_no_seat_to_sit_in_once_the_game_started_or_the_lobby_is_full(api: str) -> None:
    full = table(api, 6)
    gus = watch(api, full[0].code, "Gus")
    assert not gus.state()["can"]["sit"]
    gus.refused(409, "room_full", "sit")
    started = table(api, 3)
    hal = watch(api, started[0].code, "Hal")
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
    [
        ("", 422, "bad_name"),
        ("   ", 422, "bad_name"),
        ("x" * 25, 422, "bad_name"),
        ("\u200b\u200b", 422, "bad_name"),
        ("Ada", 422, "name_taken"),
        ("ADA", 422, "name_taken"),
        ("Аda", 422, "name_taken"),  # a Cyrillic A
        ("Gus", 422, "name_taken"),
        ("gUS", 422, "name_taken"),
    ],
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
    gus.act("leave")
    assert public(api, ada.code)["watchers"] == []
    assert_error(gus.post("say", text="hello?"), 401)
    r = http.get(f"{api}/api/rooms/{ada.code}", headers=gus.headers)
    assert r.json()["you"] is None
    # someone without a seat or a watcher's token sends nothing
    assert_error(http.post(f"{api}/api/rooms/{ada.code}/actions", json={"type": "sit"}), 401)


def test_an_open_stream_keeps_a_watcher_shown_here(api: str) -> None:
    ada = create(api, "Ada")
    gus = watch(api, ada.code, "Gus")
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(gus.headers))
    try:
        first = stream.next().json
        assert first["state"]["you"]["watcher"] is True
        room_when(api, ada.code, lambda s: s["watchers"][0]["present"], what="Gus shown here")
        ada.act("say", text="welcome")
        said = wait_for(stream.next, lambda e: e.json["action"]["type"] == "say", what="say")
        assert said.json["state"]["chat"][-1]["text"] == "welcome"
        gus.act("say", text="thanks")
        wait_for(
            stream.next,
            lambda e: (
                e.json["action"]
                == {
                    "type": "say",
                    "seat": None,
                    "player": gus.state()["watchers"][0]["id"],
                    "name": "Gus",
                    "watcher": True,
                }
            ),
            what="the watcher's line, told as theirs",
        )
    finally:
        stream.close()


def test_a_watchers_open_stream_follows_them_into_their_seat(api: str) -> None:
    """The same stream, before and after Take a seat: each change is seen as whoever the
    token's holder is at that change, a watcher, then a seat."""
    ada = create(api, "Ada")
    gus = watch(api, ada.code, "Gus")
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(gus.headers))
    try:
        assert stream.next().json["state"]["you"]["watcher"] is True
        gus.act("sit")
        seated = wait_for(stream.next, lambda e: e.json["action"]["type"] == "sit", what="sit")
        assert seated.json["state"]["you"] == {"seat": 1, "host": False}
        ada.act("say", text="welcome")
        said = wait_for(stream.next, lambda e: e.json["action"]["type"] == "say", what="say")
        assert said.json["state"]["you"] == {"seat": 1, "host": False}
    finally:
        stream.close()


def test_at_the_cap_a_newcomer_replaces_an_away_watcher_or_is_told_to_wait(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    quick = {
        **MANY,
        "SOCLOVER_PRESENCE_GRACE_SECONDS": "0.5",
        "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2",
    }
    api = make_server(**quick).url
    ada = create(api, "Ada")
    crowd = [watch(api, ada.code, f"W{n}") for n in range(50)]
    streams = [Stream(f"{api}/api/rooms/{ada.code}/events", dict(w.headers)) for w in crowd]
    try:
        for stream in streams:
            stream.next()
        room_when(
            api, ada.code, lambda s: all(w["present"] for w in s["watchers"]), what="all 50 here"
        )
        assert not public(api, ada.code)["can"]["watch"]
        late = http.post(f"{api}/api/rooms/{ada.code}/watch", json={"name": "Late"})
        assert "as many watchers" in assert_error(late, 409, code="watchers_full")["message"]
        # the join page says so rather than offering a form that would be refused
        page = http.get(f"{api}/r/{ada.code}").text
        assert 'formaction="/r/' not in page
        streams[0].close()
        room_when(api, ada.code, lambda s: not s["watchers"][0]["present"], what="W0 away")
        came = watch(api, ada.code, "Late")
        names = [w["name"] for w in came.state()["watchers"]]
        assert len(names) == 50 and names[-1] == "Late" and "W0" not in names
    finally:
        for stream in streams:
            stream.close()


def test_a_player_out_of_a_game_watches_the_next_with_the_same_token(api: str) -> None:
    players = table(api, 4)
    ada, _, _, dot = players
    ada.act("start")
    dot.act("leave")
    for p in players[:3]:
        p.act("clues", clues=[f"Qz{p.seat}{leaf}" for leaf in range(4)])
        p.act("done")
    state = ada.state()
    while state["phase"] == "resolution":
        holder = next(p for p in players if p.seat == state["resolution"]["lock_holder"])
        if state["resolution"]["checked"]:
            state = holder.act("next")
            continue
        free = [b["spot"] for b in state["resolution"]["board"] if b["card"] is None]
        for spot, card in zip(free, state["resolution"]["pool"], strict=False):
            holder.act("place", card=card["card"], spot=spot, rotation=0)
        state = holder.act("lock")
    assert state["phase"] == "finished"
    dot_id = state["players"][3]["id"]
    ada.act("again")
    seen = dot.state()
    assert seen["you"]["watcher"] is True and [p["name"] for p in seen["players"]] == [
        "Ada",
        "Bea",
        "Cy",
    ]
    assert [(w["id"], w["name"]) for w in seen["watchers"]] == [(dot_id, "Dot")]
    dot.act("say", text="next one for me")
    assert dot.act("sit")["you"] == {"seat": 3, "host": False}


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


def test_a_watchers_lines_in_a_game_leave_its_history_whole(api: str) -> None:
    """The history is replayed from the log, a watcher's chat lines and comings included."""
    players = table(api, 3)
    ada = players[0]
    gus = watch(api, ada.code, "Gus")
    start_and_write_clues(players)
    gus.act("say", text="go on")
    watch(api, ada.code, "Hal")
    state = ada.state()
    holder = players[state["resolution"]["lock_holder"]]
    spectator = players[state["resolution"]["spectator"]]
    for p in spectator.state()["resolution"]["solution"]:
        holder.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
    gus.act("say", text="well done")
    holder.act("lock")
    for reader in (gus, ada):
        r = http.get(f"{api}/api/rooms/{ada.code}/history", headers=reader.headers)
        assert r.status_code == 200
        (clover,) = r.json()["clovers"]
        assert clover["score"] == 6


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
    # come while the clover is rebuilt, Gus is named to the table at its check
    assert public(api, code)["watchers"] == [] and public(api, code)["watchers_held"]


def test_a_cookie_less_browser_of_the_spectators_says_nothing_before_the_check(
    api: str,
) -> None:
    """The Spectator's second browser (no cookie of the room) watches as a stranger: its
    name and its line reach no one, in any state or event, until the clover is checked."""
    players = table(api, 3)
    ada = players[0]
    start_and_write_clues(players)
    state = ada.state()
    holder = players[state["resolution"]["lock_holder"]]
    guesser = next(p for p in players if p.seat != state["resolution"]["spectator"])
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(guesser.headers))
    try:
        stream.next()
        # The hint names a word no deck holds: found anywhere, it can only be the watcher's.
        zoe = watch(api, ada.code, "Zoe top-left Quokka")
        said = zoe.act("say", text="psst: top-left is Quokka")
        assert said["held_lines"] == 1 and said["chat"] == []
        held = wait_for(stream.next, lambda e: e.json["action"]["type"] == "say", what="say")
        for text in (held.data, json.dumps(guesser.state()), json.dumps(zoe.state())):
            assert "Quokka" not in text
        assert held.json["action"] == {"type": "say", "seat": None, "watcher": True, "held": True}
        spectator = players[state["resolution"]["spectator"]]
        for p in spectator.state()["resolution"]["solution"]:
            holder.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
        holder.act("lock")
        checked = wait_for(stream.next, lambda e: e.json["action"]["type"] == "lock", what="lock")
    finally:
        stream.close()
    line = checked.json["state"]["chat"][-1]
    assert (line["text"], line["name"], line["held"]) == (
        "psst: top-left is Quokka",
        "Zoe top-left Quokka",
        True,
    )
    assert [w["name"] for w in guesser.state()["watchers"]] == ["Zoe top-left Quokka"]


def test_the_host_sends_a_watcher_away_and_their_device_cannot_come_back(api: str) -> None:
    ada, bea, _ = table(api, 3)
    gus = watch(api, ada.code, "Gus")
    gus_id = ada.state()["watchers"][0]["id"]
    error = bea.refused(403, "not_host", "send_away", watcher=gus_id)
    assert "host" in error["message"]
    ada.refused(409, "no_such_watcher", "send_away", watcher=gus_id + 100)
    assert ada.state()["can"]["send_away"] == [gus_id]
    state = ada.act("send_away", watcher=gus_id)
    assert state["watchers"] == [] and state["can"]["send_away"] == []
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
    away (409 ``watchers_full``) instead of giving them a place the next one takes."""
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
            assert "try again later" in error["message"]
    for token in given:
        seen = http.get(
            f"{api}/api/rooms/{host.code}", headers={"Authorization": f"Bearer {token}"}
        )
        assert seen.json()["you"] == {"seat": None, "host": False, "watcher": True}
    assert len(public(api, host.code)["watchers"]) == 50


def test_a_player_takes_the_name_a_watcher_took_first(api: str) -> None:
    """Players first: the watcher watches on under the name with a number."""
    ada = create(api, "Ada")
    squatter = watch(api, ada.code, "Bea")
    squatter.act("say", text="I am Bea")
    bea = join(api, ada.code, "bea")
    state = bea.state()
    assert state["players"][1]["name"] == "bea"
    assert [w["name"] for w in state["watchers"]] == ["Bea (2)"]
    # the watcher keeps their place and their token, under the new name
    assert squatter.state()["you"]["watcher"] is True
    line = squatter.act("say", text="still here")["chat"][-1]
    assert (line["name"], line["watcher"]) == ("Bea (2)", True)
    # and never takes a player's name back
    r = http.post(f"{api}/api/rooms/{ada.code}/watch", json={"name": "BEA"})
    assert_error(r, 422, code="name_taken")


@pytest.mark.parametrize(
    "name", ["Admin", "ADMIN ", "\u0410dmin", "Modérateur", "管理员", "System Bea", "Host"]
)
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


def test_a_name_with_such_a_word_inside_it_is_fine(api: str) -> None:
    ada = create(api, "Modesto")
    assert join(api, ada.code, "Ghost").name == "Ghost"
    watch(api, ada.code, "Hostetler")
