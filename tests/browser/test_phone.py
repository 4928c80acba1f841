"""The table held in one hand: Chromium at phone sizes, as a player holds it.

The rebuild on one screen, words that stay whole, a page that holds still while
others play, a chat that keeps up, and the check's result in everyone's view.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.rules.deck import builtin_deck_path, load_deck
from app.rules.geometry import shown_word

from .. import kit
from .conftest import PHONE, OpenPlayer, Player, live


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


SIZES = [PHONE, {"width": 390, "height": 844}, {"width": 412, "height": 915}]

# In view: on the screen, and not under the header and the news line that hold its top.
IN_VIEW_JS = """(selectors) => {
    const out = [];
    const news = document.querySelector("#announce");
    const top = news ? Math.max(0, news.getBoundingClientRect().bottom) : 0;
    for (const selector of selectors) {
        const found = [...document.querySelectorAll(selector)];
        if (!found.length) out.push(`nothing matches ${selector}`);
        for (const el of found) {
            const r = el.getBoundingClientRect();
            // what holds the top of the screen itself (the clock in the news line) is in view there
            const held = getComputedStyle(el.closest(".clock-box") || el).position === "fixed";
            if (r.top < (held ? 0 : top) - 0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 ||
                r.right > innerWidth + 0.5) {
                out.push(`${selector} "${el.textContent.trim().slice(0, 30)}" at ` +
                         `${r.left.toFixed(0)},${r.top.toFixed(0)}..` +
                         `${r.right.toFixed(0)},${r.bottom.toFixed(0)}`);
            }
        }
    }
    return out;
}"""

# The top of the board at the top of the screen, just under the header and the news
# line (the page's scroll-padding), as a player settles it.
TO_BOARD_JS = """() => {
    document.querySelector(".board").scrollIntoView({block: "start"});
    return scrollY;
}"""

# Every word on one line box, and inside the box it is drawn in (card or leaf).
BROKEN_WORDS_JS = """() => {
    const out = [];
    for (const el of document.querySelectorAll("#stage .w, #stage .leaf .clue")) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = new Set([...range.getClientRects()]
            .filter(r => r.width > 0 && r.height > 0)
            .map(r => getComputedStyle(el).writingMode.startsWith("vertical")
                 ? Math.round(r.left) : Math.round(r.top)));
        const text = el.textContent.trim();
        if (lines.size > 1) out.push(`"${text}" breaks over ${lines.size} lines`);
        const box = el.closest(".card, .leaf").getBoundingClientRect();
        const r = range.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1 ||
            r.top < box.top - 1 || r.bottom > box.bottom + 1) {
            out.push(`"${text}" runs out of its ${el.closest(".card") ? "card" : "leaf"}`);
        }
    }
    return out;
}"""

# Without Chromium's scroll anchoring, which hides a shift above the screen from the
# measure (and which Safari does not have).
# The widest of these words, drawn bold at a card's size.
WIDEST_JS = """(words) => {
    const probe = document.createElement("span");
    probe.className = "w out";
    document.querySelector(".board .card .face").appendChild(probe);
    const range = document.createRange();
    let widest = [0, ""];
    for (const w of words) {
        probe.textContent = w; range.selectNodeContents(probe);
        const width = range.getBoundingClientRect().width;
        if (width > widest[0]) widest = [width, w];
    }
    probe.remove();
    return widest[1];
}"""

SHIFTS_JS = """() => {
    for (const el of [document.documentElement, document.body]) el.style.overflowAnchor = "none";
    window.__shift = 0;
    new PerformanceObserver(list => {
        for (const entry of list.getEntries()) {
            if (!entry.hadRecentInput) window.__shift += entry.value;
        }
    }).observe({type: "layout-shift", buffered: false});
}"""


def _rebuild(players: list[kit.Player]) -> tuple[kit.Player, list[dict[str, Any]]]:
    """Clues written; the lock holder (a guesser) and the truth of the clover."""
    kit.start_and_write_clues(players)
    holder = players[players[0].state()["resolution"]["lock_holder"]]
    return holder, sorted(kit.solution(players), key=lambda s: s["spot"])


def _seated(open_player: OpenPlayer, seat: kit.Player, size: dict[str, int] = PHONE) -> Player:
    player = open_player(seat.name, size, token=seat.token, code=seat.code)
    player.goto(f"/r/{seat.code}")
    return player


@pytest.mark.parametrize("decoys", [1, 4])
def test_the_whole_rebuild_is_on_one_phone_screen(
    open_player: OpenPlayer, server: Any, decoys: int
) -> None:
    players = kit.table(server.url, 4, decoys=decoys)
    holder, truth = _rebuild(players)
    for size in SIZES:
        guesser = _seated(open_player, holder, size)
        page = guesser.page
        page.locator(".resolve").wait_for()
        assert page.locator(".pool .card").count() == 4 + decoys
        page.evaluate(TO_BOARD_JS)
        where = f"{size['width']}x{size['height']}, {decoys} decoy(s)"
        wanted = [".board .spot", ".pool .card", ".toolbar [data-do]", ".decide button"]
        assert page.evaluate(IN_VIEW_JS, wanted) == [], where

    # A card picked, dropped on a spot and turned, all without a scroll.
    at = page.evaluate("() => scrollY")
    card = truth[0]["card"]
    page.locator(f'.pool .card[data-card="{card}"]').click()
    page.locator('.place[data-spot="0"]').click()
    page.locator(f'.board .spot-0 .card.chosen[data-card="{card}"][data-rotation="0"]').wait_for()
    page.locator('.toolbar [data-do="rotate"][data-turns="1"]').click()
    page.locator(f'.board .spot-0 .card.chosen[data-card="{card}"][data-rotation="1"]').wait_for()
    assert page.evaluate("() => scrollY") == at
    slot = holder.state()["resolution"]["board"][0]
    assert (slot["card"], slot["rotation"]) == (card, 1)
    # The chosen card outlives a reload of the page.
    page.reload()
    page.locator(f'.board .spot-0 .card.chosen[data-card="{card}"]').wait_for()
    assert page.locator(".toolbar [data-do=remove]").is_enabled()
    # Sent back to the pool, the card is no longer chosen.
    page.locator('.toolbar [data-do="remove"]').click()
    page.locator(f'.pool .card[data-card="{card}"]').wait_for()
    assert page.locator(".card.chosen").count() == 0
    assert page.locator('.pool .card[aria-pressed="true"]').count() == 0


def test_long_words_stay_whole_on_a_phone(open_player: OpenPlayer, server: Any) -> None:
    deck = load_deck(builtin_deck_path())
    longest = max((w for card in deck.cards for w in card), key=len)
    assert len(longest) <= 12, longest
    players = kit.table(server.url, 3)
    players[0].act("start")
    # Four 32-character clues each: one word, the longest the rules allow.
    for p in players:
        clues = [f"Abcdefghijklmnopqrstuvwxyzabc{p.seat}{leaf}x" for leaf in range(4)]
        assert {len(c) for c in clues} == {32}
        p.act("clues", clues=clues)
    for p in players:
        p.act("done")
    holder = players[players[0].state()["resolution"]["lock_holder"]]
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    for s in truth:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    guesser = _seated(open_player, holder)
    page = guesser.page
    page.locator(".board .spot-3 .card").wait_for()
    assert page.evaluate(BROKEN_WORDS_JS) == []
    # Each pair reads as it sits: the bottom one from bottom left to bottom right.
    board = holder.state()["resolution"]["board"]
    bottom = [shown_word(board[spot]["words"], board[spot]["rotation"], 2) for spot in (3, 2)]
    assert page.locator(".leaf-2 .pair .pw").all_inner_texts() == bottom
    top = [shown_word(board[spot]["words"], board[spot]["rotation"], 0) for spot in (0, 1)]
    assert page.locator(".leaf-0 .pair .pw").all_inner_texts() == top

    # The deck's longest keyword, then the widest keyword of each language's deck as this
    # browser draws it, on every edge of every card, fitted again. The cards are sized for
    # the decks: every keyword fits at 12px (a made-up 12 wide letters would not).
    widest = []
    for language in ("en", "fr", "zh"):
        words = [w for card in load_deck(builtin_deck_path(language)).cards for w in card]
        widest.append(page.evaluate(WIDEST_JS, words))
    for word in (longest, *widest):
        page.evaluate(
            """(word) => {
                for (const w of document.querySelectorAll("#stage .w")) w.textContent = word;
                dispatchEvent(new Event("resize"));
            }""",
            word,
        )
        page.wait_for_function(
            """() => [...document.querySelectorAll("#stage .w")]
                .every(w => w.scrollWidth <= w.clientWidth + 0.5)"""
        )
        assert page.evaluate(BROKEN_WORDS_JS) == [], word


def test_the_page_holds_still_while_the_others_play(open_player: OpenPlayer, server: Any) -> None:
    """20 moves and 10 chat lines by others: the guesser's page barely moves (CLS < 0.05)."""
    players = kit.table(server.url, 4, decoys=2)
    holder, truth = _rebuild(players)
    spectator = kit.spectator_of(players)
    mover, talker = [p for p in players if p.seat not in (holder.seat, spectator.seat)]
    guesser = _seated(open_player, holder)
    page = guesser.page
    page.locator(".resolve").wait_for()
    page.evaluate(TO_BOARD_JS)
    page.evaluate(SHIFTS_JS)

    first, second = truth[0], truth[1]
    moves = chats = 0
    for _ in range(4):
        for step in (
            lambda: mover.act("place", card=first["card"], spot=first["spot"], rotation=0),
            lambda: mover.act("place", card=second["card"], spot=second["spot"], rotation=0),
            lambda: mover.act("rotate", spot=first["spot"], turns=1),
            lambda: mover.act("remove", spot=first["spot"]),
            lambda: mover.act("remove", spot=second["spot"]),
        ):
            step()
            moves += 1
            if moves % 2 == 0:
                talker.act("say", text=f"line {chats}: " + "a rather long message, " * 4)
                chats += 1
    assert (moves, chats) == (20, 10)
    page.locator("#chat-lines li", has_text="line 9:").wait_for(state="attached")
    page.locator(".board .spot .card").first.wait_for(state="detached")
    # Shifts are reported after the frame that made them: two frames later, all are in.
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    shift = page.evaluate("() => window.__shift")
    print(f"cumulative layout shift over {moves} moves and {chats} chat lines: {shift:.4f}")
    assert shift < 0.05
    # The measure itself: a line pushed in above the board is seen as a shift.
    page.evaluate(
        """() => new Promise(done => {
            const line = document.createElement("p");
            line.textContent = "a line pushed in";
            line.style.height = "120px";
            document.querySelector("#stage").before(line);
            requestAnimationFrame(() => requestAnimationFrame(done));
        })"""
    )
    assert page.evaluate("() => window.__shift") > shift + 0.05


def test_lines_said_while_a_phone_was_not_listening_are_unread(
    open_player: OpenPlayer, server: Any
) -> None:
    """Lines said before a page's stream caught up, and while its network was gone, come
    in the whole chat its new stream sends: those of others are counted unread."""
    players = kit.table(server.url, 3)
    ada, bea = players[0], players[1]
    bea.act("say", text="before you came")
    reader = open_player(ada.name, PHONE, token=ada.token, code=ada.code)
    page = reader.page
    held: list[Any] = []  # the page's first stream, held until the lines are said
    page.route("**/stream", lambda route: held.append(route), times=1)
    reader.goto(f"/r/{ada.code}")
    page.locator("#chat-lines li", has_text="before you came").wait_for(state="attached")
    bea.act("say", text="while the page loaded")
    ada.act("say", text="my own line")
    held[0].continue_()
    live(page)
    page.locator("#chat-lines li", has_text="while the page loaded").wait_for(state="attached")
    page.locator("#unread", has_text="1").wait_for()
    # The network drops; two lines are said; it comes back with them, unread.
    reader.go_offline()
    page.locator("#reconnecting").wait_for(state="visible")
    bea.act("say", text="are you there?")
    bea.act("say", text="hello?")
    reader.context.set_offline(False)
    page.locator("#chat-lines li", has_text="hello?").wait_for(state="attached")
    page.locator("#unread", has_text="3").wait_for()
    page.locator("#chat-open").click()
    page.locator("#chat-box.open").wait_for()
    assert page.locator("#unread").is_hidden()


def test_the_chat_opens_at_its_newest_line_and_follows(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    ada, bea = players[0], players[1]
    for n in range(30):
        bea.act("say", text=f"message number {n}")
    # A reader in Kathmandu (UTC+05:45): whatever the hour, their clock is not UTC's.
    reader = open_player(ada.name, PHONE, token=ada.token, code=ada.code, timezone="Asia/Kathmandu")
    reader.goto(f"/r/{ada.code}")
    page = reader.page
    page.locator("#chat-lines li").nth(29).wait_for(state="attached")
    # On a phone the chat is a sheet, one tap away; closed, it counts what is unread.
    assert page.locator("#chat-box").is_hidden()
    bea.act("say", text="one more")
    page.locator("#unread", has_text="1").wait_for()
    page.locator("#chat-open").click()
    page.locator("#chat-box.open").wait_for()
    assert page.locator("#unread").is_hidden()

    def newest_in_view() -> bool:
        return bool(
            page.evaluate(
                """() => {
                    const log = document.getElementById("chat");
                    const last = document.querySelector("#chat-lines li:last-child");
                    const a = log.getBoundingClientRect(), b = last.getBoundingClientRect();
                    return b.top >= a.top - 1 && b.bottom <= a.bottom + 1 && b.height > 0;
                }"""
            )
        )

    kit.wait_for(newest_in_view, bool, what="the newest line in view")
    assert page.locator("#chat-lines li:last-child").inner_text().startswith("Bea one more")
    bea.act("say", text="and the newest")
    page.locator("#chat-lines li:last-child", has_text="and the newest").wait_for()
    kit.wait_for(newest_in_view, bool, what="the chat following a new line")
    # Times in the reader's own clock.
    last = page.locator("#chat-lines li:last-child time")
    at = datetime.fromisoformat(last.get_attribute("datetime") or "")
    local = at.astimezone(ZoneInfo("Asia/Kathmandu"))
    shown = last.inner_text()
    assert shown in (local.strftime("%H:%M"), local.strftime("%I:%M %p")), shown
    assert at.strftime("%H:%M") not in shown
    page.locator("#chat-close").click()
    page.locator("#chat-box").wait_for(state="hidden")


def test_after_the_check_the_result_is_in_everyone_s_view(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    holder, truth = _rebuild(players)
    pages = [_seated(open_player, p) for p in players]
    for page in pages:
        page.page.emulate_media(reduced_motion="reduce")
        page.page.locator(".resolve").wait_for()
        # Each somewhere else on the page: the bottom, where the players are listed.
        page.page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    for s in truth[:3]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    wrong = (truth[3]["rotation"] + 2) % 4
    holder.act("place", card=truth[3]["card"], spot=truth[3]["spot"], rotation=wrong)
    holder.act("lock")
    for page in pages:
        page.page.locator(".board-head .tag.last").wait_for()
        kit.wait_for(
            lambda p=page: p.page.evaluate(IN_VIEW_JS, [".board-head"]),
            lambda out: out == [],
            what=f"the first check's result in {page.name}'s view",
        )
        page.page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    last = truth[3]  # sent back to the pool by the check
    holder.act("place", card=last["card"], spot=last["spot"], rotation=last["rotation"])
    holder.act("lock")
    for page in pages:
        page.page.locator(".reveal").wait_for()
        kit.wait_for(
            lambda p=page: p.page.evaluate(IN_VIEW_JS, [".reveal h1"]),
            lambda out: out == [],
            what=f"the reveal in {page.name}'s view",
        )


def test_every_moment_names_who_made_it(open_player: OpenPlayer, server: Any) -> None:
    players = kit.table(server.url, 4)
    holder, truth = _rebuild(players)
    spectator = kit.spectator_of(players)
    agreer, mover = [p for p in players if p.seat not in (holder.seat, spectator.seat)]
    page = _seated(open_player, agreer).page
    page.locator(".resolve").wait_for()
    # The guessers read, in one line, that the lock holder can check without them.
    page.locator(".decide-note", has_text=f"{holder.name} holds the tie-break").wait_for()

    for s in truth:
        mover.act("place", card=s["card"], spot=s["spot"], rotation=(s["rotation"] + 1) % 4)
    page.locator("#announce", has_text=f"{mover.name} placed a card.").wait_for()
    agreer.act("agree")
    page.locator(".decide button[aria-pressed=true]").wait_for()
    mover.act("rotate", spot=truth[0]["spot"], turns=-1)
    page.locator(
        "#announce", has_text=f"{mover.name} turned a card: that move cleared your Agree"
    ).wait_for()
    page.locator(".decide button[aria-pressed=false]", has_text="Agree").wait_for()
    assert page.locator("#announce [data-cue=cleared]").count() == 1

    for s in truth[1:]:
        holder.act("rotate", spot=s["spot"], turns=-1)
    holder.act("lock")
    page.locator("#announce", has_text=f"{holder.name} locked the clover in: 6 points.").wait_for()
    assert page.locator("#announce [data-cue=checked]").count() == 1
    page.locator(".reveal .perfect", has_text="Perfect!").wait_for()


def test_the_help_sheet_sets_the_colours_and_the_cues(open_player: OpenPlayer, server: Any) -> None:
    players = kit.table(server.url, 3)
    holder, truth = _rebuild(players)
    player = open_player(holder.name, PHONE, token=holder.token, code=holder.code)
    # Vibrations are counted, as a phone would make them.
    player.context.add_init_script(
        "window.__buzz = []; navigator.vibrate = (p) => { window.__buzz.push(p); return true; };"
    )
    player.goto(f"/r/{holder.code}")
    page = player.page
    page.locator(".resolve").wait_for()
    # No keyboard hint where there is no keyboard to speak of.
    assert page.locator("#board-hint").is_hidden()

    page.locator("#help-open").click()
    page.locator("#help[open]").wait_for()
    assert page.locator("#help input[name=theme][value=system]").is_checked()
    assert not page.locator("#cues").is_checked()  # off unless turned on
    page.locator("#help label", has_text="Dark").click()
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(20, 26, 22)"
    page.locator("#help label.toggle").click()
    page.keyboard.press("Escape")

    # A check, with the cues on: a buzz. Kept across a reload, as the colours are.
    page.reload()
    page.locator(".resolve").wait_for()
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    for s in truth:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    holder.act("lock")
    page.locator(".reveal").wait_for()
    kit.wait_for(lambda: page.evaluate("() => window.__buzz.length"), bool, what="a buzz")

    # Turned off again: the next moments make none.
    page.locator("#help-open").click()
    page.locator("#help label.toggle").click()
    page.locator("#help label", has_text="As the system").click()
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.documentElement.dataset.theme") is None
    buzzes = page.evaluate("() => window.__buzz.length")
    players[0].act("next")
    page.locator(".resolve").wait_for()
    page.locator("#announce", has_text="moved on").wait_for()
    assert page.evaluate("() => window.__buzz.length") == buzzes


def test_the_keyboard_hint_shows_where_there_is_a_keyboard(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    holder, _ = _rebuild(players)
    laptop = _seated(open_player, holder, {"width": 1280, "height": 800})
    laptop.page.locator(".resolve").wait_for()
    assert laptop.page.locator("#board-hint").is_visible()
