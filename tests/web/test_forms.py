"""Every refusal a person can reach through the pages' forms, over HTTP.

Each shows the form again (or the room, or the flash area) with its message and
what was typed, under the refusal's own 4xx status, and changes nothing: never
a 500, never the JSON of the API on a player's screen.
"""

from __future__ import annotations

import html
import re

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    create,
    http,
    join,
    public,
    start_and_write_clues,
    table,
    table_of,
)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def browser(api: str) -> httpx.Client:
    """A cookie-keeping client that sends Origin like a browser's form post."""
    return http.Client(base_url=api, headers={"Origin": api}, timeout=10)


def refused_page(r: httpx.Response, status: int, message: str) -> str:
    """The answer is an HTML page (not JSON, not a 500) with ``message`` on it."""
    assert r.status_code == status, f"{r.status_code} {r.text[:500]}"
    assert r.headers["content-type"].startswith("text/html"), r.headers["content-type"]
    assert "internal" not in r.text and '{"error"' not in r.text
    assert message in html.unescape(r.text), r.text[:3000]
    return r.text


def shown_value(page: str, field_id: str) -> str:
    match = re.search(rf'<input id="{field_id}"[^>]*value="([^"]*)"', page)
    assert match, f"no #{field_id} with a value"
    return html.unescape(match.group(1))


# --- creating a room from the home page -------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "decoys", "message"),
    [
        ("", "1", "A name is 1 to 24 visible characters"),
        ("   ", "1", "A name is 1 to 24 visible characters"),
        ("A" * 25, "1", "A name is 1 to 24 visible characters"),
        ("<b>Ada</b>" * 30, "2", "A name is 1 to 24 visible characters"),
        ("Ada", "0", "The number of decoys is 1 to 4"),
        ("Ada", "5", "The number of decoys is 1 to 4"),
        ("Ada", "two", "The number of decoys is 1 to 4"),
    ],
)
def test_a_refused_create_shows_the_form_again_with_what_was_typed(
    api: str, name: str, decoys: str, message: str
) -> None:
    with browser(api) as client:
        r = client.post("/rooms", data={"name": name, "decoys": decoys})
        page = refused_page(r, 422, message)
        assert shown_value(page, "create-name") == name[:200]
        assert "set-cookie" not in r.headers
        assert "<b>Ada</b>" not in page  # escaped, never markup


def test_a_create_posted_by_another_site_is_a_403_page(api: str) -> None:
    """Refused before the form is read (every post route's first check), so the page
    says why without the form: no one typed it on our pages."""
    r = http.post(f"{api}/rooms", data={"name": "Ada"}, headers={"Origin": "https://evil.example"})
    refused_page(r, 403, "That request came from another site.")
    assert "set-cookie" not in r.headers


def test_the_eleventh_create_in_a_minute_is_a_429_page(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server().url  # the default limit: 10 rooms a minute per address
    with browser(api) as client:
        for _ in range(10):
            assert client.post("/rooms", data={"name": "Ada"}).status_code == 303
        r = client.post("/rooms", data={"name": "Ada", "decoys": "3"})
        page = refused_page(r, 429, "Too many tries from here")
        assert shown_value(page, "create-name") == "Ada"
        assert 'value="3" selected' in page


# --- joining by code from the home page -------------------------------------------------------


@pytest.mark.parametrize("code", ["", "!!", "abc", "ZZZZZZ", "Z" * 40, "- -", "ZZZ ZZZ"])
def test_joining_by_a_code_that_opens_no_room_shows_the_home_form_again(
    api: str, code: str
) -> None:
    r = http.post(f"{api}/join", data={"code": code}, headers={"Origin": api})
    page = refused_page(r, 404, "There is no room with that code")
    assert shown_value(page, "join-code") == code


def test_joining_by_a_code_that_opens_a_room_goes_to_its_page(api: str) -> None:
    host = create(api, "Ada")
    c = host.code
    # As it is typed: in small letters, with spaces around, in groups as read out.
    for typed in (f" {c.lower()} ", f"{c[:3]} {c[3:]}", f"{c[:3]}-{c[3:].lower()}"):
        r = http.post(f"{api}/join", data={"code": typed}, headers={"Origin": api})
        assert r.status_code == 303 and r.headers["location"] == f"/r/{c}", typed


# --- taking a seat in a room ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "status", "message"),
    [
        ("Ada", 422, "Someone at this table already has that name."),
        ("ADA", 422, "Someone at this table already has that name."),
        ("", 422, "A name is 1 to 24 visible characters"),
        ("  ", 422, "A name is 1 to 24 visible characters"),
        ("B" * 25, 422, "A name is 1 to 24 visible characters"),
        ("x" * 5000, 422, "A name is 1 to 24 visible characters"),
    ],
)
def test_a_refused_seat_shows_the_join_form_again(
    api: str, name: str, status: int, message: str
) -> None:
    host = create(api, "Ada")
    before = table_of(api, host.code)
    with browser(api) as client:
        r = client.post(f"/r/{host.code}/join", data={"name": name})
        page = refused_page(r, status, message)
        assert shown_value(page, "join-name") == name[:200]
        assert "set-cookie" not in r.headers
    assert table_of(api, host.code) == before


def test_a_seat_in_a_started_or_full_room_is_refused_with_a_page(api: str) -> None:
    started = table(api, 3)
    start_and_write_clues(started)
    r = http.post(f"{api}/r/{started[0].code}/join", data={"name": "Zed"}, headers={"Origin": api})
    refused_page(r, 409, "This game has already started.")
    full = table(api, 6)
    r = http.post(f"{api}/r/{full[0].code}/join", data={"name": "Zed"}, headers={"Origin": api})
    refused_page(r, 409, "This room already has six players.")
    assert len(public(api, full[0].code)["players"]) == 6


def test_a_seat_posted_by_another_site_or_to_no_room_is_refused_with_a_page(api: str) -> None:
    host = create(api, "Ada")
    r = http.post(
        f"{api}/r/{host.code}/join",
        data={"name": "Bea"},
        headers={"Origin": "https://evil.example"},
    )
    refused_page(r, 403, "That request came from another site.")
    assert "set-cookie" not in r.headers
    assert len(public(api, host.code)["players"]) == 1
    r = http.post(f"{api}/r/ZZZZZZ/join", data={"name": "Bea"}, headers={"Origin": api})
    refused_page(r, 404, "No room")


def test_seats_taken_too_fast_are_a_429_page(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(SOCLOVER_JOIN_RATE_PER_MINUTE="2").url
    host = create(api, "Ada")
    for name in ("Bea", "Cy"):
        r = http.post(f"{api}/r/{host.code}/join", data={"name": name}, headers={"Origin": api})
        assert r.status_code == 303
    r = http.post(f"{api}/r/{host.code}/join", data={"name": "Dot"}, headers={"Origin": api})
    page = refused_page(r, 429, "Too many tries from here")
    # Said before the room is read: the same page for a code that opens no room, so that
    # past the limit nothing tells a room from no room.
    r = http.post(f"{api}/r/ZZZZZZ/join", data={"name": "Dot"}, headers={"Origin": api})
    assert refused_page(r, 429, "Too many tries from here") == page.replace(host.code, "ZZZZZZ")
    assert [p["name"] for p in public(api, host.code)["players"]] == ["Ada", "Bea", "Cy"]


# --- actions from the room page ---------------------------------------------------------------


def seated(api: str, player: Player) -> httpx.Client:
    client = browser(api)
    client.cookies.set(f"soclover_{player.code}", player.token)
    return client


def test_a_refused_action_without_javascript_shows_the_room_with_its_message(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    with seated(api, players[1]) as bea:
        r = bea.post(
            f"/r/{players[1].code}/act",
            data={
                "type": "clues",
                "clue0": "Qza",
                "clue1": "",
                "clue2": "",
                "clue3": "",
                "then": "done",
            },
        )
        page = refused_page(r, 409, "Write a clue on all four leaves first.")
        assert 'id="stage"' in page  # the room itself, with the message above it
        # the draft was saved all the same
        assert players[1].state()["clover"]["leaves"][0]["clue"] == "Qza"
        r = bea.post(f"/r/{players[1].code}/act", data={"type": "lock"})
        refused_page(r, 409, "That is not possible in this phase of the game.")
        r = bea.post(f"/r/{players[1].code}/act", data={"type": "place", "spot": "x"})
        refused_page(r, 422, "not well formed")


def test_a_refused_htmx_action_answers_a_message_for_the_flash_area(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    with seated(api, players[1]) as bea:
        hx = {"HX-Request": "true"}
        r = bea.post(f"/r/{players[1].code}/act", data={"type": "done"}, headers=hx)
        assert r.status_code == 409
        assert "Write a clue on all four leaves first." in r.text
        assert r.text.startswith('<p class="flash"')
        # the forms target the flash area themselves; no retarget a replaced form could not find
        assert "HX-Retarget" not in r.headers
        r = bea.post(
            f"/r/{players[1].code}/act", data={"type": "say", "text": "x" * 400}, headers=hx
        )
        assert r.status_code == 422 and "1 to 300 characters" in r.text
        r = bea.post(
            f"/r/{players[1].code}/act",
            data={"type": "say", "text": "hi"},
            headers={**hx, "Origin": "https://evil.example"},
        )
        assert r.status_code == 403 and "another site" in r.text
    r = http.post(f"{api}/r/{players[1].code}/act", data={"type": "say", "text": "hi"}, headers=hx)
    assert r.status_code == 401 and "no seat" in r.text


# --- leaving ----------------------------------------------------------------------------------


def test_leaving_ends_on_the_home_page_which_names_the_room(api: str) -> None:
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    with seated(api, bea) as client:
        r = client.post(
            f"/r/{bea.code}/act", data={"type": "leave"}, headers={"HX-Request": "true"}
        )
        assert r.status_code == 204 and r.headers["HX-Redirect"] == f"/?left={bea.code}"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"soclover_{bea.code}=") and "Max-Age=0" in cookie
        home = client.get(r.headers["HX-Redirect"])
        assert f'You left room <span class="code">{bea.code}</span>' in home.text
    assert [p["name"] for p in public(api, host.code)["players"]] == ["Ada"]
    cy = join(api, host.code, "Cy")
    with seated(api, cy) as client:
        r = client.post(f"/r/{cy.code}/act", data={"type": "leave"})
        assert r.status_code == 303 and r.headers["location"] == f"/?left={cy.code}"
    # an odd ?left= is ignored, never echoed
    assert "You left" not in http.get(f"{api}/?left=<script>").text
