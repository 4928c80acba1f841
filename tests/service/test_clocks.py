"""The table's clock decided by the service: the timeout it sends when an enforced
clock runs out, and the timeout that acts first when a move comes after zero.

Driven through ``RoomService`` and the server's own ticker (``TableClock``, ticked by
the test) on the store in memory, on a clock the test moves
(``tests/web/test_timers.py`` keeps the forms, the pages, a restart and the refusals,
against a server's clock file).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

from app.rules import actions as act
from app.rules import errors
from app.service.rooms import RoomService
from app.service.timers import TableClock
from tests.service.support import (
    HandClock,
    Table,
    clues_for,
    memory_service,
    run_async,
    table,
    write_clues,
)

MINUTE = 60


@asynccontextmanager
async def ticking(service: RoomService) -> AsyncIterator[TableClock]:
    """The server's ticker, as it starts with the server; it ticks when the test says."""
    ticker = TableClock(service, tick_seconds=3600)
    ticker.start()
    try:
        yield ticker
    finally:
        await ticker.stop()


async def timed(
    service: RoomService, names: tuple[str, ...], clues: tuple[str, int], rebuild: tuple[str, int]
) -> Table:
    """A table whose host set both clocks (mode, minutes)."""
    t = await table(service, *names)
    host = t.seat(0)
    await service.act(t.code, host, act.Timer("clues", clues[0], clues[1]))
    await service.act(t.code, host, act.Timer("rebuild", rebuild[0], rebuild[1]))
    return t


def test_the_view_carries_the_timers_and_one_deadline_for_everyone() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await timed(service, ("Ada", "Bea", "Cy"), ("advisory", 4), ("enforced", 2))
        lobby = await service.view(t.code, 0)
        assert lobby["timers"] == {
            "clues": {"mode": "advisory", "minutes": 4},
            "rebuild": {"mode": "enforced", "minutes": 2},
        }
        assert lobby["clock"] is None
        clock = (await (await service.act(t.code, t.seat(0), act.Start())).view())["clock"]
        assert clock["kind"] == "clues" and clock["mode"] == "advisory"
        assert clock["length_ms"] == 4 * MINUTE * 1000
        assert clock["deadline"].endswith("Z")
        # Every seat, and the room read without one, has the very same deadline.
        deadlines = {(await service.view(t.code, pid))["clock"]["ends_ms"] for pid in (0, 1, 2)}
        assert (
            deadlines
            == {clock["ends_ms"]}
            == {(await service.view(t.code, None))["clock"]["ends_ms"]}
        )

    run_async(scenario())


def test_an_enforced_clue_clock_gives_a_grace_then_closes_the_clovers_left_empty() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        async with ticking(service) as ticker:
            t = await timed(service, ("Ada", "Bea", "Cy", "Dot"), ("enforced", 3), ("off", 3))
            await service.act(t.code, t.seat(0), act.Start())
            await service.act(t.code, t.seat(0), act.Clues(clues_for(0)))
            await service.act(t.code, t.seat(0), act.Done())
            await service.act(t.code, t.seat(1), act.Clues(clues_for(1), draft=True))
            one_leaf = (clues_for(2)[0], None, None, None)
            await service.act(t.code, t.seat(2), act.Clues(one_leaf, draft=True))
            # Dot writes nothing.
            clock.forward(3 * MINUTE - 1)
            await ticker.tick()
            assert (await service.view(t.code, None))["clock"]["kind"] == "clues"
            clock.forward(2)
            await ticker.tick()
            view = await service.view(t.code, None)
            assert view["phase"] == "clues" and view["clock"]["kind"] == "grace"
            assert view["clock"]["late"] == [2, 3]
            assert view["players"][1]["done"]  # four clues saved stand as written
            await service.act(t.code, t.seat(2), act.Clues(clues_for(2)))
            await service.act(t.code, t.seat(2), act.Done())
            clock.forward(31)
            await ticker.tick()
            view = await service.view(t.code, None)
            assert view["phase"] == "resolution"
            assert [p["not_played"] for p in view["players"]] == [False, False, False, True]
            assert view["max"] == 3 * 6 and view["clock"] is None
            assert not view["players"][3]["out"]  # Dot still guesses

    run_async(scenario())


def test_an_advisory_clock_lets_the_table_play_on() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        async with ticking(service) as ticker:
            t = await timed(service, ("Ada", "Bea", "Cy"), ("advisory", 1), ("advisory", 1))
            await service.act(t.code, t.seat(0), act.Start())
            seq = (await service.load(t.code)).seq
            clock.forward(10 * MINUTE)
            await ticker.tick()
            assert (await service.load(t.code)).seq == seq  # past zero: nothing is sent
            update = await service.act(t.code, t.seat(1), act.Clues(clues_for(1)))
            view = await update.view()
            assert view["phase"] == "clues" and view["clock"]["kind"] == "clues"
            assert not view["clover"]["done"]
            for seat in range(3):
                await service.act(t.code, t.seat(seat), act.Clues(clues_for(seat)))
                view = await (await service.act(t.code, t.seat(seat), act.Done())).view()
            assert view["phase"] == "resolution"
            assert view["clock"]["kind"] == "rebuild" and view["clock"]["mode"] == "advisory"
            # Past the try's zero too: the board is the table's until someone locks it in.
            clock.forward(30 * MINUTE)
            await ticker.tick()
            room = await service.load(t.code)
            guesser = next(seat for seat in range(3) if seat != room.spectator())
            card = view["resolution"]["pool"][0]["card"]
            placed = await (await service.act(t.code, t.seat(guesser), act.Place(card, 0))).view()
            assert placed["resolution"]["attempt"] == 1 and not placed["resolution"]["checked"]
            assert placed["clock"]["kind"] == "rebuild"

    run_async(scenario())


def test_an_enforced_rebuild_clock_checks_the_board_as_it_stands() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        async with ticking(service) as ticker:
            t = await timed(service, ("Ada", "Bea", "Cy"), ("off", 3), ("enforced", 2))
            await write_clues(t)
            first = (await service.view(t.code, None))["clock"]["ends_ms"]
            room = await service.load(t.code)
            clover, spectator = room.current_clover(), room.spectator()
            assert clover is not None and spectator is not None
            guesser = next(seat for seat in range(3) if seat != spectator)
            right = act.Place(clover.cards[0].id, 0, clover.rotations[0])
            await service.act(t.code, t.seat(guesser), right)
            clock.forward(2 * MINUTE + 1)
            await ticker.tick()
            view = await service.view(t.code, None)
            assert view["resolution"]["attempt"] == 2
            board = view["resolution"]["board"]
            assert board[0]["locked"] and all(slot["card"] is None for slot in board[1:])
            assert view["clock"]["ends_ms"] >= first + 2 * MINUTE * 1000
            clock.forward(2 * MINUTE + 1)
            await ticker.tick()
            view = await service.view(t.code, None)
            assert view["resolution"]["checked"] and view["results"][-1]["score"] == 1
            assert view["clock"] is None

    run_async(scenario())


def test_a_move_sent_just_after_zero_lands_after_the_check() -> None:
    """The ticker comes up to half a second after zero; a move sent in between meets
    the timeout first, saved as an action of its own, and not the board time ran out on."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await timed(service, ("Ada", "Bea", "Cy"), ("off", 3), ("enforced", 2))
        await write_clues(t)
        room = await service.load(t.code)
        spectator = room.spectator()
        assert room.resolution is not None and spectator is not None
        guesser = next(seat for seat in range(3) if seat != spectator)
        card = (await service.view(t.code, None))["resolution"]["pool"][0]["card"]
        clock.forward(2 * MINUTE + 0.05)
        update = await service.act(t.code, t.seat(guesser), act.Place(card, 0), expect_seq=room.seq)
        res = (await update.view())["resolution"]
        assert res["attempt"] == 2 and res["board"][0]["card"] == card
        assert update.seq == room.seq + 2
        logged = await service.store.logged(t.code, room.seq, update.seq)
        assert [entry.action["type"] for entry in logged] == ["timeout", "place"]

    run_async(scenario())


def test_a_paused_table_stops_the_clock_for_everyone() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        async with ticking(service) as ticker:
            t = await timed(service, ("Ada", "Bea", "Cy"), ("enforced", 2), ("off", 3))
            await service.act(t.code, t.seat(0), act.Start())
            with pytest.raises(errors.NotHost):
                await service.act(t.code, t.seat(1), act.Pause())
            paused = await (await service.act(t.code, t.seat(0), act.Pause())).view()
            left = paused["clock"]["left_ms"]
            assert paused["paused"] is True and 0 < left <= 2 * MINUTE * 1000
            assert paused["clock"]["ends_ms"] is None
            with pytest.raises(errors.AlreadyPaused):
                await service.act(t.code, t.seat(0), act.Pause())
            clock.forward(60 * MINUTE)  # an hour paused: nothing runs out
            await ticker.tick()
            view = await service.view(t.code, 2)
            assert view["phase"] == "clues" and view["clock"]["left_ms"] == left
            for pid in (0, 1, 2, None):
                assert (await service.view(t.code, pid))["paused"] is True
            resumed = await (await service.act(t.code, t.seat(0), act.Resume())).view()
            assert resumed["paused"] is False and resumed["clock"]["left_ms"] is None
            with pytest.raises(errors.NotPaused):
                await service.act(t.code, t.seat(0), act.Resume())
            clock.forward(left / 1000 - 1)
            await ticker.tick()
            assert (await service.view(t.code, None))["clock"]["kind"] == "clues"
            clock.forward(2)
            await ticker.tick()
            assert (await service.view(t.code, None))["clock"]["kind"] == "grace"

    run_async(scenario())


def test_a_deadline_passed_with_nobody_ticking_acts_before_a_late_move() -> None:
    """As after a restart: clues sent long after zero are judged after the timeout. A
    clover its clock closed stays closed; the late leaves get the grace."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await timed(service, ("Ada", "Bea", "Cy"), ("enforced", 5), ("off", 3))
        await service.act(t.code, t.seat(0), act.Start())
        await service.act(t.code, t.seat(0), act.Clues(clues_for(0)))
        await service.act(t.code, t.seat(0), act.Done())
        await service.act(t.code, t.seat(1), act.Clues(clues_for(1), draft=True))
        one_leaf = (clues_for(2)[0], None, None, None)
        await service.act(t.code, t.seat(2), act.Clues(one_leaf, draft=True))
        clock.forward(14 * MINUTE)
        with pytest.raises(errors.AlreadyDone):
            await service.act(t.code, t.seat(1), act.Clues(("Changed", "My", "Mind", "Now")))
        view = await service.view(t.code, None)
        assert view["clock"]["kind"] == "grace" and view["clock"]["late"] == [2]
        answer = await (await service.act(t.code, t.seat(2), act.Clues(clues_for(2)))).view()
        assert answer["clock"]["kind"] == "grace"
        assert [leaf["clue"] for leaf in answer["clover"]["leaves"]] == list(clues_for(2))

    run_async(scenario())


@pytest.mark.parametrize(
    ("phase", "mode", "minutes"),
    [
        ("clues", "sometimes", 3),
        ("lobby", "advisory", 3),
        ("clues", "advisory", 0),
        ("rebuild", "enforced", 16),
        ("rebuild", "enforced", -5),
    ],
)
def test_a_timer_out_of_range_is_refused_and_changes_nothing(
    phase: str, mode: str, minutes: int
) -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        before = await service.load(t.code)
        with pytest.raises(errors.BadTimer):
            await service.act(t.code, t.seat(0), act.Timer(phase, mode, minutes))
        assert await service.load(t.code) == before

    run_async(scenario())
