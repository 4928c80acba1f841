"""Following a room live: every change, in order, as one seat may see it.

A stream never holds a room: it is handed ``Update``s, each one change as its
seat may see it; what streams build from it (their JSON, their HTML) is built
once per change and seat and shared by every stream of that seat. Every watcher
reads one and the same view (``views.WATCHER``), so all their streams share one
rendering, however many they are. And seats that know the same (a room's guessers)
share the common part of their views (``views.audience``): the JSON stream encodes
it once for all of them, and each seat adds only who it is and what it may do.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Literal, Protocol

from app.rules.state import Room
from app.rules.view_types import Own
from app.rules.views import Audience, Viewer, audience, viewer_of
from app.service.hub import Change, EventAction, Ping, RoomHub, ServerStopping
from app.service.presence import PresenceTracker
from app.service.room_state import CommonState, RoomState
from app.service.stream_slots import StreamSlots


class Views(Protocol):
    """The service's views of a room (``viewing.RoomViews``): a viewer's whole, and the part
    one audience shares (``views.audience``)."""

    async def room_view(
        self, room: Room, seat: Viewer, chat_after: int | None = None
    ) -> RoomState: ...

    async def common_view(
        self, room: Room, shared_by: Audience, chat_after: int | None = None
    ) -> CommonState: ...

    def own_view(self, room: Room, seat: Viewer) -> Own: ...


class Update:
    """One change of a room, as one seat may see it.

    The view is built when a stream asks for it; what a stream builds from it (its
    JSON, its HTML) the web layer keeps by the change (``change``) and the seat
    (``viewer``), or the audience whose common part it is (``audience``), for the
    other streams that send the same (``app/web/renderings.py``).
    """

    __slots__ = ("_audience", "_views", "action", "change", "chat_after", "seq", "viewer")

    def __init__(self, change: Change, seat: Viewer, views: Views) -> None:
        self.seq = change.seq
        self.action: EventAction | None = change.action
        """Who did what (``None``: the room as it is now, sent whole)."""
        self.chat_after = change.chat_after
        """``view()['chat']`` holds the lines after this chat line id; ``None``: all of it."""
        self.change = change
        self.viewer = seat
        """Whom this update is for: a seat, any watcher, or someone with neither."""
        self._views = views
        self._audience: Audience | Literal[False] = False

    @property
    def audience(self) -> Audience:
        """The seats that see the same common part of the view (``views.audience``),
        worked out once: a stream asks for it to look up the common part's JSON, and
        again to build it."""
        if self._audience is False:
            self._audience = audience(self.change.room, self.viewer)
        return self._audience

    async def common_view(self) -> CommonState:
        """The common part of this seat's view, the same for its whole audience."""
        return await self._views.common_view(self.change.room, self.audience, self.chat_after)

    async def view(self) -> RoomState:
        """The seat's view after this change, its chat as ``chat_after`` says. Built anew
        at each call: a stream keeps what it makes of it, not the view (an idle stream
        holds its last update, and five thousand views are a lot for the collector)."""
        return await self._views.room_view(self.change.room, self.viewer, self.chat_after)

    async def whole(self) -> RoomState:
        """The same view with the whole recent chat."""
        return await self._views.room_view(self.change.room, self.viewer, None)

    def own(self) -> Own:
        """What is this seat's own in its view (``views.own``)."""
        return self._views.own_view(self.change.room, self.viewer)


class StreamViewer:
    """Whom one stream's changes are for (``views.viewer_of``), worked out again only
    when the room's players or watchers are no longer the ones it was worked out from:
    else each of a room's fifty watchers' streams would look through its fifty watchers
    at every change."""

    __slots__ = ("_players", "_viewer", "_watchers", "pid")

    def __init__(self, pid: int | None) -> None:
        self.pid = pid
        self._players: object = None
        self._watchers: object = None
        self._viewer: Viewer = None

    def __call__(self, room: Room) -> Viewer:
        if room.players is not self._players or room.watchers is not self._watchers:
            self._players, self._watchers = room.players, room.watchers
            self._viewer = viewer_of(room, self.pid)
        return self._viewer


class Moved:
    """The last thing a stream is handed when its seat moved to another device: the
    device it serves may no longer see what the seat sees."""


MOVED = Moved()


class Follower:
    def __init__(
        self,
        hub: RoomHub,
        presence: PresenceTracker,
        load: Callable[[str], Awaitable[Room]],
        views: Views,
        sync_presence: Callable[[str], Awaitable[None]],
        slots: StreamSlots | None = None,
    ) -> None:
        self.hub = hub
        self.presence = presence
        self.load = load
        self.views = views
        self.sync_presence = sync_presence
        self.slots = slots or StreamSlots()
        """The live streams each seat token holds open here (``stream_slots``)."""

    async def follow(
        self, code: str, pid: int | None, last: int | None = None, device: str = ""
    ) -> AsyncIterator[Update | Ping | Moved]:
        """Every change of ``code`` from now on, in seq order, each exactly once.

        It starts with what the follower missed since ``last`` when the hub
        still holds it, else with the current state (an ``Update`` whose
        ``action`` is ``None``). A follower that falls too far behind is sent
        the current state again. While it follows, the player ``pid`` is present.
        Now and then it gives a ``Ping``: time for the stream to show it is alive.
        Once the seat of ``pid`` is played from a device other than ``device``, it
        gives ``MOVED`` and ends; it ends too when the server stops.
        """
        sub = self.hub.subscribe(code, pid)
        whom = StreamViewer(pid)
        if pid is not None:
            self.presence.connected(code, pid)
        try:
            if pid is not None:
                await self.sync_presence(code)
            room = await self.load(code)
            missed = None if last is None or last > room.seq else self.hub.since(code, last)
            if missed is None:
                if self._moved(room, pid, device):
                    yield MOVED
                    return
                yield Update(Change(room.seq, room, None), whom(room), self.views)
                sent = room.seq
            else:
                for change in missed:
                    if self._moved(change.room, pid, device):
                        yield MOVED
                        return
                    yield Update(change, whom(change.room), self.views)
                sent = max([last or 0, *(c.seq for c in missed)])
            # A stream lives for hours: it holds on to no room, no change, of its start.
            del room, missed
            while True:
                item = await sub.get()
                if isinstance(item, ServerStopping):
                    return  # the server is stopping
                if isinstance(item, Ping):
                    yield item
                    continue
                if sub.fell_behind():
                    current = await self.load(code)
                    if self._moved(current, pid, device):
                        yield MOVED
                        return
                    yield Update(Change(current.seq, current, None), whom(current), self.views)
                    sent = current.seq
                    continue
                if item.seq <= sent:
                    continue
                if self._moved(item.room, pid, device):
                    yield MOVED
                    return
                if item.seq > sent + 1:
                    gap = self.hub.since(code, sent)
                    if gap is None:
                        current = await self.load(code)
                        whole = Change(current.seq, current, None)
                        yield Update(whole, whom(current), self.views)
                        sent = current.seq
                        continue
                    for earlier in gap:
                        if earlier.seq < item.seq:
                            yield Update(earlier, whom(earlier.room), self.views)
                yield Update(item, whom(item.room), self.views)
                sent = item.seq
        finally:
            self.hub.unsubscribe(sub)
            if pid is not None:
                self.presence.disconnected(code, pid)

    @staticmethod
    def _moved(room: Room, pid: int | None, device: str) -> bool:
        seat = None if pid is None else room.seat_of(pid)
        return seat is not None and room.players[seat].device != device

    async def update(self, change: Change, pid: int | None) -> Update:
        """``change`` for the seat of ``pid``, or for any watcher if ``pid`` watches."""
        return Update(change, viewer_of(change.room, pid), self.views)
