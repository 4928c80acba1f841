"""The room service: load, apply, save, publish. The one action path.

Every change to a room, from its opening, a player's tap, an API call or the
server's own presence report, goes through ``RoomService.apply``: under the room's lock it
takes our copy of the room, lets the rules engine apply the action, saves the
new state with the action's records and the next ``seq`` in one transaction
(over the ``seq`` it was read at: another process that got there first makes
us replay our copy up to the stored one, ``Replay.as_stored``, and decide
again), and only then tells the streams.
An action answered 200 is on disk; a refused one changed nothing.

The service stamps what the rules may not make up themselves: the time of a
chat line and the seed of a deal. What a route gets back is a view, never a
room: hidden information is cut away before anything leaves the service.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any, TypeVar

from app.rules.actions import (
    Action,
    AddBot,
    Allow,
    Create,
    Drop,
    Join,
    Kick,
    Language,
    Presence,
    Refuse,
    Say,
    StandIn,
    Start,
    Timeout,
    Watch,
)
from app.rules.allowed import BOTS_SPEAK, why_no_bots
from app.rules.codec import action_to_data, room_to_data
from app.rules.deck import Deck
from app.rules.engine import play, unopened
from app.rules.errors import BadLanguage, RuleError, TimeUp
from app.rules.state import LANGUAGES, UNOPENED, Room
from app.rules.text import N_
from app.rules.view_types import HistoryOut, Own
from app.rules.views import Audience, Viewer, audience, common, history_view, own, viewer_of
from app.service.claims import ClaimDesk
from app.service.clock import Clock, epoch_ms, iso, utcnow
from app.service.cluster import Cluster, LocalCluster
from app.service.codes import hash_token, new_room_code, new_seed, new_token
from app.service.errors import (
    ChatTooFast,
    NoBots,
    NotSeated,
    RoomNotFound,
    StaleAction,
)
from app.service.following import Follower, Moved, Update
from app.service.history import HistoryBook
from app.service.hub import Change, Ping, RoomHub, change_after
from app.service.in_memory import RoomsInMemory
from app.service.legends import LegendBook
from app.service.locks import RoomLocks
from app.service.meter import UNMETERED, Meter, Metered
from app.service.presence import PresenceTracker
from app.service.ratelimit import RateLimiter
from app.service.replay import Replay
from app.service.room_state import CommonState, Legend, RoomState
from app.service.seats import Seat, SeatBook
from app.service.store import ActionRecord, CodeTaken, Logged, Record, RoomStore, SeatRecord

T = TypeVar("T")

CHECKPOINTS = (Start,)
"""Actions whose resulting state is logged whole: replays start there."""
ATTEMPTS = 5
"""Times an action is decided again when another process saved the room first."""
TABLE_LEGENDS = 5
"""Legends of the table's size shown on the end screen."""

ActionFor = Callable[[Room], Action | None]
"""Builds the action from the room as it is under the lock; ``None``: nothing to do."""
AlsoSave = Callable[[Room], list[Record]]
"""More records to save with the action, given the new room (a newcomer's seat)."""

log = logging.getLogger(__name__)


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


NO_DECK = N_("This table has no deck in that language: choose one it offers.")


class RoomService:
    def __init__(
        self,
        store: RoomStore,
        deck: Deck,
        hub: RoomHub,
        locks: RoomLocks,
        presence: PresenceTracker,
        cluster: Cluster | None = None,
        clock: Clock = utcnow,
        chat_limits: RateLimiter | None = None,
        decks: Mapping[str, Deck] | None = None,
        meter: Meter = UNMETERED,
    ) -> None:
        self.store = store
        self.deck = deck
        self.decks: dict[str, Deck] = {**(decks or {}), "en": deck}
        """The deck of each language a room may play in: rooms choose among these."""
        self.languages = [language for language in LANGUAGES if language in self.decks]
        self.hub = hub
        self.locks = locks
        self.presence = presence
        self.cluster: Cluster = cluster or LocalCluster({})
        self.clock = clock
        self.meter = meter
        """Told of every action and save (the metrics page's, ``app/metrics.py``)."""
        self.bot_languages: frozenset[str] = frozenset()
        """The languages this server's bots speak: none without the bots' brain."""
        self.after_change: list[Callable[[Room], None]] = []
        """Called with each room this process changes or first reads (the bots' table)."""
        self.chat_limits = chat_limits or RateLimiter(60, burst=8)
        """Per seat and per process: a few lines at once, then about one a second."""
        self.in_memory = RoomsInMemory(store, self._first_read)
        self.legends = LegendBook(store, self.in_memory)
        self.seats = SeatBook(store, self.in_memory.get, self.load)
        self.replay = Replay(store, self.in_memory, hub, locks, self.legends, deck.cards)
        self.history_book = HistoryBook(store)
        self.claims = ClaimDesk(self.apply, self.load, self.seats, self.clock)
        self.following = Follower(hub, presence, self.load, self, self.sync_presence)

    # --- creating and joining -------------------------------------------------

    async def create(self, name: str, decoys: int, language: str = "en") -> Seated:
        """A new room with its creator as host in seat 0 (metered as a ``create``)."""
        with Metered(self.meter, "create"):
            return await self._create(name, decoys, language)

    async def _create(self, name: str, decoys: int, language: str) -> Seated:
        """The room's opening is an action like any other, on the one action path: applied
        to no room (``engine.unopened``), saved over none, told to the streams."""
        if language not in self.decks:
            raise BadLanguage(NO_DECK)
        token = new_token()
        opening = Create(name, decoys, language)

        def seat_record(room: Room) -> list[Record]:
            return [SeatRecord(hash_token(token), room.code, room.players[0].pid, self.clock())]

        for _ in range(20):
            code = new_room_code()
            try:
                await _run_to_completion(
                    self._apply(code, None, lambda _room: opening, None, seat_record, opens=True)
                )
            except CodeTaken:
                continue  # draw another code
            self.seats.remember(hash_token(token), Seat(code, 0))
            await self._arrived(code, 0)
            return Seated(code, token, 0)
        raise RuntimeError("could not find a free room code")

    async def join(self, code: str, name: str) -> Seated:
        """Seat a newcomer in the lobby."""
        token = new_token()

        def seat_record(room: Room) -> list[Record]:
            return [SeatRecord(hash_token(token), code, room.players[-1].pid, self.clock())]

        room = await self.apply(code, None, lambda _room: Join(name), also=seat_record)
        pid = room.players[-1].pid
        self.seats.remember(hash_token(token), Seat(code, pid))
        await self._arrived(code, pid)
        return Seated(code, token, len(room.players) - 1)

    async def watch(self, code: str, name: str, by: Seat | None = None) -> Watching:
        """A newcomer watches the room. Their token is given as a seat's is, over their
        pid, so it opens the room for them as a watcher, and as a player once they sit.

        ``by``: the seat the asking device already holds in this room, if any; the rules
        refuse it (a player does not watch their own table under another name)."""
        token = new_token()

        def seat_record(room: Room) -> list[Record]:
            # Seen now, before the save: a presence report decided meanwhile must not
            # count the newcomer away and let the next one take their place.
            self.presence.touch(code, room.watchers[-1].pid)
            return [SeatRecord(hash_token(token), code, room.watchers[-1].pid, self.clock())]

        asking = None if by is None else by.pid
        room = await self.apply(code, asking, lambda _room: Watch(name), also=seat_record)
        pid = room.watchers[-1].pid
        self.seats.remember(hash_token(token), Seat(code, pid))
        await self._arrived(code, pid)
        return Watching(code, token, pid)

    async def _arrived(self, code: str, pid: int) -> None:
        """A first sign of life of a newcomer (a room's creator, a new seat or watcher),
        told to the other processes at once rather than at this one's next sweep: in
        between, another process serving the room would see them away (a proxy sends the
        room's next requests to the server of its own), and the host's controls would
        pass to someone else for a few seconds."""
        self.presence.touch(code, pid)
        if self.cluster.shared:
            try:
                await self.cluster.seen({code: self.presence.signs(code)}, self.presence.grace)
            except Exception:  # the seat is taken and saved: the next sweep tells the rest
                log.warning("newcomer to %s not told to the other processes yet", code)

    async def seat_moved(self, code: str, token: str | None) -> bool:
        """Whether ``token`` opened a seat of ``code`` now played from another device."""
        return await self.seats.moved(code, token)

    # --- the one action path ----------------------------------------------------

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
        action = self._stamped(action)
        change = await _run_to_completion(
            self._apply(code, seat.pid, lambda _: action, expect_seq, None)
        )
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
        """Apply one action to one room, save it, then publish. See the module docstring.

        Once begun, an action runs to its end even if its caller goes away (a
        phone dropping mid-request): a write cancelled half-way could commit
        while our copy of the room stayed behind.

        Metered by the type of the action ``action_for`` builds; nothing to do is no
        action, and is not counted.
        """
        with Metered(self.meter) as metered:

            def named(room: Room) -> Action | None:
                action = action_for(room)
                if action is not None:
                    metered.kind = action.type
                return action

            change = await _run_to_completion(self._apply(code, pid, named, expect_seq, also))
        return change.room

    async def _apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
        *,
        opens: bool = False,
    ) -> Change:
        """``opens``: the action opens the room ``code``, from none; saved only while no
        other room has that code (``CodeTaken`` else)."""
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
                action, seat, new, records, finished = decided
                try:
                    await self._save(room.seq, new, records)
                except StaleAction:
                    # Another process saved this room first: catch up and decide again.
                    room, fresh = await self.replay.as_stored(code), True
                    continue
                if finished:
                    self.legends.forget(code)
                self.in_memory.put(new)
                change = change_after(action, seat, room, new, None if timing_out else pid)
                self.hub.publish(code, change)
                for listener in self.after_change:
                    listener(new)
                if timing_out:
                    # The seq the action was sent at was the room's: it still counts.
                    room, expect_seq = new, None if expect_seq is None else new.seq
                    continue
                return change
            raise StaleAction()

    async def _save(self, old_seq: int, new: Room, records: list[Record]) -> None:
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

    def _decide(
        self,
        room: Room,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
    ) -> tuple[Action, int | None, Room, list[Record], bool] | None:
        """The action, the acting seat, the next room, the records to save, and whether
        the game finished; ``None``: nothing to do.

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
        if played.finished:
            records.append(self.legends.record(new, now))
        return action, seat, new, records, played.finished

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

    def _stamped(self, action: Action) -> Action:
        """The seed of a deal and the time of a chat line come from the server alone."""
        if isinstance(action, Start):
            return replace(action, seed=new_seed())
        if isinstance(action, Say):
            return replace(action, at=iso(self.clock()))
        return action

    # --- reading ----------------------------------------------------------------

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

    def _first_read(self, room: Room) -> None:
        # Players shown present before a restart get the grace period to come back.
        for player in room.players:
            if player.present and not player.bot:
                self.presence.touch(room.code, player.pid)
        for listener in self.after_change:  # a room read again after a restart: its bots
            listener(room)

    async def ensure_room(self, code: str) -> None:
        """``RoomNotFound`` unless there is a room ``code``."""
        await self.load(code)

    async def view(self, code: str, pid: int | None) -> RoomState:
        """The room as the player or watcher ``pid`` may see it (``None``, or neither: the
        public view), with the whole recent chat. ``RoomNotFound`` if there is no such room."""
        room = await self.load(code)
        return await self.room_view(room, viewer_of(room, pid))

    async def room_view(self, room: Room, seat: Viewer, chat_after: int | None = None) -> RoomState:
        """The per-seat view (``seat`` may be any watcher: see ``views.WATCHER``), plus
        what the Record of Legends says of this room."""
        common_part = await self.common_view(room, audience(room, seat), chat_after)
        return {**self.own_view(room, seat), **common_part}

    def own_view(self, room: Room, seat: Viewer) -> Own:
        """``views.own``: who reads the view and what they may do, bots offered where
        this server's bots play."""
        return own(room, seat, self.bot_languages)

    async def common_view(
        self, room: Room, shared_by: Audience, chat_after: int | None = None
    ) -> CommonState:
        """``room_view`` but for its ``views.own`` part: the same for every viewer of
        ``shared_by`` (see ``views.audience``), built once for all of them."""
        data = common(
            room,
            shared_by,
            chat_after=chat_after,
            languages=self.languages,
            bot_languages=self.bot_languages,
        )
        finished = room.phase == "finished"
        return {
            **data,
            "best": await self.legends.best(room.code),
            "record": finished and await self.legends.is_record(room.code),
            "legends": (
                await self.legends.listed(players=len(room.players), limit=TABLE_LEGENDS)
                if finished
                else None
            ),
            # The end screen shows the whole game again; during the game the history is a
            # read of its own (GET .../history), not a weight on every move's view.
            "history": (await self.room_history(room))["clovers"] if finished else None,
        }

    async def history(self, code: str) -> HistoryOut:
        """The current game's checked clovers, with their tries: the same for every seat
        and for anyone with the room's code (``views.history_view``). ``RoomNotFound`` if
        there is no such room."""
        return await self.room_history(await self.load(code))

    async def room_history(self, room: Room) -> HistoryOut:
        """``history`` of a room at hand."""
        return history_view(await self.history_book.settled(room))

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
        """Report who is present to the room (pids in ``present``), if that changed.

        The tracker only counts signs of life; here its answer becomes a
        ``Presence`` action through the one action path, so a player coming and
        going is saved, numbered and broadcast like any other change. Without
        ``present``: what this process sees, or with several processes, what any
        of them has seen lately.
        """
        if present is None:
            present = (await self.present_in([code])).get(code, frozenset())

        def presence_for(room: Room) -> Action | None:
            seats = frozenset(s for s, p in enumerate(room.players) if p.pid in present or p.bot)
            shown = frozenset(s for s, p in enumerate(room.players) if p.present)
            # A watcher this process saw since ``present`` was read is here too: one who
            # came meanwhile must not be shown away, and lose their place to the next.
            seen = present | self.presence.present(code)
            watching = frozenset(w.pid for w in room.watchers if w.pid in seen)
            watched = frozenset(w.pid for w in room.watchers if w.present)
            if seats == shown and watching == watched:
                return None
            return Presence(seats, watching)

        cached = self.in_memory.get(code)
        if cached is not None and presence_for(cached) is None:
            return  # nothing changed: no transaction needed
        try:
            await self.apply(code, None, presence_for)
        except RoomNotFound:
            self.presence.forget(code)

    async def present_in(self, codes: list[str]) -> dict[str, frozenset[int]]:
        """Who is present in each room: as this process sees it, or any process lately."""
        tracker = self.presence
        if not self.cluster.shared:
            return {code: tracker.present(code) for code in codes}
        await self.cluster.seen({code: tracker.signs(code) for code in codes}, tracker.grace)
        shared = await self.cluster.present(codes, tracker.grace)
        # Whom this process saw lately is present, whatever the table has caught up with.
        return {code: shared.get(code, frozenset()) | tracker.present(code) for code in codes}


async def _run_to_completion(work: Coroutine[Any, Any, T]) -> T:
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
