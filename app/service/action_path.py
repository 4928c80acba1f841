"""The one action path: load, decide, save, publish.

Every change to a room, from its opening, a player's tap, an API call or the
server's own presence report, goes through ``ActionPath.change`` (``apply`` is the
same, metered, for whoever wants the room back): under the room's lock it takes
our copy of the room, lets the rules engine apply the action, saves the new
state with the action's records and the next ``seq`` in one transaction (over
the ``seq`` it was read at: another process that got there first makes us
replay our copy up to the stored one, ``Replay.as_stored``, and decide again),
and only then tells the streams. An action answered 200 is on disk; a refused
one changed nothing.

The path stamps what the rules may not make up themselves: the time of an
action, of a chat line and the seed of a deal. Its collaborators are handed to
it (``app/service/build.py`` wires them); it builds none.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any, TypeVar

from app.rules.actions import Action, AddBot, Join, Language, Say, StandIn, Start, Timeout, Watch
from app.rules.allowed import BOTS_SPEAK, why_no_bots
from app.rules.codec import action_to_data, room_to_data
from app.rules.deck import Deck
from app.rules.engine import play, unopened
from app.rules.errors import BadLanguage, RuleError, TimeUp
from app.rules.state import UNOPENED, Room
from app.rules.text import N_
from app.service.clock import Clock, epoch_ms, iso
from app.service.cluster import Cluster
from app.service.codes import new_seed
from app.service.errors import NoBots, NotSeated, StaleAction
from app.service.hub import Change, RoomHub, change_after
from app.service.in_memory import RoomsInMemory
from app.service.legends import LegendBook
from app.service.locks import RoomLocks
from app.service.meter import Meter, Metered
from app.service.replay import Replay
from app.service.store import ActionRecord, Record, RoomStore

T = TypeVar("T")

CHECKPOINTS = (Start,)
"""Actions whose resulting state is logged whole: replays start there."""
ATTEMPTS = 5
"""Times an action is decided again when another process saved the room first."""

ActionFor = Callable[[Room], Action | None]
"""Builds the action from the room as it is under the lock; ``None``: nothing to do."""
AlsoSave = Callable[[Room], list[Record]]
"""More records to save with the action, given the new room (a newcomer's seat)."""
Listener = Callable[[Room], None]
"""Told of each room this process changes or first reads (the bots' table, the clock)."""

NO_DECK = N_("This table has no deck in that language: choose one it offers.")


@dataclass(frozen=True)
class Decided:
    """What the engine made of an action, before anything is written."""

    action: Action
    """The action as applied: stamped with its time."""
    seat: int | None
    """The acting seat, as the engine took it (a newcomer's new seat for a join)."""
    room: Room
    """The next room."""
    records: tuple[Record, ...]
    """The action's log line, and whatever is saved with it (a seat, a legend)."""
    finished: bool
    """Whether the action finished a game."""


class ActionPath:
    """Load, decide, save, publish: one room at a time, under its lock."""

    def __init__(
        self,
        store: RoomStore,
        in_memory: RoomsInMemory,
        locks: RoomLocks,
        hub: RoomHub,
        replay: Replay,
        legends: LegendBook,
        *,
        decks: Mapping[str, Deck],
        cluster: Cluster,
        clock: Clock,
        meter: Meter,
        bot_languages: frozenset[str],
        after_change: list[Listener],
    ) -> None:
        """``decks``: the deck of each language a room may play in, English among them;
        ``bot_languages``: the languages this server's bots speak (none without the bots'
        brain); ``after_change``: told of each room changed here, after it is saved and
        published (the list is the caller's: listeners join it as they start)."""
        self.store = store
        self.in_memory = in_memory
        self.locks = locks
        self.hub = hub
        self.replay = replay
        self.legends = legends
        self.decks = decks
        self.deck = decks["en"]
        self.cluster = cluster
        self.clock = clock
        self.meter = meter
        """Told of every action and save (the metrics page's, ``app/metrics.py``)."""
        self.bot_languages = bot_languages
        self.after_change = after_change

    # --- loading ----------------------------------------------------------------

    async def load(self, code: str) -> Room:
        """The room as last committed (by any process)."""
        cached = self.in_memory.get(code)
        if cached is None:
            return await self.in_memory.read(code)
        if self.cluster.shared:
            await self.replay.catch_up(code)
            cached = self.in_memory.get(code)
            if cached is None:
                # Let go of meanwhile (housekeeping, or deleted): the disk decides.
                return await self.in_memory.read(code)
        return cached

    async def _current(self, code: str) -> tuple[Room, bool]:
        """The room to decide on, under its lock, and whether it is known to be as stored.

        Our copy, even with several processes: deciding on it and saving over its
        ``seq`` is one round trip, and a save refused as stale (or a refusal by the
        rules) sends us to read what another process stored and decide again.
        """
        cached = self.in_memory.get(code)
        if cached is not None:
            return cached, not self.cluster.shared
        return await self.in_memory.read(code), True

    # --- applying ---------------------------------------------------------------

    async def apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        *,
        expect_seq: int | None = None,
        also: AlsoSave | None = None,
    ) -> Room:
        """Apply one action to one room, save it, then publish; the room it made.

        Metered by the type of the action ``action_for`` builds; nothing to do is no
        action, and is not counted.
        """
        with Metered(self.meter) as metered:

            def named(room: Room) -> Action | None:
                action = action_for(room)
                if action is not None:
                    metered.kind = action.type
                return action

            change = await self.change(code, pid, named, expect_seq=expect_seq, also=also)
        return change.room

    async def change(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        *,
        expect_seq: int | None = None,
        also: AlsoSave | None = None,
        opens: bool = False,
    ) -> Change:
        """``apply``, unmetered (the caller meters it), answering the change published.

        Once begun, an action runs to its end even if its caller goes away (a phone
        dropping mid-request): a write cancelled half-way could commit while our copy
        of the room stayed behind. ``opens``: the action opens the room ``code``, from
        none; saved only while no other room has that code (``CodeTaken`` else)."""
        return await run_to_completion(self._apply(code, pid, action_for, expect_seq, also, opens))

    async def _apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
        opens: bool,
    ) -> Change:
        async with self.locks.hold(code):
            room, fresh = (unopened(code), True) if opens else await self._current(code)
            for _ in range(ATTEMPTS):
                timing_out = False
                try:
                    decided = self._decide(room, pid, action_for, expect_seq, also)
                except TimeUp:
                    if not fresh:
                        room, fresh = await self.replay.as_stored(code), True
                        continue
                    # An enforced clock ran out before this action came: its timeout acts
                    # first, saved and told as an action of its own, and the action is
                    # decided again on the room the timeout made.
                    decided = self._decide(room, None, lambda _room: Timeout(), None, None)
                    timing_out = True
                except RuleError:
                    if fresh:
                        raise
                    # Our copy may be behind another process: the stored room decides.
                    room, fresh = await self.replay.as_stored(code), True
                    continue
                if decided is None:
                    if fresh:
                        return Change(room.seq, room, None)
                    room, fresh = await self.replay.as_stored(code), True
                    continue
                try:
                    await self._save(room.seq, decided.room, decided.records)
                except StaleAction:
                    # Another process saved this room first: catch up and decide again.
                    room, fresh = await self.replay.as_stored(code), True
                    continue
                change = self._publish(room, decided, None if timing_out else pid)
                if timing_out:
                    # The seq the action was sent at was the room's: it still counts.
                    room = decided.room
                    expect_seq = None if expect_seq is None else room.seq
                    continue
                return change
            raise StaleAction()

    async def _save(self, old_seq: int, new: Room, records: tuple[Record, ...]) -> None:
        """The store's save, timed for the metrics page, stale or failed saves too: the
        saves of actions over a room; a room's opening is timed as the ``create`` it is."""
        if old_seq == UNOPENED:
            await self.store.save(old_seq, new, records, self.clock())
            return
        began = perf_counter()
        try:
            await self.store.save(old_seq, new, records, self.clock())
        finally:
            self.meter.saved(perf_counter() - began)

    def _publish(self, old: Room, decided: Decided, pid: int | None) -> Change:
        """A saved change: ours to hold, then told to the streams and the listeners."""
        new = decided.room
        if decided.finished:
            self.legends.forget(new.code)
        self.in_memory.put(new)
        change = change_after(decided.action, decided.seat, old, new, pid)
        self.hub.publish(new.code, change)
        for listener in self.after_change:
            listener(new)
        return change

    def _decide(
        self,
        room: Room,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
    ) -> Decided | None:
        """What the engine makes of the action on ``room``; ``None``: nothing to do.

        Raises the rules' refusal, or ``StaleAction``/``NotSeated``, before anything is written.
        """
        if expect_seq is not None and expect_seq != room.seq:
            raise StaleAction()
        seat = watcher = None
        if pid is not None:
            seat = room.seat_of(pid)
            watcher = pid if seat is None and room.watcher(pid) is not None else None
            if seat is None and watcher is None:
                raise NotSeated(N_("You are no longer seated in this room."))
        action = action_for(room)
        if action is None:
            return None
        now = self.clock()
        action = replace(action, now=epoch_ms(now))
        if isinstance(action, Language) and action.language not in self.decks:
            raise BadLanguage(NO_DECK)
        self._bots_may(room, action)
        deck = self.decks.get(room.language, self.deck)
        played = play(room, seat, action, deck=deck.cards, watcher=watcher)
        new = played.room
        if isinstance(action, Join):
            seat = len(new.players) - 1
            pid = new.players[-1].pid
        if isinstance(action, Watch):
            pid = new.watchers[-1].pid
        records: list[Record] = [
            ActionRecord(
                room=room.code,
                seq=new.seq,
                seat=seat,
                player=pid,
                action=action_to_data(action),
                at=now,
                state=room_to_data(new) if isinstance(action, CHECKPOINTS) else None,
            )
        ]
        if also is not None:
            records.extend(also(new))
        if played.finished and not new.practice:
            # A practice game, dealt the same every time with bots playing a script, is
            # a lesson and no legend.
            records.append(self.legends.record(new, now))
        return Decided(action, seat, new, tuple(records), played.finished)

    def _bots_may(self, room: Room, action: Action) -> None:
        """Bots come only where this server has them, in a language they speak
        (``allowed.why_no_bots``, by which the views offer them too)."""
        if isinstance(action, AddBot | StandIn):
            why = why_no_bots(room.language, self.bot_languages)
            if why is not None:
                raise NoBots(why)
        if (
            isinstance(action, Language)
            and why_no_bots(action.language, self.bot_languages) is not None
            and any(p.bot for p in room.players)
        ):
            raise NoBots(BOTS_SPEAK)

    def stamped(self, action: Action) -> Action:
        """The seed of a deal and the time of a chat line come from the server alone."""
        if isinstance(action, Start):
            return replace(action, seed=new_seed())
        if isinstance(action, Say):
            return replace(action, at=iso(self.clock()))
        return action


async def run_to_completion(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work`` to its end; a cancellation meanwhile is raised after it finishes."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while True:
        try:
            result = await asyncio.shield(task)
            break
        except asyncio.CancelledError:
            if task.done():
                raise
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError()
    return result
