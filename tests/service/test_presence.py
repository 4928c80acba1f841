"""Presence decided by the service: away after the grace, back with a sign of life,
and the rules that hang on it (the host's controls, removing a player) judged on
presence as it is now.

Driven through ``RoomService`` and the server's own sweep (``housekeeping``) on the
store in memory, on a clock the test moves.
"""

from __future__ import annotations

import pytest

from app.rules import actions as act
from app.rules import errors
from app.service import housekeeping
from tests.service.support import HandClock, memory_service, quiet, run_async, table


def test_a_quiet_player_is_shown_away_and_back_by_actions_of_their_own() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        before = (await service.load(t.code)).seq
        await quiet(t, clock, 1)
        room = await service.load(t.code)
        assert [p.present for p in room.players] == [True, False, True]
        # The change is an action like any other: numbered, logged, and told to the streams.
        logged = await service.store.logged(t.code, before, room.seq)
        assert [entry.action["type"] for entry in logged] == ["presence"]
        # A sweep with nothing new saves nothing.
        await housekeeping.sweep_presence(service)
        assert (await service.load(t.code)).seq == room.seq
        # A sign of life (a page load, a read) brings her back at the next sweep.
        service.touch(t.code, t.seat(1).pid)
        await housekeeping.sweep_presence(service)
        assert all(p.present for p in (await service.load(t.code)).players)

    run_async(scenario())


def test_a_player_shown_away_is_here_again_with_their_own_action() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await quiet(t, clock, 1)
        update = await service.act(t.code, t.seat(1), act.Say("back"))
        view = await update.view()
        assert view["players"][1]["present"] and view["chat"][-1]["text"] == "back"

    run_async(scenario())


def test_the_hosts_controls_pass_on_while_she_is_away_and_come_back_with_her() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await quiet(t, clock, 0)
        room = await service.load(t.code)
        assert room.host == 0 and room.acting_host() == 1
        # Bea holds the controls: she may start the game; the host keeps her seat.
        with pytest.raises(errors.HostStays):
            await service.act(t.code, t.seat(1), act.Kick(0))
        await service.act(t.code, t.seat(1), act.Settings(decoys=2))
        assert (await service.load(t.code)).decoys == 2
        # Ada's own tap is a sign of life: the controls are hers again.
        await service.act(t.code, t.seat(0), act.Settings(decoys=3))
        room = await service.load(t.code)
        assert room.acting_host() == 0 and room.decoys == 3
        with pytest.raises(errors.NotHost):
            await service.act(t.code, t.seat(1), act.Settings(decoys=1))

    run_async(scenario())


def test_only_a_player_away_now_may_be_removed() -> None:
    """Removing someone judges presence as it is now, not as of the last sweep: Cy, back
    for a moment, stays; once away again, the host removes her and her token goes."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        with pytest.raises(errors.PlayerPresent):
            await service.act(t.code, t.seat(0), act.Kick(2))
        await quiet(t, clock, 2)
        assert not (await service.load(t.code)).players[2].present
        service.touch(t.code, t.seat(2).pid)  # Cy reads the room: no sweep has run since
        with pytest.raises(errors.PlayerPresent):
            await service.act(t.code, t.seat(0), act.Kick(2))
        await quiet(t, clock, 2)
        await service.act(t.code, t.seat(0), act.Kick(2))
        assert [p.name for p in (await service.load(t.code)).players] == ["Ada", "Bea"]
        assert await service.seat_for(t.code, t.seated[2].token) is None

    run_async(scenario())


def test_an_open_stream_keeps_its_player_present() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        stream = service.follow(t.code, t.seat(1))
        await anext(stream)
        await quiet(t, clock, 1)  # no sign of life from Bea but her open stream
        assert (await service.load(t.code)).players[1].present
        await stream.aclose()
        await quiet(t, clock, 1)
        assert not (await service.load(t.code)).players[1].present

    run_async(scenario())


def test_a_sweep_that_read_presence_before_a_player_came_does_not_show_them_away() -> None:
    """A sweep reads who is present for every room at once, then brings the rooms up to
    date one after the other: a player who joined meanwhile is no less present for it
    (shown away, then back a sweep later, the host's controls could pass on between)."""

    async def scenario() -> None:
        service = memory_service(HandClock())
        t = await table(service, "Ada", "Bea")
        read_before = (await service.present_in([t.code]))[t.code]
        await service.join(t.code, "Cy")
        seq = (await service.load(t.code)).seq
        await service.sync_presence(t.code, read_before)
        room = await service.load(t.code)
        assert room.seq == seq and [p.present for p in room.players] == [True, True, True]

    run_async(scenario())
