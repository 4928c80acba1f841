"""Clue drafts over HTTP, on a real server: kept as they are typed, through a reload, a
kill -9 and another device of the same seat, one refused leaf costing none of the
others, and never told to anyone else at the table."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from ..kit import Event, Player, Server, Stream, http, public, table


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


HX = {"HX-Request": "true"}


def leaves(state: dict[str, Any]) -> list[str | None]:
    return [leaf["clue"] for leaf in state["clover"]["leaves"]]


def a_keyword(player: Player) -> str:
    """One of this player's own outward keywords: a clue the rules refuse."""
    return str(player.state()["clover"]["leaves"][0]["pair"][0])


def seated(player: Player) -> httpx.Client:
    """A browser of this seat: its cookie, and Origin on its posts like a form's."""
    client = http.Client(base_url=player.base, headers={"Origin": player.base}, timeout=10)
    client.cookies.set(f"soclover_{player.code}", player.token)
    return client


def typed(client: httpx.Client, code: str, *clues: str, draft: str = "true") -> httpx.Response:
    """The clue form as the page's script posts a draft of it."""
    data = {"type": "clues", "draft": draft, **{f"clue{i}": c for i, c in enumerate(clues)}}
    return client.post(f"/r/{code}/act", data=data, headers=HX)


def shown(page: str) -> list[str]:
    """The four clue fields as the room page fills them in."""
    values = []
    for leaf in range(4):
        match = re.search(rf'<input id="clue-{leaf}"[^>]*value="([^"]*)"', page)
        assert match, f"no #clue-{leaf} on the page"
        values.append(html.unescape(match.group(1)))
    return values


def test_a_draft_keeps_every_leaf_the_rules_accept(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    bea = players[1]
    keyword = a_keyword(bea)
    state = bea.act("clues", clues=[keyword, "Qzb", "two words", "Qzd"], draft=True)
    assert leaves(state) == [None, "Qzb", None, "Qzd"]
    # Save as the player presses it judges all four: one refused, nothing saved.
    error = bea.refused(422, "clue_rejected", "clues", clues=[keyword, "Qzx", "Qzc", "Qzd"])
    assert [d["leaf"] for d in error["details"]] == [0]
    assert leaves(bea.state()) == [None, "Qzb", None, "Qzd"]
    # Typing on: a later draft keeps what it can, over what was saved.
    state = bea.act("clues", clues=["Qza", "Qzb", "Qzc", keyword], draft=True)
    assert leaves(state) == ["Qza", "Qzb", "Qzc", "Qzd"]
    bea.act("done")


def test_a_draft_is_refused_for_what_any_clues_would_be(api: str) -> None:
    players = table(api, 3)
    bea = players[1]
    bea.refused(409, "wrong_phase", "clues", clues=["Qza", None, None, None], draft=True)
    players[0].act("start")
    for flag in ("yes", 1, None, [True]):
        bea.refused(422, "invalid_request", "clues", clues=["Qza", None, None, None], draft=flag)
    bea.refused(422, "invalid_request", "clues", clues=["Q" * 201, None, None, None], draft=True)
    bea.refused(422, "invalid_request", "clues", clues=["Qza", None, None], draft=True)
    bea.act("clues", clues=["Qza", "Qzb", "Qzc", "Qzd"])
    bea.act("done")
    bea.refused(409, "already_done", "clues", clues=["Qzz", None, None, None], draft=True)
    assert leaves(bea.state()) == ["Qza", "Qzb", "Qzc", "Qzd"]
    r = http.post(
        f"{api}/api/rooms/{bea.code}/actions",
        json={"type": "clues", "clues": ["Qza", None, None, None], "draft": True},
    )
    assert r.status_code == 401


def test_the_forms_draft_is_kept_for_a_reload_and_another_device(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    bea = players[1]
    keyword = a_keyword(bea)
    with seated(bea) as phone:
        r = typed(phone, bea.code, keyword, "Qzb", "", "Qzd")
        assert r.status_code == 204, r.text
        # A draft answers nothing for the page to show.
        assert r.text == ""
        assert leaves(bea.state()) == [None, "Qzb", None, "Qzd"]
        assert shown(phone.get(f"/r/{bea.code}").text) == ["", "Qzb", "", "Qzd"]
        r = typed(phone, bea.code, "Qza", "Qzb", "", "Qzd", draft="maybe")
        assert r.status_code == 422 and "not well formed" in r.text
    # The same seat on a laptop: its page holds what the phone typed.
    with seated(bea) as laptop:
        assert shown(laptop.get(f"/r/{bea.code}").text) == ["", "Qzb", "", "Qzd"]
        r = typed(laptop, bea.code, "Qza", "Qzb", "", "Qzd")
        assert r.status_code == 204
    assert leaves(bea.state()) == ["Qza", "Qzb", None, "Qzd"]


def test_an_answered_draft_survives_kill_9(make_server: Callable[..., Server]) -> None:
    server = make_server(process=True)
    players = table(server.url, 3)
    players[0].act("start")
    bea = players[1]
    keyword = a_keyword(bea)
    with seated(bea) as phone:
        assert typed(phone, bea.code, "Qza", keyword, "Qzc", "").status_code == 204
    server.kill()
    restarted = make_server()
    bea.base = restarted.url
    assert leaves(bea.state()) == ["Qza", None, "Qzc", None]
    with seated(bea) as phone:
        assert shown(phone.get(f"/r/{bea.code}").text) == ["Qza", "", "Qzc", ""]
        # and writing goes on from there
        assert typed(phone, bea.code, "Qza", "Qzb", "Qzc", "Qzd").status_code == 204
    assert leaves(bea.state()) == ["Qza", "Qzb", "Qzc", "Qzd"]


def events_until(stream: Stream, done: Callable[[Event], bool]) -> list[Event]:
    seen: list[Event] = []
    while not seen or not done(seen[-1]):
        seen.append(stream.next())
    return seen


def test_no_other_seat_learns_of_a_draft_and_the_table_is_not_told(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    ada, bea, cy = players
    secret = ["Qzsecret", "Qzhidden", None, None]
    cookie = {"Cookie": f"soclover_{cy.code}={cy.token}"}
    cy_events = Stream(f"{api}/api/rooms/{cy.code}/events", dict(cy.headers))
    cy_page = Stream(f"{api}/r/{cy.code}/stream", cookie)
    bea_page = Stream(f"{api}/r/{bea.code}/stream", {"Cookie": f"soclover_{bea.code}={bea.token}"})
    try:
        cy_events.next()
        cy_page.take(5)
        bea_page.take(5)
        drafted = bea.act("clues", clues=secret, draft=True)["seq"]
        saved = bea.act("clues", clues=["Qzsecret", "Qzhidden", "Qzc", None])["seq"]
        # The JSON stream names the draft, never its words.
        told = events_until(cy_events, lambda e: e.json["seq"] == saved)
        draft_event = next(e for e in told if e.json["seq"] == drafted)
        assert draft_event.json["action"] == {
            "type": "clues",
            "seat": 1,
            "player": 1,
            "name": "Bea",
            "draft": True,
        }
        assert all("Qzsecret" not in e.data and "Qzhidden" not in e.data for e in told)
        # A page elsewhere at the table hears of the save, and of no draft.
        regions = events_until(cy_page, lambda e: e.event == "announce")
        assert [e.id for e in regions if e.event == "announce"] == [str(saved)]
        assert "Bea saved clues" in regions[-1].data
        assert all("Qzsecret" not in e.data and "Qzhidden" not in e.data for e in regions)
        # Bea's own page gets her stage again, and no announcement of her draft.
        own = events_until(bea_page, lambda e: e.event == "announce")
        assert [e.id for e in own if e.event == "announce"] == [str(saved)]
        assert any(
            e.event == "stage" and e.id == str(drafted) and "Qzsecret" in e.data for e in own
        )
    finally:
        for stream in (cy_events, cy_page, bea_page):
            stream.close()
    for reader in (ada, cy):
        assert "Qzsecret" not in str(reader.state())
    assert "Qzsecret" not in str(public(api, bea.code))
