"""Clues kept as they are typed, in real browsers: a draft goes out about a second after
the last keystroke and on leaving a field, and nothing the table does while it goes
out (the stage drawn again from the draft, other players' moves, the chat) takes a
keystroke, the focus or the caret from the player typing."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from .. import kit
from .conftest import DESKTOP, PHONE, OpenPlayer, Player


def leaves(player: kit.Player) -> list[str | None]:
    return [leaf["clue"] for leaf in player.state()["clover"]["leaves"]]


def fields(page: Any) -> list[str]:
    return [page.input_value(f"#clue-{leaf}") for leaf in range(4)]


def saved(player: kit.Player, clues: list[str | None], what: str) -> None:
    kit.wait_for(lambda: leaves(player), lambda now: now == clues, what=what)


def a_keyword(player: kit.Player) -> str:
    return str(player.state()["clover"]["leaves"][0]["pair"][0])


def seat_page(open_player: OpenPlayer, player: kit.Player, size: dict[str, int]) -> Player:
    browser = open_player(player.name, size, token=player.token, code=player.code)
    browser.goto(f"/r/{player.code}")
    browser.page.locator("#clue-3").wait_for()
    return browser


def draft_sent(request: Any) -> bool:
    return request.url.endswith("/act") and "draft=true" in (request.post_data or "")


def test_drafts_are_kept_for_a_reload_and_another_device(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    players = kit.table(server.url, 3)
    players[0].act("start")
    bea = players[1]
    keyword = a_keyword(bea)
    phone = seat_page(open_player, bea, PHONE)
    page = phone.page
    # A keyword on one leaf, a clue on another, and no button pressed.
    page.locator("#clue-0").press_sequentially(keyword, delay=20)
    page.locator("#check-0.bad").wait_for()
    page.locator("#clue-1").press_sequentially("Qzbee", delay=20)
    saved(bea, [None, "Qzbee", None, None], "the draft saved without Save or Done")
    # The refused leaf keeps what was typed on this screen, and says why.
    assert fields(page) == [keyword, "Qzbee", "", ""]
    assert keyword in page.locator("#check-0").inner_text()
    assert page.locator(".leaf-1 [data-mirror]").inner_text() == "Qzbee"
    # Drafts say nothing on the screen: no message, no announcement.
    assert page.locator("#flash .flash").count() == 0
    assert "saved clues" not in page.locator("#announce").inner_text()

    # The same seat opened on a laptop finds the draft, and writes on.
    laptop = seat_page(open_player, bea, DESKTOP)
    assert fields(laptop.page) == ["", "Qzbee", "", ""]
    laptop.page.locator("#clue-2").press_sequentially("Qzcee", delay=20)
    laptop.page.locator("#clue-2").blur()
    saved(bea, [None, "Qzbee", "Qzcee", None], "the laptop's draft")
    # The phone, still open, takes in the leaf it was not editing; its own stays.
    kit.wait_for(
        lambda: page.input_value("#clue-2"), lambda v: v == "Qzcee", what="the laptop's leaf"
    )
    assert fields(page) == [keyword, "Qzbee", "Qzcee", ""]
    assert page.locator(".leaf-2 [data-mirror]").inner_text() == "Qzcee"

    # A reload shows what was saved: the refused keyword never was.
    page.reload()
    page.locator("#clue-3").wait_for()
    assert fields(page) == ["", "Qzbee", "Qzcee", ""]


@pytest.mark.own_process  # killed with kill -9
def test_drafts_survive_a_kill_9_of_the_server(open_player: OpenPlayer, server: kit.Server) -> None:
    players = kit.table(server.url, 3)
    players[0].act("start")
    bea = players[1]
    phone = seat_page(open_player, bea, PHONE)
    # The stream's drop while the server is down, as htmx and the browser log it.
    phone.allow(r"^\[object Event\]$|htmx:sseError|ERR_CONNECTION_REFUSED|ERR_INCOMPLETE_CHUNKED")
    page = phone.page
    for leaf, clue in enumerate(["Qzone", "Qztwo", "Qzthree"]):
        # Each field's check answered too: nothing of the page is left asking the server.
        with page.expect_response(lambda r: r.url.endswith("/check")):
            page.locator(f"#clue-{leaf}").press_sequentially(clue, delay=15)
    with page.expect_response(lambda r: draft_sent(r.request) and r.status == 204):
        page.locator("#clue-2").blur()
    server.kill()
    # The same address again, on the same database: the page's own reconnect finds it.
    # Only the killed server needed a process of its own; its successor is on a thread.
    restarted = kit.ThreadServer(server.database_url, server.log)
    restarted.port = server.port
    restarted.start()
    try:
        bea.base = restarted.url
        assert leaves(bea) == ["Qzone", "Qztwo", "Qzthree", None]
        page.reload()
        page.locator("#clue-3").wait_for()
        assert fields(page) == ["Qzone", "Qztwo", "Qzthree", ""]
    finally:
        restarted.stop()


# --- typing through live updates -------------------------------------------------------------

WATCH_SWAPS_JS = """() => {
    // Each redraw of the stage: what the field being typed in held as the new stage
    // came, what that stage had saved for it, and whether field, text and caret stayed.
    window.swaps = [];
    let before = null;
    document.addEventListener("htmx:sseBeforeMessage", (event) => {
        if (event.detail.type !== "stage") return;
        const field = document.activeElement;
        const incoming = document.createElement("template");
        incoming.innerHTML = event.detail.data;
        const leaf = field && field.id
            ? incoming.content.querySelector(`label.leaf[for="${field.id}"]`) : null;
        before = {field, id: field && field.id, value: field && field.value,
                  caret: field && field.selectionStart, saved: leaf && leaf.dataset.saved};
    });
    document.addEventListener("htmx:afterSettle", (event) => {
        if (!before || !event.detail.elt || event.detail.elt.id !== "stage") return;
        const now = document.activeElement;
        window.swaps.push({id: before.id, value: before.value, saved: before.saved,
                           kept: now === before.field && now.isConnected,
                           after: now && now.value, caret: before.caret,
                           caretAfter: now && now.selectionStart});
        before = null;
    });
}"""


def test_typing_is_never_interrupted_by_live_updates(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    players = kit.table(server.url, 3)
    players[0].act("start")
    ada, bea, cy = players
    phone = seat_page(open_player, bea, PHONE)
    page = phone.page
    page.evaluate(WATCH_SWAPS_JS)

    # The others play on all the while: they chat, save, say they are done and take it back.
    stop = threading.Event()
    said: list[str] = []
    failed: list[BaseException] = []

    def the_others() -> None:
        n = 0
        try:
            while not stop.is_set():
                for p in (ada, cy):
                    p.act("say", text=f"line {n} from {p.name}")
                    said.append(f"line {n} from {p.name}")
                    p.act("clues", clues=kit.clues_for(p.seat))
                    p.act("done")
                    p.act("undone")
                n += 1
        except BaseException as error:  # the test reads it below, in its own thread
            failed.append(error)

    others = threading.Thread(target=the_others, daemon=True)
    others.start()
    words = ["Quicksilver", "Zephyrwind", "Moonstruck", "Hopscotching"]
    try:
        page.locator("#clue-0").click()
        for leaf, word in enumerate(words):
            head, tail = word[:3], word[3:]
            page.keyboard.type(head, delay=10)
            # The draft goes out a second after the pause; typing goes on at once, so
            # the stage drawn from that draft arrives in the middle of the word.
            with page.expect_request(draft_sent):
                pass
            page.keyboard.type(tail, delay=15)
            if leaf < 3:
                page.keyboard.press("Tab")  # leaving a field sends its draft at once
        page.keyboard.press("Tab")
    finally:
        stop.set()
        others.join(10)
    assert fields(page) == words
    saved(bea, list(words), "every word saved as typed")

    swaps = page.evaluate("window.swaps")
    assert swaps, "no live redraw of the stage while typing"
    for swap in swaps:
        if swap["id"] and swap["id"].startswith("clue-"):
            assert swap["kept"], swap
            assert swap["after"] == swap["value"] and swap["caretAfter"] == swap["caret"], swap
    # Redraws that came while keystrokes newer than their draft sat in the field.
    behind = [s for s in swaps if s["id"] and s["saved"] is not None and s["saved"] != s["value"]]
    assert len(behind) >= 2, swaps
    # And the rest of the table kept coming in all the while: their last line is on the page.
    assert not failed, failed
    assert len(said) >= 4, said
    page.locator("#chat-lines li", has_text=said[-1]).wait_for(state="attached")
