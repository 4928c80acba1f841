"""What both live streams share: their door, their response, their keep-alive, their end.

``/api/rooms/{code}/events`` (JSON, ``app/web/events.py``) and
``/r/{code}/stream`` (HTML regions, ``app/web/live.py``) are FastAPI routes like
any other: FastAPI solves their dependencies (the room, the seat, the service,
and whatever their router adds) and documents them. Their answers are
Server-Sent Events through sse-starlette. A stream stays open for hours,
thousands at a time, so what each one holds while it waits counts:

- a GET of a stream is handed to its route ahead of the middleware
  (``StreamDoor``), so none of the middleware's layers keeps a suspended frame
  for it for hours;
- it runs in two tasks (``RoomStream``): its events, and the request's own,
  which waits for the disconnect;
- one task pings every stream in turn through the hub (``app/service/hub.py``),
  and one ends every stream when the server is told to stop
  (``close_streams_at_shutdown``): no stream runs a ping task or a shutdown
  listener of its own;
- an idle stream holds no event: each is let go once sent.

docs/performance.md ("The streams: FastAPI's routes, sse-starlette's response")
gives what each of these saves, and the change to sse-starlette we would propose
upstream so that ``RoomStream`` need not exist.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AsyncExitStack
from typing import Any, NoReturn

import anyio
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from sse_starlette import EventSourceResponse
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.service.hub import RoomHub
from app.service.stream_slots import StreamSlot
from app.web.security import secured

PING_COMMENT = b": ping\r\n\r\n"
"""Keeps proxies and phones from closing a quiet stream; browsers ignore it."""
CLEANUP_SECONDS = 30.0
"""How long a stream's events may take to clean up (leave the hub) after a failed send."""


class RoomStream(EventSourceResponse):
    """sse-starlette's response, built by its own constructor (its headers, its
    separator, no ping task: ``ping=0``), served in two tasks a stream.

    sse-starlette's ``__call__`` runs three tasks a stream in an anyio task group
    (the events, a shutdown listener and a disconnect listener), makes a shutdown
    event and a send lock for each, and keeps the last event sent: about 14 KB
    more an idle stream. This one, the ASGI entry point every Starlette response
    has, runs the events in one task while the request's own task waits for the
    disconnect; the hub pings and ends every stream. It is the change we would
    propose upstream, for a response whose pings are off: the events' body is
    bytes already (``ServerSentEvent.encode``), sent as they come. HEAD, and
    anything but HTTP, is sse-starlette's own.
    """

    body_iterator: AsyncIterator[bytes]
    slot: StreamSlot | None = None
    """The place this stream holds among its seat token's (``stream_slots``), given back
    when the response ends, however it ends; or, should it never be sent (its client
    gone before), when it is let go of."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # One frame for the stream's hours, not two: the place is given back here.
        try:
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
        finally:
            self._give_back()

    def __del__(self) -> None:
        self._give_back()

    def _give_back(self) -> None:
        if self.slot is not None:
            self.slot.release()
            self.slot = None


class Ended(Exception):
    """A stream's events are all sent."""


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
    events = response.body_iterator
    try:
        async for chunk in events:
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


def event_stream(events: AsyncIterator[bytes], slot: StreamSlot | None = None) -> RoomStream:
    """The response of a live stream: its events, encoded, pinged and ended by the hub.
    Its headers are sse-starlette's (``no-store``: per seat, so never stored; no proxy
    buffering); every response's are added on its way out. ``slot``, its seat token's
    place, is given back when the response ends, or, should it never be sent (the
    client gone before), when it is let go of."""
    response = RoomStream(events, ping=0)
    response.slot = slot
    return response


class StreamDoor:
    """The application's outermost layer: a GET of a live stream is opened here, by its
    route's own FastAPI handler, ahead of the middleware, whose layers would each keep
    a frame for the hours the stream lasts (docs/performance.md).

    The handler is the one FastAPI makes for the route (``APIRoute.get_route_handler``):
    it solves the route's dependencies, a router's included, reads its parameters and
    calls its endpoint, which gives the stream's response; the door then sends that
    response, holding nothing of FastAPI's while the stream lasts. FastAPI's handler
    asks for the exit stacks its own middleware and route wrapper would have put in
    the scope; they are closed once the response is made, before it is sent, so no
    dependency of a stream may clean up after it (a ``yield``): the door refuses to be
    built with one. A refusal is answered by the application's exception handlers,
    with the headers every response gets; any other request goes through the whole
    application, which has the same routes.
    """

    def __init__(
        self,
        app: ASGIApp,
        streams: Sequence[APIRoute],
        handlers: Mapping[Any, Callable[..., Any]],
    ) -> None:
        for route in streams:
            _refuse_cleanups(route.dependant)
        self.app = app
        self.streams = [(route, route.get_route_handler()) for route in streams]
        self.handlers = handlers
        self._headers: dict[tuple[tuple[bytes, bytes], ...], list[tuple[bytes, bytes]]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            for route, handler in self.streams:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)
                    await self._serve(handler, scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _serve(
        self,
        handler: Callable[[Request], Awaitable[Response]],
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        request = Request(scope, receive)
        unexpected: Exception | None = None
        stack = AsyncExitStack()
        try:
            async with stack:
                for key in FASTAPI_STACKS:
                    scope[key] = stack
                response = await handler(request)
        except Exception as error:
            response, unexpected = await self._refusal(error, request)
        finally:
            for key in FASTAPI_STACKS:
                scope.pop(key, None)
        del request, stack  # a stream lasts hours: it holds neither
        response.raw_headers = self._secured(scope["path"], response)
        await response(scope, receive, send)
        if unexpected is not None:
            raise unexpected  # for the server's log, as Starlette's error middleware does

    def _secured(self, path: str, response: Response) -> list[tuple[bytes, bytes]]:
        """The response's headers with those every response gets (``security.secured``),
        their pairs shared by every stream that has the same (all of them): a list
        each, not a kilobyte. What ``secured`` adds depends on the path only for /static/, never a
        stream's."""
        if not isinstance(response, RoomStream):
            return secured(path, response.raw_headers)
        key = tuple(response.raw_headers)
        found = self._headers.get(key)
        if found is None:
            found = secured(path, response.raw_headers)
            if len(self._headers) < 16:
                self._headers[key] = found
        return list(found)

    async def _refusal(
        self, error: Exception, request: Request
    ) -> tuple[Response, Exception | None]:
        """The application's answer to ``error``, raised while opening a stream, and the
        error again if it was unexpected."""
        for kind in type(error).__mro__[:-2]:  # not BaseException, nor object
            if kind is not Exception and kind in self.handlers:
                return await self.handlers[kind](request, error), None
        return await self.handlers[Exception](request, error), error


FASTAPI_STACKS = ("fastapi_middleware_astack", "fastapi_inner_astack", "fastapi_function_astack")
"""The exit stacks FastAPI's handler asks the scope for: its middleware's (files) and its
route wrapper's (dependencies)."""


def _refuse_cleanups(dependant: Dependant) -> None:
    """No dependency of a stream cleans up after it: the door closes the dependencies'
    exit stack before the stream is sent."""
    for dependency in dependant.dependencies:
        if inspect.isgeneratorfunction(dependency.call) or inspect.isasyncgenfunction(
            dependency.call
        ):
            raise TypeError(f"a live stream's dependency may not yield: {dependency.call}")
        _refuse_cleanups(dependency)


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
