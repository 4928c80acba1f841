"""Nothing acknowledged is lost: kill -9 the server, and concurrent conflicting moves."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from ..kit import http, solution, spectator_of, start_and_write_clues, table


def test_kill_9_then_restart_gives_exactly_the_last_acknowledged_state(make_server):
    server = make_server(process=True)
    players = table(server.url, 4)
    start_and_write_clues(players)
    truth = solution(players)
    guesser = next(p for p in players if p.seat != spectator_of(players).seat)
    last = None
    for p in truth[:3]:
        last = guesser.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
    last = guesser.act("say", text="almost there")
    server.kill()
    restarted = make_server()
    for p in players:
        p.base = restarted.url
    after = guesser.state()
    assert after["seq"] >= last["seq"]
    # everything but presence is exactly as acknowledged
    keep = ("phase", "decoys", "resolution", "results", "chat", "total", "max")
    assert {k: after[k] for k in keep} == {k: last[k] for k in keep}
    # and the game carries on
    p = truth[3]
    state = guesser.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
    assert all(b["card"] for b in state["resolution"]["board"])


def test_conflicting_moves_at_once_leave_a_consistent_board(make_server):
    server = make_server(SOCLOVER_PRESENCE_GRACE_SECONDS="600")
    players = table(server.url, 6, decoys=4)
    start_and_write_clues(players)
    spectator = spectator_of(players).seat
    team = [p for p in players if p.seat != spectator]
    before = players[0].state()
    cards = [c["card"] for c in before["resolution"]["pool"]]

    def fire(i: int) -> int:
        p = team[i % len(team)]
        card = cards[(i * 7) % len(cards)]
        kind = i % 3
        with http.Client(timeout=20) as client:
            if kind == 0:
                body = {"type": "place", "card": card, "spot": i % 4, "rotation": i % 4}
            elif kind == 1:
                body = {"type": "remove", "spot": (i * 3) % 4}
            else:
                body = {"type": "rotate", "spot": i % 4, "turns": 1}
            r = client.post(
                f"{server.url}/api/rooms/{p.code}/actions", json=body, headers=p.headers
            )
        assert r.status_code in (200, 409), r.text
        return r.status_code

    with ThreadPoolExecutor(max_workers=24) as pool:
        statuses = list(pool.map(fire, range(300)))
    after = players[0].state()
    accepted = statuses.count(200)
    assert accepted > 0 and statuses.count(409) > 0
    assert after["seq"] == before["seq"] + accepted
    res = after["resolution"]
    placed = [b["card"] for b in res["board"] if b["card"]]
    pool_cards = [c["card"] for c in res["pool"]]
    assert len(placed) == len(set(placed)), "a card on two spots"
    assert sorted(placed + pool_cards) == sorted(cards), "pool + board is not the clover"
