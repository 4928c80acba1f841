"""Whole games through the JSON API, as bots and scripts play them: one game from the
first seat to the Record of Legends, and every refusal of a move.

How games score (second tries, decoys, another game at the table) is the service's:
``tests/service/test_games.py``."""

from __future__ import annotations

import pytest

from ..kit import (
    Player,
    Server,
    assert_error,
    clues_for,
    http,
    join,
    solution,
    spectator_of,
    start_and_write_clues,
    table,
)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def guessers(players: list[Player]) -> list[Player]:
    spectator = spectator_of(players)
    return [p for p in players if p.seat != spectator.seat]


def lock_holder(players: list[Player]) -> Player:
    return players[players[0].state()["resolution"]["lock_holder"]]


def place_all(player: Player, placements: list[dict]) -> dict:
    state = {}
    for p in placements:
        state = player.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
    return state


def turned(p: dict, by: int = 1) -> dict:
    return {**p, "rotation": (p["rotation"] + by) % 4}


def play_perfect_by_agreement(players: list[Player]) -> dict:
    truth = solution(players)
    team = guessers(players)
    place_all(team[0], truth)
    state = {}
    for p in team:
        state = p.act("agree")
    res = state["resolution"]
    assert res["checked"] and res["score"] == 6 and res["attempt"] == 1
    return state


def test_a_three_player_game_of_perfect_first_tries(api):
    players = table(api, 3)
    start_and_write_clues(players)
    for _turn in range(3):
        state = play_perfect_by_agreement(players)
        spectator = state["resolution"]["spectator"]
        # the reveal is public now, and the Spectator may speak again
        assert players[(spectator + 1) % 3].state()["resolution"]["solution"] is not None
        players[spectator].act("say", text="Well found!")
        state = players[spectator].act("next")
    assert state["phase"] == "finished"
    assert (state["total"], state["max"]) == (18, 18)
    assert [r["score"] for r in state["results"]] == [6, 6, 6]
    legends = http.get(f"{api}/api/legends", params={"players": 3}).json()["legends"]
    assert legends[0]["score"] == 18 and "room" not in legends[0]  # a code opens its room
    assert legends[0]["players"] == ["Ada", "Bea", "Cy"]
    assert players[1].state()["best"]["score"] == 18
    # a room's own legends, asked for by one of its players
    own = http.get(
        f"{api}/api/legends", params={"room": players[0].code}, headers=players[2].headers
    ).json()
    assert [(g["score"], g["max"], g["player_count"], g["decoys"]) for g in own["legends"]] == [
        (18, 18, 3, 1)
    ]


def test_the_spectator_is_silent_and_still_until_the_check(api):
    players = table(api, 3)
    start_and_write_clues(players)
    spectator = spectator_of(players)
    res = spectator.state()["resolution"]
    card = res["pool"][0]["card"]
    spectator.refused(403, "spectator_cannot_move", "place", card=card, spot=0, rotation=0)
    spectator.refused(403, "spectator_cannot_move", "agree")
    spectator.refused(403, "spectator_silent", "say", text="it's the dog!")


def test_locked_cards_and_taken_spots_are_refused_with_409(api):
    players = table(api, 3)
    start_and_write_clues(players)
    truth = solution(players)
    holder = lock_holder(players)
    place_all(holder, [truth[0], *(turned(p) for p in truth[1:])])
    holder.act("lock")
    holder.refused(409, "spot_locked", "remove", spot=truth[0]["spot"])
    holder.refused(409, "spot_locked", "rotate", spot=truth[0]["spot"], turns=1)
    holder.refused(
        409, "card_locked", "place", card=truth[0]["card"], spot=truth[1]["spot"], rotation=0
    )
    holder.act("place", card=truth[1]["card"], spot=truth[1]["spot"], rotation=0)
    holder.refused(
        409, "spot_taken", "place", card=truth[2]["card"], spot=truth[1]["spot"], rotation=0
    )
    holder.refused(409, "board_not_full", "agree")


def test_only_the_lock_holder_locks_in(api):
    players = table(api, 4)
    start_and_write_clues(players)
    holder = lock_holder(players)
    other = next(p for p in guessers(players) if p.seat != holder.seat)
    place_all(other, solution(players))
    other.refused(403, "not_lock_holder", "lock")
    assert holder.act("lock")["resolution"]["checked"]


def test_lobby_rules_over_http(api):
    players = table(api, 2)
    players[1].refused(403, "not_host", "start")
    players[0].refused(409, "not_enough_players", "start")
    players[0].refused(422, "bad_decoys", "settings", decoys=9)
    assert players[0].act("settings", decoys=3)["decoys"] == 3
    r = http.post(f"{api}/api/rooms/{players[0].code}/join", json={"name": "ada"})
    assert_error(r, 422, code="name_taken")
    r = http.post(f"{api}/api/rooms/{players[0].code}/join", json={"name": " " * 3})
    assert_error(r, 422)
    for name in ["Cy", "Dot", "Eve", "Flo"]:
        join(api, players[0].code, name)
    r = http.post(f"{api}/api/rooms/{players[0].code}/join", json={"name": "Gil"})
    assert_error(r, 409, code="room_full")
    # the host leaves: her token opens nothing (who hosts then is the service's)
    players[0].act("leave")
    players[0].refused(401, "not_seated", "say", text="still here?")


def test_joining_a_started_game_is_refused(api):
    players = table(api, 3)
    players[0].act("start")
    r = http.post(f"{api}/api/rooms/{players[0].code}/join", json={"name": "Late"})
    assert_error(r, 409, code="game_started")


def test_codes_are_case_insensitive_and_tokens_belong_to_one_room(api):
    a = table(api, 1)[0]
    b = table(api, 1)[0]
    lower = http.get(f"{api}/api/rooms/{a.code.lower()}", headers=a.headers).json()
    assert lower["you"]["seat"] == 0
    other = http.get(f"{api}/api/rooms/{b.code}", headers=a.headers).json()
    assert other["you"] is None  # a token of another room is no seat here
    r = http.post(
        f"{api}/api/rooms/{b.code}/actions",
        json={"type": "settings", "decoys": 2},
        headers=a.headers,
    )
    assert_error(r, 401, code="not_seated")
    assert_error(http.get(f"{api}/api/rooms/ZZZZZZZ"), 404)
    assert_error(http.get(f"{api}/api/rooms/O0O0O"), 404)


def test_clue_rejections_and_warnings(api):
    players = table(api, 3)
    state = players[0].act("start")
    keyword = state["clover"]["leaves"][0]["pair"][0]
    r = players[0].post("clues", clues=["two words", keyword, "ok", "fine"])
    error = assert_error(r, 422, code="clue_rejected")
    assert [(d["leaf"], d["code"]) for d in error["details"]] == [
        (0, "not_one_word"),
        (1, "keyword"),
    ]
    assert players[0].state()["clover"]["leaves"][0]["clue"] is None  # nothing saved
    state = players[0].act("clues", clues=[*clues_for(0)[:3], None])
    players[0].refused(409, "clues_missing", "done")
    state = players[0].act("clues", clues=clues_for(0))
    assert state["warnings"] == []
    assert players[0].act("done")["players"][0]["done"]


def test_a_stale_seq_is_refused(api):
    players = table(api, 3)
    seq = players[0].state()["seq"]
    players[1].act("say", text="hello")
    error = players[0].refused(409, "stale", "settings", decoys=2, seq=seq)
    assert "moved on" in error["message"]
    assert players[0].state()["decoys"] == 1


@pytest.mark.parametrize("decoys", [1, 4])
def test_create_with_decoys(api, decoys):
    state = table(api, 1, decoys=decoys)[0].state()
    assert state["decoys"] == decoys and state["phase"] == "lobby"
