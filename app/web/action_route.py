"""The action route's class: what clients send most, settled without FastAPI's
generic dependency solving.

An action is what the server does most, and solving a route's dependencies and
body the generic way costs more than applying the action (docs/performance.md,
"Routes written once"). The route is declared once, as any route
(``api.post_action``: its dependency, its body, its answer; FastAPI documents
it from that). This class serves it: a request whose body is JSON of a JSON
content type and a well-formed action is given to the route's endpoint with its
one dependency (``deps.acting``) and the router's (``same_origin_unless_bearer``)
asked directly, in FastAPI's order; any other request (no body, a form, broken
JSON, an unknown action, a field too long) goes to FastAPI's own handler, which
refuses it in its own words. Both read the one body the request carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi.routing import APIRoute
from pydantic import TypeAdapter, ValidationError
from starlette.requests import Request
from starlette.responses import Response

from app.web.deps import acting, same_origin_unless_bearer
from app.web.schemas import ActionIn, ActionRequest

ACTION_IN: TypeAdapter[ActionRequest] = TypeAdapter(ActionIn)

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class ActionRoute(APIRoute):
    """A route whose endpoint is ``(acting, body, request)``, as ``api.post_action``."""

    def get_route_handler(self) -> Handler:
        whole = super().get_route_handler()
        endpoint = self.endpoint

        async def handler(request: Request) -> Response:
            body = await well_formed_action(request)
            if body is None:
                return await whole(request)
            await same_origin_unless_bearer(request)  # the router's dependency
            who = await acting(request, request.path_params["code"])
            response: Response = await endpoint(acting=who, body=body, request=request)
            return response

        return handler


async def well_formed_action(request: Request) -> ActionRequest | None:
    """The request's action, when its body is JSON that FastAPI would read as JSON (a
    JSON content type, a body that parses) and a well-formed action; else None."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    major, _, minor = kind.partition("/")
    if major != "application" or not (minor == "json" or minor.endswith("+json")):
        return None
    body = await request.body()
    if not body:
        return None
    try:
        return ACTION_IN.validate_python(json.loads(body), from_attributes=True)
    except (ValueError, ValidationError, RecursionError):
        return None
