"""The game's history through the room service, on a real SQLite file: the log it reads
(the current game's only) and how often it reads it (once per check, not per move)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from app.rules import actions as act
from app.service.rooms import RoomService
from app.service.seats import Seat
from app.service.store import Logged
from tests.service.support import run_async, sqlite_service


async def _with_service(tmp_path: Path, check: Callable[[RoomService], Awaitable[None]]) -> None:
    async with sqlite_service(tmp_path) as service:
        await check(service)


class Counted:
    """The store's ``game_log``, counting its calls."""

    def __init__(self, service: RoomService) -> None:
        self.calls = 0
        self._read = service.store.game_log
        service.history_book.store = self

    async def game_log(self, code: str, upto: int) -> list[Logged]:
        self.calls += 1
        return await self._read(code, upto)


async def _seated(service: RoomService) -> tuple[str, list[Seat]]:
    code = (await service.create("Ada", 1)).code
    for name in ("Bea", "Cy"):
        await service.join(code, name)
    return code, [Seat(code, pid) for pid in range(3)]


async def _start(service: RoomService, code: str, seats: list[Seat]) -> None:
    await service.act(code, seats[0], act.Start())
    for seat in seats:
        await service.act(code, seat, act.Clues((f"Qz{seat.pid}a", "Qzb", "Qzc", "Qzd")))
        await service.act(code, seat, act.Done())


async def _solve(service: RoomService, code: str, seats: list[Seat]) -> None:
    """The lock holder lays the truth and locks it in: a perfect clover."""
    room = await service.load(code)
    clover, holder = room.current_clover(), room.lock_holder()
    assert clover is not None and holder is not None
    seat = seats[room.players[holder].pid]
    for spot in range(4):
        card, rotation = clover.cards[spot].id, clover.rotations[spot]
        await service.act(code, seat, act.Place(card=card, spot=spot, rotation=rotation))
    await service.act(code, seat, act.Lock())


def test_the_log_read_is_the_current_games_only(tmp_path: Path) -> None:
    async def check(service: RoomService) -> None:
        code, seats = await _seated(service)
        assert await service.store.game_log(code, (await service.load(code)).seq) == []
        await _start(service, code, seats)
        for _ in seats:
            await _solve(service, code, seats)
            await service.act(code, seats[0], act.Next())
        first_game = await service.load(code)
        assert first_game.phase == "finished"
        assert len((await service.history(code))["clovers"]) == 3
        await service.act(code, seats[1], act.Again())
        assert (await service.history(code))["clovers"] == []
        await _start(service, code, seats)
        await _solve(service, code, seats)
        now = await service.load(code)
        log = await service.store.game_log(code, now.seq)
        assert log[0].action["type"] == "start" and log[0].state is not None
        assert [e.seq for e in log] == list(range(log[0].seq, now.seq + 1))
        assert log[0].seq > first_game.seq
        # up to an earlier seq, the game being played then
        earlier = await service.store.game_log(code, first_game.seq)
        assert earlier[0].seq < first_game.seq == earlier[-1].seq
        (shown,) = (await service.history(code))["clovers"]
        assert shown["spectator"] == now.spectator() and shown["score"] == 6
        assert shown["solution"][0]["card"] == now.clovers[shown["spectator"]].cards[0].id

    run_async(_with_service(tmp_path, check))


def test_the_log_is_read_once_per_check_not_once_per_move(tmp_path: Path) -> None:
    async def check(service: RoomService) -> None:
        counted = Counted(service)
        code, seats = await _seated(service)
        await _start(service, code, seats)
        assert (await service.history(code))["clovers"] == []
        assert counted.calls == 0  # nothing checked yet: nothing to read
        await _solve(service, code, seats)
        first = await service.history(code)
        assert len(first["clovers"]) == 1 and counted.calls == 1
        room = await service.load(code)
        spectator = seats[room.players[room.spectator() or 0].pid]
        await service.act(code, spectator, act.Say("well found"))
        await service.act(code, seats[0], act.Next())
        again = await service.history(code)
        assert again["clovers"] == first["clovers"]
        assert again["seq"] == (await service.load(code)).seq > first["seq"]
        assert counted.calls == 1
        await _solve(service, code, seats)
        assert len((await service.history(code))["clovers"]) == 2
        assert counted.calls == 2

    run_async(_with_service(tmp_path, check))
