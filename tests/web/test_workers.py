"""Several server processes on one PostgreSQL database behave as one.

Two servers on different ports stand for workers behind a proxy: players are
spread across them on purpose. Runs with SOCLOVER_TEST_POSTGRES set (CI sets
it and SOCLOVER_REQUIRE_POSTGRES, so there these tests fail rather than skip).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from ..kit import (
    POSTGRES,
    Player,
    Server,
    Stream,
    create,
    http,
    join,
    solution,
    spectator_of,
    start_and_write_clues,
    wait_for,
)
from .test_migrations import head

if not POSTGRES:
    if os.environ.get("SOCLOVER_REQUIRE_POSTGRES"):
        raise RuntimeError("SOCLOVER_REQUIRE_POSTGRES is set but SOCLOVER_TEST_POSTGRES is not")
    pytest.skip(
        "several workers need PostgreSQL: set SOCLOVER_TEST_POSTGRES=postgresql://user@host:port",
        allow_module_level=True,
    )


@pytest.fixture
def two(make_server):
    return make_server(process=True), make_server(process=True)


def spread(servers, players: int) -> list[Player]:
    """A table whose players sit on alternate servers."""
    host = create(servers[0].url, "Ada")
    seated = [host]
    for i, name in enumerate(["Bea", "Cy", "Dot", "Eve", "Flo"][: players - 1], start=1):
        seated.append(join(servers[i % 2].url, host.code, name))
    return seated


def stream_of(player: Player) -> Stream:
    return Stream(f"{player.base}/api/rooms/{player.code}/events", player.headers)


def test_a_whole_game_across_two_workers_every_stream_sees_every_change_once(two):
    players = spread(two, 4)
    streams = [stream_of(p) for p in players]
    try:
        firsts = [int(s.next().id) for s in streams]
        start_and_write_clues(players)
        for _ in range(4):
            truth = solution(players)
            team = [p for p in players if p.seat != spectator_of(players).seat]
            for i, t in enumerate(truth):
                team[i % len(team)].act(
                    "place", card=t["card"], spot=t["spot"], rotation=t["rotation"]
                )
            for p in team:
                state = p.act("agree")
            assert state["resolution"]["checked"]
            state = players[0].act("next")
        assert state["phase"] == "finished" and state["total"] == 24
        final = players[1].state()["seq"]
        for s, first in zip(streams, firsts, strict=True):
            ids = []
            while not ids or ids[-1] < final:
                ids.append(int(s.next().id))
            assert ids == list(range(first + 1, final + 1)), (
                "a change missed, repeated or out of order"
            )
    finally:
        for s in streams:
            s.close()
    legends = http.get(
        f"{two[1].url}/api/legends", params={"room": players[0].code}, headers=players[1].headers
    ).json()
    assert [g["score"] for g in legends["legends"]] == [24]


def test_conflicting_moves_through_both_workers_leave_a_consistent_board(two):
    players = spread(two, 6)
    start_and_write_clues(players)
    spectator = spectator_of(players).seat
    team = [p for p in players if p.seat != spectator]
    before = players[0].state()
    cards = [c["card"] for c in before["resolution"]["pool"]]
    client = http.Client(timeout=30, limits=httpx.Limits(max_connections=24))

    def fire(i: int) -> int:
        p = team[i % len(team)]
        body = [
            {"type": "place", "card": cards[(i * 7) % len(cards)], "spot": i % 4, "rotation": 0},
            {"type": "remove", "spot": (i * 3) % 4},
            {"type": "rotate", "spot": i % 4, "turns": 1},
        ][i % 3]
        r = client.post(f"{p.base}/api/rooms/{p.code}/actions", json=body, headers=p.headers)
        assert r.status_code in (200, 409), r.text
        return r.json()["seq"] if r.status_code == 200 else None

    with client, ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(fire, range(200)))
    after = players[1].state()
    accepted = [seq for seq in answers if seq is not None]
    assert after["seq"] - before["seq"] >= len(accepted) > 0
    assert len(set(accepted)) == len(accepted), "two workers applied actions at one seq"
    res = after["resolution"]
    placed = [b["card"] for b in res["board"] if b["card"]]
    assert len(placed) == len(set(placed))
    assert sorted(placed + [c["card"] for c in res["pool"]]) == sorted(cards)
    # both workers show the same seat the same room, once both have caught up
    me = players[0]
    views = wait_for(
        lambda: [
            http.get(f"{server.url}/api/rooms/{me.code}", headers=me.headers).json()
            for server in two
        ],
        lambda views: views[0]["seq"] == views[1]["seq"] >= after["seq"],
        what="both workers at the same seq",
    )
    assert views[0] == views[1]


def test_a_killed_listener_connection_loses_no_event(two, database_url):
    import psycopg

    players = spread(two, 3)
    on_b = next(p for p in players if p.base == two[1].url)
    s = stream_of(on_b)
    try:
        first = int(s.next().id)
        players[0].act("say", text="before")
        with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as conn:
            killed = conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = 'soclover-listener' AND datname = %s",
                (database_url.rsplit("/", 1)[1],),
            ).fetchall()
        assert len(killed) == 2
        for i in range(5):
            players[0].act("say", text=f"while the listener is down {i}")
        last = players[0].state()["seq"]
        ids = []
        while not ids or ids[-1] < last:
            ids.append(int(s.next(15).id))
        assert ids == list(range(first + 1, last + 1))
    finally:
        s.close()


def test_kill_9_one_worker_the_other_carries_on(two):
    players = spread(two, 3)
    start_and_write_clues(players)
    speaker = next(p for p in players if p.seat != spectator_of(players).seat)
    acknowledged = speaker.act("say", text="still here")
    two[1].kill()
    for p in players:
        p.base = two[0].url
    state = players[2].state()
    assert state["chat"][-1]["text"] == "still here"
    assert state["seq"] >= acknowledged["seq"]
    truth = solution(players)
    team = [p for p in players if p.seat != spectator_of(players).seat]
    t = truth[0]
    after = team[0].act("place", card=t["card"], spot=t["spot"], rotation=t["rotation"])
    assert after["resolution"]["board"][t["spot"]]["card"] == t["card"]


def test_presence_is_shared_a_stream_on_one_worker_shows_on_the_other(make_server):
    quick = {"SOCLOVER_PRESENCE_GRACE_SECONDS": "1", "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2"}
    a, b = make_server(process=True, **quick), make_server(process=True, **quick)
    players = spread((a, b), 3)
    on_b, on_a = players[1], players[2]
    assert on_b.base == b.url and on_a.base == a.url

    def seen_on_a() -> dict:
        return http.get(f"{a.url}/api/rooms/{on_b.code}").json()

    s = stream_of(on_b)
    try:
        s.next()  # the stream is open: Bea's last sign of life other than the stream itself
        on_a.state()  # Cy's, on the other worker, later still
        # Once Cy is shown away, the grace of every sign Bea gave is past: only her stream
        # on b can keep her present, in the same view (one presence change sets them all).
        state = wait_for(
            seen_on_a,
            lambda state: not state["players"][on_a.seat]["present"],
            what="Cy shown away on a",
        )
        assert state["players"][on_b.seat]["present"], state["players"]
    finally:
        s.close()
    wait_for(
        seen_on_a,
        lambda state: not state["players"][on_b.seat]["present"],
        what="Bea shown away on a once her stream on b is closed",
    )


def test_rate_limits_count_across_workers(make_server):
    a = make_server(process=True, SOCLOVER_JOIN_RATE_PER_MINUTE="4")
    b = make_server(process=True, SOCLOVER_JOIN_RATE_PER_MINUTE="4")
    host = create(a.url, "Ada")
    statuses = [
        http.post(
            f"{(a, b)[i % 2].url}/api/rooms/{host.code}/join", json={"name": f"P{i}"}
        ).status_code
        for i in range(6)
    ]
    assert statuses.count(429) == 2, statuses


def test_workers_starting_at_once_migrate_once(tmp_path, database_url):
    servers = [Server(database_url, tmp_path / f"w{i}.log") for i in range(3)]
    with ThreadPoolExecutor(3) as pool:
        started = list(pool.map(lambda s: s.start(), servers))
    try:
        import psycopg

        with psycopg.connect(database_url) as conn:
            versions = conn.execute("SELECT version_num FROM alembic_version").fetchall()
        assert versions == [(head(),)]
        host = create(started[0].url, "Ada")
        assert http.get(f"{started[2].url}/api/rooms/{host.code}").status_code == 200
    finally:
        for server in servers:
            server.stop()


def test_a_seat_moved_on_one_worker_is_moved_on_the_other(two):
    """The claim is made on one worker and allowed on the other; the old token stops
    working on both, and the new one opens the seat on both."""
    a, b = two
    players = spread(two, 3)
    ada, bea = players[0], players[1]  # Ada on a, Bea on b
    assert ada.state()["you"]["seat"] == 0 and bea.state()["you"]["seat"] == 1
    asked = http.post(f"{a.url}/api/rooms/{ada.code}/claims", json={"seat": 1}).json()
    wait_for(lambda: bea.state()["claims"], bool, what="the claim seen on the other worker")
    bea.act("allow", claim=asked["claim"])  # on b, by Bea herself
    for server in (a, b):
        claim = http.get(
            f"{server.url}/api/rooms/{ada.code}/claims/{asked['claim']}",
            headers={"Authorization": f"Bearer {asked['token']}"},
        )
        wait_for(
            lambda url=server.url: (
                http.post(
                    f"{url}/api/rooms/{ada.code}/actions",
                    json={"type": "say", "text": "me?"},
                    headers={"Authorization": f"Bearer {bea.token}"},
                ).status_code
            ),
            lambda status: status == 401,
            what=f"the old token refused on {server.url}",
        )
        assert claim.json()["status"] == "allowed", claim.text
        new = Player(server.url, ada.code, asked["token"], 1, "Bea")
        wait_for(
            lambda p=new: p.post("say", text="from the new phone").status_code,
            lambda status: status == 200,
            what=f"the new token accepted on {server.url}",
        )
