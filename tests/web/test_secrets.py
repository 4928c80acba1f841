"""A room code and a seat token are the only secrets: where they may and may not go.

Over HTTP against a real server: reading rooms by code without a seat is
rate-limited; seat links keep their token out of logs and die with the seat;
per-seat answers are never cached; a request's ``Host`` never shapes what other
screens are sent.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest

from ..kit import (
    Event,
    NoEvent,
    Player,
    Server,
    Stream,
    assert_error,
    clues_for,
    create,
    http,
    join,
    room_when,
    solution,
    start_and_write_clues,
    table,
    wait_for,
    watch,
)


@pytest.fixture(scope="module")
def api(shared_server: Server) -> str:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server.url


def cookie(player: Player) -> dict[str, str]:
    return {"Cookie": f"soclover_{player.code}={player.token}"}


# --- looking rooms up by code -----------------------------------------------------------------


def test_reading_rooms_without_a_seat_is_rate_limited_per_address(
    make_server: Callable[..., Server],
) -> None:
    api = make_server(SOCLOVER_LOOKUP_RATE_PER_MINUTE="6").url
    host = create(api, "Ada")
    lookups = [
        lambda: http.get(f"{api}/api/rooms/{host.code}"),
        lambda: http.get(f"{api}/api/rooms/ZZZZZZ"),
        lambda: http.get(f"{api}/r/{host.code}"),
        lambda: http.get(f"{api}/r/ZZZZZZ"),
        lambda: http.get(f"{api}/api/legends", params={"room": host.code}),
        lambda: http.post(f"{api}/join", data={"code": "ZZZZZZ"}, headers={"Origin": api}),
    ]
    assert [lookup().status_code for lookup in lookups] == [200, 404, 200, 404, 404, 404]
    for lookup in lookups:
        r = lookup()
        assert r.status_code == 429, f"{r.request.url}: {r.status_code}"
    assert_error(http.get(f"{api}/api/rooms/{host.code}"), 429, code="rate_limited")
    assert "Too many tries" in http.get(f"{api}/r/{host.code}").text
    with http.stream("GET", f"{api}/api/rooms/{host.code}/events") as stream:
        assert stream.status_code == 429
    # the room's own players are never limited, by token or by cookie
    for _ in range(10):
        assert http.get(f"{api}/api/rooms/{host.code}", headers=host.headers).status_code == 200
        assert http.get(f"{api}/r/{host.code}", headers=cookie(host)).status_code == 200
    # and the limit is per client address
    other = {"X-Forwarded-For": "203.0.113.9"}
    assert http.get(f"{api}/api/rooms/{host.code}", headers=other).status_code == 200


# --- the Record of Legends --------------------------------------------------------------------


def test_public_pages_and_legends_never_show_a_room_code(api: str) -> None:
    players = table(api, 3)
    code = players[0].code
    finish(players)
    assert code not in http.get(f"{api}/api/legends").text
    assert code not in http.get(f"{api}/api/legends", params={"players": 3}).text
    assert code not in http.get(f"{api}/").text
    mine = http.get(f"{api}/api/legends", params={"room": code}, headers=players[1].headers)
    assert [g["room"] for g in mine.json()["legends"]] == [code]
    r = http.get(f"{api}/api/legends", params={"room": code})
    assert_error(r, 404, code="room_not_found")


def finish(players: list[Player]) -> None:
    start_and_write_clues(players)
    solve(players)


def solve(players: list[Player]) -> None:
    """Every clover rebuilt right at its first try, to the end of the game."""
    for _ in players:
        state = players[0].state()
        holder = players[state["resolution"]["lock_holder"]]
        for p in solution(players):
            holder.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
        holder.act("lock")
        state = holder.act("next")
    assert state["phase"] == "finished"


# --- seat links -------------------------------------------------------------------------------


def test_the_seat_link_carries_its_secret_after_the_hash(api: str) -> None:
    host = create(api, "Ada")
    page = http.get(f"{api}/r/{host.code}", headers=cookie(host)).text
    link = re.search(r'id="device-url" readonly value="([^"]+)"', page)
    assert link and link.group(1) == f"{api}/r/{host.code}/seat#{host.token}"
    # what the browser sends of that link holds no secret
    landing = http.get(f"{api}/r/{host.code}/seat")
    assert landing.status_code == 200 and host.token not in landing.text
    assert "set-cookie" not in landing.headers
    # the page's script posts the token from the hash: the answer says whose seat it is
    # and offers a button, and sets nothing
    with http.Client(base_url=api, headers={"Origin": api}) as other_device:
        r = other_device.post(f"/r/{host.code}/seat", data={"token": host.token})
        assert r.status_code == 200 and "set-cookie" not in r.headers
        assert "Play here as Ada" in r.text and 'name="confirm" value="yes"' in r.text
        assert r.headers["referrer-policy"] == "same-origin"  # never sent to another site
        assert other_device.get(f"/api/rooms/{host.code}").json()["you"] is None
        # the button takes the seat
        r = other_device.post(f"/r/{host.code}/seat", data={"token": host.token, "confirm": "yes"})
        assert r.status_code == 303 and r.headers["location"] == f"/r/{host.code}"
        assert r.headers["set-cookie"].startswith(f"soclover_{host.code}={host.token};")
        assert other_device.get(f"/api/rooms/{host.code}").json()["you"]["seat"] == 0


def test_a_link_from_another_site_swaps_no_seat(api: str) -> None:
    """Cy opens a link to Bea's seat, sent in a chat: the page says whose seat it opens and
    that taking it gives up his own here; nothing is set until he taps, and a post from
    the other site (its own button) is refused before anything is read."""
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    cy = join(api, host.code, "Cy")
    link = f"/r/{host.code}/seat/{bea.token}"
    with http.Client(base_url=api, headers=cookie(cy)) as cys_browser:
        r = cys_browser.get(link, headers={"Sec-Fetch-Site": "cross-site"})
        assert r.status_code == 200 and "set-cookie" not in r.headers
        assert "Play here as Bea" in r.text
        assert "This browser plays Cy's seat in this room now" in r.text
        assert r.headers["referrer-policy"] == "same-origin"
        assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
        assert cys_browser.get(f"/api/rooms/{host.code}").json()["you"]["seat"] == 2
        for header in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}):
            r = cys_browser.post(
                f"/r/{host.code}/seat", data={"token": bea.token, "confirm": "yes"}, headers=header
            )
            assert r.status_code == 403 and "set-cookie" not in r.headers
        assert cys_browser.get(f"/api/rooms/{host.code}").json()["you"]["seat"] == 2
        # His own link says so, and taking it changes nothing.
        r = cys_browser.get(f"/r/{host.code}/seat/{cy.token}")
        assert "This browser already plays this seat." in r.text


def test_a_seat_link_of_the_older_form_is_kept_out_of_the_access_log(
    make_server: Callable[..., Server],
) -> None:
    server = make_server(process=True, SOCLOVER_LOG_LEVEL="info")  # its own log file
    host = create(server.url, "Ada")
    r = http.get(f"{server.url}/r/{host.code}/seat/{host.token}")
    assert r.status_code == 200 and "set-cookie" not in r.headers  # a link changes nothing
    r = http.post(
        f"{server.url}/r/{host.code}/seat",
        data={"token": host.token, "confirm": "yes"},
        headers={"Origin": server.url},
    )
    assert r.status_code == 303
    assert r.headers["set-cookie"].startswith(f"soclover_{host.code}={host.token};")
    log = wait_for(
        server.log.read_text,
        lambda log: f"/r/{host.code}/seat/" in log,
        what="the seat link's line in the access log",
        timeout=5,
    )
    assert host.token not in log
    assert f"/r/{host.code}/seat/…" in log


def test_a_seat_link_of_someone_who_left_or_was_removed_opens_nothing(
    make_server: Callable[..., Server],
) -> None:
    api = make_server(
        SOCLOVER_PRESENCE_GRACE_SECONDS="0.3", SOCLOVER_PRESENCE_SWEEP_SECONDS="0.1"
    ).url
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    cy = join(api, host.code, "Cy")
    watching = Stream(f"{api}/api/rooms/{host.code}/events", dict(host.headers))
    try:
        bea.act("leave")
        room_when(api, host.code, lambda s: not s["players"][1]["present"], what="Cy away")
        host.act("kick", seat=1)  # Cy, away
    finally:
        watching.close()
    for gone in (bea, cy):
        for r in (
            http.get(f"{api}/r/{gone.code}/seat/{gone.token}"),
            http.post(
                f"{api}/r/{gone.code}/seat", data={"token": gone.token}, headers={"Origin": api}
            ),
        ):
            assert r.status_code == 410, r.text
            assert "set-cookie" not in r.headers
            assert "This seat link no longer works" in r.text
        assert http.get(f"{api}/api/rooms/{gone.code}", headers=gone.headers).json()["you"] is None
        assert gone.post("say", text="hello?").status_code == 401


# --- caching ----------------------------------------------------------------------------------


def test_every_per_seat_answer_is_no_store_and_varies_on_the_seat(api: str) -> None:
    players = table(api, 3)
    host = players[0]
    answers = [
        http.get(f"{api}/r/{host.code}", headers=cookie(host)),
        http.get(f"{api}/r/{host.code}"),
        http.get(f"{api}/api/rooms/{host.code}", headers=host.headers),
        http.get(f"{api}/api/rooms/{host.code}", headers={"Accept-Encoding": "gzip"}),
        host.post("say", text="hi"),
        host.post("start", seq=0),  # refused: stale
        http.get(f"{api}/api/legends", params={"room": host.code}, headers=host.headers),
        http.get(f"{api}/"),
    ]
    for r in answers:
        assert r.headers["cache-control"] == "no-store", r.request.url
        vary = {v.strip().lower() for v in r.headers["vary"].split(",")}
        assert {"cookie", "authorization"} <= vary, (r.request.url, vary)
    for path in (f"/api/rooms/{host.code}/events", f"/r/{host.code}/stream"):
        with http.stream("GET", f"{api}{path}", headers=host.headers) as stream:
            assert stream.headers["cache-control"] == "no-store"
            assert "cookie" in stream.headers["vary"].lower()
    assert "no-store" not in http.get(f"{api}/static/table.css").headers.get("cache-control", "")


# --- the Host header --------------------------------------------------------------------------


def stage_of(stream: Stream) -> str:
    for _ in range(10):
        event = stream.next()
        if event.event == "stage":
            return event.data
    raise AssertionError("no stage region")


def test_a_host_header_never_shapes_what_other_screens_are_sent(api: str) -> None:
    host = create(api, "Ada")
    port = api.rsplit(":", 1)[1]
    streams = [
        Stream(f"{api}/r/{host.code}/stream", {**cookie(host), "Host": f"h{i}.example:{port}"})
        for i in range(3)
    ]
    try:
        first = [stage_of(s) for s in streams]
        assert first[0] == first[1] == first[2]
        host.act("settings", decoys=2)
        after = [stage_of(s) for s in streams]
        assert after[0] == after[1] == after[2]
        assert "example" not in after[0]
        assert f'value="/r/{host.code}"' in after[0]  # the page's script adds its own address
    finally:
        for s in streams:
            s.close()
    # a page asked for at some address shows its invite with that address
    page = http.get(f"{api}/r/{host.code}", headers={**cookie(host), "Host": f"me.lan:{port}"})
    assert f'value="http://me.lan:{port}/r/{host.code}"' in page.text
    qr = http.get(f"{api}/r/{host.code}/invite.svg", headers=cookie(host))
    assert qr.status_code == 200 and qr.headers["content-type"].startswith("image/svg+xml")
    assert qr.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"')  # an image on its own


def test_a_configured_public_address_is_used_for_every_invite(
    make_server: Callable[..., Server],
) -> None:
    api = make_server(SOCLOVER_PUBLIC_URL="https://clover.example.org/").url
    host = create(api, "Ada")
    page = http.get(f"{api}/r/{host.code}", headers={**cookie(host), "Host": "evil.example"})
    assert f'value="https://clover.example.org/r/{host.code}"' in page.text
    assert "evil.example" not in page.text
    stream = Stream(f"{api}/r/{host.code}/stream", {**cookie(host), "Host": "evil.example"})
    try:
        stage = stage_of(stream)
        assert f'value="https://clover.example.org/r/{host.code}"' in stage
    finally:
        stream.close()


# --- watchers ----------------------------------------------------------------------------------


def drain(stream: Stream) -> list[Event]:
    """Every event the stream has sent so far (it is read in a thread of its own)."""
    events = []
    while True:
        try:
            events.append(stream.next(1.0))
        except NoEvent:
            return events


def test_watchers_streams_carry_no_hidden_card_through_a_whole_game(api: str) -> None:
    """Two watchers follow a game, one by the API's events and one by the page's HTML
    stream: neither is ever sent a card of a clover in the clue phase, nor the solution
    or the decoys of a clover before its check, nor a clover before its turn."""
    players = table(api, 3)
    code = players[0].code
    gus, hal = watch(api, code, "Gus"), watch(api, code, "Hal")
    as_json = Stream(f"{api}/api/rooms/{code}/events", dict(gus.headers))
    as_html = Stream(f"{api}/r/{code}/stream", cookie(hal))
    try:
        players[0].act("start")
        dealt = {p.seat: p.state()["clover"] for p in players}
        words = {
            seat: {w for card in clover["cards"] for w in card["words"]}
            for seat, clover in dealt.items()
        }
        for p in players:
            p.act("clues", clues=clues_for(p.seat))
            p.act("done")
        solve(players)
        events = drain(as_json)
        pages = drain(as_html)
    finally:
        as_json.close()
        as_html.close()
    states = {int(e.id): e.json["state"] for e in events if e.event == "state" and e.id}
    assert {s["phase"] for s in states.values()} >= {"clues", "resolution", "finished"}
    for seq, state in states.items():
        assert state["you"] == {"seat": None, "host": False, "watcher": True}
        assert state["clover"] is None, seq
        text = json.dumps(state)
        if state["phase"] == "clues":
            assert not any(f'"{w}"' in text for ws in words.values() for w in ws), seq
        res = state["resolution"]
        if res is not None and not res["checked"]:
            assert res["solution"] is None and res["decoys"] is None, seq
        if res is not None:
            later = [s for s in range(3) if s not in [r["spectator"] for r in state["results"]]]
            for seat in later:
                if seat != res["spectator"]:
                    assert not any(f'"{w}"' in text for w in words[seat]), (seq, seat)
    stages = [(int(e.id), e.data) for e in pages if e.event == "stage" and e.id]
    assert len(stages) > 5
    for seq, html in stages:
        state = states.get(seq)
        if state is None:
            continue
        assert 'id="watching-bar"' in html and "only you see it" not in html
        if state["phase"] == "clues":
            assert not any(f">{w}<" in html for ws in words.values() for w in ws), seq
        res = state["resolution"]
        if res is not None and not res["checked"]:
            assert 'class="decoy"' not in html and "decoy-mark" not in html, seq


def test_a_watchers_token_opens_the_room_as_a_watcher_and_dies_when_they_leave(api: str) -> None:
    host = create(api, "Ada")
    gus = watch(api, host.code, "Gus")
    with http.Client(base_url=api, headers={"Origin": api}) as other_device:
        r = other_device.post(f"/r/{host.code}/seat", data={"token": gus.token, "confirm": "yes"})
        assert r.status_code == 303
        assert other_device.get(f"/api/rooms/{host.code}").json()["you"]["watcher"] is True
    for r in (
        http.get(f"{api}/r/{host.code}", headers=cookie(gus)),
        http.get(f"{api}/api/rooms/{host.code}", headers=gus.headers),
    ):
        assert r.headers["cache-control"] == "no-store"
        assert {"cookie", "authorization"} <= {
            v.strip().lower() for v in r.headers["vary"].split(",")
        }
    # a watcher's token is no key to another room
    other = create(api, "Bea")
    r = http.get(f"{api}/api/rooms/{other.code}", headers=gus.headers)
    assert r.json()["you"] is None
    gus.act("leave")
    for r in (
        http.get(f"{api}/r/{gus.code}/seat/{gus.token}"),
        http.post(f"{api}/r/{gus.code}/seat", data={"token": gus.token}, headers={"Origin": api}),
    ):
        assert r.status_code == 410 and "set-cookie" not in r.headers
    assert http.get(f"{api}/api/rooms/{gus.code}", headers=gus.headers).json()["you"] is None
    assert gus.post("say", text="hello?").status_code == 401
