"""GZip for what players load; the live streams and the answers to actions go straight through.

Starlette's GZipMiddleware already leaves ``text/event-stream`` uncompressed,
but only after wrapping every message of the stream in a responder of its
own: thousands of open streams each held one for nothing. And every answer
to an action (a POST) was compressed with a fresh gzip state, 6 % of the
event loop's time at 200 actions/s (py-spy) to save a few KB on an answer
the player waits for. Pages, static files and room reads (GETs) still are.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

STREAMS = ("/events", "/stream")
"""Path endings of the SSE routes (app/web/events.py, app/web/live.py)."""


class CompressPages:
    def __init__(self, app: ASGIApp, minimum_size: int = 800) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (
            scope["method"] in ("GET", "HEAD") and not scope["path"].endswith(STREAMS)
        ):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)
