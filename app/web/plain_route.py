"""A route whose dependencies are plain, served without FastAPI's generic solver when
the request is plain too.

FastAPI solves a route's dependencies the same way for every request: for each one it
gathers the path, query, header and cookie values into dictionaries, validates each,
keeps a cache of what was solved, and reads the body's content type as an e-mail
header. For the action route, which the server answers most, that is about as much
work as applying the action (docs/performance.md, "The action route from its own
Dependant"), and most of it has nothing to do: the route's dependencies take the
request and the room's code, a string of the path.

``PlainRoute`` reads the ``Dependant`` FastAPI built for the route from its own, its
router's and the application's declarations, once, when the route is set up. When
every dependency is plain (an ``async def`` of the request and of path parameters
that are plain strings, with no dependency of its own) and the endpoint returns its
own ``Response``, a request whose body is JSON that the route's body field accepts is
served by calling those same dependencies in FastAPI's order and then the endpoint.
Anything else goes to FastAPI's own handler, which answers it in its own words: a
route with a dependency that reads a header or ``yield``s, a dependency overridden, a
request with OpenTelemetry's data to record, a body that is no JSON or no valid one.
A dependency added to a router is in the ``Dependant``, so it runs on either path.

What we would propose upstream: the same shortcut inside ``solve_dependencies``, for a
``Dependant`` whose parameters are all of this kind.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from fastapi.telemetry import get_telemetry_data
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class BodyField(Protocol):
    """What a route's ``body_field`` does for us: validate a body as FastAPI does."""

    def validate(
        self, value: Any, values: dict[str, Any] = ..., *, loc: tuple[int | str, ...] = ...
    ) -> tuple[Any, list[Any]]: ...


@dataclass(frozen=True, slots=True)
class Plain:
    """One plain call: a dependency's, or the endpoint's, and what it is given."""

    call: Callable[..., Coroutine[Any, Any, Any]]
    name: str | None
    """The endpoint's parameter the value goes to; ``None`` for a router's dependency."""
    request: str | None
    """The parameter that takes the request, if one does."""
    path: tuple[tuple[str, str], ...]
    """Each parameter that takes a path parameter, and that path parameter's name."""

    def arguments(self, request: Request) -> dict[str, Any]:
        given = {param: request.path_params[key] for param, key in self.path}
        if self.request is not None:
            given[self.request] = request
        return given


class PlainRoute(APIRoute):
    """An ``APIRoute`` served as above; any route may use it and lose nothing."""

    def get_route_handler(self) -> Handler:
        whole = super().get_route_handler()
        calls = plain_calls(self.dependant)
        body = self.body_field
        if calls is None or body is None or not _answers_itself(self.endpoint):
            return whole
        if len(self.dependant.body_params) != 1 or getattr(body.field_info, "embed", None):
            return whole
        overrides = self.dependency_overrides_provider
        body_name = self.dependant.body_params[0].name
        own = plain_call(self.dependant, name=None, endpoint=True)
        if own is None:
            return whole

        async def handler(request: Request) -> Response:
            if getattr(overrides, "dependency_overrides", None) or get_telemetry_data():
                return await whole(request)
            value = await _valid_json(request, body) if _json(request) else None
            if value is None:
                return await whole(request)
            values: dict[str, Any] = {}
            solved: dict[Callable[..., Any], Any] = {}
            for plain, cached in calls:
                if cached and plain.call in solved:
                    result = solved[plain.call]
                else:
                    result = solved[plain.call] = await plain.call(**plain.arguments(request))
                if plain.name is not None:
                    values[plain.name] = result
            answer: Response = await own.call(
                **values, **own.arguments(request), **{body_name: value}
            )
            return answer

        return handler


def plain_calls(dependant: Dependant) -> list[tuple[Plain, bool]] | None:
    """The route's dependencies as plain calls, in FastAPI's order, each with whether
    FastAPI would reuse a value already solved for the same call; ``None`` if any is
    more than plain."""
    found: list[tuple[Plain, bool]] = []
    for sub in dependant.dependencies:
        plain = plain_call(sub, name=sub.name, endpoint=False)
        if plain is None:
            return None
        found.append((plain, sub.use_cache))
    return found


def plain_call(dependant: Dependant, *, name: str | None, endpoint: bool) -> Plain | None:
    """``dependant`` as a plain call, or ``None``: a coroutine function that takes only
    the request and path parameters declared as plain strings; an ``endpoint`` takes
    its body and its dependencies' values besides (``plain_calls`` asks about those)."""
    call = dependant.call
    if call is None or not inspect.iscoroutinefunction(call):
        return None
    if (dependant.dependencies or dependant.body_params) and not endpoint:
        return None
    if dependant.query_params or dependant.header_params or dependant.cookie_params:
        return None
    others = (
        dependant.websocket_param_name,
        dependant.http_connection_param_name,
        dependant.response_param_name,
        dependant.background_tasks_param_name,
        dependant.security_scopes_param_name,
    )
    if any(other is not None for other in others) or dependant.own_oauth_scopes:
        return None
    if dependant.concurrency is not None:
        return None
    path = []
    for field in dependant.path_params:
        info = field.field_info
        if info.annotation is not str or info.metadata or field.validation_alias:
            return None
        path.append((field.name, field.alias))
    return Plain(call, name, dependant.request_param_name, tuple(path))


async def _valid_json(request: Request, body: BodyField) -> Any | None:
    """The request's body as ``body`` takes it, or ``None`` when FastAPI would refuse it
    or read it otherwise (empty, no JSON, not valid): FastAPI's handler then says so."""
    try:
        raw = await request.body()
        if not raw:
            return None
        value, errors = body.validate(await request.json(), loc=("body",))
    except HTTPException:  # a body too large: answered as on FastAPI's path
        raise
    except Exception:  # broken JSON, nested too deep, the client gone
        return None
    return None if errors or value is None else value


def _answers_itself(endpoint: Callable[..., Any]) -> bool:
    """Whether ``endpoint`` is declared to return its own ``Response``, which FastAPI
    sends as it is (its ``response_model`` then only documents the route)."""
    answer = typing.get_type_hints(endpoint).get("return")
    return isinstance(answer, type) and issubclass(answer, Response)


def _json(request: Request) -> bool:
    """Whether FastAPI reads the request's body as JSON (by its content type)."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    major, _, minor = kind.partition("/")
    return major == "application" and (minor == "json" or minor.endswith("+json"))
