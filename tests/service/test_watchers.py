"""Watchers at the service: what a watcher may do and see, who makes room for whom,
and that watching costs no more than a seat.

The rules of watching are driven through ``RoomService`` on the store in memory.
The hub keeps what streams build from a change by (kind, seat); every watcher reads
the same view, so however many watch, a change is rendered once for all of them:
that one runs on a real SQLite file, with the page's and the API's own encoders.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.state import MAX_WATCHERS
from app.rules.views import WATCHER
from app.service import housekeeping
from app.service.following import Moved, Update
from app.service.hub import Change, Ping
from app.service.seats import Seat
from app.web import events, live
from app.web.renderings import (
    CommonJson,
    RegionEvents,
    Regions,
    Renderings,
    StateEvent,
    WholeChat,
)
from tests.service.support import (
    HandClock,
    clues_for,
    memory_service,
    quiet,
    run_async,
    solve,
    sqlite_service,
    table,
    write_clues,
)


async def _said(stream: AsyncIterator[Update | Ping | Moved], text: str) -> Update:
    """The stream's update for the chat line ``text`` (presence changes come between)."""
    while True:
        item = await asyncio.wait_for(anext(stream), 5)
        if isinstance(item, Update) and item.action and item.action["type"] == "say":
            view = await item.view()
            if view["chat"] and view["chat"][-1]["text"] == text:
                return item


def built(kept: Renderings, change: Change) -> set[object]:
    """What was built of ``change``, by what it is and for whom."""
    keys = (
        *(k(v) for k in (StateEvent, CommonJson) for v in (WATCHER, None, 0, 1)),
        *(k(v, "en") for k in (Regions, RegionEvents, WholeChat) for v in (WATCHER, None, 0, 1)),
    )
    return {key for key in keys if kept.get(change, key) is not None}


def test_every_watchers_stream_hits_one_shared_rendering(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with sqlite_service(tmp_path) as service:
            code = (await service.create("Ada", 1)).code
            watchers = [await service.watch(code, name) for name in ("Gus", "Hal", "Ivy", "Jo")]
            streams = [service.follow(code, Seat(code, w.watcher)) for w in watchers]
            host = service.follow(code, Seat(code, 0))
            for stream in [*streams, host]:
                await anext(stream)  # the room as it is: each stream's own first update
            await service.act(code, Seat(code, 0), act.Say("welcome"))
            updates = [await _said(stream, "welcome") for stream in streams]
            hosts = await _said(host, "welcome")
            kept = Renderings()
            pages = [await live._rendered(u, kept, "", "en", whole_chat=False) for u in updates]
            wired = [
                live._event(u, kept, "en", "chat-line", pages[0]["chat-line"]) for u in updates
            ]
            encoded = [await events._encoded(u, kept) for u in updates]
            await live._rendered(hosts, kept, "", "en", whole_chat=False)
            # one change, shared by every stream; one rendering per kind for all watchers
            change = updates[0].change
            assert all(u.change is change for u in [*updates, hosts])
            assert built(kept, change) == {
                Regions(WATCHER, "en"),
                RegionEvents(WATCHER, "en"),
                StateEvent(WATCHER),
                CommonJson(None),  # every onlooker's common part of the view
                Regions(0, "en"),
            }
            assert all(page is pages[0] for page in pages)
            assert all(event is wired[0] for event in wired) and b"welcome" in wired[0]
            assert all(event is encoded[0] for event in encoded)
            assert b'"watcher":true' in encoded[0] and b'"welcome"' in encoded[0]
            # a watcher who sits down is rendered as their seat from then on
            await service.act(code, Seat(code, watchers[0].watcher), act.Sit())
            await service.act(code, Seat(code, 0), act.Say("sit with us"))
            seated = await _said(streams[0], "sit with us")
            still = await _said(streams[1], "sit with us")
            await live._rendered(seated, kept, "", "en", whole_chat=False)
            await live._rendered(still, kept, "", "en", whole_chat=False)
            assert built(kept, seated.change) == {Regions(1, "en"), Regions(WATCHER, "en")}

    run_async(scenario())


def test_a_watcher_sees_what_the_public_sees_and_does_not_play() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        gus = await service.watch(t.code, "  Gus  ")
        assert await service.seat_for(t.code, gus.token) == Seat(t.code, gus.watcher)
        view = await service.view(t.code, gus.watcher)
        assert view["you"] == {"seat": None, "host": False, "watcher": True}
        assert view["watchers"] == [{"id": gus.watcher, "name": "Gus", "present": True}]
        assert view["can"]["sit"] and view["can"]["say"] and not view["can"]["start"]
        # The table sees who watches.
        assert [w["name"] for w in (await service.view(t.code, 0))["watchers"]] == ["Gus"]
        await write_clues(t)
        # In the game, what anyone without a seat sees: no clover, no solution, no decoys.
        seen = await service.view(t.code, gus.watcher)
        public = await service.view(t.code, None)
        assert seen["clover"] is None and seen["resolution"]["solution"] is None
        assert seen["resolution"]["decoys"] is None
        assert seen["resolution"]["pool"] == public["resolution"]["pool"]
        with pytest.raises(errors.WatcherCannotPlay):
            await service.act(t.code, Seat(t.code, gus.watcher), act.Agree())
        # A device seated at the table watches under no other name.
        with pytest.raises(errors.AlreadySeated):
            await service.watch(t.code, "Zed", by=t.seat(1))

    run_async(scenario())


def test_the_host_turns_the_watchers_chat_off_and_on() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        gus = Seat(t.code, (await service.watch(t.code, "Gus")).watcher)
        said = await (await service.act(t.code, gus, act.Say("hello table"))).view()
        line = said["chat"][-1]
        assert (line["name"], line["text"], line["watcher"]) == ("Gus", "hello table", True)
        bea = await (await service.act(t.code, t.seat(1), act.Say("hi Gus"))).view()
        assert bea["chat"][-1]["watcher"] is False  # a player's line carries no mark
        with pytest.raises(errors.NotHost):
            await service.act(t.code, t.seat(1), act.WatchersChat(False))
        off = await (await service.act(t.code, t.seat(0), act.WatchersChat(False))).view()
        assert off["watchers_chat"] is False
        with pytest.raises(errors.WatchersQuiet):
            await service.act(t.code, gus, act.Say("still me"))
        assert not (await service.view(t.code, gus.pid))["can"]["say"]
        await service.act(t.code, t.seat(1), act.Say("players still talk"))
        await service.act(t.code, t.seat(0), act.WatchersChat(True))
        await service.act(t.code, gus, act.Say("thanks"))
        chat = (await service.view(t.code, None))["chat"]
        assert [(c["text"], c["watcher"]) for c in chat] == [
            ("hello table", True),
            ("hi Gus", False),
            ("players still talk", False),
            ("thanks", True),
        ]

    run_async(scenario())


def test_a_watcher_sits_down_in_the_lobby_as_who_they_are() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        gus = await service.watch(t.code, "Gus")
        hal = await service.watch(t.code, "Hal")
        watching = Seat(t.code, gus.watcher)
        await service.act(t.code, watching, act.Say("may I play?"))
        sat = await (await service.act(t.code, watching, act.Sit())).view()
        assert sat["you"] == {"seat": 3, "host": False}
        assert sat["players"][3]["name"] == "Gus"
        room = await service.load(t.code)
        assert [p.name for p in room.players] == ["Ada", "Bea", "Cy", "Gus"]
        assert [w.name for w in room.watchers] == ["Hal"]
        # The token they watched with is their seat now, under the same id: the line
        # they said as a watcher is still theirs.
        seat = await service.seat_for(t.code, gus.token)
        assert seat is not None and room.seat_of(seat.pid) == 3
        seen = await service.view(t.code, seat.pid)
        assert seen["you"]["seat"] == 3
        assert seen["chat"][-1]["player"] == seen["players"][3]["id"] == gus.watcher
        with pytest.raises(errors.AlreadySeated):
            await service.act(t.code, seat, act.Sit())
        said = await (await service.act(t.code, seat, act.Say("seated now"))).view()
        assert said["chat"][-1]["watcher"] is False
        # Once the game has started there is no seat to take.
        await service.act(t.code, t.seat(0), act.Start())
        with pytest.raises(errors.GameStarted):
            await service.act(t.code, Seat(t.code, hal.watcher), act.Sit())

    run_async(scenario())


def test_at_the_cap_a_newcomer_replaces_an_away_watcher_or_is_told_to_wait() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        crowd = [await service.watch(t.code, f"Fan {n}") for n in range(MAX_WATCHERS)]
        assert not (await service.view(t.code, None))["can"]["watch"]
        with pytest.raises(errors.WatchersFull):
            await service.watch(t.code, "Late")
        # The first of them leaves without a word; the others are still here.
        clock.forward(service.presence.grace + 1)
        for pid in [*range(3), *(fan.watcher for fan in crowd[1:])]:
            service.touch(t.code, pid)
        await housekeeping.sweep_presence(service)
        assert [w.present for w in (await service.load(t.code)).watchers[:2]] == [False, True]
        late = await service.watch(t.code, "Late")
        room = await service.load(t.code)
        names = [w.name for w in room.watchers]
        assert len(names) == MAX_WATCHERS and "Fan 0" not in names and names[-1] == "Late"
        assert all(w.present for w in room.watchers)
        assert await service.seat_for(t.code, crowd[0].token) is None
        assert await service.seat_for(t.code, late.token) == Seat(t.code, late.watcher)

    run_async(scenario())


def test_while_a_clover_is_rebuilt_the_table_is_told_no_watchers_name() -> None:
    """The summary of a change goes to every stream alike: a watcher who comes, or a line
    said, while the clover is unchecked names nobody (``hub.happened``), and the change
    that checks the clover brings them, named."""

    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        await write_clues(t)
        # The hint names a word no deck holds: found anywhere, it can only be the watcher's.
        zoe = await service.watch(t.code, "Zoe top-left Quokka")
        said = await service.act(t.code, Seat(t.code, zoe.watcher), act.Say("psst: it is Quokka"))
        # Their own answer says a line is held, and shows none.
        own = await said.view()
        assert own["held_lines"] == 1 and own["chat"] == []
        # Nobody is named to the table yet: a watcher is held while the clover is rebuilt.
        public = await service.view(t.code, None)
        assert public["watchers"] == [] and public["watchers_held"]
        seen = service.hub.since(t.code, 0) or []  # the hub keeps a room's last changes
        told = [c.action for c in seen[-2:]]
        assert told == [
            {"type": "watch", "seat": None, "watcher": True, "held": True},
            {"type": "say", "seat": None, "watcher": True, "held": True},
        ]
        for change in seen[-2:]:
            for seat in (0, 1, 2, WATCHER, None):
                state = await service.room_view(change.room, seat, change.chat_after)
                assert "Quokka" not in str(state)
        # Checked, the clover brings the line and its watcher, named.
        await solve(t)
        room = await service.load(t.code)
        guesser = next(seat for seat in range(3) if seat != room.spectator())
        checked = await service.view(t.code, guesser)
        line = checked["chat"][-1]
        assert (line["text"], line["name"], line["held"]) == (
            "psst: it is Quokka",
            "Zoe top-left Quokka",
            True,
        )
        assert [w["name"] for w in checked["watchers"]] == ["Zoe top-left Quokka"]

    run_async(scenario())


def test_a_watcher_sent_away_cannot_watch_again_with_the_same_token() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        gus = await service.watch(t.code, "Gus")
        assert (await service.view(t.code, 0))["can"]["send_away"] == [gus.watcher]
        sent = await (await service.act(t.code, t.seat(0), act.SendAway(gus.watcher))).view()
        assert sent["watchers"] == [] and sent["can"]["send_away"] == []
        assert await service.seat_for(t.code, gus.token) is None
        with pytest.raises(errors.WatcherSentAway):
            await service.watch(t.code, "Gus again", None, gus.token)
        await service.watch(t.code, "Hal", None, None)  # another device comes at once
        clock.forward(15 * 60)
        back = await service.watch(t.code, "Gus again", None, gus.token)
        assert back.watcher != gus.watcher

    run_async(scenario())


def test_no_seat_to_sit_in_at_a_full_table() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy", "Dot", "Eve", "Flo")
        gus = await service.watch(t.code, "Gus")
        assert not (await service.view(t.code, gus.watcher))["can"]["sit"]
        with pytest.raises(errors.RoomFull):
            await service.act(t.code, Seat(t.code, gus.watcher), act.Sit())

    run_async(scenario())


def test_a_watcher_who_leaves_loses_the_room_and_their_token_with_it() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada")
        gus = await service.watch(t.code, "Gus")
        await service.act(t.code, Seat(t.code, gus.watcher), act.Leave())
        assert (await service.view(t.code, None))["watchers"] == []
        assert await service.seat_for(t.code, gus.token) is None

    run_async(scenario())


def test_an_open_stream_keeps_a_watcher_shown_here_and_tells_their_lines_as_theirs() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada")
        gus = await service.watch(t.code, "Gus")
        watching = Seat(t.code, gus.watcher)
        stream = service.follow(t.code, watching)
        first = await anext(stream)
        assert isinstance(first, Update)
        assert (await first.view())["you"]["watcher"] is True
        await quiet(t, clock)  # no sign of life from Gus but his open stream
        assert (await service.load(t.code)).watchers[0].present
        await service.act(t.code, t.seat(0), act.Say("welcome"))
        assert (await _said(stream, "welcome")).action == {
            "type": "say",
            "seat": 0,
            "player": 0,
            "name": "Ada",
        }
        await service.act(t.code, watching, act.Say("thanks"))
        assert (await _said(stream, "thanks")).action == {
            "type": "say",
            "seat": None,
            "player": gus.watcher,
            "name": "Gus",
            "watcher": True,
        }
        await stream.aclose()
        await quiet(t, clock)
        assert not (await service.load(t.code)).watchers[0].present

    run_async(scenario())


def test_a_watchers_open_stream_follows_them_into_their_seat() -> None:
    """The same stream, before and after Take a seat: each change is seen as whoever the
    token's holder is at that change, a watcher, then a seat."""

    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada")
        gus = await service.watch(t.code, "Gus")
        stream = service.follow(t.code, Seat(t.code, gus.watcher))
        first = await anext(stream)
        assert isinstance(first, Update) and (await first.view())["you"]["watcher"] is True
        await service.act(t.code, Seat(t.code, gus.watcher), act.Sit())
        item = await anext(stream)
        while not (isinstance(item, Update) and item.action and item.action["type"] == "sit"):
            item = await anext(stream)
        assert (await item.view())["you"] == {"seat": 1, "host": False}
        await service.act(t.code, t.seat(0), act.Say("welcome"))
        said = await _said(stream, "welcome")
        assert (await said.view())["you"] == {"seat": 1, "host": False}
        await stream.aclose()

    run_async(scenario())


def test_a_player_out_of_a_game_watches_the_next_with_the_same_token() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy", "Dot")
        await service.act(t.code, t.seat(0), act.Start())
        await service.act(t.code, t.seat(3), act.Leave())
        for seat in range(3):
            await service.act(t.code, t.seat(seat), act.Clues(clues_for(seat)))
            await service.act(t.code, t.seat(seat), act.Done())
        room = await service.load(t.code)
        while room.phase == "resolution":
            await solve(t)
            await service.act(t.code, t.seat(0), act.Next())
            room = await service.load(t.code)
        assert room.phase == "finished"
        dot_id = (await service.view(t.code, 0))["players"][3]["id"]
        await service.act(t.code, t.seat(0), act.Again())
        dot = await service.seat_for(t.code, t.seated[3].token)
        assert dot is not None
        seen = await service.view(t.code, dot.pid)
        assert seen["you"]["watcher"] is True
        assert [p["name"] for p in seen["players"]] == ["Ada", "Bea", "Cy"]
        assert [(w["id"], w["name"]) for w in seen["watchers"]] == [(dot_id, "Dot")]
        await service.act(t.code, dot, act.Say("next one for me"))
        sat = await (await service.act(t.code, dot, act.Sit())).view()
        assert sat["you"] == {"seat": 3, "host": False}

    run_async(scenario())


def test_a_watchers_lines_in_a_game_leave_its_history_whole() -> None:
    """The history is replayed from the log, a watcher's chat lines and comings included."""

    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        gus = Seat(t.code, (await service.watch(t.code, "Gus")).watcher)
        await write_clues(t)
        await service.act(t.code, gus, act.Say("go on"))
        await service.watch(t.code, "Hal")
        room = await service.load(t.code)
        holder, clover = room.lock_holder(), room.current_clover()
        assert holder is not None and clover is not None
        for spot, card in enumerate(clover.cards):
            await service.act(
                t.code, t.seat(holder), act.Place(card.id, spot, clover.rotations[spot])
            )
        await service.act(t.code, gus, act.Say("well done"))
        await service.act(t.code, t.seat(holder), act.Lock())
        (clover_out,) = (await service.history(t.code))["clovers"]
        assert clover_out["score"] == 6

    run_async(scenario())


# --- names --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("", errors.BadName),
        ("   ", errors.BadName),
        ("x" * 25, errors.BadName),
        ("\u200b\u200b", errors.BadName),
        ("Ada", errors.NameTaken),
        ("ADA", errors.NameTaken),
        ("\u0410da", errors.NameTaken),  # a Cyrillic A
        ("Gus", errors.NameTaken),
        ("gUS", errors.NameTaken),
    ],
)
def test_a_watchers_name_is_refused_as_a_seats_would_be(
    name: str, refusal: type[errors.RuleError]
) -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada")
        await service.watch(t.code, "Gus")
        with pytest.raises(refusal):
            await service.watch(t.code, name)
        assert [w.name for w in (await service.load(t.code)).watchers] == ["Gus"]

    run_async(scenario())


@pytest.mark.parametrize(
    "name", ["Admin", "ADMIN ", "\u0410dmin", "Modérateur", "管理员", "System Bea", "Host"]
)
def test_a_name_that_passes_for_the_tables_staff_is_refused_everywhere(name: str) -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada")
        for newcomer in (
            lambda: service.create(name, 1),
            lambda: service.join(t.code, name),
            lambda: service.watch(t.code, name),
        ):
            with pytest.raises(errors.ReservedName):
                await newcomer()
        room = await service.load(t.code)
        assert [p.name for p in room.players] == ["Ada"] and room.watchers == ()

    run_async(scenario())


def test_a_name_with_such_a_word_inside_it_is_fine() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Modesto")
        assert (await service.join(t.code, "Ghost")).seat == 1
        await service.watch(t.code, "Hostetler")
        room = await service.load(t.code)
        assert [p.name for p in room.players] == ["Modesto", "Ghost"]
        assert [w.name for w in room.watchers] == ["Hostetler"]

    run_async(scenario())


def test_a_player_takes_the_name_a_watcher_took_first() -> None:
    """Players first: the watcher watches on under the name with a number."""

    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada")
        squatter = await service.watch(t.code, "Bea")
        watching = Seat(t.code, squatter.watcher)
        await service.act(t.code, watching, act.Say("I am Bea"))
        bea = await service.join(t.code, "bea")
        state = await service.view(t.code, bea.seat)
        assert state["players"][1]["name"] == "bea"
        assert [w["name"] for w in state["watchers"]] == ["Bea (2)"]
        # The watcher keeps their place and their token, under the new name.
        assert await service.seat_for(t.code, squatter.token) == watching
        assert (await service.view(t.code, squatter.watcher))["you"]["watcher"] is True
        said = await (await service.act(t.code, watching, act.Say("still here"))).view()
        line = said["chat"][-1]
        assert (line["name"], line["watcher"]) == ("Bea (2)", True)
        # And never takes a player's name back.
        with pytest.raises(errors.NameTaken):
            await service.watch(t.code, "BEA")

    run_async(scenario())
