"""Every route of the application, as (method, path), for the tests that must cover
them all (what a stranger is told, what another site's post is answered)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def every_route() -> set[tuple[str, str]]:
    """Each method (HEAD aside) and path template the application serves, mounts aside.

    FastAPI keeps an included router's routes inside it (resolved when a request
    comes), so the application's ``routes`` are walked into."""
    from app.config import Settings
    from app.main import create_app

    return {
        (method, path)
        for path, methods in _walk(create_app(Settings(database_url="sqlite://")).routes)
        for method in methods - {"HEAD"}
    }


def _walk(routes: Iterable[Any]) -> Iterator[tuple[str, set[str]]]:
    for route in routes:
        if hasattr(route, "effective_candidates"):  # an included router
            yield from _walk(route.effective_candidates())
            continue
        methods = getattr(getattr(route, "original_route", route), "methods", None)
        if methods:
            yield route.path, set(methods)
