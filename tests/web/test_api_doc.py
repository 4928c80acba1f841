"""The API's own description, docs/api.md, says what the server does."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from app.web.schemas import ActionIn

from ..kit import ROOT, http

API_DOC = ROOT / "docs" / "api.md"


def documented_action_types(doc: Path) -> set[str]:
    """The first column of the table under "## Actions"."""
    section = doc.read_text(encoding="utf-8").split("## Actions", 1)[1].split("\n## ", 1)[0]
    return {
        match.group(1)
        for line in section.splitlines()
        if (match := re.match(r"\|\s*`([a-z_]+)`\s*\|", line))
    }


def accepted_action_types() -> set[str]:
    union = typing.get_args(ActionIn)[0]
    return {
        typing.get_args(model.model_fields["type"].annotation)[0]
        for model in typing.get_args(union)
    }


def test_the_documented_action_types_are_the_ones_the_server_accepts() -> None:
    assert documented_action_types(API_DOC) == accepted_action_types()
    assert len(accepted_action_types()) == 30


def test_every_documented_endpoint_is_served(api: str) -> None:

    schema = http.get(f"{api}/openapi.json").json()["paths"]
    doc = API_DOC.read_text(encoding="utf-8")
    documented = set(re.findall(r"\| `(GET|POST|DELETE) (/[^ `?]*)", doc)) - {("GET", "/healthz")}
    # the table was read at all: the endpoints every client uses are among those found
    assert {("POST", "/api/rooms"), ("POST", "/api/rooms/{code}/actions")} <= documented
    for method, path in sorted(documented):
        assert path in schema and method.lower() in schema[path], (method, path)


def test_every_field_a_client_may_send_is_named_in_its_actions_row() -> None:
    """The fields come from the action classes, one declaration each; the page names them
    all, optional ones (a draft of clues) included, in the row's last column."""
    from app.web.schemas import REQUESTS

    section = API_DOC.read_text(encoding="utf-8").split("## Actions", 1)[1].split("\n## ", 1)[0]
    rows = {
        match.group(1): line.rstrip().rstrip("|").rsplit("|", 1)[-1]
        for line in section.splitlines()
        if (match := re.match(r"\|\s*`([a-z_]+)`\s*\|", line))
    }
    for kind, model in REQUESTS.items():
        for name in set(model.model_fields) - {"type", "seq"}:
            assert f"`{name}`" in rows[kind], (kind, name)
