"""The live streams, opened ahead of the middleware.

A request to the application passes through Starlette's error middleware, the
security headers and body limit, compression, the exception middleware,
FastAPI's exit stacks, the router, the route's dependencies and its body
parsing. A live stream lasts hours, thousands at a time, and every layer would
keep a suspended frame for it as long as it lasts. So a GET (or HEAD) of a
stream's route is opened here, by the route's own function: the route is the
application router's (``app/main.py``), served here first; the application
answers only what does not match it (another method: 405). A refusal gets the
application's own exception handlers, and every response the headers
``app.web.security`` gives every response.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.security import secured
from app.web.streams import RoomStream

Handler = Callable[[Request, Exception], Awaitable[Response]]


class ServedFirst:
    """The application's outermost layer: the live streams are opened here, ahead of
    the middleware (see the module's docstring)."""

    def __init__(
        self,
        app: ASGIApp,
        streams: Sequence[Route],
        handlers: Mapping[Any, Callable[..., Any]],
        router: Any,
    ) -> None:
        self.app = app
        self.streams = streams
        self.handlers = handlers
        self.router = router
        self._headers: dict[tuple[tuple[bytes, bytes], ...], tuple[tuple[bytes, bytes], ...]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            endpoint = self._match(scope)
            if endpoint is not None:
                await self._serve(endpoint, scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _match(self, scope: Scope) -> Any:
        for route in self.streams:
            match, child = route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                scope.setdefault("router", self.router)
                return child["endpoint"]
        return None

    async def _serve(self, endpoint: Any, scope: Scope, receive: Receive, send: Send) -> None:
        """Answers with ``endpoint(request)``, or its refusal."""
        request = Request(scope, receive)
        unexpected: Exception | None = None
        try:
            response: Response = await endpoint(request)
        except Exception as error:
            handler = self._handler(error)
            if handler is None:
                handler, unexpected = self.handlers[Exception], error
            response = await handler(request, error)
        del request
        if isinstance(response, RoomStream):
            response.raw_headers = self._stream_headers(scope["path"], response.raw_headers)
        else:
            response.raw_headers = secured(scope["path"], response.raw_headers)
        await response(scope, receive, send)
        if unexpected is not None:
            raise unexpected  # for the server's log, as Starlette's error middleware does

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
