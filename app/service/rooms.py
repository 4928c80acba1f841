"""The room service: load, apply, save, publish. The one action path.

Every change to a room, from a player's tap, an API call or the server's own
presence report, goes through ``RoomService.apply``: it holds the room's
lock, loads the room inside a write transaction, lets the rules engine apply
the action, saves the new state together with the action row and the new
``seq``, commits, and only then tells the streams. An action answered 200 is
on disk; a refused one changed nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import Connection, Table, bindparam, delete, desc, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker
from sqlmodel import SQLModel
from sqlmodel.ext.asyncio.session import AsyncSession

from app.db.models import ActionRow, LegendRow, RoomRow, SeatRow
from app.db.writer import SqliteWriter
from app.rules import actions as act
from app.rules.codec import (
    ACTION_NAMES,
    action_from_data,
    action_to_data,
    room_from_data,
    room_to_data,
)
from app.rules.deck import Deck
from app.rules.engine import apply, new_room
from app.rules.scoring import max_score
from app.rules.state import Room
from app.rules.views import View, view
from app.service.cluster import Cluster, LocalCluster
from app.service.codes import hash_token, new_room_code, new_token
from app.service.errors import ChatTooFast, NotSeated, RoomNotFound, StaleAction
from app.service.hub import Change, Ping, RoomHub
from app.service.locks import RoomLocks
from app.service.presence import PresenceTracker
from app.service.ratelimit import RateLimiter

log = logging.getLogger(__name__)
T = TypeVar("T")

CHECKPOINTS = (act.Start,)
"""Actions whose resulting state is logged whole: replays start there."""

Clock = Callable[[], datetime]
ActionFor = Callable[[Room], act.Action | None]
"""Builds the action from the room as it is under the lock; ``None``: nothing to do."""
AlsoSave = Callable[[Room], list["Row"]]
"""More rows to write with the action, given the new room (a newcomer's seat)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class Seat:
    """Who a token stands for: a player (by pid) in one room."""

    code: str
    pid: int


class RoomService:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        deck: Deck,
        hub: RoomHub,
        locks: RoomLocks,
        presence: PresenceTracker,
        cluster: Cluster | None = None,
        clock: Clock = utcnow,
        writer: SqliteWriter | None = None,
        chat_limits: RateLimiter | None = None,
    ) -> None:
        self.sessions = sessions
        self.cluster: Cluster = cluster or LocalCluster({})
        self.deck = deck
        self.hub = hub
        self.locks = locks
        self.presence = presence
        self.clock = clock
        self._rooms: dict[str, Room] = {}
        self._best: dict[str, dict[str, Any] | None] = {}
        self._record: dict[str, bool] = {}
        self._seats: dict[str, Seat] = {}
        self._reading: dict[tuple[str, str], asyncio.Future[Any]] = {}
        self.writer = writer
        """SQLite in one process: every write goes through its one writer thread."""
        self.chat_limits = chat_limits or RateLimiter(60, burst=8)
        """Per seat and per process: a few lines at once, then about one a second."""

    # --- creating and joining -------------------------------------------------

    async def create(self, name: str, decoys: int) -> tuple[Room, str]:
        """A new room with its creator as host; returns the room and the creator's token."""
        token = new_token()
        for _ in range(20):
            room = new_room(new_room_code(), name, decoys)
            now = self.clock()
            rows = [
                _room_row(room, now),
                _row(
                    ActionRow,
                    room=room.code,
                    seq=0,
                    seat=None,
                    action={"type": "create", "name": room.players[0].name, "decoys": decoys},
                    at=now,
                ),
                _row(SeatRow, token_hash=hash_token(token), room=room.code, pid=0, created_at=now),
            ]
            try:
                await self._insert(rows)
            except IntegrityError:
                continue  # that code is taken: draw another
            self._rooms[room.code] = room
            self._seats[hash_token(token)] = Seat(room.code, 0)
            self.presence.touch(room.code, 0)
            return room, token
        raise RuntimeError("could not find a free room code")

    async def join(self, code: str, name: str) -> tuple[Room, str, int]:
        """Seat a newcomer; returns the room, their token and their seat."""
        token = new_token()
        token_hash = hash_token(token)

        def seat_row(room: Room) -> list[Row]:
            return [
                _row(
                    SeatRow,
                    token_hash=token_hash,
                    room=code,
                    pid=room.players[-1].pid,
                    created_at=self.clock(),
                )
            ]

        room = await self.apply(code, None, lambda _room: act.Join(name), also=seat_row)
        pid = room.players[-1].pid
        self._seats[token_hash] = Seat(code, pid)
        self.presence.touch(code, pid)
        return room, token, len(room.players) - 1

    # --- the one action path ----------------------------------------------------

    async def act(
        self, code: str, seat: Seat, action: act.Action, expect_seq: int | None = None
    ) -> Change:
        """A player's action, and what it changed. Marks them present first, so absence
        never blocks them. Chat is limited per seat: a burst, then about a line a second."""
        self.presence.touch(code, seat.pid)
        if isinstance(action, act.Say) and not self.chat_limits.allow(f"{code}:{seat.pid}"):
            raise ChatTooFast()
        cached = self._rooms.get(code)
        if isinstance(action, act.Kick) or (
            cached is not None and not any(p.pid == seat.pid and p.present for p in cached.players)
        ):
            # A kick must judge presence as it is now, not as of the last sweep.
            await self.sync_presence(code)
        return await _to_the_end(
            self._apply(code, seat.pid, lambda _room: action, expect_seq, None)
        )

    async def apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        *,
        expect_seq: int | None = None,
        also: AlsoSave | None = None,
    ) -> Room:
        """Apply one action to one room, persist it, then notify. See the module docstring.

        Once begun, an action runs to its end even if its caller goes away (a
        phone dropping mid-request): a write cancelled half-way could commit
        in the writer thread while our copy of the room stayed behind, and
        every later action on that room would be refused as stale.
        """
        change = await _to_the_end(self._apply(code, pid, action_for, expect_seq, also))
        return change.room

    async def _apply(
        self,
        code: str,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
    ) -> Change:
        async with self.locks.hold(code):
            if self.writer is not None:
                # SQLite, one process: our copy is the truth and the room's lock is
                # held; decide on it, then write in one trip to the writer thread.
                room = self._rooms.get(code) or await self.load(code)
                decided = self._decide(room, pid, action_for, expect_seq, also)
                if decided is None:
                    return Change(room.seq, room, None)
                action, seat, new, rows = decided
                try:
                    await self.writer.write(lambda db: _save(db, room, new, rows))
                except StaleAction:
                    self._rooms.pop(code, None)  # our copy was behind the disk: read it again
                    raise
            else:
                async with self.sessions() as session, session.begin():
                    room = await self._load_for_update(session, code)
                    decided = self._decide(room, pid, action_for, expect_seq, also)
                    if decided is None:
                        return Change(room.seq, room, None)
                    action, seat, new, rows = decided
                    await session.run_sync(lambda s: _save(s.connection(), room, new, rows))
                    await self.cluster.room_changed(session, code, new.seq)
            if new.phase == "finished" and room.phase != "finished":
                self._forget_legends(code)
            self._rooms[code] = new
            change = Change(new.seq, new, happened(action, seat, room, new), room.last_chat_id())
            self.hub.publish(code, change)
        return change

    def _decide(
        self,
        room: Room,
        pid: int | None,
        action_for: ActionFor,
        expect_seq: int | None,
        also: AlsoSave | None,
    ) -> tuple[act.Action, int | None, Room, list[Row]] | None:
        """The action, the acting seat, the next room and the rows to write; ``None``: nothing.

        Raises the rules' refusal, or ``StaleAction``/``NotSeated``, before anything is written.
        """
        if expect_seq is not None and expect_seq != room.seq:
            raise StaleAction()
        seat = None
        if pid is not None:
            seat = room.seat_of(pid)
            if seat is None:
                raise NotSeated("You are no longer seated in this room.")
        action = action_for(room)
        if action is None:
            return None
        new = apply(room, seat, action, deck=self.deck.cards)
        if isinstance(action, act.Join):
            seat = len(new.players) - 1
        now = self.clock()
        rows: list[Row] = [
            _row(
                ActionRow,
                room=room.code,
                seq=new.seq,
                seat=seat,
                player=new.players[seat].pid if isinstance(action, act.Join) else pid,
                action=action_to_data(action),
                at=now,
                state=room_to_data(new) if isinstance(action, CHECKPOINTS) else None,
            )
        ]
        if also is not None:
            rows.extend(also(new))
        if new.phase == "finished" and room.phase != "finished":
            rows.append(_legend(new, now))
        return action, seat, new, rows

    async def _insert(self, rows: list[Row]) -> None:
        """Insert rows in one write transaction (IntegrityError if a key is taken)."""
        if self.writer is not None:
            await self.writer.write(lambda db: _insert_rows(db, rows))
            return
        async with self.sessions() as session, session.begin():
            await session.run_sync(lambda s: _insert_rows(s.connection(), rows))

    async def _load_for_update(self, session: AsyncSession, code: str) -> Room:
        """The room, locked for this transaction (a row lock on PostgreSQL)."""
        seq = (
            await session.execute(select(RoomRow.seq).where(RoomRow.code == code).with_for_update())
        ).scalar_one_or_none()
        if seq is None:
            self._rooms.pop(code, None)
            raise RoomNotFound()
        cached = self._rooms.get(code)
        if cached is not None and cached.seq == seq:
            return cached
        if cached is not None and cached.seq < seq:
            # Another process moved the room on: replay its changes for our streams.
            return await self._replay(session, cached, seq)
        return await self._read(session, code)

    async def _read(self, session: AsyncSession, code: str) -> Room:
        state = (
            await session.execute(select(RoomRow.state).where(RoomRow.code == code))
        ).scalar_one_or_none()
        if state is None:
            self._rooms.pop(code, None)
            raise RoomNotFound()
        room = room_from_data(state)
        self._remember(room)
        return self._rooms[code]

    async def _replay(self, session: AsyncSession, room: Room, seq: int) -> Room:
        """Bring ``room`` up to ``seq`` from the action log, publishing each change.

        The engine is deterministic, so replaying the logged actions gives the
        very states another process saved; a game's first state is logged whole.
        If anything does not add up, the stored state wins and streams resync.
        """
        rows = (
            await session.execute(
                select(ActionRow)
                .where(ActionRow.room == room.code, ActionRow.seq > room.seq, ActionRow.seq <= seq)
                .order_by(ActionRow.seq)
            )
        ).scalars()
        for row in rows:
            try:
                action = action_from_data(row.action)
                actor = None if isinstance(action, act.Join | act.Presence) else row.seat
                if row.state is not None:
                    new = room_from_data(row.state)
                else:
                    new = apply(room, actor, action, deck=self.deck.cards)
            except Exception:
                log.warning("replay of %s at seq %s failed; reading the room", room.code, row.seq)
                new = None
            if new is None or new.seq != row.seq:
                fresh = room_from_data(
                    (
                        await session.execute(
                            select(RoomRow.state).where(RoomRow.code == room.code)
                        )
                    ).scalar_one()
                )
                self._rooms[room.code] = fresh
                self._forget_legends(room.code)
                self.hub.publish(room.code, Change(fresh.seq, fresh, None))
                return fresh
            if new.phase == "finished" and room.phase != "finished":
                self._forget_legends(room.code)
            self._rooms[room.code] = new
            self.hub.publish(
                room.code,
                Change(new.seq, new, happened(action, row.seat, room, new), room.last_chat_id()),
            )
            room = new
        return room

    async def catch_up(self, code: str, seq: int | None = None) -> None:
        """Another process changed ``code`` (up to ``seq``): bring our copy and streams along."""
        cached = self._rooms.get(code)
        if cached is None or (seq is not None and cached.seq >= seq):
            return
        async with self.locks.hold(code):
            cached = self._rooms.get(code)
            if cached is None or (seq is not None and cached.seq >= seq):
                return
            async with self.sessions() as session:
                current = (
                    await session.execute(select(RoomRow.seq).where(RoomRow.code == code))
                ).scalar_one_or_none()
                if current is None:
                    self._rooms.pop(code, None)
                    return
                if current > cached.seq:
                    await self._replay(session, cached, current)

    def _forget_legends(self, code: str) -> None:
        self._best.pop(code, None)
        self._record.pop(code, None)

    # --- reading ----------------------------------------------------------------

    async def load(self, code: str) -> Room:
        """The room as last committed (by any process)."""
        cached = self._rooms.get(code)
        if cached is not None and not self.cluster.shared:
            return cached  # one process: our copy is the truth
        if cached is not None:
            await self.catch_up(code)
            cached = self._rooms.get(code)
            if cached is not None:
                return cached
            raise RoomNotFound()
        return await self._shared(("room", code), lambda: self._read_alone(code))

    async def _read_alone(self, code: str) -> Room:
        async with self.sessions() as session:
            return await self._read(session, code)

    async def _shared(self, key: tuple[str, str], fetch: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """One database read for everyone asking the same thing at once.

        After a restart every phone of a room reconnects in the same second;
        without this each of their streams read the room and its best game
        itself, and a thousand rooms ran the connection pool dry.
        """
        pending = self._reading.get(key)
        if pending is None:
            pending = self._reading[key] = asyncio.ensure_future(fetch())
            pending.add_done_callback(lambda _: self._reading.pop(key, None))
        return await asyncio.shield(pending)  # type: ignore[no-any-return]

    def _remember(self, room: Room) -> None:
        if room.code not in self._rooms:
            # Players shown present before a restart get the grace period to come back.
            for player in room.players:
                if player.present:
                    self.presence.touch(room.code, player.pid)
        current = self._rooms.get(room.code)
        if current is None or current.seq <= room.seq:
            self._rooms[room.code] = room

    async def seat_for(self, code: str, token: str | None) -> Seat | None:
        """The seat a token stands for in ``code``; a token of another room stands for none."""
        if not token or len(token) > 200:
            return None
        token_hash = hash_token(token)
        seat = self._seats.get(token_hash)
        if seat is None:
            async with self.sessions() as session:
                row = await session.get(SeatRow, token_hash)
            if row is None:
                return None
            seat = self._seats[token_hash] = Seat(row.room, row.pid)
        if seat.code != code:
            return None
        return seat if await self._still_seated(seat) else None

    async def _still_seated(self, seat: Seat) -> bool:
        """Whether the player still sits in the room: a seat link of someone who
        left or was removed opens nothing. Our copy of the room answers first; only
        if it says no is the room read again (another process may have seated them)."""
        cached = self._rooms.get(seat.code)
        if cached is not None and cached.seat_of(seat.pid) is not None:
            return True
        try:
            room = await self.load(seat.code)
        except RoomNotFound:
            return False
        return room.seat_of(seat.pid) is not None

    async def room_view(
        self, room: Room, seat: int | None, *, chat_after: int | None = None
    ) -> View:
        """The per-seat view, plus the room's best game from the Record of Legends."""
        data = view(room, seat, chat_after=chat_after)
        data["best"] = await self.best(room.code)
        data["record"] = room.phase == "finished" and await self.is_record(room.code)
        return data

    async def best(self, code: str) -> dict[str, Any] | None:
        if code not in self._best:
            rows = await self._shared(("best", code), lambda: self.legends(room=code, limit=1))
            self._best[code] = rows[0] if rows else None
        return self._best[code]

    async def is_record(self, code: str) -> bool:
        """Whether the room's latest game beat every earlier one."""
        if code not in self._record:
            self._record[code] = await self._shared(("record", code), lambda: self._is_record(code))
        return self._record[code]

    async def _is_record(self, code: str) -> bool:
        async with self.sessions() as session:
            query = (
                select(LegendRow.score)
                .where(LegendRow.room == code)
                .order_by(desc(LegendRow.finished_at), desc(LegendRow.id))
            )
            scores = (await session.execute(query)).scalars().all()
        return bool(scores) and all(scores[0] > s for s in scores[1:])

    async def legends(
        self,
        *,
        players: int | None = None,
        decoys: int | None = None,
        room: str | None = None,
        limit: int = 20,
    ) -> list[dict[str, Any]]:
        """The Record of Legends, best score first (the earliest first among equals).

        A room code is the room's only secret (it reads the chat and joins the next
        game), so legends carry one only when asked for one room's legends, which
        the web layer answers to that room's own players alone.
        """
        query = select(LegendRow).order_by(
            desc(LegendRow.score), LegendRow.finished_at, LegendRow.id
        )
        if players is not None:
            query = query.where(LegendRow.player_count == players)
        if decoys is not None:
            query = query.where(LegendRow.decoys == decoys)
        if room is not None:
            query = query.where(LegendRow.room == room)
        async with self.sessions() as session:
            rows = (await session.execute(query.limit(limit))).scalars().all()
        return [
            {
                "id": r.id,
                **({"room": r.room} if room is not None else {}),
                "finished_at": iso(r.finished_at),
                "players": list(r.players),
                "player_count": r.player_count,
                "decoys": r.decoys,
                "score": r.score,
                "max": r.max,
            }
            for r in rows
        ]

    # --- following a room live ---------------------------------------------------

    def followed(self) -> set[str]:
        """Rooms this process keeps a copy of: the ones to catch up after a lost link."""
        return set(self._rooms)

    async def follow(
        self, code: str, pid: int | None, last: int | None = None
    ) -> AsyncIterator[Change | Ping]:
        """Every change of ``code`` from now on, in seq order, each exactly once.

        It starts with what the follower missed since ``last`` when the hub
        still holds it, else with the current state (a ``Change`` whose
        ``action`` is ``None``). A follower that falls too far behind is sent
        the current state again. While it follows, the player ``pid`` is present.
        Now and then it gives ``PING``: time for the stream to show it is alive.
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
                yield Change(room.seq, room, None)
                sent = room.seq
            else:
                for change in missed:
                    yield change
                sent = max([last or 0, *(c.seq for c in missed)])
            while True:
                change = await sub.get()
                if isinstance(change, Ping):
                    yield change
                    continue
                if sub.fell_behind():
                    current = await self.load(code)
                    yield Change(current.seq, current, None)
                    sent = current.seq
                    continue
                if change.seq <= sent:
                    continue
                if change.seq > sent + 1:
                    gap = self.hub.since(code, sent)
                    if gap is None:
                        current = await self.load(code)
                        yield Change(current.seq, current, None)
                        sent = current.seq
                        continue
                    for earlier in gap:
                        if earlier.seq < change.seq:
                            yield earlier
                yield change
                sent = change.seq
        finally:
            self.hub.unsubscribe(sub)
            if pid is not None:
                self.presence.disconnected(code, pid)

    # --- presence and housekeeping ---------------------------------------------

    async def sync_presence(self, code: str, present: frozenset[int] | None = None) -> None:
        """Report who is present to the room (pids in ``present``), if that changed.

        Without ``present``: what this process sees, or with several processes,
        what any of them has seen lately.
        """
        if present is None:
            if self.cluster.shared:
                await self.cluster.seen({code: self.presence.signs(code)}, self.presence.grace)
                present = (await self.cluster.present([code], self.presence.grace)).get(
                    code, frozenset()
                )
            else:
                present = self.presence.present(code)

        def presence_for(room: Room) -> act.Action | None:
            seats = frozenset(s for s, p in enumerate(room.players) if p.pid in present)
            shown = frozenset(s for s, p in enumerate(room.players) if p.present)
            return None if seats == shown else act.Presence(seats)

        cached = self._rooms.get(code)
        if cached is not None and presence_for(cached) is None:
            return  # nothing changed: no transaction needed
        try:
            await self.apply(code, None, presence_for)
        except RoomNotFound:
            self.presence.forget(code)

    async def sweep_presence(self) -> None:
        """Bring every room that may have changed up to date; called every few seconds.

        One query for all rooms on PostgreSQL, and a pause every few rooms, so a
        thousand rooms never hold the event loop (measured: they did, for tens of ms).
        """
        codes = self.presence.rooms() | {
            code for code, room in self._rooms.items() if any(p.present for p in room.players)
        }
        if self.cluster.shared:
            await self.cluster.seen(
                {code: self.presence.signs(code) for code in codes}, self.presence.grace
            )
            present = await self.cluster.present(sorted(codes), self.presence.grace)
        else:
            present = {code: self.presence.present(code) for code in codes}
        for i, code in enumerate(codes):
            if i % 50 == 49:
                await asyncio.sleep(0)
            try:
                await self.sync_presence(code, present.get(code, frozenset()))
            except Exception:  # one broken room must not stop the sweep
                log.exception("presence sweep failed for room %s", code)
        self.presence.prune()

    def forget_idle(self) -> int:
        """Drop the copies of rooms nobody streams or has touched lately: they are on disk.

        Without this every room ever loaded would stay in memory until it expires.
        """
        busy = self.hub.watched() | self.presence.rooms()
        idle = [code for code in self._rooms if code not in busy]
        for code in idle:
            del self._rooms[code]
            self._forget_legends(code)
            self.hub.forget(code)
        self._seats = {h: s for h, s in self._seats.items() if s.code in self._rooms}
        return len(idle)

    async def expire(self, older_than: timedelta) -> int:
        """Delete rooms idle for longer than ``older_than``; their legends stay."""
        cutoff = self.clock() - older_than

        def delete_idle(db: Connection) -> list[str]:
            codes = list(
                db.execute(select(RoomRow.code).where(RoomRow.updated_at < cutoff)).scalars()
            )
            if codes:
                db.execute(delete(RoomRow).where(RoomRow.code.in_(codes)))  # type: ignore[attr-defined]
            return codes

        if self.writer is not None:
            codes = await self.writer.write(delete_idle)
        else:
            async with self.sessions() as session, session.begin():
                codes = await session.run_sync(lambda s: delete_idle(s.connection()))
        for code in codes:
            self._rooms.pop(code, None)
            self._forget_legends(code)
            self.hub.forget(code)
            self.presence.forget(code)
        self._seats = {h: s for h, s in self._seats.items() if s.code not in codes}
        return len(codes)


def happened(action: act.Action, seat: int | None, before: Room, after: Room) -> dict[str, Any]:
    """Who did what, as the streams tell it: never an action's content (a clue, a
    card), only its type and its author, by seat then, player id and name (public
    at the table). A removal also names who was removed, who no longer has a seat."""
    summary: dict[str, Any] = {"type": ACTION_NAMES[type(action)], "seat": seat}
    if seat is not None:
        actor = (after if isinstance(action, act.Join) else before).players[seat]
        summary["player"] = actor.pid
        summary["name"] = actor.name
    if isinstance(action, act.Kick) and 0 <= action.seat < len(before.players):
        summary["removed"] = before.players[action.seat].name
    return summary


async def _to_the_end(work: Coroutine[Any, Any, T]) -> T:
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


Row = tuple[Table, dict[str, Any]]
"""A row to insert: its table and its values. Plain data, not an ORM object:
building SQLModel instances cost more than writing them (py-spy under load)."""


def _row(model: type[SQLModel], **values: Any) -> Row:
    return model.__table__, values  # type: ignore[attr-defined]


_ROOM = RoomRow.__table__  # type: ignore[attr-defined]
_ACTION = ActionRow.__table__  # type: ignore[attr-defined]
_UPDATE_ROOM = (
    _ROOM.update()
    .where(_ROOM.c.code == bindparam("b_code"), _ROOM.c.seq == bindparam("b_seq"))
    .values(
        seq=bindparam("seq"),
        phase=bindparam("phase"),
        state=bindparam("state"),
        updated_at=bindparam("updated_at"),
    )
)
"""Built once: SQLAlchemy Core with a cached compiled statement. Through the ORM
the same write cost four times as much Python (measured: 1.7 ms of CPU a write,
more than the SQLite commit itself)."""


def _save(db: Connection, old: Room, new: Room, rows: list[Row]) -> None:
    """Write ``new`` over ``old`` (only if nobody else did: ``WHERE seq = old``) and ``rows``."""
    result = db.execute(
        _UPDATE_ROOM,
        {
            "b_code": new.code,
            "b_seq": old.seq,
            "seq": new.seq,
            "phase": new.phase,
            "state": room_to_data(new),
            "updated_at": max(values["at"] for table, values in rows if table is _ACTION),
        },
    )
    if result.rowcount != 1:
        raise StaleAction()
    _insert_rows(db, rows)


def _insert_rows(db: Connection, rows: list[Row]) -> None:
    """Insert rows in the order given: a room before the rows that point at it."""
    for table, values in rows:
        db.execute(table.insert(), values)


def _room_row(room: Room, now: datetime) -> Row:
    return _row(
        RoomRow,
        code=room.code,
        seq=room.seq,
        phase=room.phase,
        state=room_to_data(room),
        created_at=now,
        updated_at=now,
    )


def _legend(room: Room, now: datetime) -> Row:
    return _row(
        LegendRow,
        room=room.code,
        finished_at=now,
        players=[p.name for p in room.players],
        player_count=len(room.players),
        decoys=room.decoys,
        score=room.total(),
        max=max_score(len(room.players)),
    )
