"""Seats: who a token stands for, while its player still sits at the table or watches it.

A watcher's token is a seat token over their pid: it opens the room for them as a
watcher, and as a player once they sit down (or, out of a game, they watch the next).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from app.rules.state import Room
from app.service.codes import hash_token
from app.service.errors import RoomNotFound
from app.service.store import RoomStore

MAX_TOKEN = 200
"""Characters; real tokens are 32. Anything longer is not looked up."""


@dataclass(frozen=True)
class Seat:
    """Who a token stands for: a player (by pid, which never changes) in one room,
    played from one device ("" for the one that took the seat, else the claim that
    moved it there)."""

    code: str
    pid: int
    device: str = ""


def plays_from(room: Room, seat: Seat) -> bool:
    """Whether ``seat``'s player sits in ``room`` (or watches it) from ``seat``'s device."""
    at = room.seat_of(seat.pid)
    if at is not None:
        return room.players[at].device == seat.device
    watcher = room.watcher(seat.pid)
    return watcher is not None and watcher.device == seat.device


class SeatBook:
    def __init__(
        self,
        store: RoomStore,
        cached: Callable[[str], Room | None],
        load: Callable[[str], Awaitable[Room]],
    ) -> None:
        self.store = store
        self.cached = cached
        self.load = load
        self._seats: dict[str, Seat] = {}
        self._read: set[str] = set()
        """Rooms whose every seat token this process has read (``token``)."""

    def remember(self, token_hash: str, seat: Seat) -> None:
        self._seats[token_hash] = seat

    async def seat_for(self, code: str, token: str | None) -> Seat | None:
        """The seat a token stands for in ``code``; a token of another room, of a
        player who has left or was removed, of a device the seat moved away from, or of
        a claim not (yet) allowed, stands for none."""
        seat = await self.token(code, token)
        return seat if seat is not None and await self._still_seated(seat) else None

    async def token(self, code: str, token: str | None) -> Seat | None:
        """Who ``token`` was given for in ``code``, seated or not any more."""
        if not token or len(token) > MAX_TOKEN:
            return None
        token_hash = hash_token(token)
        seat = self._seats.get(token_hash)
        if seat is None and code not in self._read:
            # The first token of a room this process hears of: every seat of the room is
            # read at once. Its other players' tokens come soon (their streams, their
            # actions, which with several workers land on any of them), and one read
            # serves them all.
            found_seats = await self.store.seats(code)
            for found_hash, pid, device in found_seats:
                self._seats[found_hash] = Seat(code, pid, device)
            if found_seats:  # a room: codes that name none are not kept
                self._read.add(code)
            seat = self._seats.get(token_hash)
        if seat is None:
            # A seat given since, by another process; or no seat here at all: one row
            # asked for, however many seats the room has.
            found = await self.store.seat(token_hash)
            if found is None:
                return None
            seat = self._seats[token_hash] = Seat(*found)
        return seat if seat.code == code else None

    async def moved(self, code: str, token: str | None) -> bool:
        """Whether ``token`` opened a seat that is now played from another device."""
        seat = await self.token(code, token)
        if seat is None:
            return False
        try:
            room = await self.load(code)
        except RoomNotFound:
            return False
        at = room.seat_of(seat.pid)
        return (
            at is not None
            and room.players[at].device != seat.device
            and (room.claim(seat.device) is None)
        )

    async def _still_seated(self, seat: Seat) -> bool:
        """Our copy of the room answers first; only if it says no is the room read
        again (another process may have seated them meanwhile)."""
        cached = self.cached(seat.code)
        if cached is not None and plays_from(cached, seat):
            return True
        try:
            room = await self.load(seat.code)
        except RoomNotFound:
            return False
        return plays_from(room, seat)

    def keep_only(self, codes: set[str]) -> None:
        """Forget the seats of rooms no longer held in memory."""
        self._seats = {h: s for h, s in self._seats.items() if s.code in codes}
        self._read &= codes
