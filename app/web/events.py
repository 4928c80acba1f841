"""The live stream of a room: one Server-Sent Event per accepted action.

Each event has ``id: <seq>`` and carries the state as the receiving seat may
see it, built from the per-seat view at send time (never from raw state), and
who did what (``{"type", "seat", "player", "name"}``, never the action's content). A client that
reconnects with ``Last-Event-ID`` is sent each change it missed, in order, or
the current state when the server no longer holds them all. An open stream is
its player's presence at the table.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent

from app.jsontext import to_bytes
from app.service.hub import Change, Ping
from app.service.rooms import RoomService, Seat
from app.web.deps import CodeDep, ReaderSeat, ServiceDep

router = APIRouter(prefix="/api", tags=["api"])

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""


@router.get(
    "/rooms/{code}/events",
    response_class=EventSourceResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def room_events(
    code: CodeDep, request: Request, seat: ReaderSeat, service: ServiceDep
) -> EventSourceResponse:
    """Every change of the room as a `state` event; honours `Last-Event-ID`.

    The first event carries the current state with the whole recent chat
    (`chat_after` null); each later one only the chat lines its change added.
    """
    await service.load(code)  # 404 before the stream opens
    return EventSourceResponse(
        _events(service, code, seat, _last_event_id(request)),
        headers=STREAM_HEADERS,
        ping=0,  # the hub pings every stream in turn (app/service/hub.py): no task each
    )


def _last_event_id(request: Request) -> int | None:
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    try:
        return int(raw) if raw is not None and len(raw) < 20 else None
    except ValueError:
        return None


async def _events(
    service: RoomService, code: str, seat: Seat | None, last: int | None
) -> AsyncIterator[bytes]:
    async for change in service.follow(code, None if seat is None else seat.pid, last):
        yield PING_COMMENT if isinstance(change, Ping) else await _event(service, seat, change)


async def _event(service: RoomService, seat: Seat | None, change: Change) -> bytes:
    """The encoded event; built once per (change, seat) and shared by that seat's streams."""
    index = None if seat is None else change.room.seat_of(seat.pid)
    key = ("json", index)
    encoded = change.rendered.get(key)
    if encoded is None:
        data: dict[str, Any] = {
            "seq": change.seq,
            "action": change.action,
            "state": await service.room_view(change.room, index, chat_after=change.chat_after),
        }
        encoded = change.rendered[key] = ServerSentEvent(
            data=to_bytes(data).decode(), event="state", id=str(change.seq)
        ).encode()
    return encoded
