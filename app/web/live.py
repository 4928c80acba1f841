"""The room page's live stream: HTML regions over Server-Sent Events.

Each event is named after the region it replaces and carries that region's
HTML as this seat may see it. A new stream (a page load, a reconnect after a
network drop) is sent every region, so it catches up whatever it missed; after
that only the regions whose HTML changed for this seat, so nobody's typing is
interrupted by someone else's move.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from app.service.hub import Change, Ping
from app.service.rooms import RoomService, Seat
from app.web import render
from app.web.deps import CodeDep, OptionalSeat, ServiceDep
from app.web.events import PING_COMMENT, STREAM_HEADERS
from app.web.pages import region_context, site

router = APIRouter(include_in_schema=False)


@router.get("/r/{code}/stream")
async def room_stream(
    code: CodeDep, request: Request, seat: OptionalSeat, service: ServiceDep
) -> EventSourceResponse:
    await service.load(code)
    return EventSourceResponse(
        _regions(service, code, seat, request),
        headers=STREAM_HEADERS,
        ping=0,  # the hub pings every stream in turn
    )


async def _regions(
    service: RoomService, code: str, seat: Seat | None, request: Request
) -> AsyncIterator[ServerSentEvent | bytes]:
    sent: dict[str, str] = {}
    async for change in service.follow(code, None if seat is None else seat.pid):
        if isinstance(change, Ping):
            yield PING_COMMENT
            continue
        regions = await _regions_of(service, seat, change, request)
        for name, content in regions.items():
            if sent.get(name) != content:
                sent[name] = content
                yield ServerSentEvent(data=content, event=name, id=str(change.seq))


async def _regions_of(
    service: RoomService, seat: Seat | None, change: Change, request: Request
) -> dict[str, str]:
    """Every region's HTML for this seat, rendered once per change and shared by
    every stream of that seat (and site address, which the invite link shows)."""
    index = None if seat is None else change.room.seat_of(seat.pid)
    key = ("html", index, site(request))
    regions = change.rendered.get(key)
    if regions is None:
        context = await _context(service, seat, change, request)
        regions = {name: render.region(name, context) for name in render.REGIONS}
        change.rendered[key] = regions
    return regions


async def _context(
    service: RoomService, seat: Seat | None, change: Change, request: Request
) -> dict[str, Any]:
    index = None if seat is None else change.room.seat_of(seat.pid)
    view = await service.room_view(change.room, index)
    context = await region_context(service, view, request)
    context["happened"] = change.action
    return context
