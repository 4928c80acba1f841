"""The room service: what the web layer, the bots and the table's clock call.

A façade over the parts that run rooms, each handed to it ready
(``app/service/build.py`` builds and wires them; the service builds none):
the one action path (``action_path.ActionPath``: load, decide, save, publish),
the views (``viewing.RoomViews``), seat tokens (``seats``), seat requests
(``claims``), presence (``presence``) and the live streams (``following``).
Here a room is opened, a newcomer seated, a player's action stamped and
limited, before each goes down the action path. What a route gets back is a
view, never a room: hidden information is cut away before anything leaves the
service.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass

from app.rules.actions import Action, Allow, Create, Drop, Join, Kick, Refuse, Say, Start, Watch
from app.rules.deck import Deck
from app.rules.errors import BadLanguage
from app.rules.state import Room
from app.rules.view_types import HistoryOut, Own
from app.rules.views import Audience, Viewer
from app.service.action_path import NO_DECK, ActionFor, ActionPath, AlsoSave, Listener
from app.service.claims import ClaimDesk
from app.service.clock import Clock
from app.service.cluster import Cluster
from app.service.codes import hash_token, new_room_code, new_token
from app.service.errors import ChatTooFast, RoomNotFound
from app.service.following import Follower, Moved, Update
from app.service.history import HistoryBook
from app.service.hub import Ping, RoomHub
from app.service.in_memory import RoomsInMemory
from app.service.legends import LegendBook
from app.service.locks import RoomLocks
from app.service.meter import Meter, Metered
from app.service.presence import PresenceReports, PresenceTracker
from app.service.ratelimit import RateLimiter
from app.service.replay import Replay
from app.service.room_state import CommonState, Legend, RoomState
from app.service.seats import Seat, SeatBook
from app.service.store import CodeTaken, Logged, Record, RoomStore, SeatRecord
from app.service.stream_slots import StreamSlot
from app.service.viewing import RoomViews


@dataclass(frozen=True)
class Seated:
    """A new seat: its room, its token (the one time it is told) and its number."""

    code: str
    token: str
    seat: int


@dataclass(frozen=True)
class Watching:
    """A new watcher: their room, their token (told this once) and their id."""

    code: str
    token: str
    watcher: int


class RoomService:
    def __init__(
        self,
        path: ActionPath,
        views: RoomViews,
        seats: SeatBook,
        claims: ClaimDesk,
        reports: PresenceReports,
        following: Follower,
        *,
        chat_limits: RateLimiter,
    ) -> None:
        """``chat_limits``: per seat and per process, a few lines at once, then about one
        a second (``build.build_service``'s default)."""
        self.path = path
        self.views = views
        self.seats = seats
        self.claims = claims
        self.reports = reports
        self.following = following
        self.chat_limits = chat_limits

    # The parts the path and the views were handed, read here (housekeeping, metrics,
    # the web layer): read-only, since a part swapped on the façade alone would leave
    # the path on the old one.

    @property
    def store(self) -> RoomStore:
        return self.path.store

    @property
    def in_memory(self) -> RoomsInMemory:
        return self.path.in_memory

    @property
    def locks(self) -> RoomLocks:
        return self.path.locks

    @property
    def hub(self) -> RoomHub:
        return self.path.hub

    @property
    def replay(self) -> Replay:
        return self.path.replay

    @property
    def legends(self) -> LegendBook:
        return self.path.legends

    @property
    def cluster(self) -> Cluster:
        return self.path.cluster

    @property
    def clock(self) -> Clock:
        return self.path.clock

    @property
    def meter(self) -> Meter:
        return self.path.meter

    @property
    def deck(self) -> Deck:
        return self.path.deck

    @property
    def decks(self) -> Mapping[str, Deck]:
        """The deck of each language a room may play in: rooms choose among these."""
        return self.path.decks

    @property
    def languages(self) -> list[str]:
        return self.views.languages

    @property
    def bot_languages(self) -> frozenset[str]:
        """The languages this server's bots speak: none without the bots' brain."""
        return self.path.bot_languages

    @property
    def after_change(self) -> list[Listener]:
        """Told of each room this process changes or first reads (the bots' table and
        the table's clock join it as they start)."""
        return self.path.after_change

    @property
    def presence(self) -> PresenceTracker:
        return self.reports.tracker

    @property
    def history_book(self) -> HistoryBook:
        return self.views.history_book

    # --- creating and joining -------------------------------------------------

    async def create(self, name: str, decoys: int, language: str = "en") -> Seated:
        """A new room with its creator as host in seat 0 (metered as a ``create``)."""
        with Metered(self.meter, "create"):
            return await self._create(name, decoys, language)

    async def _create(
        self, name: str, decoys: int, language: str, *, practice: bool = False
    ) -> Seated:
        """The room's opening is an action like any other, on the one action path: applied
        to no room (``engine.unopened``), saved over none, told to the streams."""
        if language not in self.decks:
            raise BadLanguage(NO_DECK)
        token = new_token()
        opening = Create(name, decoys, language, practice=practice)

        def seat_record(room: Room) -> list[Record]:
            return [SeatRecord(hash_token(token), room.code, room.players[0].pid, self.clock())]

        for _ in range(20):
            code = new_room_code()
            try:
                await self.path.change(
                    code, None, lambda _room: opening, also=seat_record, opens=True
                )
            except CodeTaken:
                continue  # draw another code
            self.seats.remember(hash_token(token), Seat(code, 0))
            await self.reports.arrived(code, 0)
            return Seated(code, token, 0)
        raise RuntimeError("could not find a free room code")

    async def practice(self, name: str, language: str = "en") -> Seated:
        """A practice table: its creator, two bots and the practice deal of ``language``,
        dealt at once (a ``create`` then a ``start``, each on the one action path)."""
        with Metered(self.meter, "create"):
            seated = await self._create(name, 1, language, practice=True)
        host = (await self.load(seated.code)).players[0].pid
        await self.apply(seated.code, host, lambda _room: self.path.stamped(Start()))
        return seated

    async def join(self, code: str, name: str) -> Seated:
        """Seat a newcomer in the lobby."""
        token = new_token()

        def seat_record(room: Room) -> list[Record]:
            return [SeatRecord(hash_token(token), code, room.players[-1].pid, self.clock())]

        room = await self.apply(code, None, lambda _room: Join(name), also=seat_record)
        pid = room.players[-1].pid
        self.seats.remember(hash_token(token), Seat(code, pid))
        await self.reports.arrived(code, pid)
        return Seated(code, token, len(room.players) - 1)

    async def watch(
        self, code: str, name: str, by: Seat | None = None, presented: str | None = None
    ) -> Watching:
        """A newcomer watches the room. Their token is given as a seat's is, over their
        pid, so it opens the room for them as a watcher, and as a player once they sit.

        ``by``: the seat the asking device already holds in this room, if any; the rules
        refuse it (a player does not watch their own table under another name).
        ``presented``: the token the asking device carries for this room, if any: one
        that stood for a watcher the host sent away does not watch again for a while."""
        former = None if by is not None else await self.seats.token(code, presented)
        token = new_token()

        def seat_record(room: Room) -> list[Record]:
            # Seen now, before the save: a presence report decided meanwhile must not
            # count the newcomer away and let the next one take their place.
            self.presence.touch(code, room.watchers[-1].pid)
            return [SeatRecord(hash_token(token), code, room.watchers[-1].pid, self.clock())]

        asking = None if by is None else by.pid
        watch = Watch(name, former=-1 if former is None else former.pid)
        room = await self.apply(code, asking, lambda _room: watch, also=seat_record)
        pid = room.watchers[-1].pid
        self.seats.remember(hash_token(token), Seat(code, pid))
        await self.reports.arrived(code, pid)
        return Watching(code, token, pid)

    async def seat_moved(self, code: str, token: str | None) -> bool:
        """Whether ``token`` opened a seat of ``code`` now played from another device."""
        return await self.seats.moved(code, token)

    # --- acting -------------------------------------------------------------------

    async def act(
        self, code: str, seat: Seat, action: Action, expect_seq: int | None = None
    ) -> Update:
        """A player's action, and the room it made as their seat sees it.

        Marks them present first, so absence never blocks them. Chat is limited
        per seat: a burst, then about a line a second. Metered whole, from the read
        of the room until the change is saved and told to the streams.
        """
        with Metered(self.meter, action.type):
            return await self._act(code, seat, action, expect_seq)

    async def _act(self, code: str, seat: Seat, action: Action, expect_seq: int | None) -> Update:
        self.presence.touch(code, seat.pid)
        if isinstance(action, Say) and not self.chat_limits.allow(f"{code}:{seat.pid}"):
            raise ChatTooFast()
        # A room let go of from memory is read first: it may show them away.
        cached = self.in_memory.get(code) or await self.load(code)
        shown_here = any(p.pid == seat.pid and p.present for p in cached.players) or any(
            w.pid == seat.pid and w.present for w in cached.watchers
        )
        if isinstance(action, Kick | Drop | Allow | Refuse) or not shown_here:
            # Removing someone, or answering a request for their seat, must judge presence
            # as it is now, not as of the last sweep: a player back for 3 s is here.
            await self.sync_presence(code)
        action = self.path.stamped(action)
        change = await self.path.change(code, seat.pid, lambda _: action, expect_seq=expect_seq)
        return await self.following.update(change, seat.pid)

    async def apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        *,
        expect_seq: int | None = None,
        also: AlsoSave | None = None,
    ) -> Room:
        """Apply one action to one room, save it, then publish (``ActionPath.apply``):
        the server's own actions (presence, timeouts, the bots') and the newcomers'."""
        return await self.path.apply(code, pid, action_for, expect_seq=expect_seq, also=also)

    # --- reading ----------------------------------------------------------------

    async def load(self, code: str) -> Room:
        """The room as last committed (by any process)."""
        return await self.path.load(code)

    async def ensure_room(self, code: str, pid: int | None = None) -> None:
        """``RoomNotFound`` unless there is a room ``code`` that the player or watcher
        ``pid`` (``None``: anyone) may see: a practice table is its player's alone."""
        room = await self.load(code)
        if room.practice and (pid is None or room.seat_of(pid) is None):
            raise RoomNotFound()

    async def view(self, code: str, pid: int | None) -> RoomState:
        """``RoomViews.view``: the room as ``pid`` may see it (``None``: the public view)."""
        return await self.views.view(code, pid)

    async def room_view(self, room: Room, seat: Viewer, chat_after: int | None = None) -> RoomState:
        return await self.views.room_view(room, seat, chat_after)

    def own_view(self, room: Room, seat: Viewer) -> Own:
        return self.views.own_view(room, seat)

    async def common_view(
        self, room: Room, shared_by: Audience, chat_after: int | None = None
    ) -> CommonState:
        return await self.views.common_view(room, shared_by, chat_after)

    async def history(self, code: str) -> HistoryOut:
        """``RoomViews.history``: the current game's checked clovers, the same for all."""
        return await self.views.history(code)

    async def room_history(self, room: Room) -> HistoryOut:
        return await self.views.room_history(room)

    async def seat_for(self, code: str, token: str | None) -> Seat | None:
        return await self.seats.seat_for(code, token)

    async def legends_of(
        self,
        *,
        players: int | None = None,
        decoys: int | None = None,
        room: str | None = None,
        limit: int = 20,
        language: str | None = None,
    ) -> list[Legend]:
        return await self.legends.listed(
            players=players, decoys=decoys, room=room, limit=limit, language=language
        )

    def touch(self, code: str, pid: int) -> None:
        """A sign of life from a player (a page load, a read)."""
        self.presence.touch(code, pid)

    # --- following a room live ---------------------------------------------------

    def follow(
        self, code: str, seat: Seat | None, last: int | None = None
    ) -> AsyncIterator[Update | Ping | Moved]:
        """The room as ``seat`` sees it, change after change (see ``Follower.follow``)."""
        if seat is None:
            return self.following.follow(code, None, last)
        return self.following.follow(code, seat.pid, last, seat.device)

    def hold_stream(self, seat: Seat | None) -> StreamSlot | None:
        """A place for one more live stream of ``seat``'s token, given back when the
        stream ends (``StreamSlot.release``); ``TooManyStreams`` past
        ``STREAMS_PER_SEAT``. Someone with no seat holds none: each of their streams
        counts as a lookup instead."""
        return None if seat is None else self.following.slots.take(seat)

    def followed(self) -> set[str]:
        """Rooms this process keeps a copy of: the ones to catch up after a lost link."""
        return self.in_memory.codes()

    def behind(self, code: str, seq: int) -> bool:
        """Whether news that ``code`` is at ``seq`` is worth reading now: our copy is
        behind it, and the room is served here (streamed, or a sign of life of one of its
        players lately). A copy of a room served elsewhere (the one its creator made
        here, say, when a proxy sends each room to one worker) is not brought along at
        every change: it is read again if it is asked for, as a copy that may be behind
        always is (``load``, and a save refused as stale)."""
        cached = self.in_memory.get(code)
        return (
            cached is not None
            and cached.seq < seq
            and (self.hub.streamed(code) or self.presence.in_use(code))
        )

    async def catch_up(
        self, code: str, seq: int | None = None, logged: Sequence[Logged] | None = None
    ) -> None:
        """Another process changed ``code`` (up to ``seq``, by ``logged`` if given): bring
        our copy and streams along."""
        await self.replay.catch_up(code, seq, logged)

    # --- presence ---------------------------------------------------------------

    async def sync_presence(self, code: str, present: frozenset[int] | None = None) -> None:
        """Report who is present to the room (pids in ``present``), if that changed
        (``PresenceReports.sync``): a ``Presence`` action through the one action path."""
        await self.reports.sync(code, present)

    async def present_in(self, codes: list[str]) -> dict[str, frozenset[int]]:
        """Who is present in each room: as this process sees it, or any process lately."""
        return await self.reports.present_in(codes)
