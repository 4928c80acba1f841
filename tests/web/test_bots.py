"""Bots at the table, over HTTP against a real server: seated, removed, and playing a
whole game with one person, through the same actions and events as everyone."""

from __future__ import annotations

import httpx

from app.web.deps import cookie_name
from tests.kit.players import Player, create, join, table_of
from tests.kit.waiting import wait_for

FAST = {"SOCLOVER_BOT_PACE": "0.01"}
"""Bots at a hundredth of a person's pace: a game in seconds."""


def bots_table(api: str, bots: int = 2) -> tuple[Player, dict]:  # type: ignore[type-arg]
    ada = create(api, "Ada")
    state = {}
    for _ in range(bots):
        state = ada.act("add_bot")
    return ada, state


def test_the_host_seats_bots_with_names_of_their_own_and_removes_them(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST).url
    ada, state = bots_table(api, 2)
    players = state["players"]
    assert [p["bot"] for p in players] == [False, True, True]
    assert all(p["present"] for p in players[1:])
    assert len({p["name"] for p in players}) == 3 and "Ada" not in [p["name"] for p in players[1:]]
    assert state["can"]["kick"] == [1, 2]  # bots can be removed though they are "present"
    bea = join(api, ada.code, "Bea")
    assert bea.state()["players"][bea.seat]["bot"] is False
    bea.refused(403, "not_host", "add_bot")
    state = ada.act("kick", seat=1)
    assert [p["bot"] for p in state["players"]] == [False, True, False]
    for _ in range(3):
        state = ada.act("add_bot")
    assert len(state["players"]) == 6
    ada.refused(409, "room_full", "add_bot")
    # a device cannot ask for a bot's seat
    r = httpx.post(f"{api}/api/rooms/{ada.code}/claim", json={"seat": 1})
    assert r.status_code in (404, 405, 422) or r.json()["error"]["code"] == "bad_seat"


def test_bots_speak_english_only_and_say_so(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST).url
    ada = create(api, "Ada")
    ada.act("language", language="fr")
    body = ada.refused(409, "bots_unavailable", "add_bot")
    assert "English" in body["message"]
    assert ada.state()["limits"]["bot_languages"] == ["en"]
    ada.act("language", language="en")
    ada.act("add_bot")
    ada.refused(409, "bots_unavailable", "language", language="zh")
    assert ada.state()["language"] == "en"


def test_without_bots_the_lobby_says_why_and_nothing_changes(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(SOCLOVER_BOTS="false").url
    ada = create(api, "Ada")
    assert ada.state()["limits"]["bot_languages"] == []
    before = table_of(api, ada.code)
    ada.refused(409, "bots_unavailable", "add_bot")
    assert table_of(api, ada.code) == before
    page = httpx.get(f"{api}/r/{ada.code}", cookies={cookie_name(ada.code): ada.token})
    assert "Bots are not installed on this server." in page.text
    assert 'name="type" value="add_bot"' in page.text


def test_one_person_and_two_bots_play_a_whole_game_to_the_record(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST).url
    ada, state = bots_table(api, 2)
    ada.act("start")
    mine = ada.state()["clover"]
    ada.act("clues", clues=["Thing", "Stuff", "Object", "Item"])
    ada.act("done")
    state = wait_for(ada.state, lambda s: s["phase"] == "resolution", what="the bots' clues")
    for spectator in state["players"][1:]:
        assert spectator["bot"]
    checked = []

    def play_along() -> dict:  # type: ignore[type-arg]
        """Ada's part: agree with a full board the bots laid, move on after a check."""
        state = ada.state()
        res = state["resolution"]
        if res is None:
            return state
        if res["checked"]:
            checked.append(res["clues"])
            return ada.act("next")
        if res["spectator"] != ada.seat and res["full"] and ada.seat not in res["agreed"]:
            ada.post("agree")  # refused if the bots moved meanwhile: she looks again
        return state

    state = wait_for(
        play_along, lambda s: s["phase"] == "finished", what="the whole game", timeout=120
    )
    assert len(checked) == 3 and mine is not None
    for clues in checked[:3]:
        assert all(clues)
    assert len(state["results"]) == 3
    assert 0 <= state["total"] <= 18
    legends = httpx.get(f"{api}/api/legends", params={"players": 3}).json()["legends"]
    assert [legend["players"] for legend in legends] == [
        ["Ada", *[p["name"] for p in state["players"][1:]]]
    ]
