"""Seats: who a token stands for, while its player still sits at the table."""

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
    """Who a token stands for: a player (by pid, which never changes) in one room."""

    code: str
    pid: int


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

    def remember(self, token_hash: str, seat: Seat) -> None:
        self._seats[token_hash] = seat

    async def seat_for(self, code: str, token: str | None) -> Seat | None:
        """The seat a token stands for in ``code``; a token of another room, or of a
        player who has left or was removed, stands for none."""
        if not token or len(token) > MAX_TOKEN:
            return None
        token_hash = hash_token(token)
        seat = self._seats.get(token_hash)
        if seat is None:
            found = await self.store.seat(token_hash)
            if found is None:
                return None
            seat = self._seats[token_hash] = Seat(*found)
        if seat.code != code:
            return None
        return seat if await self._still_seated(seat) else None

    async def _still_seated(self, seat: Seat) -> bool:
        """Our copy of the room answers first; only if it says no is the room read
        again (another process may have seated them meanwhile)."""
        cached = self.cached(seat.code)
        if cached is not None and cached.seat_of(seat.pid) is not None:
            return True
        try:
            room = await self.load(seat.code)
        except RoomNotFound:
            return False
        return room.seat_of(seat.pid) is not None

    def keep_only(self, codes: set[str]) -> None:
        """Forget the seats of rooms no longer held in memory."""
        self._seats = {h: s for h, s in self._seats.items() if s.code in codes}
