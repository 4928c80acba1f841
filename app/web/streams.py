"""What both live streams share: their door, their headers, their keep-alive, their
response, their end.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are Server-Sent
Events through sse-starlette, used through its public API only. A stream
stays open for hours, thousands at a time, so what each one holds while it
waits counts:

- it is opened ahead of the middleware (``app.web.first``), so no layer keeps a
  suspended frame for it;
- it runs in two tasks (``RoomStream``): its events, and the request's own,
  which waits for the disconnect;
- one task pings every stream in turn through the hub (``app/service/hub.py``),
  and one ends every stream when the server is told to stop
  (``close_streams_at_shutdown``): no stream runs a ping task or a shutdown
  listener of its own;
- an idle stream holds no event: each is let go once sent.

docs/performance.md ("Streams on sse-starlette's public API") says what
sse-starlette's own ``__call__`` would cost each stream, and the change we
would propose upstream so that it need not.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, NoReturn

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.event import ensure_bytes
from starlette.types import Message, Receive, Scope, Send

from app.service.hub import RoomHub

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Per seat, so never stored; and no proxy buffering (nginx honours X-Accel-Buffering)."""
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""
CLEANUP_SECONDS = 30.0
"""How long a stream's events may take to clean up (leave the hub) after a failed send."""


class Ended(Exception):
    """A stream's events are all sent."""


class RoomStream(EventSourceResponse):
    """sse-starlette's response, built by its own constructor (its headers, its
    separator, no ping task: ``ping=0``), served in two tasks a stream.

    sse-starlette's ``__call__`` runs three tasks a stream in an anyio task group
    (the events, a shutdown listener and a disconnect listener). This one, the ASGI
    entry point every Starlette response has, runs the events in one task while the
    request's own task waits for the disconnect, in an asyncio task group; the hub
    pings and ends every stream. HEAD, and anything but HTTP, is sse-starlette's own.
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "HEAD":
            await super().__call__(scope, receive, send)
            return
        try:
            async with asyncio.TaskGroup() as group:
                events = group.create_task(_send_then_stop(self, send))
                await _disconnected(receive)
                events.cancel()  # the phone left: stop the events
        except BaseExceptionGroup as group_error:
            # The group ends by the events' ``Ended`` (the stream ended: stop listening)
            # or by a failure, which the middleware expects bare, as Starlette's and
            # sse-starlette's own responses give it.
            error: BaseException | None = group_error.split(Ended)[1]
            while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                error = error.exceptions[0]
            if error is not None:
                raise error from None
        if self.background is not None:
            await self.background()


async def _send_then_stop(response: RoomStream, send: Send) -> NoReturn:
    """Sends the response's events, holding none once sent: a stream waits for the
    next change with nothing of the last one (a page's first event is every region
    of the room, private to it). No timeout scope around each send: none is set, and
    a phone that stops reading is left behind by its mailbox in the hub, then
    resynchronized when it reads again."""
    await send(
        {
            "type": "http.response.start",
            "status": response.status_code,
            "headers": response.raw_headers,
        }
    )
    events = aiter(response.body_iterator)
    try:
        while True:
            try:
                chunk = ensure_bytes(await anext(events), response.sep)
            except StopAsyncIteration:
                break
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
            del chunk
    except BaseException:
        # As sse-starlette does: the events' own cleanup (the hub's subscription) runs
        # before the error goes on, however the send failed.
        aclose = getattr(events, "aclose", None)
        if aclose is not None:
            with anyio.move_on_after(CLEANUP_SECONDS, shield=True):
                await aclose()
        raise
    await send({"type": "http.response.body", "body": b"", "more_body": False})
    raise Ended  # ends the task group, and with it the wait for a disconnect


async def _disconnected(receive: Receive) -> None:
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            return


def event_stream(events: AsyncIterator[ServerSentEvent | bytes]) -> RoomStream:
    """The response of a live stream: its events, pinged and ended by the hub."""
    return RoomStream(events, headers=STREAM_HEADERS, ping=0)


async def close_streams_at_shutdown(hub: RoomHub) -> None:
    """Ends every stream once the server is told to stop, so it stops at once.

    sse-starlette knows uvicorn's ways of being told; what it offers in public is a
    response's ``shutdown_event``, set when the server stops. So one response with
    no events and no client runs here for the whole server, the streams' one
    shutdown listener; when it is set, the hub ends every stream, and each sends
    the end of its response."""
    shutdown = anyio.Event()
    watch = EventSourceResponse(_nothing(shutdown), ping=0, shutdown_event=shutdown)
    await watch({"type": "http", "method": "GET"}, _no_client, _nowhere)
    hub.close()


async def _nothing(shutdown: anyio.Event) -> AsyncIterator[bytes]:
    await shutdown.wait()
    return
    yield b""  # an async generator that yields nothing


async def _no_client() -> Message:
    await asyncio.Future()  # never disconnects; cancelled with the watch
    raise AssertionError("unreachable")


async def _nowhere(message: Any) -> None:
    return None
