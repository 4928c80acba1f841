"""Rooms over time: host controls, presence, expiry, the Record of Legends, custom decks."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from .client import Player, clues_for, create, join, start_and_write_clues, table
from .server import ROOT, Server, free_port
from .sse import Stream

FAST_PRESENCE = {
    "SOCLOVER_PRESENCE_GRACE_SECONDS": "1",
    "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2",
    # The test's stream reader only notices it was closed when a line arrives: frequent
    # pings make a closed stream hang up promptly, as a browser tab closing would.
    "SOCLOVER_PING_SECONDS": "0.2",
}


def public(api: str, code: str) -> dict[str, Any]:
    r = httpx.get(f"{api}/api/rooms/{code}")  # no seat: reading is no sign of life
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(
    api: str, code: str, ok: Callable[[dict[str, Any]], bool], seconds: float = 8
) -> dict[str, Any]:
    """Poll the public view until ``ok`` holds; fail with the last state after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        state = public(api, code)
        if ok(state):
            return state
        assert time.monotonic() < deadline, f"gave up waiting; last state: {state}"
        time.sleep(0.05)


def stream(player: Player) -> Stream:
    s = Stream(f"{player.base}/api/rooms/{player.code}/events", dict(player.headers))
    s.next()  # the current state: the stream is open and counted
    return s


def error(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, f"{r.status_code} {r.text}"
    assert r.json()["error"]["code"] == code, r.text


def solution(players: list[Player], state: dict[str, Any]) -> list[dict[str, Any]]:
    spectator = players[state["resolution"]["spectator"]]
    truth = spectator.state()["resolution"]["solution"]
    assert truth is not None
    return truth


def place(player: Player, placements: list[dict[str, Any]], turn: int = 0) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for p in placements:
        state = player.act(
            "place", card=p["card"], spot=p["spot"], rotation=(p["rotation"] + turn) % 4
        )
    return state


def play_clover(players: list[Player], first: int, second: int | None = None) -> dict[str, Any]:
    """One clover by its lock holder: ``first`` cards right on try 1, ``second`` on try 2."""
    state = players[0].state()
    truth = solution(players, state)
    holder = players[state["resolution"]["lock_holder"]]
    place(holder, truth[:first])
    place(holder, truth[first:], turn=1)
    state = holder.act("lock")
    if first < 4:
        assert second is not None and state["resolution"]["attempt"] == 2
        place(holder, truth[first:second])
        place(holder, truth[max(first, second) :], turn=2)
        state = holder.act("lock")
    res = state["resolution"]
    assert res["checked"], res
    assert res["score"] == (6 if first == 4 else second)
    return holder.act("next")


def play_game(players: list[Player], plan: list[tuple[int, int | None]]) -> dict[str, Any]:
    start_and_write_clues(players)
    state: dict[str, Any] = {}
    for first, second in plan:
        state = play_clover(players, first, second)
    assert state["phase"] == "finished"
    return state


# --- the host in the lobby --------------------------------------------------------------------


def test_the_host_sets_the_decoys_in_the_lobby_only(api: str) -> None:
    players = table(api, 3)
    host, guest = players[0], players[1]
    assert host.act("settings", decoys=3)["decoys"] == 3
    error(guest.post("settings", decoys=2), 403, "not_host")
    for bad in (0, 5, -1):
        error(host.post("settings", decoys=bad), 422, "bad_decoys")
    assert public(api, host.code)["decoys"] == 3
    state = start_and_write_clues(players)
    assert state["decoys"] == 3 and len(state["resolution"]["pool"]) == 4 + 3
    error(host.post("settings", decoys=1), 409, "wrong_phase")
    assert public(api, host.code)["decoys"] == 3


def test_the_host_removes_a_player_only_once_they_are_absent(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST_PRESENCE).url
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    # just joined: present, even before the next presence sweep has shown it
    error(host.post("kick", seat=1), 409, "player_present")
    cy = join(api, host.code, "Cy")
    cy_stream = stream(cy)  # Cy keeps a live connection the whole time
    try:
        bea.act("say", text="brb")  # Bea's one sign of life
        error(host.post("kick", seat=1), 409, "player_present")
        error(cy.post("kick", seat=1), 403, "not_host")
        error(host.post("kick", seat=0), 409, "player_present")  # not yourself
        error(host.post("kick", seat=3), 422, "bad_seat")
        wait_for(api, host.code, lambda s: not s["players"][1]["present"])
        # an open stream is presence, however quiet
        assert public(api, host.code)["players"][2]["present"]
        error(host.post("kick", seat=2), 409, "player_present")
        state = host.act("kick", seat=1)
        assert [p["name"] for p in state["players"]] == ["Ada", "Cy"]
        assert state["players"][1]["seat"] == 1
        error(bea.post("say", text="hello?"), 401, "not_seated")
        assert bea.state()["you"] is None
        assert cy.state()["you"] == {"seat": 1, "host": False}
        # the name is free again, and Bea may come back
        assert join(api, host.code, "Bea").seat == 2
    finally:
        cy_stream.close()


def test_the_stand_in_host_never_removes_the_host_who_gets_the_controls_back(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST_PRESENCE).url
    ada = create(api, "Ada")
    bea = join(api, ada.code, "Bea")
    cy = join(api, ada.code, "Cy")
    join(api, ada.code, "Dot")
    streams = [stream(bea), stream(cy)]  # Bea and Cy stay; Ada and Dot go quiet
    try:
        wait_for(
            api,
            ada.code,
            lambda s: not s["players"][0]["present"] and not s["players"][3]["present"],
        )
        assert bea.state()["you"] == {"seat": 1, "host": True}  # Bea holds the controls
        error(bea.post("kick", seat=0), 403, "host_stays")
        assert [p["name"] for p in public(api, ada.code)["players"]] == ["Ada", "Bea", "Cy", "Dot"]
        # the stand-in may remove an absent guest
        assert [p["name"] for p in bea.act("kick", seat=3)["players"]] == ["Ada", "Bea", "Cy"]
        # Ada comes back: the controls are hers again, and the title never left her
        ada.state()  # a sign of life
        wait_for(api, ada.code, lambda s: s["players"][0]["present"] and s["players"][0]["host"])
        assert ada.state()["you"] == {"seat": 0, "host": True}
        assert bea.state()["you"] == {"seat": 1, "host": False}
        error(bea.post("settings", decoys=2), 403, "not_host")
        assert ada.act("settings", decoys=2)["decoys"] == 2
    finally:
        for s in streams:
            s.close()


# --- presence in resolution -------------------------------------------------------------------


def test_an_absent_guesser_does_not_block_the_check(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST_PRESENCE).url
    players = table(api, 4)
    streams = {p.seat: stream(p) for p in players}
    try:
        state = start_and_write_clues(players)
        s = state["resolution"]["spectator"]
        left, across, idle = (s + 1) % 4, (s + 2) % 4, (s + 3) % 4
        truth = solution(players, state)
        place(players[left], truth)
        players[left].act("agree")
        state = players[across].act("agree")
        # the idle guesser is still connected: two of three agreeing is not enough
        assert state["players"][idle]["present"]
        assert state["resolution"]["agreed"] == sorted([left, across])
        assert not state["resolution"]["checked"]
        # the idle guesser drops out and never comes back: the table goes on without them
        streams.pop(idle).close()
        state = wait_for(api, players[0].code, lambda st: st["resolution"]["checked"])
        assert not state["players"][idle]["present"]
        assert state["results"][-1]["score"] == 6

        # next clover: the idle player is absent from the start and blocks nothing
        state = players[s].act("next")
        assert state["resolution"]["spectator"] == left
        assert idle != left and not state["players"][idle]["present"]
        place(players[across], solution(players, state))
        state = players[across].act("agree")
        assert not state["resolution"]["checked"]  # the other present guesser, s, has not agreed
        state = players[s].act("agree")
        assert state["resolution"]["checked"] and state["resolution"]["score"] == 6
    finally:
        for st in streams.values():
            st.close()


def test_the_lock_passes_to_the_next_present_guesser(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST_PRESENCE).url
    players = table(api, 4)
    state = start_and_write_clues(players)
    s = state["resolution"]["spectator"]
    left, after = players[(s + 1) % 4], players[(s + 2) % 4]
    streams = [stream(p) for p in players if p is not left]
    try:
        code = players[0].code
        state = wait_for(api, code, lambda st: not st["players"][left.seat]["present"])
        assert state["resolution"]["lock_holder"] == after.seat
        truth = solution(players, state)
        # the next present guesser locks in: three right, one turned
        place(after, truth[:3])
        place(after, truth[3:], turn=1)
        state = after.act("lock")
        assert state["resolution"]["attempt"] == 2 and not state["resolution"]["checked"]
        # the left player comes back: the lock is theirs again
        streams.append(stream(left))
        state = wait_for(api, code, lambda st: st["resolution"]["lock_holder"] == left.seat)
        place(after, truth[3:])
        error(after.post("lock"), 403, "not_lock_holder")
        state = left.act("lock")
        assert state["resolution"]["checked"] and state["resolution"]["score"] == 4
    finally:
        for st in streams:
            st.close()


# --- expiry -----------------------------------------------------------------------------------


def test_a_finished_room_expires_but_its_legend_stays(make_server) -> None:  # type: ignore[no-untyped-def]
    server: Server = make_server(
        SOCLOVER_ROOM_EXPIRY_DAYS="0.00002",  # about 1.7 s idle
        SOCLOVER_EXPIRY_SWEEP_SECONDS="0.5",
    )
    api = server.url
    players = table(api, 3)
    state = play_game(players, [(4, None), (4, None), (2, 3)])
    assert state["total"] == 15
    code = players[0].code
    deadline = time.monotonic() + 10
    while httpx.get(f"{api}/api/rooms/{code}").status_code == 200:
        assert time.monotonic() < deadline, "the room did not expire"
        time.sleep(0.1)
    r = httpx.get(f"{api}/api/rooms/{code}")
    error(r, 404, "room_not_found")
    error(players[0].post("again"), 404, "room_not_found")
    error(httpx.post(f"{api}/api/rooms/{code}/join", json={"name": "Late"}), 404, "room_not_found")
    error(httpx.get(f"{api}/api/rooms/{code}/events"), 404, "room_not_found")
    legends = httpx.get(f"{api}/api/legends").json()["legends"]
    assert [(g["score"], g["max"], g["players"]) for g in legends] == [
        (15, 18, ["Ada", "Bea", "Cy"])
    ]
    # the room's own list needs a seat of the room, and there is no room any more
    r = httpx.get(f"{api}/api/legends", params={"room": code}, headers=players[0].headers)
    error(r, 404, "room_not_found")


def test_a_room_in_use_does_not_expire(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(SOCLOVER_ROOM_EXPIRY_DAYS="0.00002", SOCLOVER_EXPIRY_SWEEP_SECONDS="0.5").url
    host = create(api, "Ada")
    for i in range(6):  # 2.4 s in all, never idle for 1.7 s
        host.act("say", text=f"still here {i}")
        time.sleep(0.4)
    assert len(public(api, host.code)["chat"]) == 6


# --- the Record of Legends --------------------------------------------------------------------


def test_legends_filter_and_rank_best_first(api: str) -> None:
    first = table(api, 3)
    play_game(first, [(4, None)] * 3)  # 18 of 18, 1 decoy
    first[0].act("again")
    first[0].act("settings", decoys=2)
    play_game(first, [(4, None), (0, 0), (1, 3)])  # 9 of 18, 2 decoys
    second = table(api, 4)
    play_game(second, [(4, None)] * 4)  # 24 of 24, 1 decoy
    a, b = first[0].code, second[0].code

    def legends(who: Player | None = None, **params: Any) -> list[tuple[str | None, int, int, int]]:
        headers = who.headers if who is not None else {}
        r = httpx.get(f"{api}/api/legends", params=params, headers=headers)
        assert r.status_code == 200, r.text
        return [
            (g.get("room"), g["score"], g["player_count"], g["decoys"]) for g in r.json()["legends"]
        ]

    # public: no room code, which would open the room (its chat, its next game)
    assert legends() == [(None, 24, 4, 1), (None, 18, 3, 1), (None, 9, 3, 2)]
    assert a not in httpx.get(f"{api}/api/legends").text
    assert legends(players=3) == [(None, 18, 3, 1), (None, 9, 3, 2)]
    assert legends(players=4) == [(None, 24, 4, 1)]
    assert legends(players=5) == []
    assert legends(decoys=2) == [(None, 9, 3, 2)]
    assert legends(decoys=1) == [(None, 24, 4, 1), (None, 18, 3, 1)]
    assert legends(players=3, decoys=1) == [(None, 18, 3, 1)]
    assert legends(limit=1) == [(None, 24, 4, 1)]
    assert legends(limit=2, players=3) == [(None, 18, 3, 1), (None, 9, 3, 2)]
    # a room's own legends, for its own players
    assert legends(first[2], room=a.lower()) == [(a, 18, 3, 1), (a, 9, 3, 2)]
    assert legends(second[3], room=b) == [(b, 24, 4, 1)]
    for who, code in [(None, a), (second[0], a), (first[0], b), (first[0], "ZZZZZZ")]:
        r = httpx.get(
            f"{api}/api/legends", params={"room": code}, headers=who.headers if who else {}
        )
        error(r, 404, "room_not_found")

    r = httpx.get(f"{api}/api/legends", params={"room": b}, headers=second[0].headers)
    full = r.json()["legends"][0]
    assert set(full) >= {
        "id",
        "room",
        "finished_at",
        "players",
        "player_count",
        "decoys",
        "score",
        "max",
    }
    assert full["players"] == ["Ada", "Bea", "Cy", "Dot"] and full["max"] == 24
    assert full["finished_at"].endswith("Z")
    # each room shows its own best
    assert first[1].state()["best"]["score"] == 18
    assert second[2].state()["best"]["score"] == 24


# --- custom decks -----------------------------------------------------------------------------


def deck_words(count: int) -> list[str]:
    syllables = ["ba", "de", "fi", "go", "ku", "la", "me", "no", "pi", "ru", "sa", "to"]
    words = ("".join(w).capitalize() for w in itertools.product(syllables, repeat=3))
    return list(itertools.islice(words, count * 4))


def write_deck(path: Path, cards: int) -> list[str]:
    words = deck_words(cards)
    lines = ["# a small custom deck", ""]
    lines += [", ".join(words[i : i + 4]) for i in range(0, len(words), 4)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return words


def test_a_custom_deck_of_20_cards_fits_some_games_only(make_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    deck = tmp_path / "small-deck.txt"
    words = set(write_deck(deck, 20))
    api = make_server(SOCLOVER_KEYWORDS=str(deck)).url

    three = table(api, 3)  # 3 x (4 + 1) = 15 cards
    state = start_and_write_clues(three)
    pool = state["resolution"]["pool"]
    assert len(pool) == 5
    assert {w for card in pool for w in card["words"]} <= words

    four = table(api, 4)
    four[0].act("settings", decoys=2)  # 4 x (4 + 2) = 24 cards > 20
    before = public(api, four[0].code)
    r = four[0].post("start")
    error(r, 409, "deck_too_small")
    assert "20" in r.json()["error"]["message"] and "24" in r.json()["error"]["message"]
    assert public(api, four[0].code) == before
    state = four[0].act("settings", decoys=1)  # 4 x (4 + 1) = 20: exactly enough
    state = four[0].act("start")
    assert state["phase"] == "clues"
    assert {w for card in state["clover"]["cards"] for w in card["words"]} <= words
    four[0].act("clues", clues=clues_for(0))


def deck_lines(cards: int) -> list[str]:
    words = deck_words(cards)
    return [", ".join(words[i : i + 4]) for i in range(0, len(words), 4)]


def _with_line(lines: list[str], number: int, text: str) -> str:
    lines = list(lines)
    lines[number - 1] = text
    return "\n".join(lines) + "\n"


BAD_DECKS: dict[str, tuple[str | bytes | None, list[str]]] = {
    "three-keywords": (_with_line(deck_lines(20), 1, "Zip, Zap, Zop"), ["line 1", "4 keywords"]),
    "two-word-keyword": (_with_line(deck_lines(20), 7, "Ice cream, Zap, Zop, Zup"), ["line 7"]),
    "duplicate": (_with_line(deck_lines(21), 21, "Bababa, Zip, Zap, Zop"), ["line 21", "twice"]),
    "ten-cards": ("\n".join(deck_lines(10)) + "\n", ["10 cards", "15"]),
    "fourteen-cards": ("# header\n\n" + "\n".join(deck_lines(14)), ["14 cards", "15"]),
    "empty": ("# nothing here\n\n", ["no cards"]),
    "not-utf8": (b"Caf\xe9, Tea, Milk, Bread\n", ["line 1", "UTF-8"]),
    "missing": (None, ["not found"]),
}


@pytest.mark.parametrize("case", list(BAD_DECKS))
def test_a_bad_deck_file_stops_the_server_at_launch(tmp_path: Path, case: str) -> None:
    content, expected = BAD_DECKS[case]
    deck = tmp_path / f"{case}.txt"
    if isinstance(content, bytes):
        deck.write_bytes(content)
    elif isinstance(content, str):
        deck.write_text(content, encoding="utf-8")
    env = {
        **os.environ,
        "SOCLOVER_DATABASE_URL": f"sqlite:///{tmp_path / 'soclover.sqlite3'}",
        "SOCLOVER_KEYWORDS": str(deck),
    }
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "--port", str(free_port())],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode not in (0, None), done
    assert "Traceback" not in done.stderr, done.stderr
    assert f"{case}.txt" in done.stderr, done.stderr
    for part in expected:
        assert part in done.stderr, done.stderr
    assert "open http" not in done.stdout  # it never offered to serve


def test_rooms_forgotten_from_memory_are_read_back_from_disk(make_server) -> None:  # type: ignore[no-untyped-def]
    """Idle rooms leave the server's memory at housekeeping, and nothing is lost."""
    server = make_server(
        SOCLOVER_EXPIRY_SWEEP_SECONDS="0.3",
        SOCLOVER_PRESENCE_GRACE_SECONDS="0.2",
        SOCLOVER_PRESENCE_SWEEP_SECONDS="0.1",
    )
    players = table(server.url, 3)
    state = players[1].act("say", text="see you later")
    time.sleep(1.5)  # past the grace and a few housekeeping rounds
    again = players[2].state()
    assert again["chat"][-1]["text"] == "see you later"
    assert again["seq"] >= state["seq"]
    assert players[0].act("settings", decoys=2)["decoys"] == 2
