"""What both live streams share: their headers, their keep-alive, their response.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are Server-Sent
Events through sse-starlette; one task pings every stream in turn through
the hub (``app/service/hub.py``), so no stream runs a ping task of its own,
and one task ends every stream when the server shuts down
(``close_streams_at_exit``), so no stream runs a shutdown listener of its own.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
from sse_starlette import EventSourceResponse, ServerSentEvent
from sse_starlette.event import ensure_bytes
from starlette.types import Message, Receive, Scope, Send

from app.service.hub import RoomHub

STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
"""Per seat, so never stored; and no proxy buffering (nginx honours X-Accel-Buffering)."""
PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""


class RoomStream(EventSourceResponse):
    """sse-starlette's response, lighter by what thousands of open streams do not need.

    Its own ``__call__`` runs four tasks a stream: the events, a ping, a
    shutdown listener and a disconnect listener. Here the events run in one
    task and the request's own task listens for the disconnect; the hub pings
    and ends every stream (see the module's docstring). An idle stream holds
    two tasks instead of four (docs/performance.md says what each step saved).

    And each event is handed to the server as it is, without a timeout scope
    around every send: none is set (a phone that stops reading is left behind
    by its mailbox in the hub, and resynchronized when it reads again).
    """

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] == "HEAD" or self.send_timeout is not None:
            await super().__call__(scope, receive, send)
            return
        try:
            async with anyio.create_task_group() as group:

                async def events() -> None:
                    await self._stream_response(send)
                    group.cancel_scope.cancel()  # the stream ended: stop listening

                group.start_soon(events)
                await self._listen_for_disconnect(receive)
                group.cancel_scope.cancel()  # the phone left: stop the events
        except BaseExceptionGroup as group_error:
            # anyio wraps a task's failure in a group; the middleware expects it bare,
            # as Starlette's and sse-starlette's own responses give it.
            error: BaseException = group_error
            while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                error = error.exceptions[0]
            raise error from None
        if self.background is not None:
            await self.background()

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
        async with self._send_lock:
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
