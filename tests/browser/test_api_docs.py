"""/docs in a real browser cut off from everything but the table: Swagger UI, served by
the table itself, draws the API's operations and calls the API, under the page CSP,
without a console error or a policy violation."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from .. import kit
from .conftest import DESKTOP, OpenPlayer


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


VIOLATIONS_JS = """() => {
    window.__violations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
        window.__violations.push(`${e.violatedDirective}: ${e.blockedURI}`);
    });
}"""
"""Runs before any script of the page (Playwright's init scripts are not the page's,
so the CSP does not stop them) and keeps every violation the page reports."""


def operation(page: Any, method: str, path: str) -> Any:
    """Swagger UI's block of one operation of the schema."""
    return page.locator(f".opblock.opblock-{method}").filter(
        has=page.locator(f'.opblock-summary-path[data-path="{path}"]')
    )


def test_docs_draw_and_try_the_api_with_no_network_but_the_table(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    reader = open_player("Reader", DESKTOP)
    origin = urlsplit(server.url).netloc
    cut: list[str] = []

    def only_the_table(route: Any) -> None:
        if urlsplit(route.request.url).netloc == origin:
            route.continue_()
        else:
            cut.append(route.request.url)
            route.abort("internetdisconnected")

    reader.context.route("**/*", only_the_table)
    page = reader.page
    page.add_init_script(f"({VIOLATIONS_JS})()")
    loaded: list[str] = []
    page.on("response", lambda r: loaded.append(f"{r.status} {urlsplit(r.url).path}"))

    reader.goto("/docs")
    post_rooms = operation(page, "post", "/api/rooms")
    post_rooms.wait_for(state="visible")
    assert page.title() == "So Clover! table - Swagger UI"
    assert page.locator(".information-container .title").inner_text().startswith("So Clover! table")
    assert operation(page, "post", "/api/rooms/{code}/actions").is_visible()

    # Try it out: Swagger UI calls the API itself (connect-src 'self') and shows the answer.
    healthz = operation(page, "get", "/healthz")
    healthz.locator(".opblock-summary-control").click()
    healthz.get_by_role("button", name="Try it out").click()
    healthz.get_by_role("button", name="Execute").click()
    answer = healthz.locator(".live-responses-table tbody .response-col_status").first
    answer.wait_for(state="visible")
    assert answer.inner_text().strip() == "200"
    assert '"status"' in healthz.locator(".live-responses-table .microlight").first.inner_text()

    assert page.evaluate("window.__violations") == []
    assert cut == []
    assert "200 /static/vendor/swagger-ui-5.35.0/swagger-ui-bundle.js" in loaded
    assert "200 /static/api-docs.js" in loaded
    assert not [line for line in loaded if not line.startswith(("200 ", "304 "))], loaded
    # and the fixture checks: no page error, no console error, no request to another host


def test_redoc_leads_to_the_docs(open_player: OpenPlayer) -> None:
    reader = open_player("Reader", DESKTOP)
    reader.goto("/redoc")
    reader.page.locator(".opblock").first.wait_for(state="visible")
    assert reader.page.url.endswith("/docs")
