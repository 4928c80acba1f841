"""Housekeeping: presence swept through every room, and what to let go of.

Every few seconds each room whose presence may have changed is brought up to
date (``RoomService.sync_presence``: a ``Presence`` action through the one
action path), and seat requests nobody answered in time are dropped (an ``expire``
action). Now and then the copies of idle rooms are dropped from memory
(they are on disk) and rooms idle for longer than the expiry are deleted
(their legends stay).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)

SWEEP_PAUSE_EVERY = 50
"""Rooms between two pauses of a sweep: a thousand rooms swept at once hold the event
loop for tens of ms."""


async def sweep_presence(service: RoomService) -> None:
    """Bring every room whose presence may have changed up to date; every few seconds.

    One query for all rooms on PostgreSQL, and a pause every few rooms.
    """
    codes = sorted(
        service.presence.rooms()
        | {room.code for room in service.in_memory.rooms() if any(p.present for p in room.players)}
    )
    present = await service.present_in(codes)
    for i, code in enumerate(codes):
        if i % SWEEP_PAUSE_EVERY == SWEEP_PAUSE_EVERY - 1:
            await asyncio.sleep(0)
        try:
            await service.sync_presence(code, present.get(code, frozenset()))
        except Exception:  # one broken room must not stop the sweep
            log.exception("presence sweep failed for room %s", code)
    service.presence.prune()
    # Seat requests nobody answered run out, and the table stops showing them.
    for room in [room for room in service.in_memory.rooms() if room.claims]:
        try:
            await service.claims.expire(room)
        except Exception:
            log.exception("seat requests not expired in room %s", room.code)


def forget_idle(service: RoomService) -> int:
    """Drop the copies of rooms nobody streams or has touched lately: they are on disk.

    Without this every room ever loaded would stay in memory until it expires.
    """
    busy = service.hub.watched() | service.presence.rooms()
    idle = [code for code in service.in_memory.codes() if code not in busy]
    for code in idle:
        _let_go(service, code)
    service.seats.keep_only(service.in_memory.codes())
    return len(idle)


async def expire(service: RoomService, older_than: timedelta) -> int:
    """Delete rooms idle for longer than ``older_than``; their legends stay."""
    codes = await service.store.expire(service.clock() - older_than)
    for code in codes:
        _let_go(service, code)
        service.presence.forget(code)
    service.seats.keep_only(service.in_memory.codes())
    return len(codes)


def _let_go(service: RoomService, code: str) -> None:
    service.in_memory.drop(code)
    service.legends.forget(code)
    service.hub.forget(code)
