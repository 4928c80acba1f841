"""The bots' table: plays the bots' seats of every room this process changes.

After each change to a room with bots, one task per room asks each bot's seat
what it would do (``app.bots.player.decide``, given nothing but that seat's
view), waits as long as a person would, and, if the room has not moved
meanwhile, sends the action through the one action path with the ``seq`` it
decided on: a move the table made in the meantime wins, and the bot decides
again from the new board. Bots think on one worker thread, so however many
rooms have bots, they use at most one core and never this process's
interpreter: they think in a process of their own (``app.bots.thinking``).

Bots are teammates, not a race: on a clover that a person guesses too, they lay
nothing before that person's first move or ``Paces.first`` seconds (time to read
the clues); then one card at a time, each ``Paces.card`` after the board last
changed, whoever changed it, so a person moving cards is never hurried. A bot
holding the tie-break locks in over people who have not agreed only after
``Paces.idle`` of quiet on the board (the table is told why: ``app.service.hub``).

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
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, dataclass
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
    """Seconds a bot takes before each kind of action, as a person would (± a third; never
    less than ``first`` and ``idle``, which the table may be told of)."""

    write: float = 5.0
    """Four clues written."""
    move: float = 1.5
    """A tap: Done, Agree, a lock-in everyone asked for."""
    card: float = 5.0
    """A card laid, after the board last changed: time to read the clues again."""
    first: float = 20.0
    """The first card of a try, while a person guesses and has not moved yet."""
    idle: float = 60.0
    """The quiet on the board before a bot locks in over people who have not agreed."""

    def scaled(self, factor: float) -> Paces:
        return Paces(*(seconds * factor for seconds in astuple(self)))


@dataclass
class _Try:
    """One try at a clover as the bots follow it (this process, while it lasts)."""

    key: tuple[int, int]
    """The clover's turn and the try."""
    began: float
    board: Any
    """The board and the agreements as last seen."""
    stirred: float
    """When they last changed (or the try began)."""
    jitter: float
    person_moved: bool = False
    """Whether someone other than the bots moved a card on this try."""


class BotTable:
    def __init__(
        self,
        service: RoomService,
        paces: Paces = Paces(),
        rng: random.Random | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        decide: Callable[[Mapping[str, Any]], Turn | None] | None = None,
    ) -> None:
        """``clock`` and ``sleep`` measure and wait the bots' time (a test's own clock);
        ``decide``, if given, thinks here instead of in the thinking process (a test's
        own bot)."""
        self.service = service
        self.paces = paces
        self._rng = rng or random.Random()
        self._clock = clock
        self._sleep = sleep
        self._decide_here = decide
        self._tries: dict[str, _Try] = {}
        self._woken: dict[str, asyncio.Event] = {}
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
        if not room.has_bots() or room.practice or room.phase in ("lobby", "finished"):
            # A practice table's bots play their script (``app.service.lesson``).
            return
        code = room.code
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._again.add(code)
            self._woken.setdefault(code, asyncio.Event()).set()
            return
        self._tasks[code] = asyncio.get_running_loop().create_task(self._play(code))

    async def _play(self, code: str) -> None:
        refused = 0
        woken = self._woken.setdefault(code, asyncio.Event())
        try:
            while True:
                self._again.discard(code)
                woken.clear()
                room = await self.service.load(code)
                if not any(room.is_person_here(s) for s in range(len(room.players))):
                    self._tries.pop(code, None)  # back to a fresh try when someone comes
                    return
                following = self._follow(room)
                decided = self._clock()
                next_turn = await self._next_turn(room)
                if next_turn is None:
                    if code in self._again:
                        continue
                    return
                pid, turn = next_turn
                wait = self._due(room, turn, following, decided) - self._clock()
                if wait > 0 and await self._pause(woken, wait):
                    continue  # the table moved meanwhile: look again
                if (await self.service.load(code)).seq != room.seq:
                    continue  # the table moved meanwhile: look again
                action = turn.action
                try:
                    done = await self.service.apply(code, pid, _always(action), expect_seq=room.seq)
                    self._follow(done, by_bots=True)
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
                self._woken.pop(code, None)

    async def _pause(self, woken: asyncio.Event, seconds: float) -> bool:
        """Wait ``seconds``, or less if the room changes: whether it did."""
        sleeping = asyncio.ensure_future(self._sleep(seconds))
        waking = asyncio.ensure_future(woken.wait())
        try:
            await asyncio.wait({sleeping, waking}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in (sleeping, waking):
                waiting.cancel()
        return woken.is_set()

    def _follow(self, room: Room, by_bots: bool = False) -> _Try | None:
        """The try at hand, brought up to date with ``room``: when it began, when its
        board last changed, and whether anyone but the bots moved a card on it."""
        res = room.resolution
        if room.phase != "resolution" or res is None or res.checked:
            self._tries.pop(room.code, None)
            return None
        key = (res.turn, res.attempt)
        now = self._clock()
        board = (res.board, res.agreed)
        seen = self._tries.get(room.code)
        if seen is None or seen.key != key:
            seen = _Try(key, now, board, now, self._jitter())
            self._tries[room.code] = seen
        elif seen.board != board:
            if res.board != seen.board[0] and not by_bots:
                seen.person_moved = True
            seen.board, seen.stirred = board, now
        if by_bots:
            seen.jitter = self._jitter()  # the next bot's reach is its own
        return seen

    def _due(self, room: Room, turn: Turn, seen: _Try | None, decided: float) -> float:
        """When, on the bots' clock, ``turn`` may be played."""
        paces = self.paces
        if seen is None:  # writing clues: from the moment the bot looked
            return decided + self._base(turn) * self._jitter()
        if turn.pace is Pace.IDLE:
            # A lock-in over people who have not agreed: a long quiet, never shorter.
            return seen.stirred + paces.idle * max(1.0, seen.jitter)
        due = seen.stirred + self._base(turn) * seen.jitter
        if turn.pace is Pace.CARD and not seen.person_moved and _people_guess(room):
            due = max(due, seen.began + paces.first)  # people lay the first card
        return due

    def _base(self, turn: Turn) -> float:
        return {
            Pace.WRITE: self.paces.write,
            Pace.MOVE: self.paces.move,
            Pace.CARD: self.paces.card,
            Pace.IDLE: self.paces.idle,
        }[turn.pace]

    def _jitter(self) -> float:
        return self._rng.uniform(2 / 3, 4 / 3)

    async def _next_turn(self, room: Room) -> tuple[int, Turn] | None:
        """The bot that acts first and its action: a move before a clue before a lock-in."""
        order = {Pace.MOVE: 0, Pace.CARD: 0, Pace.WRITE: 1, Pace.IDLE: 2}
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

    async def _decide(self, seen: Mapping[str, Any]) -> Turn | None:
        if self._decide_here is not None:
            return self._decide_here(seen)
        loop = asyncio.get_running_loop()
        self.thinking += 1
        try:
            turn, seconds = await loop.run_in_executor(self._thinker, think, seen)
        finally:
            self.thinking -= 1
        self.decisions.append(seconds)
        return turn


def _people_guess(room: Room) -> bool:
    """Whether a person (not a bot, not one standing in) guesses this clover, here now."""
    return any(room.is_person_here(s) and room.is_guesser(s) for s in range(len(room.players)))


def _always(action: Action) -> Callable[[Room], Action]:
    return lambda _room: action
