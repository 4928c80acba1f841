"""Bots as teammates, on the bots' own clock: a test's clock that moves only when the
test says, so a minute of the table passes in no time and every second is exact.

One person (Ada) and two bots; the first clover is a bot's (seat 1), so Ada guesses
beside the other bot (seat 2), which holds the tie-break. The bots think here, with
a brain of chance vectors: what is measured is when they act, not how well.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import app.service.action_path as action_path_module
from app.bots.player import Turn, decide
from app.rules.actions import Action, AddBot, Agree, Clues, Done, Place, Rotate, Start
from app.rules.dealing import deal
from app.rules.state import Room
from app.service.bots import BotTable, Paces
from app.service.hub import Change
from app.service.rooms import RoomService
from app.service.seats import Seat

from .support import run_async, sqlite_service

BOTS_SPEAK = frozenset({"en"})
"""As where the bots' brain is installed."""
PACES = Paces()
"""The normal pace: on this clock it costs nothing."""


class ChanceBrain:
    """Each word a vector of its own, the same every time."""

    def vectors(self, words: Sequence[str]) -> Any:
        return np.array([_vector(w) for w in words])


def _vector(word: str) -> Any:
    seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "big")
    return np.random.default_rng(seed).normal(size=16)


def _here(view: dict[str, Any]) -> Turn | None:
    return decide(view, ChanceBrain())  # type: ignore[arg-type]


class BotsClock:
    """The bots' time: it moves when the test advances it, waking the sleepers due."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        entry = (self.now + seconds, asyncio.get_running_loop().create_future())
        self.sleepers.append(entry)
        try:
            await entry[1]
        finally:
            if entry in self.sleepers:
                self.sleepers.remove(entry)


@dataclass
class Table:
    service: RoomService
    bots: BotTable
    clock: BotsClock
    code: str
    ada: Seat
    changes: list[tuple[float, Change]]

    async def settled(self) -> None:
        """Wait (in real time, for their thinking and saving) until the bots are all
        waiting on the test's clock, or have nothing to do."""
        for _ in range(2000):
            waiting = [f for _, f in self.clock.sleepers if not f.done()]
            if len(waiting) == self.bots.playing():
                await asyncio.sleep(0.01)  # and stay so: nothing was on its way
                waiting = [f for _, f in self.clock.sleepers if not f.done()]
                if len(waiting) == self.bots.playing():
                    return
            await asyncio.sleep(0.005)
        raise AssertionError("the bots never settled")

    async def advance_to(self, moment: float) -> None:
        """Move the clock on to ``moment``, letting each sleeper due act in turn."""
        await self.settled()
        while True:
            due = [e for e in self.clock.sleepers if e[0] <= moment and not e[1].done()]
            if not due:
                break
            when, future = min(due, key=lambda e: e[0])
            self.clock.now = max(self.clock.now, when)
            future.set_result(None)
            await self.settled()
        self.clock.now = moment
        await self.settled()

    async def room(self) -> Room:
        return await self.service.load(self.code)

    async def ada_does(self, action: Any) -> None:
        await self.service.act(self.code, self.ada, action)
        await self.settled()

    def by_bots(self) -> list[tuple[float, dict[str, Any]]]:
        """When each bot's move was made, and what the table was told of it."""
        return [
            (t, c.action)
            for t, c in self.changes
            if c.action is not None and c.action.get("seat") in (1, 2)
        ]


def _seed_for_first_spectator(service: RoomService, players: int, spectator: int) -> int:
    rng = random.Random(7)
    while True:
        seed = rng.getrandbits(64)
        _, first = deal(service.deck.cards, players, 1, random.Random(seed))
        if first == spectator:
            return seed


async def _table(service: RoomService, monkeypatch: pytest.MonkeyPatch) -> Table:
    """Ada and two bots, their clues written; the bots' table started as Ada says she is
    done, so the first clover (seat 1's, a bot's) comes up at 0 on the bots' clock."""
    seated = await service.create("Ada", 1)
    code, ada = seated.code, Seat(seated.code, 0)
    for _ in range(2):
        await service.act(code, ada, AddBot())
    seed = _seed_for_first_spectator(service, 3, 1)
    monkeypatch.setattr(action_path_module, "new_seed", lambda: seed)
    await service.act(code, ada, Start())
    room = await service.load(code)
    for seat in (1, 2):
        pid = room.players[seat].pid
        for action in (Clues((f"Qa{seat}", f"Qb{seat}", f"Qc{seat}", f"Qd{seat}")), Done()):
            await service.apply(code, pid, _always(action))
    clock = BotsClock()
    bots = BotTable(service, PACES, random.Random(3), clock=clock, sleep=clock.sleep, decide=_here)
    changes: list[tuple[float, Change]] = []
    publish = service.hub.publish

    def told(room_code: str, change: Change) -> None:
        changes.append((clock(), change))
        publish(room_code, change)

    service.hub.publish = told  # type: ignore[method-assign,assignment]
    bots.start()
    table = Table(service, bots, clock, code, ada, changes)
    await service.act(code, ada, Clues(("Zig", "Zag", "Zog", "Zug")))
    await table.ada_does(Done())
    room = await table.room()
    assert room.phase == "resolution" and room.spectator() == 1 and room.lock_holder() == 2
    return table


def _always(action: Action) -> Callable[[Room], Action]:
    return lambda _room: action


def _cards(room: Room) -> int:
    assert room.resolution is not None
    return sum(slot is not None for slot in room.resolution.board)


def test_bots_let_a_person_lay_first_then_lay_one_card_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        async with sqlite_service(tmp_path, bot_languages=BOTS_SPEAK) as service:
            table = await _table(service, monkeypatch)
            try:
                # Ada reads the clues: for 20 s the bot lays nothing.
                await table.advance_to(PACES.first - 0.01)
                assert _cards(await table.room()) == 0 and table.by_bots() == []
                # Then it lays one card, and one more at a time, each at a reading pace after
                # the board last changed.
                await table.advance_to(PACES.first + 4 * PACES.card * 4 / 3)
                moves = table.by_bots()
                places = [t for t, action in moves if action["type"] == "place"]
                assert places[0] >= PACES.first
                assert len(places) == 4 and _cards(await table.room()) == 4
                for before, after in itertools.pairwise(places):
                    assert after - before >= PACES.card * 2 / 3
            finally:
                await table.bots.stop()

    run_async(check())


def test_a_person_s_first_move_lets_the_bots_lay_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        async with sqlite_service(tmp_path, bot_languages=BOTS_SPEAK) as service:
            table = await _table(service, monkeypatch)
            try:
                await table.advance_to(3.0)
                seen = await service.view(table.code, (await table.room()).players[0].pid)
                card = seen["resolution"]["pool"][0]["card"]
                await table.ada_does(Place(card=card, spot=3, rotation=0))
                await table.advance_to(3.0 + PACES.card * 4 / 3)
                places = [t for t, action in table.by_bots() if action["type"] == "place"]
                assert places and 3.0 + PACES.card * 2 / 3 <= places[0] < PACES.first
            finally:
                await table.bots.stop()

    run_async(check())


def test_a_bot_holding_the_tie_break_waits_for_a_person_then_says_why_it_locks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        async with sqlite_service(tmp_path, bot_languages=BOTS_SPEAK) as service:
            table = await _table(service, monkeypatch)
            try:
                # The bot fills the board and agrees; Ada has not agreed.
                full = PACES.first + 4 * PACES.card * 4 / 3 + PACES.move * 4 / 3
                await table.advance_to(full)
                room = await table.room()
                assert room.resolution is not None and room.resolution.agreed == {2}
                # Ada turns a card now and then: while she moves, no lock-in, however long.
                for _ in range(4):
                    await table.ada_does(Rotate(spot=0, turns=1))
                    await table.advance_to(table.clock.now + PACES.idle * 0.9)
                    assert not (await table.room()).resolution.checked  # type: ignore[union-attr]
                last_move = max(
                    t
                    for t, c in table.changes
                    if c.action and c.action["type"] in ("rotate", "agree")
                )
                # She stops: a minute of quiet later (and not sooner) the bot locks in, and the
                # table is told why.
                await table.advance_to(last_move + PACES.idle * 4 / 3 + PACES.move * 4 / 3)
                locks = [(t, a) for t, a in table.by_bots() if a["type"] == "lock"]
                assert len(locks) == 1
                when, said = locks[0]
                quiet_since = max(
                    t
                    for t, c in table.changes
                    if t < when
                    and c.action
                    and c.action["type"] != "lock"
                    and c.action["type"] in ("rotate", "agree", "place")
                )
                assert when - quiet_since >= PACES.idle
                assert said.get("quiet") is True
            finally:
                await table.bots.stop()

    run_async(check())


def test_a_person_agreeing_is_all_the_bot_waits_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def check() -> None:
        async with sqlite_service(tmp_path, bot_languages=BOTS_SPEAK) as service:
            table = await _table(service, monkeypatch)
            try:
                full = PACES.first + 4 * PACES.card * 4 / 3 + PACES.move * 4 / 3
                await table.advance_to(full)
                await table.ada_does(Agree())
                room = await table.room()
                # Checked at once: the clover is done, or its last try begins.
                res = room.resolution
                assert res is not None and (res.checked or res.attempt == 2)
                assert not [a for _, a in table.by_bots() if a["type"] == "lock"]
            finally:
                await table.bots.stop()

    run_async(check())
