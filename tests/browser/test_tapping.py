"""A player's taps at 360 x 740: how a card is laid and moved, said on the screen in
each language; a move made offline, said so; a clue's verdict that answers the text in
the field and no older one; the news line a screen reader follows as it changes; the
lobby's Start and players on the host's first screen."""

from __future__ import annotations

from typing import Any

import pytest

from .. import kit
from .conftest import DESKTOP, PHONE, OpenPlayer, Player
from .test_phone import IN_VIEW_JS, _rebuild


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


LOCALES = {"en": "en-GB", "fr": "fr-FR", "zh": "zh-CN"}

ONE_LINE_JS = """(selector) => {
    const el = document.querySelector(selector);
    const r = el.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(el).lineHeight);
    return {visible: r.width > 0 && r.height > 0, oneLine: r.height <= line * 1.5,
            whole: el.scrollWidth <= el.clientWidth + 1,
            size: parseFloat(getComputedStyle(el).fontSize),
            text: el.textContent.trim(), inView: r.top >= 0 && r.bottom <= innerHeight};
}"""


TALL_PHONE = {"width": 390, "height": 844}
PHONES = pytest.mark.parametrize("size", [PHONE, TALL_PHONE], ids=["360x740", "390x844"])


def _guesser(
    open_player: OpenPlayer,
    seat: kit.Player,
    locale: str = "en-GB",
    size: dict[str, int] = PHONE,
) -> Player:
    player = open_player(seat.name, size, token=seat.token, code=seat.code, locale=locale)
    player.goto(f"/r/{seat.code}")
    player.page.locator(".resolve").wait_for()
    return player


@PHONES
def test_the_tap_hint_shows_on_a_phone_in_each_language_and_a_laid_card_moves(
    open_player: OpenPlayer, server: Any, size: dict[str, int]
) -> None:
    players = kit.table(server.url, 3)
    holder, truth = _rebuild(players)
    said = {}
    for lang, locale in LOCALES.items():
        page = _guesser(open_player, holder, locale, size).page
        hint = page.evaluate(ONE_LINE_JS, "#tap-hint")
        assert hint["visible"] and hint["oneLine"] and hint["whole"], (lang, hint)
        assert hint["size"] >= 12, (lang, hint)
        said[lang] = hint["text"]
        page.close()  # one seat token holds four live streams: a screen read, then put away
    assert said["en"] == "Tap any card, then a spot: it goes there."
    assert len(set(said.values())) == 3, said
    # A laptop says it with its keys, in the longer hint.
    laptop = open_player(
        holder.name, {"width": 1280, "height": 800}, token=holder.token, code=holder.code
    )
    laptop.goto(f"/r/{holder.code}")
    laptop.page.locator(".resolve").wait_for()
    assert laptop.page.locator("#board-hint").is_visible()
    assert laptop.page.locator("#tap-hint").is_hidden()

    # Laid, the card stays chosen; tapped again it stays chosen, and the next spot moves it.
    page = _guesser(open_player, holder, size=size).page
    card = truth[0]["card"]
    page.locator(f'.pool .card[data-card="{card}"]').click()
    page.locator('.place[data-spot="0"]').click()
    page.locator(f'.board .spot-0 .card.chosen[data-card="{card}"]').click()
    page.locator(f'.board .spot-0 .card.chosen[data-card="{card}"]').wait_for()
    page.locator('.place[data-spot="2"]').click()
    page.locator(f'.board .spot-2 .card.chosen[data-card="{card}"]').wait_for()
    assert page.locator("#flash .flash").count() == 0
    board = {s["spot"]: s["card"] for s in holder.state()["resolution"]["board"]}
    assert board[2] == card and board[0] is None
    # A card of the pool is still put down by a second tap.
    other = truth[1]["card"]
    page.locator(f'.pool .card[data-card="{other}"]').click()
    page.locator(f'.pool .card[data-card="{other}"][aria-pressed="true"]').wait_for()
    page.locator(f'.pool .card[data-card="{other}"]').click()
    page.locator(f'.pool .card[data-card="{other}"][aria-pressed="false"]').wait_for()


@PHONES
def test_a_move_tapped_offline_is_not_lost_in_silence(
    open_player: OpenPlayer, server: Any, size: dict[str, int]
) -> None:
    players = kit.table(server.url, 3)
    holder, truth = _rebuild(players)
    player = _guesser(open_player, holder, size=size)
    # the failed request, as htmx logs it
    player.allow(r"htmx:sendError|htmx:afterRequest")
    page = player.page
    card = truth[0]["card"]
    player.go_offline()
    page.locator("#reconnecting").wait_for(state="visible")
    page.locator(f'.pool .card[data-card="{card}"]').click()
    page.locator('.place[data-spot="0"]').click()
    page.locator("#flash .flash", has_text="Not sent: you are offline").wait_for()
    assert all(s["card"] is None for s in holder.state()["resolution"]["board"])
    # Back online, the move held is sent again: the card is laid, and the warning goes.
    player.context.set_offline(False)
    page.locator("#reconnecting").wait_for(state="hidden")
    page.locator(f'.board .spot-0 .card[data-card="{card}"]').wait_for()
    page.locator("#flash .flash").wait_for(state="detached")
    assert holder.state()["resolution"]["board"][0]["card"] == card
    # A request lost on its way (the phone thinks it is online) is said just the same.
    page.route("**/act", lambda route: route.abort("internetdisconnected"))
    page.locator('.toolbar [data-do="rotate"][data-turns="1"]').click()
    page.locator("#flash .flash", has_text="Not sent: you are offline").wait_for()
    page.unroute("**/act")
    assert holder.state()["resolution"]["board"][0]["rotation"] == 0


def test_a_clue_s_verdict_answers_the_text_in_the_field(
    open_player: OpenPlayer, server: Any
) -> None:
    """The server's answers are held back by the test, to be let through when it says:
    an answer to an older text is dropped, and a verdict is put away as soon as the
    field says something else."""
    players = kit.table(server.url, 3)
    players[0].act("start")
    ada = players[0]
    keyword = ada.state()["clover"]["leaves"][0]["pair"][0]
    player = open_player(ada.name, PHONE, token=ada.token, code=ada.code)
    player.goto(f"/r/{ada.code}")
    page = player.page
    page.locator("#clue-0").wait_for()
    held: list[Any] = []
    page.route("**/check", lambda route: held.append(route))
    # A check overtaken by a newer text is aborted (hx-sync "replace"), as htmx logs it:
    # keystrokes further apart than the check's delay (a loaded machine) each ask for one.
    player.allow(r"htmx:sendAbort|htmx:afterRequest")
    page.evaluate(
        """() => {
            window.__asked = 0; window.__answers = 0;
            const ours = (e) => e.detail.target && e.detail.target.id === "check-0";
            const on = (name, count) => document.addEventListener(name, (e) => ours(e) && count());
            on("htmx:beforeSend", () => window.__asked++);
            on("htmx:afterRequest", () => window.__answers++);
        }"""
    )

    def answered(n: int) -> None:
        page.wait_for_function("(n) => window.__answers >= n", arg=n)

    def all_answered() -> None:
        """Every check asked has ended: answered, or aborted by a newer one."""
        page.wait_for_function("() => window.__answers >= window.__asked")

    def checks_held() -> int:
        page.evaluate("0")  # the page's requests reach the test between its calls
        return len(held)

    # The keyword typed: its answer comes, and says no.
    page.locator("#clue-0").fill(keyword)
    kit.wait_for(checks_held, lambda n: n == 1, what="the check of the keyword")
    held.pop().continue_()
    answered(1)
    page.locator("#check-0.bad").wait_for()
    # More typed: the refusal is put away at once, the new answer not come yet.
    page.locator("#clue-0").press("End")
    page.locator("#clue-0").type("zz")
    assert page.locator("#check-0").inner_text().strip() == ""
    kit.wait_for(checks_held, lambda n: n >= 1, what="the check of the new text")
    # Back to the keyword by hand: its verdict comes back with it.
    page.locator("#clue-0").press("Backspace")
    page.locator("#clue-0").press("Backspace")
    page.locator("#check-0.bad").wait_for()
    # An answer late for the text that was in the field: the keyword's refusal comes
    # once the field says Zigzag (the page's own value, set with no event, so no newer
    # check is asked): it is dropped.
    while held:
        held.pop(0).continue_()
    all_answered()
    page.locator("#clue-0").fill("Zigzag")
    kit.wait_for(checks_held, lambda n: n >= 1, what="the check of Zigzag")
    answers = page.evaluate("() => window.__answers")
    held.pop().continue_()
    answered(answers + 1)
    assert page.locator("#check-0").inner_text().strip() == ""
    page.locator("#clue-0").fill(keyword)
    kit.wait_for(checks_held, lambda n: n >= 1, what="the check of the keyword again")
    page.evaluate("() => { document.getElementById('clue-0').value = 'Zigzag'; }")
    answers = page.evaluate("() => window.__answers")
    held.pop().continue_()
    answered(answers + 1)
    assert "bad" not in (page.locator("#check-0").get_attribute("class") or "")
    assert page.locator("#check-0").inner_text().strip() == ""
    page.unroute("**/check")


def test_the_news_line_is_a_polite_live_region_kept_across_updates(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    holder, truth = _rebuild(players)
    other = next(p for p in players if p.seat not in (holder.seat, kit.spectator_of(players).seat))
    del other
    spectator = kit.spectator_of(players)
    page = _guesser(open_player, spectator).page
    news = page.locator("#announce")
    assert news.get_attribute("aria-live") == "polite"
    assert news.get_attribute("role") == "status"
    assert news.get_attribute("hx-swap") == "innerHTML"
    page.evaluate("() => { window.__news = document.getElementById('announce'); }")
    holder.act("place", card=truth[0]["card"], spot=0, rotation=0)
    page.locator("#announce", has_text=f"{holder.name} placed a card.").wait_for()
    holder.act("place", card=truth[1]["card"], spot=1, rotation=0)
    page.locator("#announce", has_text=f"{holder.name} placed a card.").wait_for()
    page.locator(f'.board .spot-1 .card[data-card="{truth[1]["card"]}"]').wait_for()
    holder.act("rotate", spot=1, turns=1)
    page.locator("#announce", has_text=f"{holder.name} turned a card.").wait_for()
    # The same element all along: only its words changed.
    assert page.evaluate(
        "() => window.__news === document.getElementById('announce') && window.__news.isConnected"
    )
    # No live region is a part of the page drawn again whole, nor holds one.
    redrawn = page.evaluate(
        """() => [...document.querySelectorAll('[aria-live]')]
            .filter(el => el.matches('[hx-swap="outerHTML"]') ||
                          el.querySelector('[sse-swap][hx-swap="outerHTML"]'))
            .map(el => el.id || el.className)"""
    )
    assert redrawn == []


def test_the_host_finds_the_players_and_start_on_the_first_screen(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    host = players[0]
    for lang, locale in LOCALES.items():
        page = open_player(host.name, PHONE, token=host.token, code=host.code, locale=locale).page
        page.goto(f"{server.url}/r/{host.code}")
        page.locator(".lobby").wait_for()
        assert page.evaluate("() => scrollY") == 0
        start = page.locator(".lobby button.primary[type=submit]")
        assert start.is_enabled()
        wanted = ["#players .player", ".lobby button.primary", "#invite-url"]
        assert page.evaluate(IN_VIEW_JS, wanted) == [], lang
    # The settings, folded, open with a tap and stay open as the host changes them.
    page.locator("#lobby-settings summary").click()
    page.select_option("#decoys", "2")
    page.locator("#decoys option[value='2'][selected]").wait_for(state="attached")
    assert page.locator("#lobby-settings").get_attribute("open") is not None
    page.select_option("#timer-clues", "advisory")
    page.locator("#timer-clues option[value=advisory][selected]").wait_for(state="attached")
    assert host.state()["decoys"] == 2 and host.state()["timers"]["clues"]["mode"] == "advisory"
    # Start is still in sight once they are folded again.
    page.locator("#lobby-settings summary").click()
    page.evaluate("() => scrollTo(0, 0)")
    assert page.evaluate(IN_VIEW_JS, [".lobby button.primary"]) == []


REDRAWN_AT_THE_TAP_JS = """() => {
    const drawn = document.getElementById("stage").outerHTML;
    document.querySelector("#lobby-settings summary").click();
    htmx.swap(document.getElementById("stage"), drawn, {swapStyle: "outerHTML"});
}"""
"""A tap on the settings' summary, and the stage drawn again (as the stream draws it on
every change) before the box has said it opened."""


def test_settings_tapped_open_as_the_stage_is_drawn_again_stay_open(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    host = players[0]
    page = open_player(host.name, PHONE, token=host.token, code=host.code).page
    page.goto(f"{server.url}/r/{host.code}")
    page.locator(".lobby").wait_for()
    page.evaluate(REDRAWN_AT_THE_TAP_JS)
    page.locator("#lobby-settings[open]").wait_for()
    assert page.locator("#decoys").is_visible()


UPDATES_SEEN_JS = """() => {
    window.__updates = [];
    window.addEventListener('htmx:sseBeforeMessage',
        (e) => window.__updates.push(e.detail.type), true);
}"""
"""Every live update's region as it reaches the page, held or not."""


def test_a_click_across_a_redraw_of_the_stage_still_counts(
    open_player: OpenPlayer, server: Any
) -> None:
    """A click is a press and a release on the same button: the other guesser's Agree
    redrew the stage between the two, the pressed button left the page and the browser
    dropped this guesser's Agree."""
    players = kit.table(server.url, 3)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    other, me = (p for p in players if p.seat != spectator.seat)
    for s in kit.solution(players):
        other.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    page = _guesser(open_player, me, size=DESKTOP).page
    agree = page.get_by_role("button", name="Agree", exact=True)
    box = agree.bounding_box()
    assert box is not None
    page.evaluate(UPDATES_SEEN_JS)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    other.act("agree")
    page.wait_for_function("() => window.__updates.includes('stage')")
    page.mouse.up()
    page.locator(".reveal").wait_for()
    assert me.state()["resolution"]["checked"]


def test_with_four_to_six_at_the_table_start_is_still_on_the_hosts_first_screen(
    open_player: OpenPlayer, server: Any
) -> None:
    """A longer list of players: Start comes before the invite, on the first screen."""
    players = kit.table(server.url, 4)
    host = players[0]
    for extra in ("Eve", "Fay", None):
        for size in (PHONE, TALL_PHONE):
            page = open_player(host.name, size, token=host.token, code=host.code).page
            page.goto(f"{server.url}/r/{host.code}")
            page.locator(".lobby").wait_for()
            assert page.locator("#players .player").count() == len(players)
            assert page.evaluate("() => scrollY") == 0
            wanted = ["#players .player", ".lobby button.primary"]
            assert page.evaluate(IN_VIEW_JS, wanted) == [], (len(players), size)
            page.close()  # one seat token holds four live streams: one screen at a time
        if extra:
            players.append(kit.join(server.url, host.code, extra))
    assert len(players) == 6
