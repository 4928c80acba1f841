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


def test_rooms_in_play_ask_the_store_which_legends_are_hidden_once_in_a_while_together(
    tmp_path: Path,
) -> None:
    """A room's best and record are read once, then kept while the legends hidden stay
    the same: the store is asked which are hidden at most once in ``KEPT`` for every
    room, not for each room at its moves."""

    async def scenario() -> None:
        clock = HandClock()
        async with sqlite_service(tmp_path, clock=clock) as service:
            tables = [await table(service, "Ada", "Bea", "Cy") for _ in range(3)]
            await play_game(tables[0])
            store = service.legends.store
            reads: list[str] = []
            legends, scores, hidden = store.legends, store.scores, store.hidden_legends

            async def counted_legends(**params: object) -> object:
                # A room's best (a finished room's view also lists its table size's best).
                reads.append("legends" if params["room"] else "listed")
                return await legends(**params)  # type: ignore[arg-type]

            async def counted_scores(code: str) -> list[int | None]:
                reads.append("scores")
                return await scores(code)

            async def counted_hidden() -> frozenset[int]:
                reads.append("hidden")
                return await hidden()

            store.legends, store.scores = counted_legends, counted_scores  # type: ignore[method-assign, assignment]
            store.hidden_legends = counted_hidden  # type: ignore[method-assign]
            for _ in range(2):
                for t in tables:
                    await best_and_record(service, t)
                clock.forward(KEPT.total_seconds())
            # Each room's best read once at most (the finished one's record too; the
            # moves before may have read them already), the hidden legends once in each
            # ``KEPT``, for all three rooms together.
            assert reads.count("hidden") == 2
            assert reads.count("legends") <= 3 and reads.count("scores") <= 1

            (legend,) = await service.legends_of(room=tables[0].code)
            await asyncio.to_thread(record.set_hidden, url_of(tmp_path), [legend["id"]], True)
            reads.clear()
            for t in tables:
                assert await best_and_record(service, t) == (None, False)
            # The answer changed: every room's best read again (and the record again).
            assert sorted(reads) == ["hidden", "legends", "legends", "legends", "listed", "scores"]

    run_async(scenario())
