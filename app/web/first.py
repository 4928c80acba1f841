"""What is served ahead of the middleware: the live streams, and the actions.

A request to the application passes through Starlette's error middleware, the
security headers and body limit, compression, the exception middleware,
FastAPI's exit stacks, the router, the route's dependencies and its body
parsing. Two kinds of request do not need that road:

- a **live stream** lasts hours, thousands at a time, and every layer keeps a
  suspended frame for it as long as it lasts;
- an **action** is what the server does most, and the road is most of its cost:
  at 300 actions/s the layers took five times the event loop's time of the
  route's own work (docs/performance.md, "Actions served first").

So a plain GET of a stream's route is opened here, by the route's function,
and a POST of an action whose body is what clients send (JSON, a well-formed
action) is applied here, by the function the API's route calls. Anything else
(another method, a GET with a body, a body that is not JSON or not an action,
a body over the limit) goes on through the whole application, its body handed
on as it came: every refusal of a malformed request is the application's own.
Whatever is served here, a refusal gets the application's own exception
handlers, and the answer the headers ``app.web.security`` gives every response.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.security import MAX_BODY_BYTES, content_length, secured
from app.web.streams import RoomStream

Handler = Callable[[Request, Exception], Awaitable[Response]]
FirstPost = Callable[[Request, Any], Awaitable[Response | None]]
"""A POST served first: given the request and its JSON body, the answer, or None when
the body is not one this route serves first (the whole application answers it)."""


class ServedFirst:
    """The application's outermost layer: the live streams and the actions are served
    here, ahead of the middleware (see the module's docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        streams: Sequence[Route],
        posts: Sequence[Route],
        handlers: Mapping[Any, Callable[..., Any]],
        router: Any,
    ) -> None:
        self.app = app
        self.streams = streams
        self.posts = posts
        self.handlers = handlers
        self.router = router
        self._headers: dict[tuple[tuple[bytes, bytes], ...], tuple[tuple[bytes, bytes], ...]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            method = scope["method"]
            if method == "GET" and not _has_body(scope):
                endpoint = self._match(self.streams, scope)
                if endpoint is not None:
                    await self._serve(endpoint, (), scope, receive, send)
                    return
            elif method == "POST":
                endpoint = self._match(self.posts, scope)
                if endpoint is not None:
                    await self._post(endpoint, scope, receive, send)
                    return
        await self.app(scope, receive, send)

    def _match(self, routes: Sequence[Route], scope: Scope) -> Any:
        for route in routes:
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                scope.setdefault("router", self.router)
                return child["endpoint"]
        return None

    async def _post(self, endpoint: FirstPost, scope: Scope, receive: Receive, send: Send) -> None:
        """Reads the body; serves it here if it is JSON the route takes, else hands the
        request, with the body as it came, to the whole application."""
        received, body = await _read_body(scope, receive)
        value = _json(scope, body) if body is not None else NOT_JSON
        if value is not NOT_JSON:
            answered = await self._serve(endpoint, (value,), scope, receive, send)
            if answered:
                return
            # Not one served here: its body goes on again, as it came.
        await self.app(scope, _replay(received, receive), send)

    async def _serve(
        self, endpoint: Any, args: tuple[Any, ...], scope: Scope, receive: Receive, send: Send
    ) -> bool:
        """Answers with ``endpoint(request, *args)``, or its refusal; False when it
        answered None (for the whole application to answer)."""
        request = Request(scope, receive)
        unexpected: Exception | None = None
        try:
            response: Response | None = await endpoint(request, *args)
        except Exception as error:
            handler = self._handler(error)
            if handler is None:
                handler, unexpected = self.handlers[Exception], error
            response = await handler(request, error)
        del request
        if response is None:
            return False
        if isinstance(response, RoomStream):
            response.raw_headers = self._stream_headers(scope["path"], response.raw_headers)
        else:
            response.raw_headers = secured(scope["path"], response.raw_headers)
        await response(scope, receive, send)
        if unexpected is not None:
            raise unexpected  # for the server's log, as Starlette's error middleware does
        return True

    def _stream_headers(
        self, path: str, headers: list[tuple[bytes, bytes]]
    ) -> list[tuple[bytes, bytes]]:
        """A stream's headers with the security ones, shared by the streams that have the
        same (all of them, but for the odd header of a route): a list each, not 1 KB.
        What ``secured`` adds depends on the path only for /static/, never a stream's."""
        key = tuple(headers)
        found = self._headers.get(key)
        if found is None:
            found = tuple(secured(path, headers))
            if len(self._headers) < 16:
                self._headers[key] = found
        return list(found)

    def _handler(self, error: Exception) -> Handler | None:
        for kind in type(error).__mro__:
            if kind is not Exception and kind in self.handlers:
                handler: Handler = self.handlers[kind]
                return handler
        return None


NOT_JSON = object()


async def _read_body(scope: Scope, receive: Receive) -> tuple[list[Message], bytes | None]:
    """The messages read, and the whole body; None for the body when it is over the
    limit (declared or sent) or the client left: the application refuses those."""
    received: list[Message] = []
    declared = content_length(scope)
    if declared is not None and declared > MAX_BODY_BYTES:
        return received, None
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return received, None
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return received, None
        parts.append(chunk)
        if not message.get("more_body", False):
            return received, b"".join(parts)


def _json(scope: Scope, body: bytes) -> Any:
    """The body's JSON, where FastAPI would read it as JSON and could (a JSON content
    type, a body that parses); else ``NOT_JSON``, and FastAPI says what is wrong."""
    if not body or not _is_json(scope):
        return NOT_JSON
    try:
        return json.loads(body)
    except Exception:  # not JSON, not text, or nested past the recursion limit
        return NOT_JSON


def _is_json(scope: Scope) -> bool:
    """``application/json`` or ``application/*+json``, parameters aside: the types FastAPI
    reads as JSON (without a content type it reads none)."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            kind: bytes = value.split(b";", 1)[0].strip().lower()
            major, _, minor = kind.partition(b"/")
            return major == b"application" and (minor == b"json" or minor.endswith(b"+json"))
    return False


def _replay(received: list[Message], receive: Receive) -> Receive:
    """A ``receive`` that gives the messages already read, then goes on reading."""
    pending = list(received)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


def _has_body(scope: Scope) -> bool:
    return any(
        (name == b"content-length" and value.strip() not in (b"", b"0"))
        or name == b"transfer-encoding"
        for name, value in scope["headers"]
    )
