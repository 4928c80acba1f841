"""Room changes, from the action path to every open stream of the room.

One process: subscribers get each change of their room, in seq order, through
an in-memory queue, and the hub keeps each room's last few changes so a stream
that reconnects with ``Last-Event-ID`` can be sent exactly what it missed. A
stream that falls further behind than that gets the current state instead.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
from typing import Annotated, Literal, TypedDict

from app.rules.actions import (
    BOARD_ACTIONS,
    BY_TYPE,
    Action,
    AddBot,
    Allow,
    Claim,
    Clues,
    Create,
    Drop,
    Join,
    Kick,
    Lock,
    Refuse,
    SendAway,
    StandIn,
    Timeout,
    Watch,
    Withdraw,
)
from app.rules.state import DEVICE_KINDS, Room
from app.rules.view_types import CLOCK_KINDS, OneOf
from app.rules.watchers import kept_back

HISTORY = 64
"""Changes kept per room for reconnecting streams."""
QUEUE_SIZE = 256
"""Changes a slow stream may fall behind before it is resynchronized."""


class _Actor(TypedDict):
    type: Annotated[str, OneOf(tuple(sorted(BY_TYPE))), "The action's type"]
    seat: Annotated[int | None, "The seat that acted; null for a watcher or the server"]


class EventAction(_Actor, total=False):
    """Who did what, never its content (no clue, no card)."""

    player: Annotated[int, "The acting player's (or watcher's) id"]
    name: Annotated[str, "The acting player's (or watcher's) name"]
    watcher: Annotated[Literal[True], "A watcher acted"]
    held: Annotated[
        Literal[True],
        "A watcher acted while a clover is rebuilt (`watch`, `say`): who is told at its "
        "check, so neither `player` nor `name` is given",
    ]
    removed: Annotated[str, "`kick`, `drop`, `send_away`: who was removed"]
    bot: Annotated[str, "`add_bot`: the bot's name"]
    stood_in: Annotated[str, "`stand_in`: whose seat a bot plays"]
    draft: Annotated[Literal[True], "`clues`: a draft, as typed"]
    claimed: Annotated[str, "A seat request: the seat's player"]
    claimed_seat: Annotated[int, "A seat request: the seat"]
    device: Annotated[
        str | None,
        OneOf(DEVICE_KINDS),
        "A seat request: the kind of device asking (null when its browser does not say); "
        "absent for any other action",
    ]
    back: Annotated[bool, "A seat request: a seat asked back"]
    moved: Annotated[
        bool,
        "`allow`: whether the seat moved with it (false: it still waits for the allows "
        "of others at the table)",
    ]
    host: Annotated[bool, "A seat request: the seat is the host's"]
    spectator: Annotated[bool, "A seat request: the seat is the Spectator's"]
    ran_out: Annotated[str, OneOf(CLOCK_KINDS), "`timeout`: which clock ran out"]
    not_played: Annotated[list[str], "`timeout`: the players whose clover is not played now"]
    late: Annotated[list[str], "`timeout`: the players who get the grace to finish"]
    quiet: Annotated[
        Literal[True], "`lock`: a bot locked in after a long quiet, over people who had not agreed"
    ]
    cleared: Annotated[list[int], "A move that cleared Agrees: whose they were, by seat"]


@dataclass(frozen=True, eq=False)
class Change:
    """A room after one accepted action, and who did what (never the action's content).
    Each is itself (compared and hashed as an object): what streams build from a change
    is kept by the change (``app/web/renderings.py``)."""

    seq: int
    room: Room
    action: EventAction | None
    chat_after: int | None = None
    """The id of the last chat line before this change; ``None`` for a resynchronizing
    change (the current state, not one action), which carries the whole chat."""


def change_after(
    action: Action, seat: int | None, before: Room, after: Room, pid: int | None = None
) -> Change:
    """The change ``action`` by ``seat`` (or by the watcher ``pid``) made from ``before``
    to ``after``, as streams tell it. A room's opening is told as its first state, whole:
    nothing came before it to tell a change from."""
    if isinstance(action, Create):
        return Change(after.seq, after, None)
    summary = happened(action, seat, before, after, pid)
    return Change(after.seq, after, summary, before.last_chat_id())


def happened(
    action: Action, seat: int | None, before: Room, after: Room, pid: int | None = None
) -> EventAction:
    """Who did what: never an action's content (a clue, a card), only its type and its
    author, by seat then, player id and name (public at the table). A removal also
    names who was removed (from the lobby, or out of the game), who may no longer have a
    seat to be named by; a seat request names the player whose seat it asks for."""
    summary: EventAction = {"type": action.type, "seat": seat}
    if seat is not None:
        actor = (after if isinstance(action, Join) else before).players[seat]
        summary["player"] = actor.pid
        summary["name"] = actor.name
    # A watcher has no seat: named by id and name, and said to be watching.
    watcher = before.watcher(pid) if seat is None and pid is not None else None
    if watcher is None and isinstance(action, Watch) and after.watchers:
        watcher = after.watchers[-1]
    if watcher is not None and kept_back(action, before, after, watcher.pid):
        summary.update({"watcher": True, "held": True})
    elif watcher is not None:
        summary.update({"player": watcher.pid, "name": watcher.name, "watcher": True})
    if isinstance(action, Kick | Drop) and 0 <= action.seat < len(before.players):
        summary["removed"] = before.players[action.seat].name
    sent_away = before.watcher(action.watcher) if isinstance(action, SendAway) else None
    if sent_away is not None and not sent_away.held:
        summary["removed"] = sent_away.name
    if isinstance(action, AddBot) and len(after.players) > len(before.players):
        summary["bot"] = after.players[-1].name
    if isinstance(action, StandIn) and 0 <= action.seat < len(before.players):
        summary["stood_in"] = before.players[action.seat].name
    if isinstance(action, Clues) and action.draft:
        # Saved as it was typed: nothing for the table to be told of.
        summary["draft"] = True
    claim_id = action.claim if isinstance(action, Allow | Refuse | Withdraw) else None
    claim = after.claim(action.id) if isinstance(action, Claim) else None
    claim = claim or (None if claim_id is None else before.claim(claim_id))
    claimed = None if claim is None else before.seat_of(claim.pid)
    if claim is not None and claimed is not None:
        # Which seat, its role at the table, and what kind of device asks for it.
        summary["claimed"] = before.players[claimed].name
        summary["claimed_seat"] = claimed
        summary["device"] = claim.kind or None
        summary["back"] = claim.back
        summary["host"] = claimed == before.host
        summary["spectator"] = claimed == before.spectator()
        if isinstance(action, Allow):
            summary["moved"] = after.claim(claim.id) is None
    if isinstance(action, Timeout) and before.countdown is not None:
        # The table hears which clock ran out, and whose clover it cost.
        summary["ran_out"] = before.countdown.kind
        summary["not_played"] = [
            before.players[s].name
            for s, (was_clover, clover) in enumerate(
                zip(before.clovers, after.clovers, strict=True)
            )
            if clover.dropped and not was_clover.dropped
        ]
        summary["late"] = [
            before.players[s].name
            for s, clover in enumerate(after.clovers)
            if after.phase == "clues" and not (clover.done or clover.dropped)
        ]
    was, now = before.resolution, after.resolution
    if isinstance(action, Lock) and seat is not None and was is not None:
        # A bot locks in over people who have not agreed only after a long quiet on the
        # board (app.service.bots): the table is told that is why.
        locker = before.players[seat]
        waited_for = [
            s
            for s in range(len(before.players))
            if before.is_person_here(s) and before.is_guesser(s) and s not in was.agreed
        ]
        if (locker.bot or (locker.stand_in and not locker.present)) and waited_for:
            summary["quiet"] = True
    if isinstance(action, BOARD_ACTIONS) and was is not None and now is not None:
        # A move clears every Agree: the table is told whose, so nobody's vanishes unseen.
        cleared = sorted(was.agreed - now.agreed)
        if cleared:
            summary["cleared"] = cleared
    return summary


class Ping:
    """Handed to a subscriber in place of a change: time to show the stream is alive."""


PING = Ping()


class ServerStopping:
    """Handed to every subscriber when the server stops: the stream ends."""


STOPPING = ServerStopping()


class Subscription:
    """One stream's mailbox: the changes it has yet to send, and its waiting reader.

    Lighter than an ``asyncio.Queue`` (one list, a future only while waiting):
    thousands of idle streams each hold one. A list, not a deque: an empty list is
    a small part of an empty deque (docs/performance.md, "Streams opened ahead of
    the middleware: 32 -> 22 KB an idle stream"), and a mailbox holds a few items
    at most but when its phone stops reading (``QUEUE_SIZE``).
    """

    __slots__ = ("_waiter", "code", "heard", "overflowed", "pending", "pid")

    def __init__(self, code: str, pid: int | None = None) -> None:
        self.code = code
        self.pid = pid
        """Who follows: a player's or a watcher's id, ``None`` for someone with neither
        (told apart only when the metrics page counts the streams: ``streams``)."""
        self.pending: list[Change | Ping | ServerStopping] = []
        self.overflowed = False
        self.heard = False
        """Whether a change came since the last round of pings: the stream was not quiet."""
        self._waiter: asyncio.Future[None] | None = None

    def put(self, item: Change | Ping | ServerStopping) -> None:
        if len(self.pending) >= QUEUE_SIZE and item is not STOPPING:
            self.overflowed = True
            return
        self.pending.append(item)
        if item is not PING:
            self.heard = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def fell_behind(self) -> bool:
        """Whether changes were dropped for want of room; if so, forget the rest too."""
        if not self.overflowed:
            return False
        self.overflowed = False
        self.pending.clear()
        return True

    async def get(self) -> Change | Ping | ServerStopping:
        """The next change (or ``PING``, or ``STOPPING``), waiting for one if need be."""
        while not self.pending:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.pending.pop(0)


class RoomHub:
    def __init__(self) -> None:
        self._subscribers: dict[str, set[Subscription]] = {}
        self._history: dict[str, deque[Change]] = {}
        self._closed = False

    def publish(self, code: str, change: Change) -> None:
        """Hand ``change`` to every subscriber of ``code``; called in seq order."""
        history = self._history.setdefault(code, deque(maxlen=HISTORY))
        if history and history[-1].seq >= change.seq:
            return
        history.append(change)
        for sub in self._subscribers.get(code, ()):
            sub.put(change)

    def ping(self, tick: int, period: int) -> None:
        """Ask the quiet streams of one room in ``period`` to show they are alive.

        Called ``period`` times a ping interval with a growing ``tick``, so each
        stream is pinged once an interval and the pings of thousands of streams
        are spread over it rather than sent in one burst. A stream that was sent a
        change since its last round is not quiet: a proxy saw it speak, and a phone
        that vanished is found out by that write as by a ping (a stream writes for
        every change it is sent, a ping comment where its reader sees nothing new).
        So no stream is silent for two intervals, and a room that plays is never
        pinged: with 5,000 streams at 200 actions/s, 335 writes a second fewer beside
        the changes' 1,000 (docs/performance.md, "Pings only for quiet streams").
        """
        for code, subs in self._subscribers.items():
            if hash(code) % period == tick % period:
                for sub in subs:
                    if sub.heard:
                        sub.heard = False
                    elif not sub.pending:
                        sub.put(PING)

    def since(self, code: str, seq: int) -> list[Change] | None:
        """The changes after ``seq`` if the history still holds all of them, else ``None``."""
        history = self._history.get(code)
        if not history:
            return None
        if history[0].seq > seq + 1:
            return None
        return [c for c in history if c.seq > seq]

    def subscribe(self, code: str, pid: int | None = None) -> Subscription:
        """A mailbox for one stream of ``code``, followed by the player or watcher
        ``pid`` (``None``: someone with neither)."""
        sub = Subscription(code, pid)
        if self._closed:
            sub.put(STOPPING)
        self._subscribers.setdefault(code, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subscribers.get(sub.code)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subscribers[sub.code]

    def close(self) -> None:
        """End every stream, and every stream opened from now on: the server is stopping."""
        self._closed = True
        for subs in self._subscribers.values():
            for sub in subs:
                sub.put(STOPPING)

    def forget(self, code: str) -> None:
        """Drop what is kept for a room that no longer exists."""
        self._history.pop(code, None)

    def streamed(self, code: str) -> bool:
        """Whether someone streams ``code`` here now."""
        return code in self._subscribers

    def watched(self) -> set[str]:
        """Rooms someone is streaming right now."""
        return set(self._subscribers)

    def streams(self) -> list[tuple[str, int | None]]:
        """The room and the follower's id of every open stream: counted when the metrics
        page is read (``app/metrics.py``), rather than at every stream opened or closed."""
        return [(code, sub.pid) for code, subs in self._subscribers.items() for sub in subs]
