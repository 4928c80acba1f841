"""The HTML table over plain HTTP: forms, cookies, CSP, and what a guesser's HTML holds."""

from __future__ import annotations

import re

import httpx
import pytest

from app.rules.state import MAX_TIMER_MINUTES, MIN_TIMER_MINUTES, STANDARD_DECOYS
from app.web.render import CHAT_SHOWN

from ..kit import Player, Server, Stream, http, solution, spectator_of, start_and_write_clues, table


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def browser(api: str) -> httpx.Client:
    """A cookie-keeping client that sends Origin like a browser's form post."""
    return http.Client(base_url=api, headers={"Origin": api}, timeout=10)


def create_by_form(api: str, name: str) -> tuple[httpx.Client, str]:
    client = browser(api)
    r = client.post("/rooms", data={"name": name, "decoys": "1"})
    assert r.status_code == 303
    code = r.headers["location"].rsplit("/", 1)[1]
    cookie = r.headers["set-cookie"].lower()
    assert f"soclover_{code.lower()}=" in cookie
    assert "httponly" in cookie and "samesite=lax" in cookie
    return client, code


def join_by_form(api: str, code: str, name: str) -> httpx.Client:
    client = browser(api)
    r = client.post(f"/r/{code}/join", data={"name": name})
    assert r.status_code == 303, r.text
    return client


def as_player(client: httpx.Client, api: str, code: str) -> Player:
    token = client.cookies[f"soclover_{code}"]
    seat = http.get(f"{api}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"})
    return Player(api, code, token, seat.json()["you"]["seat"], "")


def test_home_page_is_html_with_a_strict_csp(api):
    r = http.get(f"{api}/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe" not in csp
    assert not re.search(r"<script(?![^>]*\bsrc=)", r.text)
    assert not re.search(r"\son[a-z]+=", r.text)


def test_a_whole_lobby_by_forms_without_javascript(api):
    ada, code = create_by_form(api, "Ada")
    page = ada.get(f"/r/{code}")
    assert page.status_code == 200 and code in page.text and "Start the game" in page.text
    visitor = http.get(f"{api}/r/{code}")
    assert "Take a seat" in visitor.text
    bea = join_by_form(api, code, "Bea")
    cy = join_by_form(api, code, "Cy")
    r = ada.post(f"/r/{code}/act", data={"type": "start"})
    assert r.status_code == 303
    assert "Your clues" in cy.get(f"/r/{code}").text
    # an htmx request gets 204, or its error as a fragment for the flash area
    r = bea.post(f"/r/{code}/act", data={"type": "done"}, headers={"HX-Request": "true"})
    assert r.status_code == 409 and r.headers["HX-Reswap"] == "innerHTML"
    assert "four leaves" in r.text
    r = bea.post(
        f"/r/{code}/act",
        data={"type": "clues", "clue0": "Qza", "clue1": "Qzb", "clue2": "", "clue3": "Qzd"},
        headers={"HX-Request": "true"},
    )
    assert r.status_code == 204


def test_a_form_from_another_site_is_refused(api):
    ada, code = create_by_form(api, "Ada")
    r = ada.post(
        f"/r/{code}/act",
        data={"type": "settings", "decoys": "3"},
        headers={"Origin": "https://evil.example", "HX-Request": "true"},
    )
    assert r.status_code == 403
    assert as_player(ada, api, code).state()["decoys"] == 1


def test_the_clue_check_answers_as_you_type(api):
    clients = [create_by_form(api, "Ada")]
    ada, code = clients[0]
    join_by_form(api, code, "Bea")
    join_by_form(api, code, "Cy")
    ada.post(f"/r/{code}/act", data={"type": "start"})
    me = as_player(ada, api, code)
    keyword = me.state()["clover"]["leaves"][2]["pair"][1]
    r = ada.post(f"/r/{code}/check", data={"leaf": "2", "clue2": keyword.upper()})
    assert r.status_code == 200 and 'id="check-2"' in r.text and "keyword" in r.text
    r = ada.post(f"/r/{code}/check", data={"leaf": "2", "clue2": "Qzfine"})
    assert "✗" not in r.text


ROTATED = re.compile(r"<[^>]*\bdata-rotation=[^>]*>")
ATTRIBUTE = re.compile(r'\b(data-[a-z]+)="([^"]*)"')


def rotations_shown(html: str) -> dict[str, tuple[int, int]]:
    """Every element of the HTML that carries a rotation: card id -> (spot, rotation)."""
    shown: dict[str, tuple[int, int]] = {}
    for tag in ROTATED.findall(html):
        data = dict(ATTRIBUTE.findall(tag))
        assert "data-card" in data and "data-spot" in data, f"a rotation of no card: {tag}"
        assert data["data-card"] not in shown, f"{data['data-card']} shown twice"
        shown[data["data-card"]] = (int(data["data-spot"]), int(data["data-rotation"]))
    return shown


def assert_keeps_the_secret(html: str, chosen: dict[str, tuple[int, int]], pool: list[str]) -> None:
    """A guesser's stage: each placed card at the rotation the guessers chose (never the
    true one), the pool's cards all there and none of them marked as the decoy.

    Only the stage is searched: the room's help, elsewhere on the page, explains decoys."""
    stage = re.search(r'<section id="stage".*?</section>', html, re.DOTALL)
    assert stage is not None, "no stage in the page"
    html = stage.group(0)
    assert rotations_shown(html) == chosen
    for card in pool:
        assert f'data-card="{card}"' in html, f"{card} is not in the pool"
    assert "decoy" not in html.lower()
    assert "Your solution" not in html and "solution-note" not in html


def test_a_guessers_html_never_holds_the_solution_or_marks_the_decoys(api):
    ada, code = create_by_form(api, "Ada")
    others = [join_by_form(api, code, n) for n in ("Bea", "Cy")]
    clients = [ada, *others]
    players = [as_player(c, api, code) for c in clients]
    start_and_write_clues(players)
    spectator = spectator_of(players).seat
    truth = solution(players)
    decoys = players[spectator].state()["resolution"]["decoys"]
    guesser = next(c for c, p in zip(clients, players, strict=True) if p.seat != spectator)
    watcher = clients[spectator]
    page = guesser.get(f"/r/{code}").text
    assert_keeps_the_secret(page, {}, [t["card"] for t in truth] + decoys)
    # The lock holder lays each true card on its true spot, turned a quarter from the
    # truth: a board drawn from the solution would show the true rotations instead.
    holder = players[players[0].state()["resolution"]["lock_holder"]]
    chosen = {t["card"]: (t["spot"], (t["rotation"] + 1) % 4) for t in truth}
    for card, (spot, rotation) in chosen.items():
        holder.act("place", card=card, spot=spot, rotation=rotation)
    page = guesser.get(f"/r/{code}").text
    assert_keeps_the_secret(page, chosen, decoys)
    # the marks looked for are the ones the Spectator's own page does carry
    mine = watcher.get(f"/r/{code}").text
    assert "Your solution" in mine and 'class="decoy-mark"' in mine
    token = guesser.cookies[f"soclover_{code}"]
    stream = Stream(f"{api}/r/{code}/stream", {"Cookie": f"soclover_{code}={token}"})
    try:
        events = {e.event: e.data for e in stream.take(4)}
        assert {"players", "stage", "chat", "chat-form"} <= set(events)
        assert_keeps_the_secret(events["stage"], chosen, decoys)
    finally:
        stream.close()


def test_pages_and_reads_are_compressed_answers_to_actions_and_streams_are_not(api: str) -> None:
    host = table(api, 6)[0]  # six players: an answer well over the size worth compressing
    gzip = {"Accept-Encoding": "gzip"}
    page = http.get(f"{api}/", headers=gzip)
    assert page.headers.get("content-encoding") == "gzip"
    for _ in range(3):  # an answer well over the size worth compressing
        answer = host.http.post(
            f"{api}/api/rooms/{host.code}/actions",
            json={"type": "say", "text": "a" * 300},
            headers={**gzip, **host.headers},
        )
        assert answer.status_code == 200, answer.text
        assert "content-encoding" not in answer.headers
    assert len(answer.content) > 900
    read = http.get(f"{api}/api/rooms/{host.code}", headers={**gzip, **host.headers})
    assert read.status_code == 200 and read.headers.get("content-encoding") == "gzip"
    with http.stream(
        "GET", f"{api}/api/rooms/{host.code}/events", headers={**gzip, **host.headers}
    ) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        assert "content-encoding" not in stream.headers


def test_the_pages_offer_the_bounds_the_rules_hold_and_say_them_once(api: str) -> None:
    """Decoys, the clock's minutes and the chat's window come from the rules and the
    renderer, never a number written again in a template or the script."""
    home = http.get(f"{api}/", timeout=10).text
    standard = re.findall(r'<option value="(\d+)"[^>]*>\d+ \(standard\)</option>', home)
    assert standard == [str(STANDARD_DECOYS)]

    client, code = create_by_form(api, "Ada")
    host = as_player(client, api, code)
    assert host.state()["limits"]["timer_minutes"] == {
        "min": MIN_TIMER_MINUTES,
        "max": MAX_TIMER_MINUTES,
    }
    lobby = client.get(f"{api}/r/{code}").text
    clocks = re.findall(r'<select name="minutes".*?</select>', lobby, re.S)
    assert len(clocks) == 2, "a length for each clock"
    for clock in clocks:
        minutes = [int(m) for m in re.findall(r'<option value="(\d+)"', clock)]
        assert minutes == list(range(MIN_TIMER_MINUTES, MAX_TIMER_MINUTES + 1))
    assert f'data-shown="{CHAT_SHOWN}"' in lobby
