"""No dead ends: every page a player can land on says where they are and offers the next
step (home, a room of their own, another code), under its own status."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    create,
    http,
    join,
    solution,
    start_and_write_clues,
    table,
    wait_for,
)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def next_steps(r: httpx.Response, status: int, *said: str) -> str:
    """An HTML page under ``status`` that says each of ``said`` and offers the way on:
    home, a new room, and a code to join with."""
    assert r.status_code == status, f"{r.status_code} {r.text[:500]}"
    assert r.headers["content-type"].startswith("text/html"), r.headers["content-type"]
    page = r.text
    text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))
    for words in said:
        assert words in text, f"{words!r} not on the page: {text[:2000]}"
    assert re.search(r'<a class="button[^"]*" href="/">Home</a>', page), page
    assert re.search(r'<a class="button[^"]*" href="/#create-title">Start a new room</a>', page)
    assert re.search(r'<form method="post" action="/join"[^>]*>', page), page
    assert 'id="next-code" name="code"' in page
    return page


def code_offered(page: str) -> str:
    match = re.search(r'id="next-code"[^>]*value="([^"]*)"', page)
    assert match, "no code field"
    return html.unescape(match.group(1))


def seated(player: Player) -> dict[str, str]:
    return {"Cookie": f"soclover_{player.code}={player.token}"}


def finish(players: list[Player]) -> None:
    start_and_write_clues(players)
    for _ in players:
        holder = players[players[0].state()["resolution"]["lock_holder"]]
        for p in solution(players):
            holder.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
        holder.act("lock")
        state = holder.act("next")
    assert state["phase"] == "finished"


def test_an_unknown_code_says_so_and_offers_the_code_again_to_put_right(api: str) -> None:
    for code in ("ZZZZZ2", "zzzzz2", "not a code!"):
        page = next_steps(
            http.get(f"{api}/r/{code}"), 404, "No room here opens with that code", "closed"
        )
        assert code_offered(page) == code[:12]
    # The join form on it goes where the home page's does.
    host = create(api, "Ada")
    r = http.post(f"{api}/join", data={"code": host.code.lower()})
    assert r.status_code == 303 and r.headers["location"] == f"/r/{host.code}"


def test_the_history_of_a_room_without_a_seat_there_is_the_same_dead_end(api: str) -> None:
    host = create(api, "Ada")
    next_steps(http.get(f"{api}/r/{host.code}/history"), 404, "No room")


def test_a_dead_seat_link_says_why_and_offers_its_room_by_code(api: str) -> None:
    host = create(api, "Ada")
    r = http.get(f"{api}/r/{host.code}/seat/not-a-token")
    page = next_steps(r, 410, "This seat link no longer works", "join with its code")
    assert code_offered(page) == host.code
    r = http.post(f"{api}/r/{host.code}/seat", data={"token": "nope"}, headers={"Origin": api})
    next_steps(r, 410, "This seat link no longer works")


def test_the_seat_link_landing_page_offers_a_way_on_without_its_secret(api: str) -> None:
    host = create(api, "Ada")
    r = http.get(f"{api}/r/{host.code}/seat")
    assert r.status_code == 200
    assert 'href="/">Home</a>' in r.text and 'action="/join"' in r.text
    # the seat is the step to take here: nothing else is drawn as the thing to do
    assert 'class="button primary"' not in r.text


def test_error_pages_offer_the_way_on(make_server: Callable[..., Server]) -> None:
    server = make_server(SOCLOVER_LOOKUP_RATE_PER_MINUTE="2")
    api = server.url
    next_steps(http.get(f"{api}/no/such/page"), 404, "No such page")
    host = create(api, "Ada")
    pages = [http.get(f"{api}/r/{host.code}") for _ in range(4)]
    assert pages[0].status_code == 200
    next_steps(pages[-1], 429, "Too many tries from here")


def test_a_lobby_with_room_offers_a_seat_first(api: str) -> None:
    host = create(api, "Ada")
    page = next_steps(http.get(f"{api}/r/{host.code}"), 200, "Ada is waiting at this table")
    assert 'action="/r/' + host.code + '/join"' in page
    # taking a seat is the thing to do here; the way elsewhere is there, not drawn first
    assert '<button class="primary" type="submit">Take a seat</button>' in page
    assert 'class="button primary" href="/#create-title"' not in page


def test_a_full_lobby_says_so_and_offers_a_room_of_ones_own(api: str) -> None:
    players = table(api, 6)
    page = next_steps(http.get(f"{api}/r/{players[0].code}"), 200, "This table is full: 6 players")
    assert 'class="button primary" href="/#create-title"' in page
    # no seat to take: the one name asked for is a watcher's
    assert f'action="/r/{players[0].code}/join"' not in page
    assert f'action="/r/{players[0].code}/watch"' in page and page.count('name="name"') == 1


def test_a_game_under_way_says_what_is_happening(api: str) -> None:
    players = table(api, 3)
    players[0].act("start")
    r = http.get(f"{api}/r/{players[0].code}")
    page = next_steps(r, 200, "A game is being played in this room, by Ada, Bea, Cy", "lobby")
    # no seat to take now; the game may be watched
    assert f'action="/r/{players[0].code}/join"' not in page
    assert "Watch this game" in page and page.count('name="name"') == 1


def test_a_finished_game_reads_as_over(api: str) -> None:
    players = table(api, 3)
    finish(players)
    total = players[0].state()["total"]
    r = http.get(f"{api}/r/{players[0].code}")
    next_steps(r, 200, f"The game in this room is over: Ada, Bea, Cy scored {total} of 18")
    # A newcomer may sit down once its players play again.
    players[1].act("again")
    page = next_steps(http.get(f"{api}/r/{players[0].code}"), 200, "are waiting at this table")
    assert 'id="join-name"' in page


def test_a_player_who_left_the_lobby_finds_the_way_back(api: str) -> None:
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    bea.act("leave")
    # Their cookie seats nobody now: the room's page offers the seat again.
    page = next_steps(http.get(f"{api}/r/{bea.code}", headers=seated(bea)), 200, "waiting")
    assert 'id="join-name"' in page


def test_an_expired_room_reads_as_closed(make_server: Callable[..., Server]) -> None:
    server = make_server(
        SOCLOVER_ROOM_EXPIRY_DAYS="0.00002",  # about 1.7 s idle
        SOCLOVER_EXPIRY_SWEEP_SECONDS="0.5",
    )
    api = server.url
    host = create(api, "Ada")
    r = wait_for(
        lambda: http.get(f"{api}/api/rooms/{host.code}"),
        lambda r: r.status_code == 404,
        what="the idle room closed",
    )
    assert r.status_code == 404
    # Its player comes back with the room's cookie and finds why it is gone, and a way on.
    page = next_steps(
        http.get(f"{api}/r/{host.code}", headers=seated(host)),
        404,
        f"No room “{host.code}”",
        "a room nobody uses for a week is closed",
    )
    assert code_offered(page) == host.code
