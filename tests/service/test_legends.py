"""A legend the operator hides (``soclover legends hide``) is hidden everywhere the table
shows the Record: the public lists, and the room's own best and record, which a running
server keeps in memory between moves."""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.db import record
from app.rules import actions as act
from app.service.legends import KEPT
from app.service.rooms import RoomService

from .support import HandClock, Table, run_async, sqlite_service, table, write_clues


async def play_game(t: Table, wrong: int = 0) -> None:
    """One whole game: every clover rebuilt at the first try (``wrong`` cards turned
    wrong on each clover, then put right), then the table moves on, to the end."""
    service = t.service
    await write_clues(t)
    while (room := await service.load(t.code)).phase == "resolution":
        clover = room.current_clover()
        holder = room.lock_holder()
        assert clover is not None and holder is not None
        seat = t.seat(holder)
        for spot in range(4):
            turned = (clover.rotations[spot] + (1 if spot < wrong else 0)) % 4
            place = act.Place(card=clover.cards[spot].id, spot=spot, rotation=turned)
            await service.act(t.code, seat, place)
        await service.act(t.code, seat, act.Lock())
        if wrong:
            for spot in range(wrong):
                right = clover.rotations[spot]
                place = act.Place(card=clover.cards[spot].id, spot=spot, rotation=right)
                await service.act(t.code, seat, place)
            await service.act(t.code, seat, act.Lock())
        await service.act(t.code, seat, act.Next())


def url_of(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'rooms.sqlite3'}"


async def best_and_record(service: RoomService, t: Table) -> tuple[int | None, bool]:
    state = await service.view(t.code, t.seat(0).pid)
    return (None if state["best"] is None else state["best"]["score"]), state["record"]


def test_a_hidden_legend_leaves_the_rooms_own_best_and_record(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = HandClock()
        async with sqlite_service(tmp_path, clock=clock) as service:
            t = await table(service, "Ada", "Bea", "Cy")
            await play_game(t)
            assert await best_and_record(service, t) == (18, True)
            (legend,) = await service.legends_of(room=t.code)

            # The operator hides it, from another process, while the room is in memory.
            await asyncio.to_thread(record.set_hidden, url_of(tmp_path), [legend["id"]], True)
            clock.forward(KEPT.total_seconds())
            assert await best_and_record(service, t) == (None, False)
            assert await service.legends_of(room=t.code) == []
            assert await service.legends_of(players=3) == []

            # The next game, lower, is the room's best and its record: the hidden one
            # counts for nothing.
            await service.act(t.code, t.seat(0), act.Again())
            await play_game(t, wrong=1)
            assert await best_and_record(service, t) == (12, True)

            # Shown again, the first is the best, and the latest no record.
            await asyncio.to_thread(record.set_hidden, url_of(tmp_path), [legend["id"]], False)
            clock.forward(KEPT.total_seconds())
            assert await best_and_record(service, t) == (18, False)

    run_async(scenario())
