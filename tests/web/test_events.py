"""The live stream: every client, every change, in order, from its own view."""

from __future__ import annotations

import signal

import httpx
import pytest

from ..kit import (
    Player,
    Server,
    Stream,
    assert_error,
    http,
    room_when,
    solution,
    spectator_of,
    start_and_write_clues,
    table,
)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def stream(player: Player | None, api: str, code: str, last: int | None = None) -> Stream:
    headers = {} if player is None else dict(player.headers)
    if last is not None:
        headers["Last-Event-ID"] = str(last)
    return Stream(f"{api}/api/rooms/{code}/events", headers)


def test_a_new_stream_starts_with_the_current_state_and_the_right_headers(api):
    host = table(api, 1)[0]
    s = stream(host, api, host.code)
    try:
        assert s.status == 200
        assert s.response_headers["content-type"].startswith("text/event-stream")
        assert s.response_headers["cache-control"] == "no-store"
        assert s.response_headers["x-accel-buffering"] == "no"
        first = s.next()
        assert first.event == "state" and first.id == str(first.json["seq"])
        assert first.json["state"]["you"]["seat"] == 0
    finally:
        s.close()


def test_every_client_gets_every_action_in_order(api):
    players = table(api, 4)
    streams = [stream(p, api, p.code) for p in players]
    try:
        starts = [s.next().json["seq"] for s in streams]
        seqs = []
        for i in range(12):
            seqs.append(players[i % 4].act("say", text=f"message {i}")["seq"])
        for s, start in zip(streams, starts, strict=True):
            got = []
            while not got or got[-1] < seqs[-1]:
                got.append(int(s.next().id))
            # presence changes are numbered changes too: nothing may be skipped
            assert got == list(range(start + 1, seqs[-1] + 1)), "missing or out of order"
    finally:
        for s in streams:
            s.close()


def test_events_say_who_did_what_but_never_the_content(api):
    players = table(api, 3)
    s = stream(players[1], api, players[1].code)
    try:
        s.next()
        players[0].act("start")
        players[0].act("clues", clues=["Qz1", "Qz2", "Qz3", "Qz4"])
        events = []
        while not events or events[-1].json["action"]["type"] != "clues":
            events.append(s.next())
        clue_event = events[-1]
        assert clue_event.json["action"] == {"type": "clues", "seat": 0, "player": 0, "name": "Ada"}
        assert "Qz1" not in clue_event.data
    finally:
        s.close()


def test_reconnecting_with_last_event_id_misses_nothing(api):
    players = table(api, 3)
    s = stream(players[2], api, players[2].code)
    first = s.next()
    s.close()
    for i in range(5):
        players[0].act("say", text=f"while away {i}")
    current = players[0].state()["seq"]
    again = stream(players[2], api, players[2].code, last=int(first.id))
    try:
        ids = []
        while not ids or ids[-1] < current:
            ids.append(int(again.next().id))
        assert ids == list(range(int(first.id) + 1, current + 1))
    finally:
        again.close()


def test_guessers_streams_never_carry_the_solution(api):
    players = table(api, 3)
    start_and_write_clues(players)
    spectator = spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    truth = solution(players)
    secret_rotations = {(t["spot"], t["card"], t["rotation"]) for t in truth}
    s_guess = stream(guesser, api, guesser.code)
    s_public = stream(None, api, guesser.code)
    s_spec = stream(spectator, api, spectator.code)
    try:
        for p in truth[:3]:
            guesser.act("place", card=p["card"], spot=p["spot"], rotation=(p["rotation"] + 1) % 4)
        seen = [s_guess.next() for _ in range(4)] + [s_public.next() for _ in range(4)]
        for event in seen:
            res = event.json["state"]["resolution"]
            assert res["solution"] is None and res["decoys"] is None
            assert '"solution":null' in event.data and '"decoys":null' in event.data
        spec = s_spec.next().json["state"]["resolution"]
        assert {(t["spot"], t["card"], t["rotation"]) for t in spec["solution"]} == secret_rotations
    finally:
        for s in (s_guess, s_public, s_spec):
            s.close()


def test_an_open_stream_is_presence(make_server):
    api = make_server(
        SOCLOVER_PRESENCE_GRACE_SECONDS="0.5", SOCLOVER_PRESENCE_SWEEP_SECONDS="0.1"
    ).url
    players = table(api, 3)
    code = players[0].code
    s = stream(players[2], api, code)
    try:
        s.next()  # the stream is open: Cy's last sign of life other than the stream itself
        players[1].state()  # Bea's, later still
        # Once Bea is shown away, the grace of every sign Cy gave is past: only the open
        # stream can keep Cy present, in the same view (one presence change sets them all).
        state = room_when(
            api, code, lambda st: not st["players"][1]["present"], what="Bea shown away"
        )
        assert state["players"][2]["present"], state["players"]
    finally:
        s.close()
    room_when(api, code, lambda st: not st["players"][2]["present"], what="Cy away, unstreamed")


def test_an_unknown_room_is_404_before_any_stream(api):
    r = http.get(f"{api}/api/rooms/ZZZZZZ/events")
    assert_error(r, 404, code="room_not_found")


def test_streams_end_cleanly_and_at_once_when_the_server_stops(make_server):
    """Told to stop, the server ends every stream as a finished response (the chunked
    body's last chunk sent) rather than leaving them to be cut when its patience runs out."""
    server = make_server(process=True)  # a process, to be sent SIGTERM
    host = table(server.url, 1)[0]
    url = f"{server.url}/api/rooms/{host.code}/events"
    with (
        http.Client(timeout=httpx.Timeout(5, read=10)) as client,
        client.stream("GET", url, headers=host.headers) as response,
    ):
        chunks = response.iter_raw()
        received = b""
        while b"\n\n" not in received.replace(b"\r\n", b"\n"):
            received += next(chunks)
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        # An unfinished chunked body would raise httpx.RemoteProtocolError here.
        rest = b"".join(chunks)
    assert b"event: state" in received and b"event:" not in rest
    assert server.process.wait(10) in (0, -signal.SIGTERM)
