"""The table's clock over HTTP, against a real server whose time the test moves on.

The server reads how far its clock runs ahead from a file (``SOCLOVER_CLOCK_FILE``):
a countdown of minutes runs out as soon as the test says so, and a server started
again on the same database and file meets the same deadline.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..kit import Player, Server, http, public, room_when, spectator_of, table, table_of
from ..kit.players import clues_for, create, join


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


MINUTE = 60


@pytest.fixture
def clock_file(tmp_path: Path) -> Path:
    path = tmp_path / "clock-offset"
    path.write_text("0")
    return path


@pytest.fixture
def timed_server(make_server: Callable[..., Server], clock_file: Path) -> Server:
    return make_server(SOCLOVER_CLOCK_FILE=str(clock_file))


def ahead(clock_file: Path, seconds: float) -> None:
    """Move the server's clock to ``seconds`` past the real time."""
    clock_file.write_text(str(seconds))


def timers(host: Player, clues: tuple[str, int], rebuild: tuple[str, int]) -> dict[str, Any]:
    host.act("timer", phase="clues", mode=clues[0], minutes=clues[1])
    return host.act("timer", phase="rebuild", mode=rebuild[0], minutes=rebuild[1])


def test_the_state_carries_the_timers_and_the_deadline(timed_server: Server) -> None:
    players = table(timed_server.url, 3)
    host = players[0]
    state = timers(host, ("advisory", 4), ("enforced", 2))
    assert state["timers"] == {
        "clues": {"mode": "advisory", "minutes": 4},
        "rebuild": {"mode": "enforced", "minutes": 2},
    }
    assert state["clock"] is None
    state = host.act("start")
    clock = state["clock"]
    assert clock["kind"] == "clues" and clock["mode"] == "advisory"
    assert clock["length_ms"] == 4 * MINUTE * 1000
    assert clock["deadline"].endswith("Z")
    # Every seat, and the room read without one, has the very same deadline.
    deadlines = {p.state()["clock"]["ends_ms"] for p in players}
    assert (
        deadlines == {clock["ends_ms"]} == {public(timed_server.url, host.code)["clock"]["ends_ms"]}
    )


def test_an_advisory_clock_lets_the_table_play_on(timed_server: Server, clock_file: Path) -> None:
    players = table(timed_server.url, 3)
    timers(players[0], ("advisory", 1), ("advisory", 1))
    players[0].act("start")
    players[0].act("clues", clues=clues_for(0), draft=True)
    ahead(clock_file, 10 * MINUTE)
    # Past zero: nothing happens but what the players do.
    state = players[1].act("clues", clues=clues_for(1))
    assert state["phase"] == "clues"
    assert not state["clover"]["done"]
    assert state["clock"]["kind"] == "clues"
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        state = p.act("done")
    assert state["phase"] == "resolution"
    assert state["clock"]["kind"] == "rebuild" and state["clock"]["mode"] == "advisory"
    # Past the try's zero too: the board is the table's until someone locks it in.
    ahead(clock_file, 30 * MINUTE)
    spectator = state["resolution"]["spectator"]
    guesser = next(p for p in players if p.seat != spectator)
    card = state["resolution"]["pool"][0]["card"]
    state = guesser.act("place", card=card, spot=0, rotation=0)
    assert state["resolution"]["attempt"] == 1 and not state["resolution"]["checked"]
    assert state["clock"]["kind"] == "rebuild"


def test_enforced_clues_grace_then_a_clover_not_played(
    timed_server: Server, clock_file: Path
) -> None:
    players = table(timed_server.url, 4)
    host = players[0]
    timers(host, ("enforced", 3), ("off", 3))
    host.act("start")
    players[0].act("clues", clues=clues_for(0))
    players[0].act("done")
    players[1].act("clues", clues=clues_for(1), draft=True)  # saved, never marked done
    players[2].act("clues", clues=[clues_for(2)[0], None, None, None], draft=True)
    # players[3] writes nothing
    ahead(clock_file, 3 * MINUTE + 1)
    state = room_when(
        timed_server.url,
        host.code,
        lambda s: s["clock"] and s["clock"]["kind"] == "grace",
        what="the grace after the clue clock",
    )
    assert state["phase"] == "clues"
    assert state["clock"]["late"] == [2, 3]
    assert state["players"][1]["done"]  # the saved drafts stand
    # The late player sees the warning on their page.
    page = players[2].http.get(f"{timed_server.url}/r/{host.code}", headers=players[2].headers)
    assert "Time is up: fill your empty leaves" in page.text
    players[2].act("clues", clues=clues_for(2))
    players[2].act("done")
    ahead(clock_file, 3 * MINUTE + 31)
    state = room_when(
        timed_server.url,
        host.code,
        lambda s: s["phase"] == "resolution",
        what="the clovers after the grace",
    )
    assert [p["not_played"] for p in state["players"]] == [False, False, False, True]
    assert state["max"] == 3 * 6
    assert state["clock"] is None  # the rebuild is untimed here
    # The late player still guesses: they are not out of the game.
    assert not state["players"][3]["out"]


def test_a_game_the_clue_clock_ended_says_whose_clovers_were_not_played(
    timed_server: Server, clock_file: Path
) -> None:
    players = table(timed_server.url, 3)
    host = players[0]
    timers(host, ("enforced", 1), ("off", 3))
    host.act("start")
    ahead(clock_file, MINUTE + 1)  # nobody wrote a word
    room_when(
        timed_server.url,
        host.code,
        lambda s: s["clock"] and s["clock"]["kind"] == "grace",
        what="the grace after the clue clock",
    )
    ahead(clock_file, MINUTE + 31)
    state = room_when(
        timed_server.url, host.code, lambda s: s["phase"] == "finished", what="the game over"
    )
    assert state["results"] == [] and state["total"] == 0
    page = host.http.get(f"{timed_server.url}/r/{host.code}", headers=host.headers).text
    finished = page[page.index('class="finished"') :]
    assert 'class="results"' not in finished  # no empty score table
    line = re.search(r"The clovers of ([^<]*) were not played: time ran out on their clues.", page)
    assert line is not None and all(name in line.group(1) for name in ("Ada", "Bea", "Cy"))


def test_enforced_rebuild_checks_the_board_as_it_stands(
    timed_server: Server, clock_file: Path
) -> None:
    players = table(timed_server.url, 3)
    host = players[0]
    timers(host, ("off", 3), ("enforced", 2))
    host.act("start")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        state = p.act("done")
    first_deadline = state["clock"]["ends_ms"]
    spectator = spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    truth = spectator.state()["resolution"]["solution"]
    guesser.act("place", card=truth[0]["card"], spot=0, rotation=truth[0]["rotation"])
    ahead(clock_file, 2 * MINUTE + 1)
    state = room_when(
        timed_server.url,
        host.code,
        lambda s: s["resolution"]["attempt"] == 2,
        what="the first try checked at zero",
    )
    board = state["resolution"]["board"]
    assert board[0]["locked"] and all(slot["card"] is None for slot in board[1:])
    assert state["clock"]["ends_ms"] >= first_deadline + 2 * MINUTE * 1000
    ahead(clock_file, 4 * MINUTE + 2)
    state = room_when(
        timed_server.url,
        host.code,
        lambda s: s["resolution"]["checked"],
        what="the last try checked at zero",
    )
    assert state["results"][-1]["score"] == 1
    assert state["clock"] is None


def test_a_restart_in_the_middle_of_a_countdown_keeps_its_deadline(
    make_server: Callable[..., Server], clock_file: Path
) -> None:
    server = make_server(SOCLOVER_CLOCK_FILE=str(clock_file))
    players = table(server.url, 3)
    host = players[0]
    timers(host, ("enforced", 5), ("off", 3))
    state = host.act("start")
    deadline = state["clock"]["ends_ms"]
    for p in players:
        p.act("clues", clues=clues_for(p.seat), draft=True)
    server.stop()
    ahead(clock_file, 2 * MINUTE)
    again = make_server(SOCLOVER_CLOCK_FILE=str(clock_file))
    state = public(again.url, host.code)
    assert state["phase"] == "clues"
    assert state["clock"]["ends_ms"] == deadline  # the same deadline, not a new clock
    ahead(clock_file, 5 * MINUTE + 1)
    state = room_when(
        again.url, host.code, lambda s: s["phase"] == "resolution", what="timeout after restart"
    )
    assert all(p["not_played"] is False for p in state["players"])


def test_a_paused_table_stops_the_clock_for_everyone(
    timed_server: Server, clock_file: Path
) -> None:
    players = table(timed_server.url, 3)
    host = players[0]
    timers(host, ("enforced", 2), ("off", 3))
    host.act("start")
    players[1].refused(403, "not_host", "pause")
    state = host.act("pause")
    assert state["paused"] is True
    left = state["clock"]["left_ms"]
    assert state["clock"]["ends_ms"] is None and 0 < left <= 2 * MINUTE * 1000
    host.refused(409, "already_paused", "pause")
    ahead(clock_file, 60 * MINUTE)  # an hour paused: nothing runs out
    state = players[2].state()
    assert state["phase"] == "clues" and state["clock"]["left_ms"] == left
    for p in players:
        assert p.state()["paused"] is True
    state = host.act("resume")
    assert state["paused"] is False
    assert state["clock"]["left_ms"] is None
    host.refused(409, "not_paused", "resume")
    ahead(clock_file, 60 * MINUTE + 2 * MINUTE + 1)
    room_when(
        timed_server.url,
        host.code,
        lambda s: s["clock"]["kind"] == "grace",
        what="the clock running again to its zero",
    )


@pytest.mark.parametrize(
    "fields",
    [
        {"phase": "clues", "mode": "sometimes", "minutes": 3},
        {"phase": "lobby", "mode": "advisory", "minutes": 3},
        {"phase": "clues", "mode": "advisory", "minutes": 0},
        {"phase": "rebuild", "mode": "enforced", "minutes": 16},
        {"phase": "rebuild", "mode": "enforced", "minutes": -5},
    ],
)
def test_a_timer_out_of_range_is_refused_and_changes_nothing(
    api: str, fields: dict[str, Any]
) -> None:
    host = table(api, 3)[0]
    before = table_of(api, host.code)
    host.refused(422, "bad_timer", "timer", **fields)
    assert table_of(api, host.code) == before


@pytest.mark.parametrize(
    "fields",
    [
        {"phase": "c" * 500, "mode": "advisory", "minutes": 3},
        {"phase": "clues", "mode": "advisory", "minutes": "three"},
        {"phase": "clues", "mode": "advisory", "minutes": 10**30},
        {"phase": "clues", "mode": None, "minutes": 3},
        {"phase": "clues"},
    ],
)
def test_a_malformed_timer_is_refused_and_changes_nothing(api: str, fields: dict[str, Any]) -> None:
    host = table(api, 3)[0]
    before = table_of(api, host.code)
    host.refused(422, "invalid_request", "timer", **fields)
    assert table_of(api, host.code) == before


def test_the_clock_is_the_hosts_and_the_lobbys(api: str) -> None:
    players = table(api, 3)
    players[1].refused(403, "not_host", "timer", phase="clues", mode="advisory", minutes=3)
    players[0].refused(409, "wrong_phase", "pause")
    players[0].act("start")
    players[0].refused(409, "wrong_phase", "timer", phase="clues", mode="advisory", minutes=3)
    players[0].refused(409, "no_clock", "pause")
    players[0].refused(422, "invalid_request", "timeout")  # the server's word alone


def test_the_lobby_form_sets_a_timer_and_a_bad_one_is_a_clear_error(api: str) -> None:
    players = table(api, 3)
    host = players[0]
    url = f"{api}/r/{host.code}/act"
    headers = {**host.headers, "Origin": api}
    r = host.http.post(
        url,
        data={"type": "timer", "phase": "rebuild", "mode": "enforced", "minutes": "7"},
        headers=headers,
    )
    assert r.status_code in (200, 303), r.text
    assert public(api, host.code)["timers"]["rebuild"] == {"mode": "enforced", "minutes": 7}
    for bad in ({"minutes": "99"}, {"minutes": "x"}, {"mode": "loud"}):
        form = {"type": "timer", "phase": "clues", "mode": "advisory", "minutes": "3", **bad}
        r = host.http.post(url, data=form, headers={**headers, "HX-Request": "true"})
        assert r.status_code == 422, r.text
        assert "<" in r.text  # a message for the flash area, not a traceback
    assert public(api, host.code)["timers"]["clues"] == {"mode": "off", "minutes": 5}
    page = host.http.get(f"{api}/r/{host.code}", headers=host.headers).text
    assert 'name="minutes"' in page and "Clock for writing clues" in page
    guest = players[1].http.get(f"{api}/r/{host.code}", headers=players[1].headers).text
    assert "Each try: 7 minutes, enforced." in guest


def test_the_room_page_says_the_servers_time_as_it_leaves(
    timed_server: Server, clock_file: Path
) -> None:
    """The page's script counts every clock from ``data-now``: the server's time,
    written in once the page is rendered, however the players named themselves."""
    ahead(clock_file, 3600)
    host = create(timed_server.url, "<server-now>")
    join(timed_server.url, host.code, "Bea")
    before = (time.time() + 3600) * 1000
    page = http.get(
        f"{timed_server.url}/r/{host.code}", cookies={f"soclover_{host.code}": host.token}
    )
    after = (time.time() + 3600) * 1000
    assert page.status_code == 200
    now = re.search(r'id="table"[^>]* data-now="(\d+)"', page.text)
    assert now, page.text[:2000]
    assert before - 1 <= int(now.group(1)) <= after + 1
    assert "&lt;server-now&gt;" in page.text and "<server-now>" not in page.text


# --- nothing beats the clock ----------------------------------------------------------


def test_a_deadline_that_passed_during_a_restart_acts_before_any_late_move(
    make_server: Callable[..., Server], clock_file: Path
) -> None:
    """Clues sent nine minutes late, to a server just started again, are judged after
    the timeout: a clover its clock closed stays closed, and the late leaves get the
    grace they would have had."""
    server = make_server(SOCLOVER_CLOCK_FILE=str(clock_file))
    players = table(server.url, 3)
    host = players[0]
    timers(host, ("enforced", 5), ("off", 3))
    host.act("start")
    players[0].act("clues", clues=clues_for(0))
    players[0].act("done")
    players[1].act("clues", clues=clues_for(1), draft=True)  # all four saved, not done
    players[2].act("clues", clues=[clues_for(2)[0], None, None, None], draft=True)
    server.stop()
    ahead(clock_file, 14 * MINUTE)
    again = make_server(SOCLOVER_CLOCK_FILE=str(clock_file))
    for p in players:
        p.base = again.url
    # Bea's four clues stood at zero: her clover was done then, and stays as it was.
    late = players[1].post("clues", clues=["Changed", "My", "Mind", "Now"])
    error = late.json()["error"]
    assert late.status_code == 409 and error["code"] == "already_done", late.text
    state = public(again.url, host.code)
    assert state["clock"]["kind"] == "grace" and state["clock"]["late"] == [2]
    assert state["players"][1]["done"]
    # Cy's empty leaves get the half minute, from the moment the timeout acted.
    answer = players[2].act("clues", clues=clues_for(2))
    assert answer["clock"]["kind"] == "grace"
    assert [leaf["clue"] for leaf in answer["clover"]["leaves"]] == clues_for(2)


def test_a_move_sent_just_after_the_deadline_lands_after_the_check(
    timed_server: Server, clock_file: Path
) -> None:
    """The server's ticker comes up to half a second after zero; a move sent in between
    meets the check first, not the board time ran out on."""
    players = table(timed_server.url, 3)
    host = players[0]
    timers(host, ("off", 3), ("enforced", 2))
    host.act("start")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        state = p.act("done")
    spectator = spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    pool = [c["card"] for c in state["resolution"]["pool"]]
    seq = guesser.state()["seq"]
    ahead(clock_file, 2 * MINUTE + 0.05)
    answer = guesser.http.post(
        f"{timed_server.url}/api/rooms/{host.code}/actions",
        json={"type": "place", "card": pool[0], "spot": 0, "rotation": 0, "seq": seq},
        headers=guesser.headers,
    )
    assert answer.status_code == 200, answer.text
    res = answer.json()["state"]["resolution"]
    # checked at zero, an empty board: the first try is over, the move is the second's
    assert res["attempt"] == 2 and res["board"][0]["card"] == pool[0]
    assert answer.json()["seq"] >= seq + 2  # the timeout was an action of its own
