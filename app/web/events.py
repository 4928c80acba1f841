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
from typing import Any

from sse_starlette import ServerSentEvent
from starlette.requests import Request
from starlette.routing import Route

from app.jsontext import to_bytes
from app.service.following import Moved, Update
from app.service.hub import Ping
from app.web.deps import get_service, reader_seat, room_code
from app.web.state_schema import STREAM_SCHEMA
from app.web.streams import PING_COMMENT, RoomStream, event_stream

MAX_EVENT_ID = 20
"""Digits of a Last-Event-ID worth reading."""


async def room_events(request: Request) -> RoomStream:
    """Every change of the room as a `state` event; honours `Last-Event-ID`.

    A plain Starlette route (``ROUTE``), opened ahead of the middleware
    (``app.web.first``): it asks for the room, the seat and the service with the
    functions the API's routes depend on, without FastAPI's dependency machinery,
    whose frames an open stream would hold for hours. The API's document describes
    it through ``OPENAPI``."""
    code = await room_code(request.path_params["code"])
    service = await get_service(request)
    seat = await reader_seat(request, code, service)
    await service.ensure_room(code)  # 404 before the stream opens
    updates = service.follow(code, seat, _last_event_id(request))
    return event_stream(_events(updates))


ROUTE = Route("/api/rooms/{code}/events", room_events, methods=["GET"])


OPENAPI: dict[str, Any] = {
    "get": {
        "tags": ["api"],
        "summary": "Room Events",
        "operationId": "room_events_api_rooms__code__events_get",
        "description": (
            "Every change of the room as a `state` event (`id:` its `seq`, data "
            '`{"seq", "action", "state"}`, the state as the caller\'s seat may see it); '
            "honours `Last-Event-ID` (or `?last_event_id=`). The first event carries the "
            "current state with the whole recent chat (`chat_after` null); each later one "
            "only the chat lines its change added. A `moved` event ends the stream of a "
            "seat that moved to another device. Without a seat, the public view "
            "(rate-limited per client address, as reading the room)."
        ),
        "parameters": [
            {"name": "code", "in": "path", "required": True, "schema": {"type": "string"}},
            {
                "name": "last_event_id",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 0},
            },
            {
                "name": "Last-Event-ID",
                "in": "header",
                "required": False,
                "schema": {"type": "integer", "minimum": 0},
            },
        ],
        "responses": {
            "200": {
                "description": "Server-Sent Events: `state`, then `moved` if the seat moves",
                "content": {"text/event-stream": {"schema": STREAM_SCHEMA}},
            },
            "404": {"description": "No such room"},
            "429": {"description": "Too many rooms read without a seat"},
        },
    }
}
"""The stream in the API's document (``/openapi.json``), beside the routes FastAPI
describes itself."""


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
        del update  # an idle stream holds no change, nor its last event
        yield event
        del event


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
