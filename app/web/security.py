"""Headers and limits every response gets: a strict CSP, no sniffing, small bodies,
and no caching of anything but the static files.

Pages, room reads, action answers and streams are all per seat (a Spectator's
holds the solution), so none may be stored by a browser or a shared cache:
``Cache-Control: no-store`` unless a route chose otherwise, and ``Vary`` on the
headers that name the seat."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable

from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
"""No request of this game needs more; larger bodies are refused before parsing."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'; manifest-src 'self'; worker-src 'self'"
)
CSP_HEADER = CSP.encode()
"""Every page's, /docs included: Swagger UI is served from /static/ and started by a
script file of ours (app/web/api_docs.py), so nothing loads from anywhere else."""

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


class SecurityMiddleware:
    """Pure ASGI (not BaseHTTPMiddleware), so streamed responses pass straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = content_length(scope)
        if declared is not None and declared > MAX_BODY_BYTES:
            await _too_large(send)
            return
        path: str = scope.get("path", "")
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    raise BodyTooLarge()
            return message

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": secured(path, message.get("headers", []))}
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            await _too_large(send)
        except Exception as error:
            if started:
                raise
            # Starlette's error middleware, outside this one, would answer with the
            # application's 500 but without these headers: the 500 is sent from here,
            # by the same handler, which logs the error (raised on, it would be twice).
            await _unexpected(scope, receive, send_with_headers, error)


def secured(path: str, headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with this module's added: what every response to ``path`` carries."""
    # A route's own choice of one of them (a stricter Referrer-Policy) stands alone.
    own = {name.lower() for name, _ in headers}
    added = [header for header in SECURITY_HEADERS if header[0] not in own]
    result = [*headers, *added, (b"content-security-policy", CSP_HEADER)]
    return result if path.startswith("/static/") else _per_seat(result)


class BodyTooLarge(StarletteHTTPException):
    """An HTTP error, so FastAPI passes it on (413) instead of calling it a parse error (400)."""

    def __init__(self) -> None:
        super().__init__(413, "That request is too large.")


PER_SEAT_VARY = ("cookie", "authorization", "accept-language")
"""What a page or an answer depends on: the seat, and the interface language."""


_PER_SEAT_VARY_HEADER = (b"vary", ", ".join(name.title() for name in PER_SEAT_VARY).encode())
_PER_SEAT_CACHED = [_PER_SEAT_VARY_HEADER]
_PER_SEAT_NOT_STORED = [(b"cache-control", b"no-store"), _PER_SEAT_VARY_HEADER]


def _per_seat(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``no-store`` (unless the route set its own caching) and ``Vary`` on what picks the
    seat and the language."""
    names = {name.lower() for name, _ in headers}
    if b"vary" not in names:  # nearly every response: nothing to merge
        return headers + (_PER_SEAT_CACHED if b"cache-control" in names else _PER_SEAT_NOT_STORED)
    if b"cache-control" not in names:
        headers.append((b"cache-control", b"no-store"))
    vary = [v.decode("latin-1") for name, v in headers if name.lower() == b"vary"]
    have = {part.strip().lower() for value in vary for part in value.split(",") if part.strip()}
    missing = [name for name in PER_SEAT_VARY if name not in have]
    if missing:
        headers = [(name, value) for name, value in headers if name.lower() != b"vary"]
        merged = [*(part.strip() for value in vary for part in value.split(",") if part.strip())]
        merged += [name.title() for name in missing]
        headers.append((b"vary", ", ".join(merged).encode("latin-1")))
    return headers


def content_length(scope: Scope) -> int | None:
    """The declared length of the body; None if none is declared, or not a number."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _unexpected(scope: Scope, receive: Receive, send: Send, error: Exception) -> None:
    """The application's own answer to an unexpected error (its ``Exception`` handler,
    JSON or a page), sent through ``send``; a bare 500 if it has none."""
    app = scope.get("app")
    handlers = getattr(app, "exception_handlers", {})
    handler = handlers.get(Exception)
    if handler is None:
        response: Response = PlainTextResponse("Internal Server Error", status_code=500)
    else:
        response = await handler(Request(scope, receive), error)
    await response(scope, receive, send)


async def _too_large(send: Send) -> None:
    body = json.dumps(
        {"error": {"code": "too_large", "message": "That request is too large."}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                *SECURITY_HEADERS,
                (b"content-security-policy", CSP_HEADER),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


SEAT_LINK = re.compile(r"(/r/[^/?#\s]+/seat/)[^/?#\s]+")


class RedactSeatLinks(logging.Filter):
    """Keep seat secrets out of the access log.

    Seat links of the older form carry their token in the path; the log line
    keeps the room and drops the token (links now carry it after ``#``, which
    browsers never send).
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(
            isinstance(arg, str) and "/seat/" in arg for arg in record.args
        ):
            record.args = tuple(
                SEAT_LINK.sub(r"\1…", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


def redact_access_log() -> None:
    """Install the filter on uvicorn's access log (once, after uvicorn set up logging)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactSeatLinks) for f in access.filters):
        access.addFilter(RedactSeatLinks())
