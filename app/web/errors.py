"""Every 4xx/5xx of the API answers ``{"error": {"code", "message"}}``; never a bare 500.

The pages' routes catch the refusals a person can reach and show the form
again; whatever still escapes them (a cross-site post, a malformed field, a
path that is no room) is answered here as a small HTML page, or as a message
for the flash area when htmx asked, never as JSON on a player's screen."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.rules.errors import CluesRejected, RuleError

log = logging.getLogger(__name__)

HTTP_CODES = {
    400: "bad_request",
    401: "not_seated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "rate_limited",
}


API_PATHS = ("/api/", "/openapi.json", "/docs", "/redoc", "/healthz")


def error_response(
    status: int, code: str, message: str, request: Request | None = None, **extra: object
) -> Response:
    if request is not None and not request.url.path.startswith(API_PATHS):
        return _html_error(request, status, message)
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def _html_error(request: Request, status: int, message: str) -> Response:
    from app.web import render  # the templates load only when a page needs them

    if request.headers.get("hx-request") == "true":
        return HTMLResponse(
            render.flash(message), status_code=status, headers={"HX-Reswap": "innerHTML"}
        )
    title = "No such page" if status == 404 else None
    return HTMLResponse(render.page("error", message=message, title=title), status_code=status)


def install(app: FastAPI) -> None:
    @app.exception_handler(RuleError)
    async def rule_error(request: Request, exc: RuleError) -> Response:
        if isinstance(exc, CluesRejected):
            details = [{"leaf": d.leaf, "code": d.code, "message": d.message} for d in exc.details]
            return error_response(exc.status, exc.code, exc.message, request, details=details)
        return error_response(exc.status, exc.code, exc.message, request)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return error_response(400, "malformed_json", "The body is not valid JSON.", request)
        details = [
            {
                "where": ".".join(str(part) for part in e.get("loc", ()) if part != "body"),
                "message": str(e.get("msg", "invalid")),
            }
            for e in errors[:10]
        ]
        first = details[0] if details else {"where": "", "message": "invalid request"}
        message = f"{first['where']}: {first['message']}" if first["where"] else first["message"]
        return error_response(422, "invalid_request", message, request, details=details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = HTTP_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        response = error_response(exc.status_code, code, message, request)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "Something went wrong on the server.", request)
