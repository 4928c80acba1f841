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
from starlette.requests import ClientDisconnect

from app.rules.errors import CluesRejected, RuleError
from app.rules.text import N_, Text
from app.web.deps import NoRoomPage
from app.web.i18n import DEFAULT, Message, interface_language, localize

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


HTTP_MESSAGES = {
    400: N_("That request is not one we understand."),
    401: N_("You have no seat in this room: join it first."),
    403: N_("You may not do that."),
    404: N_("There is nothing at this address."),
    405: N_("That address does not take this kind of request."),
    409: N_("That is not possible now."),
    413: N_("That request is too large."),
    415: N_("That request is not in a form we read."),
    422: N_("That request is not well formed."),
    429: N_("Too many tries from here; wait a minute and try again."),
}
"""What a person reads for an HTTP error the rules did not explain themselves."""

API_PATHS = ("/api/", "/openapi.json", "/docs", "/redoc", "/healthz")


def error_response(
    status: int,
    code: str,
    message: Message,
    request: Request | None = None,
    **extra: object,
) -> Response:
    """The error in the reader's language: ``code`` never changes, ``message`` follows
    the interface language (the switch's cookie, else ``Accept-Language``)."""
    lang = DEFAULT if request is None else interface_language(request)
    if request is not None and not request.url.path.startswith(API_PATHS):
        return _html_error(request, status, message, lang)
    shown = localize(message, lang)
    return JSONResponse({"error": {"code": code, "message": shown, **extra}}, status_code=status)


def _html_error(request: Request, status: int, message: Message, lang: str) -> Response:
    from app.web import render  # the templates load only when a page needs them

    if request.headers.get("hx-request") == "true":
        return HTMLResponse(
            render.flash(message, lang), status_code=status, headers={"HX-Reswap": "innerHTML"}
        )
    title = Text(N_("No such page")) if status == 404 else None
    return HTMLResponse(
        render.page("error", lang, message=message, title=title), status_code=status
    )


def install(app: FastAPI) -> None:
    @app.exception_handler(NoRoomPage)
    async def no_room_page(request: Request, exc: NoRoomPage) -> Response:
        from app.web.pages import missing  # the templates load only when a page needs them

        return missing(str(request.path_params.get("code", "")), interface_language(request))

    @app.exception_handler(RuleError)
    async def rule_error(request: Request, exc: RuleError) -> Response:
        if isinstance(exc, CluesRejected):
            lang = interface_language(request)
            details = [
                {"leaf": d.leaf, "code": d.code, "message": localize(d.text, lang)}
                for d in exc.details
            ]
            return error_response(exc.status, exc.code, exc, request, details=details)
        return error_response(exc.status, exc.code, exc, request)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            message = Text(N_("The body is not valid JSON."))
            return error_response(400, "malformed_json", message, request)
        details = [
            {
                "where": ".".join(str(part) for part in e.get("loc", ()) if part != "body"),
                "message": str(e.get("msg", "invalid")),
            }
            for e in errors[:10]
        ]
        where = details[0]["where"] if details else ""
        # Each detail keeps the validator's own words (for whoever writes the client);
        # the message says in the reader's language which field it is.
        message = (
            Text(N_("This field is not right: {where}."), {"where": where})
            if where
            else Text(N_("That request is not well formed."))
        )
        return error_response(422, "invalid_request", message, request, details=details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = HTTP_CODES.get(exc.status_code, "error")
        template = HTTP_MESSAGES.get(exc.status_code, N_("That request did not succeed."))
        response = error_response(exc.status_code, code, Text(template), request)
        if exc.headers:
            response.headers.update(exc.headers)
        return response

    @app.exception_handler(ClientDisconnect)
    async def client_left(request: Request, exc: ClientDisconnect) -> Response:
        # A phone that lost its signal, a tab closed while a draft was sent: everyday
        # events, not errors. Nothing was read, so nothing was done; nobody is left
        # to read an answer either (499 is the status proxies log for this).
        log.info("client left during %s %s", request.method, request.url.path)
        return Response(status_code=499)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        message = N_("Something went wrong on the server.")
        return error_response(500, "internal", Text(message), request)
