"""Following a room live: every change, in order, as one seat may see it.

A stream never holds a room: it is handed ``Update``s, each the view of one
change for its seat, built once per change and seat and shared by every
stream of that seat (with whatever those streams build from it, in ``memo``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from app.rules.state import Room
from app.rules.views import View
from app.service.hub import Change, Ping, RoomHub
from app.service.presence import PresenceTracker

ViewOf = Callable[[Room, "int | None", "int | None"], Awaitable[View]]
"""The service's per-seat view: (room, seat, chat_after) -> view."""


@dataclass
class Update:
    """One change of a room, as one seat may see it."""

    seq: int
    action: dict[str, Any] | None
    """Who did what (``None``: the room as it is now, sent whole)."""
    chat_after: int | None
    """``view['chat']`` holds the lines after this chat line id; ``None``: the whole chat."""
    view: View
    memo: dict[Any, Any] = field(repr=False)
    """What the streams of this seat build from this change, built once for all of them."""
    whole: Callable[[], Awaitable[View]] = field(repr=False)
    """The same view with the whole recent chat."""


class Follower:
    def __init__(
        self,
        hub: RoomHub,
        presence: PresenceTracker,
        load: Callable[[str], Awaitable[Room]],
        view_of: ViewOf,
        sync_presence: Callable[[str], Awaitable[None]],
    ) -> None:
        self.hub = hub
        self.presence = presence
        self.load = load
        self.view_of = view_of
        self.sync_presence = sync_presence

    async def follow(
        self, code: str, pid: int | None, last: int | None = None
    ) -> AsyncIterator[Update | Ping]:
        """Every change of ``code`` from now on, in seq order, each exactly once.

        It starts with what the follower missed since ``last`` when the hub
        still holds it, else with the current state (an ``Update`` whose
        ``action`` is ``None``). A follower that falls too far behind is sent
        the current state again. While it follows, the player ``pid`` is present.
        Now and then it gives a ``Ping``: time for the stream to show it is alive.
        """
        sub = self.hub.subscribe(code)
        if pid is not None:
            self.presence.connected(code, pid)
        try:
            if pid is not None:
                await self.sync_presence(code)
            room = await self.load(code)
            missed = None if last is None or last > room.seq else self.hub.since(code, last)
            if missed is None:
                yield await self.update(Change(room.seq, room, None), pid)
                sent = room.seq
            else:
                for change in missed:
                    yield await self.update(change, pid)
                sent = max([last or 0, *(c.seq for c in missed)])
            while True:
                item = await sub.get()
                if isinstance(item, Ping):
                    yield item
                    continue
                if sub.fell_behind():
                    current = await self.load(code)
                    yield await self.update(Change(current.seq, current, None), pid)
                    sent = current.seq
                    continue
                if item.seq <= sent:
                    continue
                if item.seq > sent + 1:
                    gap = self.hub.since(code, sent)
                    if gap is None:
                        current = await self.load(code)
                        yield await self.update(Change(current.seq, current, None), pid)
                        sent = current.seq
                        continue
                    for earlier in gap:
                        if earlier.seq < item.seq:
                            yield await self.update(earlier, pid)
                yield await self.update(item, pid)
                sent = item.seq
        finally:
            self.hub.unsubscribe(sub)
            if pid is not None:
                self.presence.disconnected(code, pid)

    async def update(self, change: Change, pid: int | None) -> Update:
        """``change`` for the seat of ``pid``: its view built once, shared by that seat."""
        seat = None if pid is None else change.room.seat_of(pid)
        memo: dict[Any, Any] = change.rendered.setdefault(("seat", seat), {})
        if "view" not in memo:
            memo["view"] = await self.view_of(change.room, seat, change.chat_after)

        async def whole() -> View:
            if change.chat_after is None:
                view: View = memo["view"]
                return view
            if "whole" not in memo:
                memo["whole"] = await self.view_of(change.room, seat, None)
            whole_view: View = memo["whole"]
            return whole_view

        return Update(change.seq, change.action, change.chat_after, memo["view"], memo, whole)
