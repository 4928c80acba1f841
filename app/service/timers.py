"""The table's clock on the server: an enforced countdown acted on when it runs out.

The rules keep each room's deadline in its state (``app/rules/timers.py``), so
it is on disk with the room and survives a restart. This keeps, for the rooms
this process changed or read, when their enforced clock falls due, and a ticker
sends the rules' ``timeout`` through the one action path once it has. The rules
judge it against the time the action is stamped with: a timeout for a clock
that was paused or that the table beat by a second is refused and changes
nothing, so two processes, or a late tick, can never act twice.

After a restart a room's clock is picked up when the room is first read (a
player's page, stream or action): a deadline that passed meanwhile acts then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from app.rules.actions import Action, Timeout
from app.rules.errors import RuleError
from app.rules.state import Room
from app.rules.timers import due, has_run_out
from app.service.clock import epoch_ms

if TYPE_CHECKING:
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)

TICK_SECONDS = 0.5
"""How often due clocks are looked for: a timeout comes at most this late."""


class TableClock:
    def __init__(self, service: RoomService, tick_seconds: float = TICK_SECONDS) -> None:
        self.service = service
        self.tick_seconds = tick_seconds
        self._due: dict[str, int] = {}
        """When each room's enforced clock runs out, in epoch ms."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.service.after_change.append(self.wake)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def wake(self, room: Room) -> None:
        """A room changed or was read: note when its clock falls due, if it acts."""
        ends = due(room)
        if ends is None:
            self._due.pop(room.code, None)
        else:
            self._due[room.code] = ends

    def pending(self) -> int:
        """Rooms whose enforced clock this process watches."""
        return len(self._due)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick()
            except Exception:  # the clock of every other room must go on
                log.exception("the table clock's tick failed")

    async def tick(self) -> None:
        """Act on every clock that has run out by now."""
        now = epoch_ms(self.service.clock())
        for code, ends in list(self._due.items()):
            if ends > now:
                continue
            self._due.pop(code, None)
            try:
                # The room as it now is, timed out or not: a clock paused meanwhile
                # is not followed, one moved on is.
                self.wake(await self.service.apply(code, None, self._timeout))
            except RuleError:
                # Gone (expired, deleted), or the rules say otherwise: nothing to act on.
                continue
            except Exception:
                log.exception("timeout failed for room %s", code)

    def _timeout(self, room: Room) -> Action | None:
        """The timeout, judged on the room as it is under its lock."""
        return Timeout() if has_run_out(room, epoch_ms(self.service.clock())) else None
