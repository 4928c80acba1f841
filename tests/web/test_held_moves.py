"""A move tapped while the phone was offline, sent by the page once it is back
(``static/table.js``): it carries the step of the game it was tapped at, and the table
plays it only there, never on the clover or try that came meanwhile."""

from __future__ import annotations

import re

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    clues_for,
    http,
    public,
    solution,
    spectator_of,
    start_and_write_clues,
    table,
)

HX = {"HX-Request": "true"}


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in a room of its own."""
    return shared_server.url


def seated(player: Player) -> httpx.Client:
    """A browser of this seat: its cookie, and Origin on its posts like a form's."""
    client = http.Client(base_url=player.base, headers={"Origin": player.base}, timeout=10)
    client.cookies.set(f"soclover_{player.code}", player.token)
    return client


def moment(client: httpx.Client, code: str) -> str:
    """The step of the game the seat's page shows, as its stage carries it."""
    page = client.get(f"/r/{code}")
    assert page.status_code == 200
    found = re.search(r'id="stage"[^>]*data-moment="([^"]+)"', page.text)
    assert found, "no data-moment on the stage"
    return found.group(1)


def play_clover(players: list[Player]) -> None:
    """The clover at hand rebuilt right, agreed on, checked and moved on from."""
    spectator = spectator_of(players)
    guessers = [p for p in players if p.seat != spectator.seat]
    for slot in solution(players):
        guessers[0].act("place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"])
    for guesser in guessers:
        guesser.act("agree")
    guessers[0].act("next")


def test_a_move_held_offline_is_refused_once_the_table_is_at_another_clover(api: str) -> None:
    players = table(api, 3)
    start_and_write_clues(players)
    first = spectator_of(players)
    tapped_at = moment(seated(players[0]), players[0].code)
    assert tapped_at.startswith(f"resolution-{first.seat}-1-")
    # Bea's phone goes offline; from her laptop and the others' phones the table plays
    # the first clover through and goes on to the next one, where she guesses again.
    play_clover(players)
    now = public(api, first.code)
    second = now["resolution"]["spectator"]
    assert second != first.seat
    bea = next(p for p in players if p.seat not in (first.seat, second))
    phone = seated(bea)
    assert moment(phone, bea.code) != tapped_at
    card = now["resolution"]["pool"][0]["card"]
    # Back online, the phone sends the card she laid on the first clover: a card of the
    # clover at hand, which would land there if it went.
    held = {"type": "place", "card": card, "spot": "0", "rotation": "0", "moment": tapped_at}
    r = phone.post(f"/r/{bea.code}/act", data=held, headers=HX)
    assert r.status_code == 409, r.text
    assert "moved on" in r.text and "offline" in r.text
    assert public(api, bea.code)["resolution"]["board"] == now["resolution"]["board"]
    # Without JavaScript, the page says the same.
    r = phone.post(f"/r/{bea.code}/act", data=held)
    assert r.status_code == 409 and "moved on" in r.text
    # A held Agree, tapped on the first clover, agrees to nothing on this one.
    spectator = spectator_of(players)
    guessers = [p for p in players if p.seat != spectator.seat]
    for slot in solution(players):
        guessers[0].act("place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"])
    me = next(p for p in guessers if p.seat == bea.seat)
    r = phone.post(f"/r/{bea.code}/act", data={"type": "agree", "moment": tapped_at}, headers=HX)
    assert r.status_code == 409
    assert me.seat not in public(api, bea.code)["resolution"]["agreed"]


def test_a_move_held_offline_goes_while_the_table_is_where_it_was_tapped(api: str) -> None:
    players = table(api, 3)
    start_and_write_clues(players)
    first = spectator_of(players)
    bea, cid = [p for p in players if p.seat != first.seat]
    phone = seated(bea)
    tapped_at = moment(phone, bea.code)
    pool = [c["card"] for c in public(api, bea.code)["resolution"]["pool"]]
    # Meanwhile another guesser laid a card: the same clover and try, so it still goes.
    cid.act("place", card=pool[1], spot=1, rotation=0)
    held = {"type": "place", "card": pool[0], "spot": "0", "rotation": "0", "moment": tapped_at}
    r = phone.post(f"/r/{bea.code}/act", data=held, headers=HX)
    assert r.status_code == 204, r.text
    board = public(api, bea.code)["resolution"]["board"]
    assert board[0]["card"] == pool[0] and board[1]["card"] == pool[1]
    # A chat line held offline is said whatever the table did meanwhile.
    r = phone.post(f"/r/{bea.code}/act", data={"type": "say", "text": "Back!", "moment": "lobby"})
    assert r.status_code in (204, 303), r.text
    assert public(api, bea.code)["chat"][-1]["text"] == "Back!"
    # So is leaving the table.
    r = phone.post(f"/r/{bea.code}/act", data={"type": "leave", "moment": "lobby"}, headers=HX)
    assert r.status_code == 204 and r.headers["HX-Redirect"] == f"/?left={bea.code}"
    assert public(api, bea.code)["players"][bea.seat]["out"]


def test_a_move_held_offline_says_so_in_the_pages_language(api: str) -> None:
    players = table(api, 3)
    start_and_write_clues(players)
    bea = next(p for p in players if p.seat != spectator_of(players).seat)
    play_clover(players)
    phone = seated(bea)
    r = phone.post(
        f"/r/{bea.code}/act",
        data={"type": "agree", "moment": "lobby"},
        headers={**HX, "Accept-Language": "fr"},
    )
    assert r.status_code == 409
    assert "hors ligne" in r.text


def test_clues_held_offline_are_refused_in_the_next_games_clues(api: str) -> None:
    """The next game writes clues too, on a new deal: clues written for the last one,
    held offline all game long, are not saved on the new clover."""
    players = table(api, 3)
    players[0].act("start")
    bea = players[1]
    phone = seated(bea)
    tapped_at = moment(phone, bea.code)
    assert tapped_at.startswith("clues-")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        p.act("done")
    while public(api, bea.code)["phase"] != "finished":
        play_clover(players)
    players[0].act("again")
    players[0].act("start")
    assert moment(phone, bea.code) != tapped_at
    held = {"type": "clues", **{f"clue{i}": f"Old{i}" for i in range(4)}, "moment": tapped_at}
    r = phone.post(f"/r/{bea.code}/act", data=held, headers=HX)
    assert r.status_code == 409, r.text
    assert [leaf["clue"] for leaf in bea.state()["clover"]["leaves"]] == [None] * 4
