"""A practice table over HTTP: opened by the API and the home page, its bots playing
their script, its code opening nothing to a stranger, never a legend, and opened to
friends by its host."""

from __future__ import annotations

from typing import Any

import pytest

from app.rules.practice import DEALS, truth

from ..kit import Player, Server, assert_error, http, wait_for


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    return {"SOCLOVER_BOT_PACE": "0.02"}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays at a practice table of its own."""
    return shared_server.url


def practice(api: str, name: str = "Ada", language: str | None = None) -> Player:
    body: dict[str, Any] = {"name": name}
    if language is not None:
        body["language"] = language
    r = http.post(f"{api}/api/practice", json=body)
    assert r.status_code == 201, r.text
    seated = r.json()
    return Player(api, seated["code"], seated["token"], seated["seat"], name)


def when(ada: Player, what: str, ok: Any) -> dict[str, Any]:
    return wait_for(ada.state, ok, what=what)  # type: ignore[no-any-return]


def test_a_practice_table_opens_writing_with_two_bots_in_the_callers_language(api: str) -> None:
    r = http.post(f"{api}/api/practice", json={"name": "Zoé"}, headers={"Accept-Language": "fr"})
    assert r.status_code == 201
    zoe = Player(api, r.json()["code"], r.json()["token"], 0, "Zoé")
    state = zoe.state()
    assert state["practice"] and state["phase"] == "clues" and state["language"] == "fr"
    assert [p["bot"] for p in state["players"]] == [False, True, True]
    assert state["can"]["invite"]
    # The bots write their clues and are done, at their short pace.
    when(zoe, "the bots done", lambda s: all(p["done"] for p in s["players"][1:]))
    # A bad name is refused as for any room, and nothing is opened.
    assert_error(http.post(f"{api}/api/practice", json={"name": " "}), 422, code="bad_name")


def test_a_strangers_code_opens_nothing_until_the_host_invites_friends(api: str) -> None:
    ada = practice(api)
    code = ada.code
    assert_error(http.get(f"{api}/api/rooms/{code}"), 404, code="room_not_found")
    assert_error(http.get(f"{api}/api/rooms/{code}/history"), 404, code="room_not_found")
    assert_error(http.get(f"{api}/api/rooms/{code}/events"), 404, code="room_not_found")
    joining = http.post(f"{api}/api/rooms/{code}/join", json={"name": "Zed"})
    assert_error(joining, 404, code="room_not_found")
    watching = http.post(f"{api}/api/rooms/{code}/watch", json={"name": "Zed"})
    assert_error(watching, 404, code="room_not_found")
    claiming = http.post(f"{api}/api/rooms/{code}/claims", json={"seat": 0})
    assert_error(claiming, 404, code="room_not_found")
    assert http.get(f"{api}/r/{code}").status_code == 404  # the page of no room
    assert http.get(f"{api}/r/{code}/stream").status_code == 404
    # Its player reads it, and its stream opens.
    assert ada.state()["code"] == code
    with http.stream("GET", f"{api}/r/{code}/stream", headers=ada.headers) as stream:
        assert stream.status_code == 200
    # Opened to friends: the lobby, without the bots, and the code lets Bea in.
    state = ada.act("invite")
    assert state["phase"] == "lobby" and not state["practice"]
    assert [p["name"] for p in state["players"]] == ["Ada"]
    r = http.post(f"{api}/api/rooms/{code}/join", json={"name": "Bea"})
    assert r.status_code == 201, r.text
    ada.refused(409, "not_practice", "invite")


def test_a_practice_game_played_through_is_never_a_legend(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(SOCLOVER_BOT_PACE="0.02").url
    ada = practice(api, language="en")
    ada.act("clues", clues=["Art", DEALS["en"].warned, "Cook", "Colours"])
    ada.act("done")
    for owner in (1, 2):
        state = when(
            ada,
            f"clover {owner}",
            lambda s, o=owner: bool(s["resolution"]) and s["resolution"]["spectator"] == o,
        )
        for card in state["resolution"]["pool"]:
            where = truth("en", owner).get(tuple(card["words"]))
            if where is not None:
                ada.act("place", card=card["card"], spot=where[0], rotation=where[1])
        ada.act("lock" if owner == 2 else "agree")
        when(ada, "the check", lambda s: s["resolution"]["checked"])
        ada.act("next")
    when(ada, "the bots' try at Ada's clover", lambda s: s["resolution"]["checked"])
    state = ada.act("next")
    assert state["phase"] == "finished" and state["total"] == 16 and state["max"] == 18
    assert not state["can"]["again"]
    assert http.get(f"{api}/api/legends").json()["legends"] == []
    mine = http.get(f"{api}/api/legends", params={"room": ada.code}, headers=ada.headers)
    assert mine.status_code == 200 and mine.json()["legends"] == []


def test_the_home_page_offers_the_lesson_and_opens_a_practice_table(api: str) -> None:
    home = http.get(f"{api}/", headers={"Accept-Language": "zh"})
    assert "和两个机器人一起学" in home.text
    r = http.post(
        f"{api}/practice",
        data={"name": "小明"},
        headers={"Accept-Language": "zh", "Origin": api},
        follow_redirects=False,
    )
    assert r.status_code == 303
    page = http.get(f"{api}{r.headers['location']}", cookies=r.cookies)
    assert 'class="room practice"' in page.text and 'id="lesson"' in page.text
    assert DEALS["zh"].refused in page.text  # the example clue, written on purpose
    refused = http.post(f"{api}/practice", data={"name": ""}, headers={"Origin": api})
    assert refused.status_code == 422 and 'id="learn-error"' in refused.text


def test_the_practice_players_own_seat_link_opens_their_seat_on_a_second_device(
    api: str,
) -> None:
    """The page offers "Play on another device" at a practice table too: its link is the
    one way in for its player's second device, while a stranger's stays shut."""
    ada = practice(api)
    code, token = ada.code, ada.token
    page = http.get(f"{api}/r/{code}", cookies={f"soclover_{code}": token})
    assert f"/r/{code}/seat#{token}" in page.text
    laptop = http.Client(base_url=api, headers={"Origin": api}, timeout=10)
    offer = laptop.post(f"/r/{code}/seat", data={"token": token})
    assert offer.status_code == 200, offer.text
    assert "Play here as Ada" in offer.text
    taken = laptop.post(
        f"/r/{code}/seat", data={"token": token, "confirm": "yes"}, follow_redirects=False
    )
    assert taken.status_code == 303
    room = laptop.get(f"/r/{code}")
    assert room.status_code == 200 and 'class="room practice"' in room.text
    # A stranger's guess at a token still meets a table that is not there.
    stranger = http.Client(base_url=api, headers={"Origin": api}, timeout=10)
    assert stranger.post(f"/r/{code}/seat", data={"token": token[:-2] + "zz"}).status_code == 410
    assert stranger.get(f"/r/{code}").status_code == 404
