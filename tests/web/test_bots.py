"""Bots at the table, over HTTP against a real server: seated, removed, and playing a
whole game with one person, through the same actions and events as everyone."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from app.web.deps import cookie_name
from tests.kit.players import Player, create, join, table, table_of
from tests.kit.presence import QUICK, gone_quiet, present
from tests.kit.stream import NoEvent, Stream
from tests.kit.waiting import wait_for

from ..kit import Server, http

FAST = {"SOCLOVER_BOT_PACE": "0.01"}
"""Bots at a hundredth of a person's pace: a game in seconds."""


def bots_table(api: str, bots: int = 2) -> tuple[Player, dict]:  # type: ignore[type-arg]
    ada = create(api, "Ada")
    state = {}
    for _ in range(bots):
        state = ada.act("add_bot")
    return ada, state


def test_the_host_seats_bots_with_names_of_their_own_and_removes_them(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST).url
    ada, state = bots_table(api, 2)
    players = state["players"]
    assert [p["bot"] for p in players] == [False, True, True]
    assert all(p["present"] for p in players[1:])
    assert len({p["name"] for p in players}) == 3 and "Ada" not in [p["name"] for p in players[1:]]
    assert state["can"]["kick"] == [1, 2]  # bots can be removed though they are "present"
    bea = join(api, ada.code, "Bea")
    assert bea.state()["players"][bea.seat]["bot"] is False
    bea.refused(403, "not_host", "add_bot")
    state = ada.act("kick", seat=1)
    assert [p["bot"] for p in state["players"]] == [False, True, False]
    for _ in range(3):
        state = ada.act("add_bot")
    assert len(state["players"]) == 6
    ada.refused(409, "room_full", "add_bot")
    # a device cannot ask for a bot's seat
    r = http.post(f"{api}/api/rooms/{ada.code}/claim", json={"seat": 1})
    assert r.status_code in (404, 405, 422) or r.json()["error"]["code"] == "bad_seat"


def test_bots_speak_english_only_and_say_so(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST).url
    ada = create(api, "Ada")
    ada.act("language", language="fr")
    body = ada.refused(409, "bots_unavailable", "add_bot")
    assert "English" in body["message"]
    assert ada.state()["limits"]["bot_languages"] == ["en"]
    ada.act("language", language="en")
    ada.act("add_bot")
    ada.refused(409, "bots_unavailable", "language", language="zh")
    assert ada.state()["language"] == "en"


def test_without_bots_the_lobby_says_why_and_nothing_changes(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(SOCLOVER_BOTS="false").url
    ada = create(api, "Ada")
    assert ada.state()["limits"]["bot_languages"] == []
    before = table_of(api, ada.code)
    ada.refused(409, "bots_unavailable", "add_bot")
    assert table_of(api, ada.code) == before
    page = http.get(f"{api}/r/{ada.code}", cookies={cookie_name(ada.code): ada.token})
    assert "Bots are not installed on this server." in page.text
    assert 'name="type" value="add_bot"' in page.text


def test_one_person_and_two_bots_play_a_whole_game_to_the_record_and_nothing_hidden(
    make_server: Callable[..., Server],
) -> None:
    """One person and two bots play a whole game to the Record of Legends. Every event
    Ada's stream sends meanwhile: in the clue phase no word of a bot's clover, during a
    rebuild no solution, no decoy, no word of a clover not yet on the table. (The bots'
    clovers are learnt after the game, from the history, which makes them public.)"""
    api = make_server(**FAST).url
    ada, _ = bots_table(api, 2)
    stream = Stream(f"{api}/api/rooms/{ada.code}/events", dict(ada.headers))
    ada.act("start")
    mine = ada.state()["clover"]
    ada.act("clues", clues=["Thing", "Stuff", "Object", "Item"])
    ada.act("done")
    # The bots' first thought starts their process and loads their model: on a busy
    # machine that alone may take seconds.
    state = wait_for(
        ada.state, lambda s: s["phase"] == "resolution", what="the bots' clues", timeout=30
    )
    for spectator in state["players"][1:]:
        assert spectator["bot"]
    checked = []

    def play_along() -> dict:  # type: ignore[type-arg]
        """Ada's part: agree with a full board the bots laid, move on after a check."""
        state = ada.state()
        res = state["resolution"]
        if res is None:
            return state
        if res["checked"]:
            checked.append(res["clues"])
            return ada.act("next")
        if res["spectator"] != ada.seat and res["full"] and ada.seat not in res["agreed"]:
            ada.post("agree")  # refused if the bots moved meanwhile: she looks again
        return state

    state = wait_for(
        play_along, lambda s: s["phase"] == "finished", what="the whole game", timeout=120
    )
    assert len(checked) == 3 and mine is not None
    for clues in checked[:3]:
        assert all(clues)
    assert len(state["results"]) == 3
    assert 0 <= state["total"] <= 18
    legends = http.get(f"{api}/api/legends", params={"players": 3}).json()["legends"]
    assert [legend["players"] for legend in legends] == [
        ["Ada", *[p["name"] for p in state["players"][1:]]]
    ]

    events = []
    while True:  # every event sent, up to a second of silence after the end
        try:
            events.append(stream.next(1.0))
        except NoEvent:
            break
    stream.close()
    history = http.get(f"{api}/api/rooms/{ada.code}/history", headers=ada.headers).json()
    words = {
        clover["spectator"]: {
            w for card in clover["solution"] + clover["decoys"] for w in card["words"]
        }
        for clover in history["clovers"]
    }
    states = [e.json["state"] for e in events if e.json and "state" in e.json]
    # A bot's plant name may also be a keyword (Basil): its name is no leak.
    names = {p["name"] for p in ada.state()["players"]}
    assert len(states) > 20 and any(s["phase"] == "resolution" for s in states)
    for state in states:
        text = json.dumps(state)
        if state["phase"] == "clues":
            hidden = words[1] | words[2]
        elif state["phase"] == "resolution" and not state["resolution"]["checked"]:
            on_table = state["resolution"]["spectator"]
            hidden = set().union(*(w for seat, w in words.items() if seat != on_table))
            hidden -= words[on_table]
            if on_table != 0:
                assert state["resolution"]["solution"] is None
                assert state["resolution"]["decoys"] is None
        else:
            continue
        leaked = [w for w in hidden - names if f'"{w}"' in text]
        assert leaked == [], (state["phase"], leaked)


def test_a_bot_stands_in_for_a_player_away_and_hands_the_seat_back(make_server) -> None:  # type: ignore[no-untyped-def]
    api = make_server(**FAST, **QUICK).url
    ada, bea, cy = table(api, 3)
    with present([ada, bea]):
        ada.act("start")
        gone_quiet(cy)
        bea.refused(403, "not_host", "stand_in", seat=cy.seat)
        ada.refused(409, "player_present", "stand_in", seat=bea.seat)
        state = ada.act("stand_in", seat=cy.seat)
        assert state["players"][cy.seat]["stand_in"] is True
        assert state["can"]["stand_in"] == []
        ada.refused(409, "bot_stands_in", "stand_in", seat=cy.seat)
        # The bot writes Cy's clues and says Cy is done, in Cy's place.
        for p in (ada, bea):
            p.act("clues", clues=["Thing", "Stuff", "Object", "Item"])
            p.act("done")
        state = wait_for(  # the bots' first thought: see above
            ada.state,
            lambda s: s["phase"] == "resolution",
            what="Cy's clues by the bot",
            timeout=30,
        )
        assert state["players"][cy.seat]["stand_in"] is True
        # Cy comes back (their page opens): the seat is theirs again, no bot plays it.
        with present([cy]):
            state = wait_for(
                ada.state,
                lambda s: (
                    s["players"][cy.seat]["present"] and not s["players"][cy.seat]["stand_in"]
                ),
                what="Cy back in their seat",
            )
        assert state["players"][cy.seat]["bot"] is False


def test_bots_let_the_person_read_and_lay_first_and_say_why_they_lock_in(make_server) -> None:  # type: ignore[no-untyped-def]
    """One person and two bots at a twentieth of a person's pace: on each clover Ada
    guesses, the bots' first card comes no sooner than 1 s (20 s at the normal pace) after
    the clover came up. Ada never agrees on a first try: the bot that holds the tie-break
    locks in only after 3 s (a minute) of quiet on the board, and the table is told why.
    (Ada agrees on a last try, and where she holds the tie-break, to finish.)"""
    pace = 0.05
    api = make_server(SOCLOVER_BOT_PACE=str(pace)).url
    ada, _ = bots_table(api, 2)
    news = Stream(f"{api}/r/{ada.code}/stream", {"Cookie": f"{cookie_name(ada.code)}={ada.token}"})
    ada.act("start")
    ada.act("clues", clues=["Thing", "Stuff", "Object", "Item"])
    ada.act("done")

    def now_at(attempt: int) -> Callable[[dict], bool]:  # type: ignore[type-arg]
        """Whether the table has moved on from try ``attempt`` of this clover."""
        return lambda s: s["resolution"] is None or s["resolution"]["attempt"] != attempt

    state = wait_for(
        ada.state, lambda s: s["phase"] == "resolution", what="the bots' clues", timeout=30
    )
    came_up = time.monotonic()  # no sooner than the clover came up: a lower bound is kept
    guessed = quiet_locks = 0
    while state["phase"] == "resolution":
        res = state["resolution"]
        if res["checked"]:
            state = ada.act("next")
            came_up = time.monotonic()
            continue
        if res["spectator"] == ada.seat:  # the bots rebuild Ada's clover
            state = wait_for(
                ada.state, lambda s: s["resolution"]["checked"], what="Ada's clover", timeout=30
            )
            continue
        # Ada guesses: she lays nothing, and reads.
        attempt = res["attempt"]
        moved_on = now_at(attempt)
        laid = wait_for(
            ada.state,
            lambda s, moved_on=moved_on: (
                moved_on(s) or any(x["card"] and not x["locked"] for x in s["resolution"]["board"])
            ),
            what="the bots' first card",
            timeout=30,
        )
        assert time.monotonic() - came_up >= 20 * pace * 0.9, json.dumps(laid["resolution"])
        guessed += attempt == 1
        full = wait_for(
            ada.state,
            lambda s, moved_on=moved_on: moved_on(s) or s["resolution"]["full"],
            what="the bots' board",
            timeout=30,
        )
        if moved_on(full):
            state = full
        elif full["resolution"]["lock_holder"] == ada.seat or attempt == 2:
            wait_for(lambda: ada.post("agree"), lambda r: r.status_code == 200, what="Agree")
            wait_for(
                ada.state,
                lambda s, moved_on=moved_on: moved_on(s) or s["resolution"]["checked"],
                what="the check once everyone agrees",
            )
        else:
            # The bot holds the tie-break: it waits out a minute of quiet, then says so.
            quiet_from = time.monotonic()
            wait_for(
                ada.state,
                lambda s, moved_on=moved_on: moved_on(s) or s["resolution"]["checked"],
                what="the bot's lock-in after a quiet",
                timeout=30,
            )
            assert time.monotonic() - quiet_from >= 60 * pace * 0.9, "a lock-in too soon"
            quiet_locks += 1
        state = ada.state()
        came_up = time.monotonic()
    said = []
    while True:
        try:
            said.append(news.next(1.0))
        except NoEvent:
            break
    news.close()
    assert guessed == 2 and quiet_locks == 1
    told = [e.data for e in said if e.event == "announce" and "Nobody moved for a while" in e.data]
    assert len(told) == 1 and "locked the clover in" in told[0]
