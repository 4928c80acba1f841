"""GZip for what players load; the live streams and the answers to actions go straight through.

Starlette's GZipMiddleware leaves ``text/event-stream`` uncompressed, but
only after wrapping every message of the stream in a responder of its own:
thousands of open streams would each hold one for nothing. And compressing
every answer to an action (a POST) with a fresh gzip state costs the event loop
more than it is worth on a small answer the player waits for (docs/performance.md,
"Answers and streams without gzip; rows as plain data"). Pages, static files and
room reads (GETs) are compressed.
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
