"""What both live streams share: their door, their headers, their keep-alive, their
response.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are Server-Sent
Events through sse-starlette. A stream stays open for hours, thousands at a
time, so what each one holds while it waits is counted in kilobytes a stream:

- it is opened ahead of the middleware (``app.web.first``), so no layer keeps a
  suspended frame for it;
- it runs two tasks (``RoomStream``): the events, and the request's own, which
  listens for the disconnect;
- one task pings every stream in turn through the hub (``app/service/hub.py``),
  and one ends every stream when the server shuts down
  (``close_streams_at_exit``): no stream runs a ping task or a shutdown
  listener of its own.

docs/performance.md says what each of these saved.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.event import ensure_bytes
from starlette.types import Message, Receive, Scope, Send

from app.service.hub import RoomHub

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Per seat, so never stored; and no proxy buffering (nginx honours X-Accel-Buffering)."""
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""


class OneSender:
    """What stands for sse-starlette's send lock in a ``RoomStream``: nothing to lock."""

    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


ONE_SENDER = OneSender()


class Ended(Exception):
    """A stream's events are all sent."""


class RoomStream(EventSourceResponse):
    """sse-starlette's response, lighter by what thousands of open streams do not need.

    Its own ``__call__`` runs four tasks a stream in an anyio task group: the
    events, a ping, a shutdown listener and a disconnect listener. Here the
    events run in one task and the request's own task listens for the
    disconnect, in an asyncio task group (anyio's holds 3 KB more a stream); the
    hub pings and ends every stream (see the module's docstring).

    And each event is handed to the server as it is, without a timeout scope
    around every send: none is set (a phone that stops reading is left behind
    by its mailbox in the hub, and resynchronized when it reads again).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Its events and pings come through one task here, so no send needs a lock: an
        # anyio lock is 0.8 KB, for each of thousands of streams.
        self._send_lock = ONE_SENDER  # type: ignore[assignment]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "HEAD" or self.send_timeout is not None:
            await super().__call__(scope, receive, send)
            return
        try:
            async with asyncio.TaskGroup() as group:
                events = group.create_task(self._stream_then_stop(send))
                await self._listen_for_disconnect(receive)
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

    async def _stream_then_stop(self, send: Send) -> None:
        await self._stream_response(send)
        raise Ended  # ends the task group, and with it the wait for a disconnect

    async def _send_with_timeout(self, send: Send, message: Message) -> None:
        await send(message)

    async def _stream_response(self, send: Send) -> None:
        """sse-starlette's, but holding no event once it is sent: a stream waits for
        the next change with nothing of the last one, where sse-starlette's loop keeps
        it (a page's first event is every region of the room, 10 KB, private to it)."""
        start = {"type": "http.response.start", "status": self.status_code}
        await send({**start, "headers": self.raw_headers})
        events = aiter(self.body_iterator)
        try:
            while True:
                try:
                    chunk = ensure_bytes(await anext(events), self.sep)
                except StopAsyncIteration:
                    break
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
                del chunk
        except BaseException:
            # As sse-starlette does: the events' own cleanup (the hub's subscription)
            # runs before the error goes on, however the send failed.
            aclose = getattr(events, "aclose", None)
            if aclose is not None:
                with anyio.move_on_after(self._cleanup_timeout, shield=True):
                    await aclose()
            raise
        self.active = False
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def event_stream(events: AsyncIterator[ServerSentEvent | bytes]) -> RoomStream:
    return RoomStream(events, headers=STREAM_HEADERS, ping=0)


async def close_streams_at_exit(hub: RoomHub) -> None:
    """Ends every stream once the server is told to stop, so it stops at once.

    Waits through sse-starlette's own shutdown watch, which knows uvicorn's ways of
    being told (its one task polls for the whole process), then has the hub end every
    stream: each sends the end of its response and the server can close."""
    await EventSourceResponse._listen_for_exit_signal()
    hub.close()
