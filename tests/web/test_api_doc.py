"""The API's own description, docs/api.md, says what the server does."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from app.web.schemas import ActionIn

from ..kit import ROOT

API_DOC = ROOT / "docs" / "api.md"


def documented_action_types(doc: Path) -> set[str]:
    """The first column of the table under "## Actions"."""
    section = doc.read_text(encoding="utf-8").split("## Actions", 1)[1].split("\n## ", 1)[0]
    return {
        match.group(1)
        for line in section.splitlines()
        if (match := re.match(r"\|\s*`([a-z]+)`\s*\|", line))
    }


def accepted_action_types() -> set[str]:
    union = typing.get_args(ActionIn)[0]
    return {
        typing.get_args(model.model_fields["type"].annotation)[0]
        for model in typing.get_args(union)
    }


def test_the_documented_action_types_are_the_ones_the_server_accepts() -> None:
    assert documented_action_types(API_DOC) == accepted_action_types()
    assert len(accepted_action_types()) == 16


def test_every_documented_endpoint_is_served(api: str) -> None:
    import httpx

    schema = httpx.get(f"{api}/openapi.json").json()["paths"]
    doc = API_DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"\| `(GET|POST) (/[^ `?]*)", doc)) - {("GET", "/healthz")}
    # the table was read at all: the endpoints every client uses are among those found
    assert {("POST", "/api/rooms"), ("POST", "/api/rooms/{code}/actions")} <= documented
    for method, path in sorted(documented):
        assert path in schema and method.lower() in schema[path], (method, path)
