"""Another process changed a room: bring our copy and our streams along.

With several processes on one PostgreSQL database, each keeps copies of the
rooms its players stream. When another process saves a change (we hear of it
by ``NOTIFY``, or find the stored ``seq`` ahead of ours), the logged actions
are replayed onto our copy and each change is published to our streams, so
every stream sees every change once, in order. The engine is deterministic,
so replaying the logged actions gives the very states the other process
saved; a game's first state is logged whole. If anything does not add up,
the stored state wins and the streams are sent it whole.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from app.rules.codec import action_from_data, room_from_data
from app.rules.engine import play
from app.rules.geometry import Words
from app.rules.state import Room
from app.service.errors import RoomNotFound
from app.service.hub import Change, RoomHub, change_after
from app.service.in_memory import RoomsInMemory
from app.service.legends import LegendBook
from app.service.locks import RoomLocks
from app.service.store import Logged, RoomStore

log = logging.getLogger(__name__)


class Replay:
    def __init__(
        self,
        store: RoomStore,
        in_memory: RoomsInMemory,
        hub: RoomHub,
        locks: RoomLocks,
        legends: LegendBook,
        deck: Sequence[Words],
    ) -> None:
        self.store = store
        self.in_memory = in_memory
        self.hub = hub
        self.locks = locks
        self.legends = legends
        self.deck = deck

    async def catch_up(
        self, code: str, seq: int | None = None, logged: Sequence[Logged] | None = None
    ) -> None:
        """``code`` changed elsewhere (up to ``seq``, by the actions ``logged`` if the news
        carried them): if we hold it, bring it along."""
        cached = self.in_memory.get(code)
        if cached is None or (seq is not None and cached.seq >= seq):
            return
        async with self.locks.hold(code):
            cached = self.in_memory.get(code)
            if cached is None or (seq is not None and cached.seq >= seq):
                return
            try:
                if seq is not None:
                    # Told where the room is now: the log from our copy on is the one read.
                    await self._replay(cached, seq, logged)
                else:
                    await self.as_stored(code)
            except RoomNotFound:
                return

    async def as_stored(self, code: str) -> Room:
        """The room ``code`` as stored now: our copy, replayed up to the stored ``seq``
        (or read, if we held none). The caller holds the room's lock."""
        cached = self.in_memory.get(code)
        stored = await self.store.seq(code)
        if stored is None:
            self.in_memory.drop(code)
            raise RoomNotFound()
        if cached is None:
            return await self.in_memory.read(code)
        if stored > cached.seq:
            return await self._replay(cached, stored)
        return cached

    async def _replay(self, room: Room, upto: int, heard: Sequence[Logged] | None = None) -> Room:
        """``room`` brought to ``upto`` by the actions logged after it: those heard with
        the news when they follow on from it (the common case), else those read back."""
        if heard is None or not _follows_on(heard, room.seq, upto):
            heard = await self.store.logged(room.code, room.seq, upto)
        for logged in heard:
            try:
                action = action_from_data(logged.action)
                actor = None if action.sent_by != "player" else logged.seat
                # A player's action logged with no seat is a watcher's, by their pid.
                watcher = logged.player if action.sent_by == "player" and actor is None else None
                if logged.state is not None:
                    new, finished = room_from_data(logged.state), False
                else:
                    played = play(room, actor, action, deck=self.deck, watcher=watcher)
                    new, finished = played.room, played.finished
            except Exception:
                log.warning(
                    "replay of %s at seq %s failed; reading the room", room.code, logged.seq
                )
                return await self._resync(room.code)
            if new.seq != logged.seq:
                return await self._resync(room.code)
            if finished:
                self.legends.forget(room.code)
            self.in_memory.put(new)
            self.hub.publish(room.code, change_after(action, logged.seat, room, new, logged.player))
            room = new
        return room

    async def _resync(self, code: str) -> Room:
        fresh = await self.store.read(code)
        if fresh is None:
            self.in_memory.drop(code)
            raise RoomNotFound()
        self.in_memory.put(fresh)
        self.legends.forget(code)
        self.hub.publish(code, Change(fresh.seq, fresh, None))
        return fresh


def _follows_on(logged: Sequence[Logged], seq: int, upto: int) -> bool:
    """Whether ``logged`` is every action after ``seq`` up to ``upto``, in order."""
    return len(logged) == upto - seq and all(
        entry.seq == seq + 1 + i for i, entry in enumerate(logged)
    )
