"""How many live streams one seat token holds open at once, in this process.

Each open stream costs the server a connection (a file descriptor), a mailbox in the
hub and a share of every change the room makes: a token that opened hundreds would
slow every other room's actions. A phone needs two at most (its page's, and a new one
while a reload or a change of network replaces it); a computer with a few tabs a few
more. So a seat token, which stands for one seat on one device (``seats.Seat``), holds
``STREAMS_PER_SEAT`` in all (``SOCLOVER_STREAMS_PER_SEAT``), its JSON and its page
streams together; one more is
refused (``TooManyStreams``, 429) and nothing else is closed for it. A stream gives its
place back when it ends, however it ends.

The count is this process's: with one server per port and the proxy sending each room
to one of them (docs/hosting.md), a room's streams are all counted here.
"""

from __future__ import annotations

from app.service.errors import TooManyStreams
from app.service.seats import Seat

STREAMS_PER_SEAT = 4
"""Live streams one seat token may hold open at once, unless the settings say otherwise
(the benchmarks, which measure what hundreds of one seat's streams cost)."""


class StreamSlot:
    """One stream's place, until ``release`` (called again, it does nothing)."""

    __slots__ = ("_seat", "_slots")

    def __init__(self, slots: StreamSlots, seat: Seat) -> None:
        self._slots: StreamSlots | None = slots
        self._seat = seat

    def release(self) -> None:
        if self._slots is not None:
            self._slots.give_back(self._seat)
            self._slots = None


class StreamSlots:
    def __init__(self, per_seat: int = STREAMS_PER_SEAT) -> None:
        self.per_seat = per_seat
        self._held: dict[Seat, int] = {}

    def take(self, seat: Seat) -> StreamSlot:
        """A place for one more stream of ``seat``; ``TooManyStreams`` when it holds all
        of its places already. Taken at once, before anything is awaited: streams
        opened together are counted one by one."""
        held = self._held.get(seat, 0)
        if held >= self.per_seat:
            raise TooManyStreams()
        self._held[seat] = held + 1
        return StreamSlot(self, seat)

    def give_back(self, seat: Seat) -> None:
        left = self._held.get(seat, 0) - 1
        if left > 0:
            self._held[seat] = left
        else:
            self._held.pop(seat, None)

    def held(self, seat: Seat) -> int:
        """How many streams ``seat`` holds open here now."""
        return self._held.get(seat, 0)
