"""Every route's dependencies are FastAPI's to solve: a dependency of the API's or the
pages' router runs on the routes declared on the application's own router with that
router's dependencies (the action route and the live streams, the streams opened ahead
of the middleware by FastAPI's handler of their route), as on the router's own."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Annotated, Any

import pytest
from fastapi import Body, Depends, FastAPI, Header, HTTPException, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.web import api, pages
from app.web.deps import Acting, acting
from app.web.plain_route import PlainRoute

asked: list[str] = []


async def teapot(request: Request) -> None:
    asked.append(f"{request.method} {request.url.path}")
    raise HTTPException(418, "asked")


@pytest.mark.parametrize(
    ("router", "method", "path"),
    [
        (api.router, "POST", "/api/rooms/ABCDEF/actions"),
        (api.router, "GET", "/api/rooms/ABCDEF/events"),
        (pages.router, "GET", "/r/ABCDEF/stream"),
    ],
)
def test_a_dependency_added_to_a_router_runs_on_its_routes(
    monkeypatch: pytest.MonkeyPatch, router: object, method: str, path: str
) -> None:
    added = [*router.dependencies, Depends(teapot)]  # type: ignore[attr-defined]
    monkeypatch.setattr(router, "dependencies", added)
    asked.clear()
    # Starlette's client runs the app on a thread of its own: the browser tests leave an
    # event loop running on this one. No lifespan: the dependency refuses first.
    client = TestClient(create_app(Settings(database_url="sqlite://")))
    r = client.request(method, path, json={"type": "start"} if method == "POST" else None)
    assert r.status_code == 418
    assert asked == [f"{method} {path}"]
    assert r.headers["x-content-type-options"] == "nosniff"  # every response's headers


def teapot_in_thread(request: Request) -> None:
    asked.append(f"{request.method} {request.url.path}")
    raise HTTPException(418, "asked")


async def teapot_with_header(
    request: Request, x_tea: Annotated[str | None, Header()] = None
) -> None:
    asked.append(f"{request.method} {request.url.path}")
    raise HTTPException(418, "asked")


@pytest.mark.parametrize("dependency", [teapot, teapot_in_thread, teapot_with_header])
def test_every_kind_of_dependency_runs_on_the_action_route_with_a_valid_action(
    monkeypatch: pytest.MonkeyPatch, dependency: Callable[..., Any]
) -> None:
    """The action route serves a plain request without FastAPI's generic solver
    (``plain_route``): a dependency of any kind added to the API's router still runs
    there, whether the route's shortcut can call it (``teapot``) or hands the request to
    FastAPI (the others)."""
    monkeypatch.setattr(api.router, "dependencies", [*api.router.dependencies, Depends(dependency)])
    asked.clear()
    client = TestClient(create_app(Settings(database_url="sqlite://")))
    r = client.post("/api/rooms/ABCDEF/actions", json={"type": "say", "text": "hello"})
    assert r.status_code == 418
    assert asked == ["POST /api/rooms/ABCDEF/actions"]


def test_an_overridden_dependency_of_the_action_route_is_the_override(tmp_path: Path) -> None:
    """``app.dependency_overrides`` holds on the action route as on every route."""
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'rooms.sqlite3'}"))

    async def nobody(request: Request, code: str) -> Acting:
        asked.append(f"override {code}")
        raise HTTPException(418, "overridden")

    app.dependency_overrides[acting] = nobody
    asked.clear()
    with TestClient(app) as client:
        r = client.post("/api/rooms/ABCDEF/actions", json={"type": "say", "text": "hello"})
    assert r.status_code == 418
    assert asked == ["override ABCDEF"]


async def held(request: Request) -> AsyncIterator[str]:
    asked.append("opened")
    yield "held"
    asked.append("closed")


async def plain(request: Request, code: str) -> str:
    asked.append(f"plain {code}")
    return code


async def endpoint(
    held: Annotated[str, Depends(held)],
    code: Annotated[str, Depends(plain)],
    body: Annotated[dict[str, int], Body()],
) -> Response:
    return PlainTextResponse(f"{held} {code} {body['n']}")


def test_a_plain_route_runs_a_yielding_dependency_and_closes_it() -> None:
    """A dependency that ``yield``s (which a live stream's route may not have) is
    FastAPI's to run on a ``PlainRoute``: it runs, and its end runs after the answer."""

    app = FastAPI()
    app.router.add_api_route(
        "/x/{code}", endpoint, methods=["POST"], route_class_override=PlainRoute
    )
    asked.clear()
    r = TestClient(app).post("/x/AB", json={"n": 3})
    assert r.text == "held AB 3"
    assert asked == ["opened", "plain AB", "closed"]
