"""Housekeeping: presence swept through every room, and what to let go of.

Every few seconds each room whose presence may have changed is brought up to
date (``RoomService.sync_presence``: a ``Presence`` action through the one
action path), and seat requests nobody answered in time are dropped (an ``expire``
action). Now and then the copies of idle rooms are dropped from memory
(they are on disk) and rooms idle for longer than the expiry are deleted
(their legends stay). The server's other background jobs are here too: the
streams' pings, and a garbage collector kept calm.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.service.hub import RoomHub
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


async def tidy(service: RoomService, expiry: timedelta) -> None:
    """Rooms idle past ``expiry`` deleted, and the copies of idle ones let go of."""
    await expire(service, expiry)
    forget_idle(service)


async def ping_streams(hub: RoomHub, period: float) -> None:
    """One task pings every stream in turn, a slice a second, instead of a task per stream."""
    slices = max(1, round(period))
    tick = 0
    while True:
        await asyncio.sleep(period / slices)
        hub.ping(tick, slices)
        tick += 1


async def every(seconds: float, job: Callable[[], Awaitable[object]]) -> None:
    """``job`` again and again, ``seconds`` apart; a failure is logged, not the end of it."""
    while True:
        try:
            await job()
        except Exception:
            log.exception("background job failed")
        await asyncio.sleep(seconds)


def calm_garbage_collector() -> None:
    """Keep Python's cyclic collector from stalling live streams.

    With thousands of open streams a full collection walks every object the
    server holds; at the default thresholds they come often enough to freeze
    the event loop under load while the CPU is half idle (docs/performance.md,
    "The event loop kept free"). So everything loaded at start is frozen
    out of the collector's sight and collections are rarer; the game's own
    objects are freed by reference counting anyway (no cycles).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
