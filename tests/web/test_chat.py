"""The chat over HTTP: a limit per seat, answers and events that carry only what
changed, and authors named by a player id that never changes."""

from __future__ import annotations

import sqlite3

import pytest

from ..kit import Server, Stream, create, http, join, public, table

LONG = "🍀" * 300  # 300 characters, 1,200 bytes of UTF-8


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def test_a_seat_may_send_a_burst_then_is_told_to_slow_down(make_server) -> None:  # type: ignore[no-untyped-def]
    # a burst of 3 and barely any refill: the fourth line at once is refused
    api = make_server(SOCLOVER_CHAT_BURST="3", SOCLOVER_CHAT_LINES_PER_MINUTE="1").url
    ada, bea, _ = table(api, 3)
    for i in range(3):
        ada.act("say", text=f"line {i}")
    error = ada.refused(429, "chat_too_fast", "say", text="one too many")
    assert "too fast" in error["message"]
    # the limit is per seat: Bea still speaks
    bea.act("say", text="my turn")
    assert [line["text"] for line in public(api, ada.code)["chat"]] == [
        "line 0",
        "line 1",
        "line 2",
        "my turn",
    ]
    # through the page's chat form too, as a message for the flash area
    r = http.post(
        f"{api}/r/{ada.code}/act",
        data={"type": "say", "text": "from the page"},
        headers={"Origin": api, "HX-Request": "true", "Cookie": f"soclover_{ada.code}={ada.token}"},
    )
    assert r.status_code == 429 and "too fast" in r.text
    assert len(public(api, ada.code)["chat"]) == 4


def test_with_a_full_chat_answers_and_events_stay_small(api: str) -> None:
    ada, bea, cy = table(api, 3)
    for i in range(200):
        (ada, bea, cy)[i % 3].act("say", text=LONG)
    room = http.get(f"{api}/api/rooms/{ada.code}", headers=ada.headers)
    assert len(room.json()["chat"]) == 200 and room.json()["chat_after"] is None
    assert len(room.content) > 200 * 1200  # the first read carries the whole recent chat

    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(bea.headers))
    try:
        first = stream.next()
        assert len(first.json["state"]["chat"]) == 200  # so does a stream's first event
        answer = ada.post("settings", decoys=2)
        assert answer.status_code == 200
        assert len(answer.content) < 20_000, len(answer.content)
        assert answer.json()["state"]["chat"] == []
        assert answer.json()["state"]["chat_after"] == 200
        event = stream.next()
        assert event.json["seq"] == answer.json()["seq"]
        assert len(event.data.encode()) < 20_000, len(event.data)
        assert event.json["state"]["chat"] == []
        said = cy.post("say", text="and one more")
        assert len(said.content) < 20_000
        assert [line["text"] for line in said.json()["state"]["chat"]] == ["and one more"]
        event = stream.next()
        assert [line["text"] for line in event.json["state"]["chat"]] == ["and one more"]
        assert event.json["state"]["chat"][0]["id"] == 201
        assert len(event.data.encode()) < 20_000
    finally:
        stream.close()


def test_the_page_stream_sends_the_chat_once_then_only_new_lines(api: str) -> None:
    ada, bea, _ = table(api, 3)
    for _ in range(30):
        ada.act("say", text=LONG)
    stream = Stream(f"{api}/r/{ada.code}/stream", {"Cookie": f"soclover_{bea.code}={bea.token}"})
    try:
        first = {e.event: e.data for e in stream.take(5)}
        assert first["chat"].count("<li") == 30
        said = bea.act("say", text="hello there")["seq"]
        events = []
        while not any(e.event == "chat-line" for e in events):
            events.append(stream.next())
        assert "chat" not in {e.event for e in events}
        # A region whose HTML did not change is not sent again: the line is all.
        assert {e.event for e in events if e.id == str(said)} == {"chat-line"}
        line = next(e for e in events if e.event == "chat-line")
        assert line.data.count("<li") == 1 and "hello there" in line.data
        assert len(line.data) < 1_000
    finally:
        stream.close()


def test_lines_name_their_author_by_a_player_id_that_survives_seats_moving(
    shared_server: Server, api: str
) -> None:
    ada = create(api, "Ada")
    bea = join(api, ada.code, "Bea")
    cy = join(api, ada.code, "Cy")
    players = {p["name"]: p["id"] for p in public(api, ada.code)["players"]}
    bea.act("say", text="back in a minute")
    cy.act("say", text="before")
    bea.act("leave")  # Cy moves from seat 2 to seat 1
    cy.act("say", text="after")
    chat = public(api, ada.code)["chat"]
    assert [(line["text"], line["player"], line["seat"], line["name"]) for line in chat] == [
        ("back in a minute", players["Bea"], None, "Bea"),
        ("before", players["Cy"], 1, "Cy"),
        ("after", players["Cy"], 1, "Cy"),
    ]
    # the action log names the author by the same id
    database = shared_server.database_url.removeprefix("sqlite:///")
    if shared_server.database_url.startswith("sqlite"):
        with sqlite3.connect(database) as db:
            rows = db.execute(
                "SELECT seat, player, json_extract(action, '$.type') FROM action WHERE room = ? "
                "AND json_extract(action, '$.type') IN ('say', 'leave') ORDER BY seq",
                (ada.code,),
            ).fetchall()
        assert rows == [
            (1, players["Bea"], "say"),
            (2, players["Cy"], "say"),
            (1, players["Bea"], "leave"),
            (1, players["Cy"], "say"),
        ]


def test_events_name_who_acted_and_who_was_removed(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(
        SOCLOVER_PRESENCE_GRACE_SECONDS="0.5", SOCLOVER_PRESENCE_SWEEP_SECONDS="0.2"
    ).url
    ada = create(api, "Ada")
    bea = join(api, ada.code, "Bea")
    cy = join(api, ada.code, "Cy")
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(ada.headers))
    try:
        stream.next()
        bea.act("leave")
        left = stream.next()
        while left.json["action"]["type"] != "leave":
            left = stream.next()
        assert left.json["action"] == {"type": "leave", "seat": 1, "player": 1, "name": "Bea"}
        # Cy goes quiet; once away, the host removes them, and the event says whom
        while True:
            event = stream.next()
            action = event.json["action"]
            if (
                action
                and action["type"] == "presence"
                and not event.json["state"]["players"][1]["present"]
            ):
                break
        ada.act("kick", seat=1)
        kicked = stream.next()
        while kicked.json["action"]["type"] != "kick":
            kicked = stream.next()
        assert kicked.json["action"]["removed"] == "Cy"
        assert kicked.json["action"]["name"] == "Ada"
        assert cy.post("say", text="still here?").status_code == 401
    finally:
        stream.close()
