"""The service worker in a real browser: it keeps the static files, answers for them, and
leaves every page, read, stream and post to the network. (Served on 127.0.0.1, the
pages are a secure context, so the browser lets them register it.)"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

from .. import kit
from .conftest import PHONE, OpenPlayer


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


CACHED_JS = """async () => {
    const urls = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) urls.push(request.url);
    }
    return urls;
}"""

REQUESTS_JS = """async (code) => {
    const read = await fetch(`/api/rooms/${code}`);
    const post = await fetch(`/r/${code}/act`, {
        method: "POST",
        headers: {"HX-Request": "true"},
        body: new URLSearchParams({type: "settings", decoys: "2"}),
    });
    const staticPost = await fetch("/static/table.css", {method: "POST"});
    const missing = await fetch("/static/no-such-file.css");
    return [read.status, post.status, staticPost.status, missing.status];
}"""


def test_the_worker_keeps_static_files_and_never_a_page_an_answer_or_a_stream(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    host = kit.create(server.url, "Ada")
    ada = open_player("Ada", PHONE, token=host.token, code=host.code)
    ada.allow(r"status of 40[45]")  # the missing file and the post to a static file, below
    page = ada.page
    ada.goto(f"/r/{host.code}")
    registration = page.evaluate(
        """() => navigator.serviceWorker.ready.then(r => ({
            scope: r.scope, script: r.active.scriptURL}))"""
    )
    assert registration == {"scope": f"{server.url}/", "script": f"{server.url}/sw.js"}
    page.wait_for_function("navigator.serviceWorker.controller !== null")

    # Now controlled: every request of the page passes by the worker.
    responses: list[Any] = []
    page.on("response", lambda r: responses.append(r))
    with page.expect_response(lambda r: r.url.endswith(f"/r/{host.code}/stream")):
        page.reload()
    page.wait_for_load_state("load")
    statuses = page.evaluate(REQUESTS_JS, host.code)
    assert statuses == [200, 204, 405, 404]
    kit.wait_for(lambda: host.state()["decoys"], lambda d: d == 2, what="the posted settings")

    answered = {}
    for r in responses:
        parts = urlsplit(r.url)
        if parts.netloc == urlsplit(server.url).netloc:
            answered[(r.request.method, parts.path)] = r.from_service_worker
    by_worker = {key for key, from_worker in answered.items() if from_worker}
    kept = {("GET", "/static/table.css"), ("GET", "/static/vendor/htmx-2.0.11.min.js")}
    assert kept <= by_worker, answered
    assert all(method == "GET" and path.startswith("/static/") for method, path in by_worker), (
        by_worker
    )
    network = {
        ("GET", f"/r/{host.code}"),
        ("GET", f"/r/{host.code}/stream"),
        ("GET", f"/api/rooms/{host.code}"),
        ("POST", f"/r/{host.code}/act"),
        ("POST", "/static/table.css"),
    }
    assert network <= answered.keys() - by_worker, answered

    cached = [urlsplit(url) for url in page.evaluate(CACHED_JS)]
    paths = {url.path for url in cached}
    assert {"/static/table.css", "/static/table.js", "/static/icons/clover-192.png"} <= paths
    assert {url.netloc for url in cached} == {urlsplit(server.url).netloc}
    strays = sorted(path for path in paths if not path.startswith("/static/"))
    assert strays == [], strays
    assert "/static/no-such-file.css" not in paths


def test_without_service_workers_the_page_works_and_says_nothing(
    chromium_browser: Any, server: kit.Server
) -> None:
    context = chromium_browser.new_context(viewport=PHONE, service_workers="block")
    try:
        page = context.new_page()
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: m.type == "error" and problems.append(m.text))
        page.goto(f"{server.url}/")
        page.wait_for_load_state("load")  # install.js registers at the load event
        registered = page.evaluate(
            """() => navigator.serviceWorker
                ? navigator.serviceWorker.getRegistrations().then(r => r.length) : 0"""
        )
        assert registered == 0
        assert page.evaluate("typeof htmx") == "object"  # the page's other scripts ran
        assert problems == []
    finally:
        context.close()
