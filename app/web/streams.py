"""What both live streams share: their headers, their keep-alive, their response.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are Server-Sent
Events through sse-starlette; one task pings every stream in turn through
the hub (``app/service/hub.py``), so no stream runs a ping task of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from sse_starlette import EventSourceResponse, ServerSentEvent

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Per seat, so never stored; and no proxy buffering (nginx honours X-Accel-Buffering)."""
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""


def event_stream(events: AsyncIterator[ServerSentEvent | bytes]) -> EventSourceResponse:
    return EventSourceResponse(events, headers=STREAM_HEADERS, ping=0)
