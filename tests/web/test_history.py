"""The game's history over HTTP, against a real server: what it shows, when, and to whom.

``GET /api/rooms/{code}/history`` and the page ``/r/{code}/history`` are rebuilt
from the action log on disk; these play games through the API and read them back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from ..kit import (
    Player,
    Server,
    assert_error,
    clues_for,
    create,
    http,
    solution,
    spectator_of,
    start_and_write_clues,
    table,
)
from .test_games import lock_holder, place_all, turned


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def history(player: Player) -> dict[str, Any]:
    r = player.http.get(f"{player.base}/api/rooms/{player.code}/history", headers=player.headers)
    assert r.status_code == 200, r.text
    return r.json()


def public_history(api: str, code: str) -> dict[str, Any]:
    r = http.get(f"{api}/api/rooms/{code}/history")
    assert r.status_code == 200, r.text
    return r.json()


def cookie(player: Player) -> dict[str, str]:
    return {"Cookie": f"soclover_{player.code}={player.token}"}


def every_history(players: list[Player]) -> list[dict[str, Any]]:
    """The history as each player and someone without a seat read it."""
    return [*(history(p) for p in players), public_history(players[0].base, players[0].code)]


def first_try(players: list[Player], right: int) -> list[dict[str, Any]]:
    """Lock in a first try with ``right`` cards right, the rest turned; the truth."""
    truth = solution(players)
    holder = lock_holder(players)
    place_all(holder, [p if i < right else turned(p) for i, p in enumerate(truth)])
    res = holder.act("lock")["resolution"]
    assert res["attempt"] == 2 and not res["checked"]
    return truth


def second_try(players: list[Player], truth: list[dict[str, Any]], right: int) -> dict[str, Any]:
    """Fill the emptied spots, the first ``right`` of all four rightly, and lock in."""
    holder = lock_holder(players)
    board = holder.state()["resolution"]["board"]
    place_all(
        holder,
        [p if i < right else turned(p, 2) for i, p in enumerate(truth) if not board[i]["locked"]],
    )
    res = holder.act("lock")["resolution"]
    assert res["checked"]
    return res


def perfect(players: list[Player]) -> None:
    truth = solution(players)
    holder = lock_holder(players)
    place_all(holder, truth)
    assert holder.act("lock")["resolution"]["score"] == 6


def test_a_clover_shows_only_after_its_reveal_and_then_with_both_tries(api: str) -> None:
    players = table(api, 4)
    assert all(h["clovers"] == [] for h in every_history(players))  # the lobby
    start_and_write_clues(players)
    assert all(h["clovers"] == [] for h in every_history(players))
    spectator = spectator_of(players)
    truth = first_try(players, 1)
    # the first try is on the table's screens, but the history says nothing of this clover
    for h in every_history(players):
        assert h["clovers"] == []
        text = json.dumps(h)
        assert not any(clue in text for clue in clues_for(spectator.seat))
        assert not any(p["card"] in text for p in truth)
    res = second_try(players, truth, 3)
    histories = every_history(players)
    assert all(h["clovers"] == histories[0]["clovers"] for h in histories)  # public once checked
    (shown,) = histories[0]["clovers"]
    assert histories[0]["seq"] == players[0].state()["seq"]
    assert (shown["turn"], shown["spectator"], shown["name"], shown["score"]) == (
        0,
        spectator.seat,
        spectator.name,
        3,
    )
    assert shown["player"] == players[0].state()["players"][spectator.seat]["id"]
    assert shown["clues"] == clues_for(spectator.seat)
    assert [t["attempt"] for t in shown["tries"]] == [1, 2]
    first, second = (t["placements"] for t in shown["tries"])
    assert [p["right"] for p in first] == [True, False, False, False]
    assert [p["right"] for p in second] == [True, True, True, False]
    assert [(p["spot"], p["card"], p["rotation"]) for p in first] == [
        (t["spot"], t["card"], t["rotation"] if i < 1 else (t["rotation"] + 1) % 4)
        for i, t in enumerate(truth)
    ]
    assert [(s["spot"], s["card"], s["rotation"]) for s in shown["solution"]] == [
        (t["spot"], t["card"], t["rotation"]) for t in truth
    ]
    assert [d["card"] for d in shown["decoys"]] == res["decoys"]
    assert all(len(p["words"]) == 4 for p in [*first, *second, *shown["decoys"]])


def test_the_next_clovers_never_show_before_their_own_check(api: str) -> None:
    players = table(api, 3)
    start_and_write_clues(players)
    perfect(players)
    players[0].act("next")
    upcoming = spectator_of(players)
    after_it = players[(upcoming.seat + 1) % 3]
    first_try(players, 0)
    for h in every_history(players):
        assert len(h["clovers"]) == 1
        text = json.dumps(h)
        for seat in (upcoming.seat, after_it.seat):
            assert not any(clue in text for clue in clues_for(seat))
    second_try(players, solution(players), 4)
    assert [c["spectator"] for c in history(after_it)["clovers"]][1] == upcoming.seat
    assert not any(clue in json.dumps(history(after_it)) for clue in clues_for(after_it.seat))


def test_a_whole_game_ends_with_one_entry_per_clover(api: str) -> None:
    players = table(api, 4, decoys=2)
    start_and_write_clues(players)
    for plan in [None, (1, 3), None, (0, 2)]:
        if plan is None:
            perfect(players)
        else:
            second_try(players, first_try(players, plan[0]), plan[1])
        state = players[0].act("next")
    assert state["phase"] == "finished"
    clovers = history(players[2])["clovers"]
    assert [c["score"] for c in clovers] == [6, 3, 6, 2] == [r["score"] for r in state["results"]]
    assert [c["spectator"] for c in clovers] == [r["spectator"] for r in state["results"]]
    assert [len(c["tries"]) for c in clovers] == [1, 2, 1, 2]
    assert all(len(c["decoys"]) == 2 for c in clovers)
    assert sorted(c["name"] for c in clovers) == sorted(p.name for p in players)
    # the end screen's state carries the same clovers
    assert players[1].state()["history"] == clovers
    # another game: a history of its own
    players[0].act("again")
    assert history(players[0])["clovers"] == [] and players[0].state()["history"] is None


def test_the_history_is_read_exactly_like_the_room(api: str) -> None:
    players = table(api, 3)
    start_and_write_clues(players)
    perfect(players)
    code = players[0].code
    stranger = create(api, "Zed")  # a seat, but in another room
    asks: list[tuple[str, dict[str, str]]] = [
        (code, {}),
        (code, {"Authorization": "Bearer not-a-token"}),
        (code, stranger.headers),
        (code, {"Cookie": f"soclover_{code}=not-a-token"}),
        ("ZZZZZZ", {}),
        ("ZZZZZZ", players[0].headers),
        ("O0I1L", {}),
        (code.lower(), players[1].headers),
    ]
    for asked, headers in asks:
        room = http.get(f"{api}/api/rooms/{asked}", headers=headers)
        told = http.get(f"{api}/api/rooms/{asked}/history", headers=headers)
        assert told.status_code == room.status_code, (asked, headers, told.text)
        if room.status_code == 200:
            assert told.json()["code"] == room.json()["code"] == code
            assert len(told.json()["clovers"]) == 1
        else:
            assert assert_error(told, 404, code="room_not_found") == assert_error(room, 404)


def test_reading_the_history_without_a_seat_counts_as_a_lookup(
    make_server: Callable[..., Server],
) -> None:
    api = make_server(SOCLOVER_LOOKUP_RATE_PER_MINUTE="3").url
    host = create(api, "Ada")
    assert [
        http.get(f"{api}/api/rooms/{host.code}/history").status_code,
        http.get(f"{api}/api/rooms/ZZZZZZ/history").status_code,
        http.get(f"{api}/api/rooms/{host.code}").status_code,
    ] == [200, 404, 200]
    assert_error(http.get(f"{api}/api/rooms/{host.code}/history"), 429, code="rate_limited")
    assert_error(http.get(f"{api}/api/rooms/{host.code}"), 429, code="rate_limited")
    for _ in range(5):  # the room's own players are never limited
        assert http.get(f"{api}/api/rooms/{host.code}/history", headers=host.headers).is_success


def test_the_history_survives_a_restart(make_server: Callable[..., Server]) -> None:
    """It is rebuilt from the log on disk, not from what one process remembers."""
    server = make_server()
    players = table(server.url, 3)
    start_and_write_clues(players)
    second_try(players, first_try(players, 2), 2)
    before = history(players[1])
    server.stop()
    again = make_server()
    for p in players:
        p.base = again.url
    assert history(players[1]) == before
    assert len(before["clovers"]) == 1 and len(before["clovers"][0]["tries"]) == 2


def test_the_history_page_shows_the_recap_to_players_only(api: str) -> None:
    players = table(api, 3)
    code = players[0].code
    page = http.get(f"{api}/r/{code}/history", headers=cookie(players[1]))
    assert page.status_code == 200 and "No clover has been checked yet" in page.text
    start_and_write_clues(players)
    spectator = spectator_of(players)
    truth = first_try(players, 1)
    page = http.get(f"{api}/r/{code}/history", headers=cookie(players[0])).text
    assert not any(clue in page for clue in clues_for(spectator.seat))
    assert not any(p["card"] in page for p in truth)
    second_try(players, truth, 2)
    r = http.get(f"{api}/r/{code}/history", headers=cookie(players[2]))
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    assert f'href="/r/{code}"' in page  # back to the room
    assert f"{spectator.name}'s clover: 2 points" in page
    assert all(clue in page for clue in clues_for(spectator.seat))
    assert re.findall(r"<h4 id=\"recap-0-try-(\d)\">", page) == ["1", "2"]
    assert page.count('aria-hidden="true">✓</span>') == 1 + 2
    assert page.count('aria-hidden="true">✗</span>') == 3 + 2
    assert "Decoy: " in page
    # a strict CSP holds: no inline script, no inline style, no handler attribute
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert not re.search(r"\s(on[a-z]+|style)=", page)
    # without a seat here: the page of no room at all, as for an unknown code
    for headers in ({}, cookie(create(api, "Zed")), {"Cookie": f"soclover_{code}=nope"}):
        r = http.get(f"{api}/r/{code}/history", headers=headers)
        assert r.status_code == 404 and "No room" in r.text
        assert spectator.name not in r.text
    assert http.get(f"{api}/r/ZZZZZZ/history", headers=cookie(players[0])).status_code == 404
