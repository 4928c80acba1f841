"""Presence and housekeeping: who is at the table, and what to let go of.

The tracker (``app/service/presence.py``) only counts signs of life; here its
answer becomes a ``Presence`` action through the ordinary action path, so a
player coming and going is persisted, numbered and broadcast like any other
change. Housekeeping drops the copies of idle rooms from memory (they are on
disk) and deletes rooms idle for longer than the expiry (their legends stay).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import TYPE_CHECKING

from app.rules import actions as act
from app.rules.state import Room
from app.service.errors import RoomNotFound

if TYPE_CHECKING:
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)

SWEEP_PAUSE_EVERY = 50
"""Rooms between two pauses of a sweep: a thousand rooms swept at once hold the event
loop for tens of ms."""


async def sync_presence(
    service: RoomService, code: str, present: frozenset[int] | None = None
) -> None:
    """Report who is present to the room (pids in ``present``), if that changed.

    Without ``present``: what this process sees, or with several processes,
    what any of them has seen lately.
    """
    if present is None:
        present = (await _present(service, [code])).get(code, frozenset())

    def presence_for(room: Room) -> act.Action | None:
        seats = frozenset(s for s, p in enumerate(room.players) if p.pid in present)
        shown = frozenset(s for s, p in enumerate(room.players) if p.present)
        return None if seats == shown else act.Presence(seats)

    cached = service.copies.get(code)
    if cached is not None and presence_for(cached) is None:
        return  # nothing changed: no transaction needed
    try:
        await service.apply(code, None, presence_for)
    except RoomNotFound:
        service.presence.forget(code)


async def _present(service: RoomService, codes: list[str]) -> dict[str, frozenset[int]]:
    tracker, cluster = service.presence, service.cluster
    if not cluster.shared:
        return {code: tracker.present(code) for code in codes}
    await cluster.seen({code: tracker.signs(code) for code in codes}, tracker.grace)
    return await cluster.present(codes, tracker.grace)


async def sweep_presence(service: RoomService) -> None:
    """Bring every room whose presence may have changed up to date; every few seconds.

    One query for all rooms on PostgreSQL, and a pause every few rooms.
    """
    codes = sorted(
        service.presence.rooms()
        | {room.code for room in service.copies.rooms() if any(p.present for p in room.players)}
    )
    present = await _present(service, codes)
    for i, code in enumerate(codes):
        if i % SWEEP_PAUSE_EVERY == SWEEP_PAUSE_EVERY - 1:
            await asyncio.sleep(0)
        try:
            await sync_presence(service, code, present.get(code, frozenset()))
        except Exception:  # one broken room must not stop the sweep
            log.exception("presence sweep failed for room %s", code)
    service.presence.prune()


def forget_idle(service: RoomService) -> int:
    """Drop the copies of rooms nobody streams or has touched lately: they are on disk.

    Without this every room ever loaded would stay in memory until it expires.
    """
    busy = service.hub.watched() | service.presence.rooms()
    idle = [code for code in service.copies.codes() if code not in busy]
    for code in idle:
        _let_go(service, code)
    service.seats.keep_only(service.copies.codes())
    return len(idle)


async def expire(service: RoomService, older_than: timedelta) -> int:
    """Delete rooms idle for longer than ``older_than``; their legends stay."""
    codes = await service.store.expire(service.clock() - older_than)
    for code in codes:
        _let_go(service, code)
        service.presence.forget(code)
    service.seats.keep_only(service.copies.codes())
    return len(codes)


def _let_go(service: RoomService, code: str) -> None:
    service.copies.drop(code)
    service.legends.forget(code)
    service.hub.forget(code)
