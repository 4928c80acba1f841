"""The practice tables' bots, played at a lesson's pace.

A practice table's bots play a script (``app.bots.lesson``), decided from each
bot's seat view in a moment on the event loop: no bots' brain is needed, so every
server offers the lesson, whatever its bots speak. After each change to a
practice room, one task per room lets the first bot with something to do wait a
short while (a newcomer should never wait long for a bot, nor see it act before
they read what happened), makes sure the room has not moved meanwhile, and sends
the action through the one action path with the ``seq`` it decided on.

The bots of other rooms are ``app.service.bots``'s, which leaves practice rooms
alone. Like them, these play only while their person is at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import astuple, dataclass
from typing import TYPE_CHECKING

from app.bots.lesson import decide
from app.rules.actions import Action, Clues, Place
from app.rules.errors import RuleError
from app.rules.state import Room
from app.rules.views import view

if TYPE_CHECKING:
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LessonPaces:
    """Seconds a practice bot waits before each kind of action: long enough to read
    the news line about the last move, short enough that nobody waits for a bot."""

    write: float = 2.0
    """Four clues written (the newcomer writes theirs meanwhile)."""
    card: float = 2.5
    """A card laid on the newcomer's clover, which they watch in silence."""
    move: float = 1.5
    """Done, or Agree on a full board."""

    def scaled(self, factor: float) -> LessonPaces:
        return LessonPaces(*(seconds * factor for seconds in astuple(self)))

    def before(self, action: Action) -> float:
        if isinstance(action, Clues):
            return self.write
        if isinstance(action, Place):
            return self.card
        return self.move


class LessonTable:
    def __init__(
        self,
        service: RoomService,
        paces: LessonPaces = LessonPaces(),
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.service = service
        self.paces = paces
        self._sleep = sleep
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()

    def start(self) -> None:
        self.service.after_change.append(self.wake)

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def playing(self) -> int:
        """Practice rooms whose bots are at work."""
        return len(self._tasks)

    def wake(self, room: Room) -> None:
        """``room`` changed: a practice table's bots have a look."""
        if not room.practice or room.phase in ("lobby", "finished"):
            return
        task = self._tasks.get(room.code)
        if task is not None and not task.done():
            self._again.add(room.code)
            return
        self._tasks[room.code] = asyncio.get_running_loop().create_task(self._play(room.code))

    async def _play(self, code: str) -> None:
        try:
            while True:
                self._again.discard(code)
                room = await self.service.load(code)
                turn = _next_turn(room)
                if turn is None:
                    if code in self._again:
                        continue
                    return
                pid, action = turn
                await self._sleep(self.paces.before(action))
                if (await self.service.load(code)).seq != room.seq:
                    continue  # the table moved meanwhile: look again
                try:
                    await self.service.apply(code, pid, _always(action), expect_seq=room.seq)
                except RuleError as refusal:
                    if (await self.service.load(code)).seq == room.seq:
                        log.info("practice bot %s in %s refused: %s", pid, code, refusal.message)
                        return  # nothing moved: the script has nothing more to say
        except RuleError:
            return  # the room is gone
        except Exception:
            log.exception("the practice bots of room %s stopped", code)
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]


def _next_turn(room: Room) -> tuple[int, Action] | None:
    """The first bot with something to do and its action, while its person is here."""
    if not room.practice or not any(room.is_person_here(s) for s in range(len(room.players))):
        return None
    for seat, player in enumerate(room.players):
        if player.bot:
            action = decide(view(room, seat))
            if action is not None:
                return player.pid, action
    return None


def _always(action: Action) -> Callable[[Room], Action]:
    return lambda _room: action
