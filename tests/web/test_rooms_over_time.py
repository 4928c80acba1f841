"""Rooms over time: host controls, presence, expiry, the Record of Legends, custom decks."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app import cli
from app.config import get_settings

from ..kit import (
    Event,
    Player,
    Server,
    Stream,
    assert_error,
    clues_for,
    create,
    free_port,
    http,
    join,
    public,
    room_when,
    solution,
    start_and_write_clues,
    table,
    table_of,
    wait_for,
)

FAST_PRESENCE = {
    "SOCLOVER_PRESENCE_GRACE_SECONDS": "1",
    "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2",
}


def stream(player: Player) -> Stream:
    s = Stream(f"{player.base}/api/rooms/{player.code}/events", dict(player.headers))
    s.next()  # the current state: the stream is open and counted
    return s


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
    truth = solution(players)
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
    assert_error(guest.post("settings", decoys=2), 403, code="not_host")
    for bad in (0, 5, -1):
        assert_error(host.post("settings", decoys=bad), 422, code="bad_decoys")
    assert public(api, host.code)["decoys"] == 3
    state = start_and_write_clues(players)
    assert state["decoys"] == 3 and len(state["resolution"]["pool"]) == 4 + 3
    assert_error(host.post("settings", decoys=1), 409, code="wrong_phase")
    assert public(api, host.code)["decoys"] == 3


def test_the_host_removes_a_player_only_once_they_are_absent(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST_PRESENCE).url
    host = create(api, "Ada")
    bea = join(api, host.code, "Bea")
    # just joined: present, even before the next presence sweep has shown it
    assert_error(host.post("kick", seat=1), 409, code="player_present")
    cy = join(api, host.code, "Cy")
    cy_stream = stream(cy)  # Cy keeps a live connection the whole time
    try:
        bea.act("say", text="brb")  # Bea's one sign of life
        assert_error(host.post("kick", seat=1), 409, code="player_present")
        assert_error(cy.post("kick", seat=1), 403, code="not_host")
        assert_error(host.post("kick", seat=0), 409, code="player_present")  # not yourself
        assert_error(host.post("kick", seat=3), 422, code="bad_seat")
        room_when(api, host.code, lambda s: not s["players"][1]["present"], what="Bea away")
        # an open stream is presence, however quiet
        assert public(api, host.code)["players"][2]["present"]
        assert_error(host.post("kick", seat=2), 409, code="player_present")
        state = host.act("kick", seat=1)
        assert [p["name"] for p in state["players"]] == ["Ada", "Cy"]
        assert state["players"][1]["seat"] == 1
        assert_error(bea.post("say", text="hello?"), 401, code="not_seated")
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
        room_when(
            api,
            ada.code,
            lambda s: not s["players"][0]["present"] and not s["players"][3]["present"],
            what="Ada and Dot away",
        )
        assert bea.state()["you"] == {"seat": 1, "host": True}  # Bea holds the controls
        assert_error(bea.post("kick", seat=0), 403, code="host_stays")
        assert [p["name"] for p in public(api, ada.code)["players"]] == ["Ada", "Bea", "Cy", "Dot"]
        # the stand-in may remove an absent guest
        assert [p["name"] for p in bea.act("kick", seat=3)["players"]] == ["Ada", "Bea", "Cy"]
        # Ada comes back: the controls are hers again, and the title never left her
        ada.state()  # a sign of life
        room_when(
            api,
            ada.code,
            lambda s: s["players"][0]["present"] and s["players"][0]["host"],
            what="Ada back, with the controls",
        )
        assert ada.state()["you"] == {"seat": 0, "host": True}
        assert bea.state()["you"] == {"seat": 1, "host": False}
        assert_error(bea.post("settings", decoys=2), 403, code="not_host")
        assert ada.act("settings", decoys=2)["decoys"] == 2
    finally:
        for s in streams:
            s.close()


def test_in_a_game_the_stand_in_takes_the_away_host_out_and_the_title_passes(make_server) -> None:  # type: ignore[no-untyped-def]
    """The table never waits on anyone, the host included: in a game the stand-in may
    take an away host out like any player, and holds the title from then on. (In the
    lobby the host's seat waits for them: ``host_stays`` above.)"""
    api = make_server(**FAST_PRESENCE).url
    players = table(api, 4)
    ada, bea, cy, dot = players
    players[0].act("start")
    streams = [stream(bea), stream(cy), stream(dot)]  # Ada goes quiet
    try:
        room_when(api, ada.code, lambda s: not s["players"][0]["present"], what="Ada away")
        assert 0 in bea.state()["can"]["drop"]
        state = bea.act("drop", seat=0)
        assert state["players"][0]["out"] and state["players"][1]["host"]
        assert bea.state()["you"] == {"seat": 1, "host": True}
        # Ada comes back: out of this game, she watches it and chats; the title stays
        ada.act("say", text="back!")
        room_when(api, ada.code, lambda s: s["players"][0]["present"], what="Ada back")
        assert ada.state()["you"] == {"seat": 0, "host": False}
        assert_error(ada.post("pause"), 403, code="out_of_game")
        assert [p["host"] for p in public(api, ada.code)["players"]] == [False, True, False, False]
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
        truth = solution(players)
        place(players[left], truth)
        players[left].act("agree")
        state = players[across].act("agree")
        # the idle guesser is still connected: two of three agreeing is not enough
        assert state["players"][idle]["present"]
        assert state["resolution"]["agreed"] == sorted([left, across])
        assert not state["resolution"]["checked"]
        # the idle guesser drops out and never comes back: the table goes on without them
        streams.pop(idle).close()
        state = room_when(
            api,
            players[0].code,
            lambda st: st["resolution"]["checked"],
            what="the clover checked without the idle guesser",
        )
        assert not state["players"][idle]["present"]
        assert state["results"][-1]["score"] == 6

        # next clover: the idle player is absent from the start and blocks nothing
        state = players[s].act("next")
        assert state["resolution"]["spectator"] == left
        assert idle != left and not state["players"][idle]["present"]
        place(players[across], solution(players))
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
        state = room_when(
            api,
            code,
            lambda st: not st["players"][left.seat]["present"],
            what="the player on the Spectator's left away",
        )
        assert state["resolution"]["lock_holder"] == after.seat
        truth = solution(players)
        # the next present guesser locks in: three right, one turned
        place(after, truth[:3])
        place(after, truth[3:], turn=1)
        state = after.act("lock")
        assert state["resolution"]["attempt"] == 2 and not state["resolution"]["checked"]
        # the left player comes back: the lock is theirs again
        streams.append(stream(left))
        state = room_when(
            api,
            code,
            lambda st: st["resolution"]["lock_holder"] == left.seat,
            what="the lock back with the left player",
        )
        place(after, truth[3:])
        assert_error(after.post("lock"), 403, code="not_lock_holder")
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
    r = wait_for(
        lambda: http.get(f"{api}/api/rooms/{code}"),
        lambda r: r.status_code != 200,
        what="the finished room gone",
    )
    assert_error(r, 404, code="room_not_found")
    # a seat of a room that is gone is no seat: the answer a stranger gets for any code
    assert_error(players[0].post("again"), 401, code="not_seated")
    late = http.post(f"{api}/api/rooms/{code}/join", json={"name": "Late"})
    assert_error(late, 404, code="room_not_found")
    assert_error(http.get(f"{api}/api/rooms/{code}/events"), 404, code="room_not_found")
    legends = http.get(f"{api}/api/legends").json()["legends"]
    assert [(g["score"], g["max"], g["players"]) for g in legends] == [
        (15, 18, ["Ada", "Bea", "Cy"])
    ]
    # the room's own list needs a seat of the room, and there is no room any more
    r = http.get(f"{api}/api/legends", params={"room": code}, headers=players[0].headers)
    assert_error(r, 404, code="room_not_found")


def test_a_room_in_use_does_not_expire(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(
        SOCLOVER_ROOM_EXPIRY_DAYS="0.00002",  # about 1.7 s idle
        SOCLOVER_EXPIRY_SWEEP_SECONDS="0.5",
        SOCLOVER_PRESENCE_SWEEP_SECONDS="0.1",
    ).url
    host = create(api, "Ada")
    room_when(api, host.code, lambda s: s["players"][0]["present"], what="Ada shown present")
    # A room last changed after Ada's, then left alone. The sweep that deletes it finds
    # every room left alone since before then: Ada's too, unless using it keeps it.
    idle = create(api, "Bea")
    room_when(api, idle.code, lambda s: s["players"][0]["present"], what="Bea shown present")
    said: list[str] = []

    def say_then_look_at_the_idle_room() -> int:
        said.append(f"still here {len(said)}")
        host.act("say", text=said[-1])
        return http.get(f"{api}/api/rooms/{idle.code}").status_code

    wait_for(
        say_then_look_at_the_idle_room,
        lambda status: status == 404,
        what="the idle room expired while Ada's was in use",
    )
    assert [line["text"] for line in public(api, host.code)["chat"]] == said


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
        r = http.get(f"{api}/api/legends", params=params, headers=headers)
        assert r.status_code == 200, r.text
        return [
            (g.get("room"), g["score"], g["player_count"], g["decoys"]) for g in r.json()["legends"]
        ]

    # public: no room code, which would open the room (its chat, its next game)
    assert legends() == [(None, 24, 4, 1), (None, 18, 3, 1), (None, 9, 3, 2)]
    assert a not in http.get(f"{api}/api/legends").text
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
        r = http.get(
            f"{api}/api/legends", params={"room": code}, headers=who.headers if who else {}
        )
        assert_error(r, 404, code="room_not_found")

    r = http.get(f"{api}/api/legends", params={"room": b}, headers=second[0].headers)
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
    before = table_of(api, four[0].code)
    r = four[0].post("start")
    message = assert_error(r, 409, code="deck_too_small")["message"]
    assert "20" in message and "24" in message
    assert table_of(api, four[0].code) == before
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
def test_a_bad_deck_file_stops_the_server_at_launch(
    tmp_path: Path,
    case: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    content, expected = BAD_DECKS[case]
    deck = tmp_path / f"{case}.txt"
    if isinstance(content, bytes):
        deck.write_bytes(content)
    elif isinstance(content, str):
        deck.write_text(content, encoding="utf-8")
    monkeypatch.setenv("SOCLOVER_DATABASE_URL", f"sqlite:///{tmp_path / 'soclover.sqlite3'}")
    monkeypatch.setenv("SOCLOVER_KEYWORDS", str(deck))

    def served(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server took the deck and served")

    # `soclover` as its console script runs it (exit status: what main returns), in this
    # process: a deck it took would have it serve, which fails here rather than waits.
    monkeypatch.setattr(uvicorn, "run", served)
    get_settings.cache_clear()
    try:
        status = cli.main(["--port", str(free_port())])
    finally:
        get_settings.cache_clear()
    done = capsys.readouterr()
    assert status not in (0, None), done
    assert "Traceback" not in done.err, done.err
    assert f"{case}.txt" in done.err, done.err
    for part in expected:
        assert part in done.err, done.err
    assert "open http" not in done.out  # it never offered to serve


def test_rooms_forgotten_from_memory_are_read_back_from_disk(make_server) -> None:  # type: ignore[no-untyped-def]
    """Idle rooms leave the server's memory at housekeeping, and nothing is lost."""
    server = make_server(
        SOCLOVER_EXPIRY_SWEEP_SECONDS="0.3",
        SOCLOVER_PRESENCE_GRACE_SECONDS="0.2",
        SOCLOVER_PRESENCE_SWEEP_SECONDS="0.1",
    )
    players = table(server.url, 3)
    code = players[0].code
    state = players[1].act("say", text="see you later")
    before = table_of(server.url, code)

    def resumed_after_the_line_before() -> Event:
        """The first event of a stream resuming from just before Bea's line (no seat: no
        sign of life). While the server holds the room it holds its latest changes and
        sends Bea's line; once it has let the room go, only the current state."""
        s = Stream(
            f"{server.url}/api/rooms/{code}/events", {"Last-Event-ID": str(state["seq"] - 1)}
        )
        try:
            return s.next()
        finally:
            s.close()

    assert resumed_after_the_line_before().json["action"]["type"] == "say"
    wait_for(
        resumed_after_the_line_before,
        lambda event: event.json["action"] is None,
        what="the idle room let go of: no change of it held any more",
    )
    again = players[2].state()
    assert again["chat"][-1]["text"] == "see you later"
    assert again["seq"] >= state["seq"]
    assert table_of(server.url, code) == before
    assert players[0].act("settings", decoys=2)["decoys"] == 2
