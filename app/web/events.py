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
from typing import Annotated, Any

from fastapi import Header, Query, Request
from sse_starlette import ServerSentEvent

from app.jsontext import to_bytes
from app.service.following import Moved, Update
from app.service.hub import Ping
from app.web.deps import CodeDep, ReaderSeat, ServiceDep
from app.web.renderings import CommonJson, OwnJson, Renderings, StateEvent, renderings_of
from app.web.state_schema import STREAM_SCHEMA
from app.web.streams import PING_COMMENT, RoomStream, event_stream

MAX_EVENT_ID = 20
"""Digits of a Last-Event-ID worth reading."""
LAST_EVENT_ID = (
    "The `id` of the last event this client had: the stream starts with each change "
    "after it (`Last-Event-ID` as browsers send it, or `?last_event_id=`)."
)


async def room_events(
    request: Request,
    code: CodeDep,
    service: ServiceDep,
    seat: ReaderSeat,
    last_event_id: Annotated[str | None, Query(description=LAST_EVENT_ID)] = None,
    last_event_id_header: Annotated[
        str | None, Header(alias="Last-Event-ID", description=LAST_EVENT_ID)
    ] = None,
) -> RoomStream:
    """Every change of the room as a `state` event (`id:` its `seq`, data
    `{"seq", "action", "state"}`, the state as the caller's seat may see it); honours
    `Last-Event-ID` (or `?last_event_id=`). The first event carries the current state
    with the whole recent chat (`chat_after` null); each later one only the chat lines
    its change added. A `moved` event ends the stream of a seat that moved to another
    device. Without a seat, the public view (rate-limited per client address, as
    reading the room). One seat token holds four streams open at once; a fifth is
    refused (429 `too_many_streams`) until one of them ends.
    """
    await service.ensure_room(
        code, None if seat is None else seat.pid
    )  # 404 before the stream opens
    updates = service.follow(code, seat, _event_id(last_event_id_header or last_event_id))
    events = _events(updates, renderings_of(request))
    return event_stream(events, service.hold_stream(seat))  # 429 past a token's streams


RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-Sent Events: `state`, then `moved` if the seat moves",
        "content": {"text/event-stream": {"schema": STREAM_SCHEMA}},
    },
    404: {"description": "No such room"},
    429: {
        "description": "Too many rooms read without a seat (`rate_limited`), or this seat "
        "token holds four live streams already (`too_many_streams`)"
    },
}
"""The stream's answers in the API's document (``api.router`` declares its route)."""


def _event_id(raw: str | None) -> int | None:
    """The last event a client had, if it says one it could have had; any other value
    is no value: the stream starts with the whole state, as for a new client."""
    try:
        return int(raw) if raw is not None and len(raw) < MAX_EVENT_ID else None
    except ValueError:
        return None


MOVED_EVENT = ServerSentEvent(data="{}", event="moved").encode()
"""The last event of a stream whose seat moved to another device; its token no longer works."""


async def _events(
    updates: AsyncIterator[Update | Ping | Moved], renderings: Renderings
) -> AsyncIterator[bytes]:
    async for update in updates:
        if isinstance(update, Moved):
            yield MOVED_EVENT
            return
        event = PING_COMMENT if isinstance(update, Ping) else await _encoded(update, renderings)
        del update  # an idle stream holds no change, nor its last event
        yield event
        del event


async def _encoded(update: Update, renderings: Renderings) -> bytes:
    """The event, encoded once per change and seat and shared by that seat's streams."""
    key = StateEvent(update.viewer)
    encoded: bytes | None = renderings.get(update.change, key)
    if encoded is None:
        data = b'{"seq":%d,"action":%b,"state":%b}' % (
            update.seq,
            to_bytes(update.action),
            await state_json(update, renderings, keep_own=_made_it(update)),
        )
        encoded = renderings.keep_built(update.change, key, state_event(update.seq, data))
    return encoded


async def state_json(update: Update, renderings: Renderings, *, keep_own: bool) -> bytes:
    """The seat's view after a change, as JSON, in two pieces: the seat's own (``you``,
    ``can``) and the common part of its view, encoded once for every seat of its
    audience (a room's guessers, or all its watchers: ``views.audience``) and for the
    answer to the action that made the change. Four guessers cost one view and one
    encoding, and a few bytes each.

    The own part is kept (``keep_own``) for the seat that made the change only: its
    answer and its streams, whichever comes first, share it (working out ``can`` is a
    good part of an event's cost). Every other seat's is read once, by the ``state``
    event its streams keep; kept too, it would double what a room's last changes hold
    for every stream that idles (docs/performance.md)."""
    key = CommonJson(update.audience)
    common: bytes | None = renderings.get(update.change, key)
    if common is None:
        common = renderings.keep_built(update.change, key, to_bytes(await update.common_view()))
    mine = OwnJson(update.viewer)
    own: bytes | None = renderings.get(update.change, mine)
    if own is None:
        own = to_bytes(update.own())
        if keep_own:
            renderings.keep_built(update.change, mine, own)
    return b"%b,%b" % (own[:-1], common[1:])  # two JSON objects, with keys, made one


def _made_it(update: Update) -> bool:
    """Whether the seat ``update`` is for made its change (the answer to its action
    carries the same own part as its event)."""
    seat = None if update.action is None else update.action["seat"]
    return seat is not None and seat == update.viewer


def state_event(seq: int, data: bytes) -> bytes:
    """A ``state`` event as sse-starlette's ``ServerSentEvent(data, event="state",
    id=seq)`` encodes it, for JSON on one line (JSON text holds no line break)."""
    return b"id: %d\r\nevent: state\r\ndata: %b\r\n\r\n" % (seq, data)
