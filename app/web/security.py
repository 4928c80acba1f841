"""Headers and limits every response gets: a strict CSP, no sniffing, small bodies."""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
"""No request of this game needs more; larger bodies are refused before parsing."""

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SWAGGER_CDN = "https://cdn.jsdelivr.net"
"""/docs is FastAPI's Swagger UI, which loads from this CDN; the game's pages load nothing
from anywhere else."""
DOCS_CSP = (
    CSP.replace("script-src 'self'", f"script-src 'self' 'unsafe-inline' {SWAGGER_CDN}")
    .replace("style-src 'self'", f"style-src 'self' 'unsafe-inline' {SWAGGER_CDN}")
    .replace("img-src 'self' data:", "img-src 'self' data: https://fastapi.tiangolo.com")
)

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
        declared = _content_length(scope)
        if declared is not None and declared > MAX_BODY_BYTES:
            await _too_large(send)
            return
        path: str = scope.get("path", "")
        csp = DOCS_CSP if path.startswith(("/docs", "/redoc")) else CSP
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    raise BodyTooLarge()
            return message

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.extend(SECURITY_HEADERS)
                headers.append((b"content-security-policy", csp.encode()))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, limited_receive, send_with_headers)
        except BodyTooLarge:
            await _too_large(send)


class BodyTooLarge(StarletteHTTPException):
    """An HTTP error, so FastAPI passes it on (413) instead of calling it a parse error (400)."""

    def __init__(self) -> None:
        super().__init__(413, "That request is too large.")


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


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
                (b"content-security-policy", CSP.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
