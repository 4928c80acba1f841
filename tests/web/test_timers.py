"""The table's clock over HTTP, against a real server whose time the test moves on.

The server reads how far its clock runs ahead from a file (``SOCLOVER_CLOCK_FILE``):
a countdown of minutes runs out as soon as the test says so, and a server started
again on the same database and file meets the same deadline. What a clock does when
it runs out (the grace, the clovers not played, a board checked as it stands, a pause,
a move sent after zero) is the service's: ``tests/service/test_clocks.py``. Here: the
forms, the pages, a restart, and every refusal of the clock's actions.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ..kit import Player, Server, http, public, room_when, table, table_of
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
    # A late player sees the warning on their page.
    page = players[2].http.get(f"{timed_server.url}/r/{host.code}", headers=players[2].headers)
    assert "Time is up: fill your empty leaves" in page.text
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


def test_a_timer_out_of_range_is_refused_and_changes_nothing(api: str) -> None:
    """The refusal as the API says it; which timers are out of range is the rules'
    (``tests/rules/test_timers.py``)."""
    host = table(api, 3)[0]
    before = table_of(api, host.code)
    host.refused(422, "bad_timer", "timer", phase="rebuild", mode="enforced", minutes=16)
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


def test_only_the_host_pauses_a_running_clock_and_once(api: str) -> None:
    players = table(api, 3)
    host = players[0]
    host.act("timer", phase="clues", mode="enforced", minutes=2)
    host.act("start")
    players[1].refused(403, "not_host", "pause")
    assert host.act("pause")["paused"] is True
    host.refused(409, "already_paused", "pause")
    assert host.act("resume")["paused"] is False
    host.refused(409, "not_paused", "resume")


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
