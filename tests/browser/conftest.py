"""Real browsers at a real table: Debian's chromium driven by Playwright.

The browser tests skip, saying why, when chromium or axe-core is missing;
with ``SOCLOVER_REQUIRE_BROWSER=1`` (CI) they fail instead.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ..kit import ROOT, Server, ThreadServer, http

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
AXE_JS = Path(
    os.environ.get("SOCLOVER_AXE_JS", ROOT / ".venv/axe/node_modules/axe-core/axe.min.js")
)
REQUIRED = os.environ.get("SOCLOVER_REQUIRE_BROWSER") == "1"

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed (make test installs it)"
    if not CHROMIUM.exists():
        return f"no chromium at {CHROMIUM} (apt-get install chromium)"
    if not AXE_JS.is_file():
        return (
            f"no axe-core at {AXE_JS} (npm install --prefix .venv/axe axe-core@4, "
            "or set SOCLOVER_AXE_JS)"
        )
    return None


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    reason = missing()
    if reason is not None:
        if REQUIRED:
            pytest.fail(f"browser tests required (SOCLOVER_REQUIRE_BROWSER=1) but {reason}")
        pytest.skip(f"browser tests skipped: {reason}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def table_server(request: pytest.FixtureRequest, tmp_path: Path, **env: str) -> Server:
    """A fresh table on its own SQLite file: a ``ThreadServer``, or a subprocess
    ``Server`` for a test marked ``own_process`` (one that kills it)."""
    kind = Server if request.node.get_closest_marker("own_process") else ThreadServer
    return kind(tmp_path / "soclover.sqlite3", tmp_path / "server.log", **env).start()


@pytest.fixture
def server(
    chromium_browser: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """A fresh table of the test's own (started after the browser, so a skip is cheap).
    A module whose tests each play in rooms of their own overrides this with the
    module's ``shared_server`` (tests/conftest.py)."""
    table = table_server(request, tmp_path)
    yield table
    table.stop()


QUICK = {"SOCLOVER_PRESENCE_GRACE_SECONDS": "0.5", "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2"}


@pytest.fixture
def quick_server(
    chromium_browser: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Server]:
    """A table where a player who goes quiet is away within a second."""
    table = table_server(request, tmp_path, **QUICK)
    yield table
    table.stop()


# --- a player's browser -------------------------------------------------------------------

OFFLINE_NOISE = (
    r"^\[object Event\]$|htmx:sseError|ERR_INTERNET_DISCONNECTED|net::ERR"
    r"|An unknown error occurred when fetching the script"
)


@dataclass
class Player:
    """One person at the table: their own browser context (cookies), one page."""

    name: str
    base: str
    context: Any
    page: Any
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)
    """Console errors this test expects on this page (an offline spell, a refused form)."""

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def go_offline(self) -> None:
        """Take this player's network away (``context.set_offline(False)`` gives it back),
        allowing from then on what the browser logs of a network gone: the stream's error
        (htmx logs an Event), the fetches that failed, and the service worker's script,
        asked for as the page loaded and not fetched if the network went just after."""
        self.allow(OFFLINE_NOISE)
        self.context.set_offline(True)

    @property
    def code(self) -> str:
        match = re.search(r"/r/([A-Za-z0-9]+)", self.page.url)
        assert match, self.page.url
        return match.group(1).upper()

    def token(self) -> str:
        """The seat token, from the browser's own (HttpOnly) cookie."""
        name = f"soclover_{self.code}"
        for cookie in self.context.cookies(self.base):
            if cookie["name"] == name:
                return str(cookie["value"])
        raise AssertionError(f"{self.name} has no seat cookie for {self.code}")

    def state(self) -> dict[str, Any]:
        """The room as this seat may see it, through the JSON API."""
        r = http.get(
            f"{self.base}/api/rooms/{self.code}",
            headers={"Authorization": f"Bearer {self.token()}"},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def problems(self) -> list[str]:
        found = [f"{self.name}: page error: {e}" for e in self.page_errors]
        found += [
            f"{self.name}: console error: {e}"
            for e in self.console_errors
            if not any(p.search(e) for p in self.allowed)
        ]
        host = urlsplit(self.base).netloc
        for url in self.requests:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if parts.netloc != host:
                found.append(f"{self.name}: request to another host: {url}")
        return found


OpenPlayer = Callable[..., Player]


@pytest.fixture
def open_player(chromium_browser: Any, server: Server) -> Iterator[OpenPlayer]:
    """Open a player's browser: ``open_player(name, size=PHONE, token=None, code=None)``;
    ``locale="fr-FR"`` is the browser's language (``Accept-Language``, ``navigator``).

    With a token (from the JSON API), the context starts with that seat's cookie.
    At the end: no page error, no unexpected console error, no request to
    another host, on any page opened here.
    """
    players: list[Player] = []

    def make(
        name: str,
        size: dict[str, int] = PHONE,
        token: str | None = None,
        code: str | None = None,
        bypass_csp: bool = False,
        timezone: str | None = None,
        locale: str | None = None,
    ) -> Player:
        context = chromium_browser.new_context(
            viewport=size, bypass_csp=bypass_csp, timezone_id=timezone, locale=locale
        )
        context.set_default_timeout(10_000)
        if token is not None:
            assert code is not None
            context.add_cookies([{"name": f"soclover_{code}", "value": token, "url": server.url}])
        page = context.new_page()
        player = Player(name, server.url, context, page)
        page.on("console", lambda m: m.type == "error" and player.console_errors.append(m.text))
        page.on("pageerror", lambda e: player.page_errors.append(str(e)))
        context.on("request", lambda r: player.requests.append(r.url))
        players.append(player)
        return player

    yield make
    found = [problem for p in players for problem in p.problems()]
    for player in players:
        player.context.close()
    assert not found, "\n".join(found)


# --- waiting on the page ------------------------------------------------------------------


def live(page: Any) -> None:
    """Wait until the room page's stream has caught up (``data-live``, static/table.js):
    its first update draws every region again, a change made before it included, so
    only a change made after it comes as the live update a player sees come in."""
    page.locator("html[data-live]").wait_for(state="attached")


FITTED_JS = """() => { const html = document.documentElement;
    return html.dataset.fitted !== undefined
        && (html.dataset.live !== undefined || !document.querySelector("[sse-connect]")); }"""


def fitted(page: Any) -> None:
    """Wait until the page has fitted its words to the page as it is now, and drawn them:
    its script puts ``data-fitted`` on <html> once the fit after the page's load, a live
    update or a resize has run (static/table.js). A live update's fit comes with it, so
    this follows a wait for what the update shows; a resize's comes a moment after.

    A room page is first caught up by its stream (``data-live``): the stream's first
    update draws every region again, and a box read before it would be gone after it."""
    page.wait_for_function(FITTED_JS)


# --- accessibility --------------------------------------------------------------------------


COLOUR_RULES = ["color-contrast", "link-in-text-block"]
"""axe-core's rules, of those it runs by default, that read the page's colours: all that a
change of colours alone can change (its AAA contrast rule is not run by default)."""


def axe_violations(page: Any, rules: list[str] | None = None) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now: of every rule
    axe runs by default, or of ``rules`` only.

    The room's CSP allows only our own scripts: the page's context must be
    opened with ``bypass_csp=True`` for axe to be injected.
    """
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE_JS.read_text(encoding="utf-8"))
    violations: list[dict[str, Any]] = page.evaluate(
        """async (rules) => {
            const options = {resultTypes: ["violations"]};
            if (rules) options.runOnly = {type: "rule", values: rules};
            const result = await axe.run(document, options);
            return result.violations.map(v => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
            }));
        }""",
        rules,
    )
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def describe_violations(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']}")
        for node in v["nodes"][:8]:
            lines.append(f"    {node['target']}: {node['summary']}".replace("\n", " / "))
    return "\n".join(lines)
