"""The bots' table: plays the bots' seats of every room this process changes.

After each change to a room with bots, one task per room asks each bot's seat
what it would do (``app.bots.player.decide``, given nothing but that seat's
view), waits as long as a person would, and, if the room has not moved
meanwhile, sends the action through the one action path with the ``seq`` it
decided on: a move the table made in the meantime wins, and the bot decides
again from the new board. Bots think on one worker thread, so however many
rooms have bots, they use at most one core and never this process's
interpreter: they think in a process of their own (``app.bots.thinking``).

Bots play only while a person is at the table: a room whose people have all
gone waits for them, and is picked up again by the next change or, after a
restart, when the room is first read. With several processes, the process that
made a change plays the bots' answer to it; two of them answering the same
change both decide on one ``seq``, and the second is refused as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import random
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.bots.player import Pace, Turn
from app.bots.thinking import start, think
from app.rules.actions import Action
from app.rules.errors import RuleError
from app.rules.state import Room
from app.rules.views import view

if TYPE_CHECKING:
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)

REFUSALS_IN_A_ROW = 3
"""A bot whose actions are refused this often without the room moving stops until it does."""


@dataclass(frozen=True)
class Paces:
    """Seconds a bot takes before each kind of action, as a person would (± a third)."""

    write: float = 5.0
    move: float = 1.5
    idle: float = 25.0

    def scaled(self, factor: float) -> Paces:
        return Paces(self.write * factor, self.move * factor, self.idle * factor)


class BotTable:
    def __init__(
        self,
        service: RoomService,
        paces: Paces = Paces(),
        rng: random.Random | None = None,
    ) -> None:
        self.service = service
        self.paces = paces
        self._rng = rng or random.Random()
        # A process of its own (started at the first bot's first thought): thinking
        # there never holds this process's interpreter, so other rooms never wait.
        self._thinker = ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=start
        )
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self.decisions: deque[float] = deque(maxlen=5000)
        """Seconds each of the latest decisions took (the benchmark reads them)."""
        self.thinking = 0
        """Decisions asked of the thinking process and not answered yet, those waiting
        for it included (the metrics page reads it)."""

    def playing(self) -> int:
        """Rooms whose bots are at work: thinking, or waiting a person's time to act."""
        return len(self._tasks)

    def start(self) -> None:
        self.service.after_change.append(self.wake)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._thinker.shutdown(wait=True, cancel_futures=True)

    def wake(self, room: Room) -> None:
        """``room`` changed: its bots have a look, unless they are looking already."""
        if not room.has_bots() or room.phase in ("lobby", "finished"):
            return
        code = room.code
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._again.add(code)
            return
        self._tasks[code] = asyncio.get_running_loop().create_task(self._play(code))

    async def _play(self, code: str) -> None:
        refused = 0
        try:
            while True:
                self._again.discard(code)
                room = await self.service.load(code)
                if not any(room.is_person_here(s) for s in range(len(room.players))):
                    return
                next_turn = await self._next_turn(room)
                if next_turn is None:
                    if code in self._again:
                        continue
                    return
                pid, turn = next_turn
                await asyncio.sleep(self._wait(turn))
                if (await self.service.load(code)).seq != room.seq:
                    continue  # the table moved meanwhile: look again
                action = turn.action
                try:
                    await self.service.apply(code, pid, _always(action), expect_seq=room.seq)
                    refused = 0
                except RuleError as refusal:
                    refused += 1
                    log.info("bot %s in %s refused: %s", pid, code, refusal.message)
                    if refused >= REFUSALS_IN_A_ROW:
                        return
        except RuleError:
            return  # the room is gone
        except Exception:
            log.exception("the bots of room %s stopped", code)
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]

    async def _next_turn(self, room: Room) -> tuple[int, Turn] | None:
        """The bot that acts first and its action: a move before a clue before a lock-in."""
        order = {Pace.MOVE: 0, Pace.WRITE: 1, Pace.IDLE: 2}
        turns = []
        for seat, player in enumerate(room.players):
            if player.bot or (player.stand_in and not player.present):
                seen = view(room, seat)
                can = seen["can"]
                if not (can["write"] or can["done"] or can["move"]):
                    continue  # nothing this seat may do now: no need to think
                turn = await self._decide(seen)
                if turn is not None:
                    turns.append((order[turn.pace], seat, player.pid, turn))
        if not turns:
            return None
        _, _, pid, turn = min(turns, key=lambda t: (t[0], t[1]))
        return pid, turn

    async def _decide(self, seen: dict[str, Any]) -> Turn | None:
        loop = asyncio.get_running_loop()
        self.thinking += 1
        try:
            turn, seconds = await loop.run_in_executor(self._thinker, think, seen)
        finally:
            self.thinking -= 1
        self.decisions.append(seconds)
        return turn

    def _wait(self, turn: Turn) -> float:
        base = {
            Pace.WRITE: self.paces.write,
            Pace.MOVE: self.paces.move,
            Pace.IDLE: self.paces.idle,
        }[turn.pace]
        return base * self._rng.uniform(2 / 3, 4 / 3)


def _always(action: Action) -> Callable[[Room], Action]:
    return lambda _room: action
