"""The one shape of a refusal: ``{"error": {"code": <snake_case>, "message": <for a person>}}``."""

from __future__ import annotations

import re
from typing import Any

import httpx

SNAKE = re.compile(r"^[a-z][a-z0-9_]*$")
ERROR_FIELDS = {"code", "message", "details"}
"""A rejected clue and an invalid request add ``details``; no error carries anything else."""


def assert_error(r: httpx.Response, *statuses: int, code: str | None = None) -> dict[str, Any]:
    """``r`` is a refusal in the error shape, under one of ``statuses`` (any 4xx without
    them), with ``code`` if given; returns the error. Never a 500."""
    said = f"{r.request.method} {r.request.url}: {r.status_code} {r.text[:500]}"
    assert r.status_code < 500, said
    if statuses:
        assert r.status_code in statuses, said
    else:
        assert 400 <= r.status_code < 500, said
    body = r.json()
    assert isinstance(body, dict) and set(body) == {"error"}, said
    error = body["error"]
    assert isinstance(error, dict) and {"code", "message"} <= set(error) <= ERROR_FIELDS, said
    assert isinstance(error["code"], str) and SNAKE.match(error["code"]), said
    assert isinstance(error["message"], str) and error["message"].strip(), said
    assert isinstance(error.get("details", []), list), said
    if code is not None:
        assert error["code"] == code, said
    return error
