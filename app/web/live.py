"""The room page's live stream: HTML regions over Server-Sent Events.

Each event is named after the region it replaces and carries that region's
HTML as this seat may see it. A new stream (a page load, a reconnect after a
network drop) is sent every region, so it catches up whatever it missed; after
that only the regions whose HTML changed for this seat, so nobody's typing is
interrupted by someone else's move. The chat is sent whole once; after that a
``chat-line`` event carries only the lines a change added, appended on screen.

A change is rendered once per seat and shared by every stream of that seat,
whatever the requests' headers: nothing a client sends can make a change
render more than once per view. The one thing a page needs of its own address,
the invite link, is completed by the page's script when a live update leaves
it relative (without ``SOCLOVER_PUBLIC_URL``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from app.service.hub import Change, Ping
from app.service.rooms import RoomService, Seat
from app.web import render
from app.web.deps import CodeDep, ReaderSeat, ServiceDep
from app.web.events import PING_COMMENT, STREAM_HEADERS
from app.web.pages import region_context

router = APIRouter(include_in_schema=False)

LIVE_REGIONS = tuple(name for name in render.REGIONS if name != "chat")
"""Rendered for every change; the chat only when a stream starts or resynchronizes."""


@router.get("/r/{code}/stream")
async def room_stream(
    code: CodeDep, request: Request, seat: ReaderSeat, service: ServiceDep
) -> EventSourceResponse:
    await service.load(code)
    public_url: str | None = request.app.state.settings.public_url
    return EventSourceResponse(
        _regions(service, code, seat, public_url or ""),
        headers=STREAM_HEADERS,
        ping=0,  # the hub pings every stream in turn
    )


async def _regions(
    service: RoomService, code: str, seat: Seat | None, site: str
) -> AsyncIterator[ServerSentEvent | bytes]:
    sent: dict[str, str] = {}
    async for change in service.follow(code, None if seat is None else seat.pid):
        if isinstance(change, Ping):
            yield PING_COMMENT
            continue
        whole_chat = change.chat_after is None or "chat" not in sent
        regions = await _regions_of(service, seat, change, site, whole_chat)
        for name, content in regions.items():
            if sent.get(name) != content:
                sent[name] = content
                yield ServerSentEvent(data=content, event=name, id=str(change.seq))


async def _regions_of(
    service: RoomService, seat: Seat | None, change: Change, site: str, whole_chat: bool
) -> dict[str, str]:
    """This seat's regions after ``change``, rendered once and shared by its streams."""
    index = None if seat is None else change.room.seat_of(seat.pid)
    key = ("html", index)
    regions: dict[str, str] | None = change.rendered.get(key)
    if regions is None:
        context = await _context(service, index, change, site)
        regions = {name: render.region(name, context) for name in LIVE_REGIONS}
        new_lines = [line for line in context["v"]["chat"] if line["id"] > (change.chat_after or 0)]
        if change.chat_after is not None and new_lines:
            regions["chat-line"] = render.chat_lines(new_lines)
        change.rendered[key] = regions
    if not whole_chat:
        return regions
    chat_key = ("html-chat", index)
    chat: str | None = change.rendered.get(chat_key)
    if chat is None:
        context = await _context(service, index, change, site)
        chat = change.rendered[chat_key] = render.region("chat", context)
    return {"chat": chat, **{k: v for k, v in regions.items() if k != "chat-line"}}


async def _context(
    service: RoomService, index: int | None, change: Change, site: str
) -> dict[str, Any]:
    view = await service.room_view(change.room, index)
    context = await region_context(service, view, site)
    context["happened"] = change.action
    return context
