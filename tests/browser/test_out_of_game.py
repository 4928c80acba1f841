"""Nothing stalls the table, in Chromium: the host takes out a player who went away,
and a player leaves a game from their phone."""

from __future__ import annotations

from typing import Any

from .. import kit
from .conftest import PHONE

NEWS_SHOWN = """() => {
    const line = document.getElementById("announce");
    window.__news = [line.textContent];
    new MutationObserver(() => window.__news.push(line.textContent))
        .observe(line, {childList: true, subtree: true, characterData: true});
}"""
"""Keeps every sentence the page's news line shows, in ``window.__news``."""


def _page(chromium_browser: Any, server: kit.Server, seat: kit.Player) -> Any:
    context = chromium_browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    context.add_cookies([{"name": f"soclover_{seat.code}", "value": seat.token, "url": server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/r/{seat.code}")
    page.errors = errors
    return page


def test_the_host_takes_out_an_absent_writer_and_a_player_leaves_from_their_phone(
    chromium_browser: Any, quick_server: kit.Server
) -> None:
    players = kit.table(quick_server.url, 4)
    ada, bea, cy, _dot = players
    host = _page(chromium_browser, quick_server, ada)
    leaver = _page(chromium_browser, quick_server, bea)
    watcher = _page(chromium_browser, quick_server, cy)
    ada.act("start")
    for p in (ada, bea, cy):
        p.act("clues", clues=kit.clues_for(p.seat))
        p.act("done")
    # Dot never opened the room: once away, the host may take them out, after a confirmation.
    summary = host.locator("#players summary", has_text="Take Dot out of the game")
    summary.wait_for()
    summary.click()
    host.get_by_role("button", name="Take Dot out", exact=True).click()
    for page in (host, leaver, watcher):
        page.locator(".resolve").wait_for()
        page.locator("#players .player", has_text="Dot").locator(".tag.out").wait_for()
    host.locator("#announce", has_text="took Dot out of the game").wait_for()

    # Bea leaves in the middle of a clover: asked first, then home; the others read it.
    # On this table she shows away half a second after her page has gone, and the news
    # line then says where the table stands: what it told is read from all it has shown.
    for page in (host, watcher):
        page.evaluate(NEWS_SHOWN)
    leaver.locator("#players summary", has_text="Leave the table").click()
    leaver.get_by_role("button", name="Leave the table", exact=True).click()
    leaver.wait_for_url(f"**/?left={bea.code}")
    for page in (host, watcher):
        page.wait_for_function(
            "(t) => window.__news.some((n) => n.includes(t))", arg="Bea left the table"
        )
    assert bea.state()["players"][bea.seat]["out"]
    # Two remain: nobody is offered to leave or drop any more.
    for page in (host, watcher):
        page.locator("#players summary", has_text="Leave the table").wait_for(state="detached")
    for page in (host, leaver, watcher):
        assert page.errors == []
        page.context.close()
