"""What both live streams share: their door, their headers, their keep-alive, their
response.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are Server-Sent
Events through sse-starlette's ``EventSourceResponse``, used through its
public parameters only. A stream stays open for hours, thousands at a time,
so what each one holds while it waits counts:

- it is opened ahead of the middleware (``app.web.first``), so no layer keeps a
  suspended frame for it;
- it runs no ping task of its own (``ping=0``): one task pings every stream in
  turn through the hub (``app/service/hub.py``), as an event of the stream;
- after an event of its own (a stream's first, every region of the room for
  its seat) it lets go of it (``LET_GO``), so an idle stream holds no event.

When the server is told to stop, sse-starlette sets the streams' shutdown event
and gives them a grace period; the hub then ends every stream
(``close_streams_at_shutdown``), and each sends the end of its response, so a
client sees a finished stream rather than a cut one.

docs/performance.md says what each of these saved, and what sse-starlette's
response still costs a stream.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent

from app.service.hub import RoomHub

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Per seat, so never stored; and no proxy buffering (nginx honours X-Accel-Buffering)."""
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""
LET_GO = b""
"""Sent after an event of a stream's own: the response's loop holds the last thing it
sent until the next arrives, and an empty chunk writes nothing to the socket."""


SHUTDOWN_GRACE_SECONDS = 5.0
"""How long a stream has to end by itself once the server is told to stop."""


def event_stream(
    events: AsyncIterator[ServerSentEvent | bytes], shutdown: anyio.Event
) -> EventSourceResponse:
    """The response of a live stream: its events, pinged by the hub, not by a task;
    ``shutdown`` is the server's one shutdown event (``close_streams_at_shutdown``)."""
    return EventSourceResponse(
        events,
        headers=STREAM_HEADERS,
        ping=0,
        shutdown_event=shutdown,
        shutdown_grace_period=SHUTDOWN_GRACE_SECONDS,
    )


async def close_streams_at_shutdown(shutdown: anyio.Event, hub: RoomHub) -> None:
    """Ends every stream once sse-starlette sees the server told to stop (it sets
    ``shutdown``, the event every stream was given): each stream's events end, and
    it sends the end of its response within its grace period."""
    await shutdown.wait()
    hub.close()
