"""The live stream of a room: one Server-Sent Event per accepted action.

Each event has ``id: <seq>`` and carries the state as the receiving seat may
see it, built from the per-seat view (never from raw state), and who did what
(``{"type", "seat", "player", "name"}``, never the action's content). A client
that reconnects with ``Last-Event-ID`` is sent each change it missed, in
order, or the current state when the server no longer holds them all. An
open stream is its player's presence at the table.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.routing import Route

from app.jsontext import to_bytes
from app.service.following import Moved, Update
from app.service.hub import Ping
from app.service.rooms import RoomService
from app.service.seats import Seat
from app.web.deps import CodeDep, ReaderSeat, ServiceDep, get_service, reader_seat, room_code
from app.web.streams import PING_COMMENT, RoomStream, event_stream

router = APIRouter(prefix="/api", tags=["api"])

MAX_EVENT_ID = 20
"""Digits of a Last-Event-ID worth reading."""


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
    return await _opened(request, code, seat, service)


async def served_room_events(request: Request) -> RoomStream:
    """``room_events`` as it is served: a plain Starlette route (``SERVED``) asking for
    the same room, seat and service with the same functions, without FastAPI's
    dependency machinery, whose frames an open stream would hold for hours (about
    4 KB a stream, thousands of them). The route above stays for the API's
    documentation."""
    code = await room_code(request.path_params["code"])
    service = await get_service(request)
    return await _opened(request, code, await reader_seat(request, code, service), service)


SERVED = Route("/api/rooms/{code}/events", served_room_events, methods=["GET"])
"""Registered ahead of the routers (``app/main.py``), so it is the one that answers."""


async def _opened(
    request: Request, code: str, seat: Seat | None, service: RoomService
) -> RoomStream:
    await service.ensure_room(code)  # 404 before the stream opens
    updates = service.follow(code, seat, _last_event_id(request))
    return event_stream(_events(updates))


def _last_event_id(request: Request) -> int | None:
    raw = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    try:
        return int(raw) if raw is not None and len(raw) < MAX_EVENT_ID else None
    except ValueError:
        return None


MOVED_EVENT = ServerSentEvent(data="{}", event="moved").encode()
"""The last event of a stream whose seat moved to another device; its token no longer works."""


async def _events(updates: AsyncIterator[Update | Ping | Moved]) -> AsyncIterator[bytes]:
    async for update in updates:
        if isinstance(update, Moved):
            yield MOVED_EVENT
            return
        event = PING_COMMENT if isinstance(update, Ping) else await _encoded(update)
        del update  # an idle stream holds no change
        yield event


async def _encoded(update: Update) -> bytes:
    """The event, encoded once per change and seat and shared by that seat's streams."""
    encoded: bytes | None = update.rendered("json")
    if encoded is None:
        data = b'{"seq":%d,"action":%b,"state":%b}' % (
            update.seq,
            to_bytes(update.action),
            await state_json(update),
        )
        encoded = update.save_rendered("json", state_event(update.seq, data))
    return encoded


async def state_json(update: Update) -> bytes:
    """The seat's view after a change, as JSON, in two pieces: the seat's own (``you``,
    ``can``) and the common part of its view, encoded once for every seat of its
    audience (a room's guessers, or all its watchers: ``views.audience``) and for the
    answer to the action that made the change. Four guessers cost one view and one
    encoding, and a few bytes each."""
    common: bytes = await update.common("json-common", to_bytes)
    own = to_bytes(update.own())
    return b"%b,%b" % (own[:-1], common[1:])  # two JSON objects, with keys, made one


def state_event(seq: int, data: bytes) -> bytes:
    """A ``state`` event as sse-starlette's ``ServerSentEvent(data, event="state",
    id=seq)`` encodes it, for JSON on one line (JSON text holds no line break)."""
    return b"id: %d\r\nevent: state\r\ndata: %b\r\n\r\n" % (seq, data)
