"""GZip for pages and JSON; the live streams go straight through.

Starlette's GZipMiddleware already leaves ``text/event-stream`` uncompressed,
but only after wrapping every message of the stream in a responder of its
own: thousands of open streams each held one for nothing.
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
        if scope["type"] == "http" and scope["path"].endswith(STREAMS):
            await self.app(scope, receive, send)
        else:
            await self.gzip(scope, receive, send)
