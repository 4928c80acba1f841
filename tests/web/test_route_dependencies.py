"""Every route's dependencies are FastAPI's to solve: a dependency of the API's or the
pages' router runs on the routes declared on the application's own router with that
router's dependencies (the action route and the live streams, the streams opened ahead
of the middleware by FastAPI's handler of their route), as on the router's own."""

from __future__ import annotations

import pytest
from fastapi import Depends, HTTPException, Request
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.web import api, pages

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
