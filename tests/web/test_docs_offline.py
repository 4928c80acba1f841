"""/docs is Swagger UI served by the table itself: no asset from another host, no inline
script, the CSP of every page, the vendored files with their licence. In process: the
page and the static files need no database (tests/browser/test_api_docs.py opens it in
chromium with the network cut)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from starlette.testclient import TestClient

from app.resources import static_dir
from app.web.api_docs import SWAGGER_UI
from app.web.security import CSP


class Tags(HTMLParser):
    """Every start tag with its attributes, and the text inside each <script>."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    from app.config import Settings
    from app.main import create_app

    # not entered: no lifespan, no database; the page and /static/ need neither
    yield TestClient(create_app(Settings(database_url="sqlite://")))


def parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def test_docs_load_only_this_servers_files_and_no_inline_script(client: TestClient) -> None:
    r = client.get("/docs")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert not re.search(r"(https?:)?//", r.text), "an address of another host"
    page = parsed(r.text)

    scripts = [attrs for tag, attrs in page.tags if tag == "script"]
    assert scripts and all(attrs.get("src") for attrs in scripts)
    assert all(not text.strip() for text in page.scripts), "an inline script"
    assert not any(tag == "style" or "style" in attrs for tag, attrs in page.tags)
    assert not any(name.startswith("on") for _, attrs in page.tags for name in attrs)

    assets = [attrs["src"] for attrs in scripts] + [
        attrs["href"] for tag, attrs in page.tags if tag == "link"
    ]
    kinds = {".js": "javascript", ".css": "text/css", ".svg": "image/svg+xml"}
    assert f"{SWAGGER_UI}/swagger-ui-bundle.js" in assets
    assert f"{SWAGGER_UI}/swagger-ui.css" in assets
    assert "/static/api-docs.js" in assets
    for asset in assets:
        assert asset is not None and asset.startswith("/static/"), asset
        served = client.get(asset)
        assert served.status_code == 200, asset
        kind = next(kind for end, kind in kinds.items() if asset.endswith(end))
        assert kind in served.headers["content-type"], (asset, served.headers["content-type"])

    # the page names the schema for our script to start Swagger UI on
    holder = next(attrs for tag, attrs in page.tags if attrs.get("id") == "swagger-ui")
    assert holder["data-openapi-url"] == "/openapi.json"


def test_the_docs_csp_is_every_pages_and_names_no_other_host(client: TestClient) -> None:
    csp = client.get("/docs").headers["content-security-policy"]
    assert csp == CSP == client.get("/static/table.css").headers["content-security-policy"]
    assert "http" not in csp and "unsafe" not in csp and "*" not in csp
    directives = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"  # "Try it out" calls this server only


def test_swagger_ui_is_vendored_with_its_licence() -> None:
    folder = static_dir() / SWAGGER_UI.removeprefix("/static/")
    assert "Apache License" in (folder / "LICENSE").read_text(encoding="utf-8")
    assert "SmartBear" in (folder / "NOTICE").read_text(encoding="utf-8")
    # the notices of what the bundle holds of other projects, as its build extracted them
    assert (folder / "swagger-ui-bundle.js.LICENSE.txt").is_file()


def test_versioned_vendored_files_are_cached_for_good_and_others_are_not(
    client: TestClient,
) -> None:
    forever = "public, max-age=31536000, immutable"
    for path in (
        f"{SWAGGER_UI}/swagger-ui-bundle.js",
        f"{SWAGGER_UI}/swagger-ui.css",
        "/static/vendor/htmx-2.0.11.min.js",
    ):
        r = client.get(path)
        assert r.headers["cache-control"] == forever, path
        assert r.headers["content-encoding"] == "gzip", path
        again = client.get(path, headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.headers["cache-control"] == forever
    # a file that changes under its name is checked again (ETag); a miss is not kept
    for path in ("/static/api-docs.js", "/static/table.js", "/static/vendor/htmx-LICENSE.txt"):
        assert "cache-control" not in client.get(path).headers, path
    missing = client.get("/static/vendor/htmx-9.9.9.min.js")
    assert missing.status_code == 404
    assert "immutable" not in missing.headers.get("cache-control", "")


def test_redoc_leads_to_docs_and_neither_is_in_the_schema(client: TestClient) -> None:
    r = client.get("/redoc", follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == "/docs"
    paths = client.get("/openapi.json").json()["paths"]
    assert "/docs" not in paths and "/redoc" not in paths
