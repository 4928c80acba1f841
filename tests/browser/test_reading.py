"""Reading the table on a phone: the words, the news and the pool, as a thumb meets them.

At 360 x 740 and 390 x 844, in English, French and Chinese rooms:
- Chinese stands upright on every leaf and reads down the side leaves (judged from the
  glyphs drawn, against the same characters on the top leaf);
- the header and the news line stay on screen in every phase, after each scroll the page
  makes itself;
- a pool card keeps its place when another player takes or returns another card;
- every keyword, clue and mark is drawn at 12px or more (no transform shrinks it), whole
  on one line and inside its card, the capitals' accents included, with 8 cards in play;
- the Spectator's instruction is never cut;
- in a Chinese room a Latin word on a side leaf lies sideways, whole on one line, inside
  its leaf at 12px or more, Chinese standing beside it (drawn in Noto Sans CJK in CI).
"""

from __future__ import annotations

import base64
import itertools
from typing import Any

import pytest

from app.rules.deck import builtin_deck_path, load_deck
from app.rules.languages import check_clue_in
from app.web.vertical import vertical_markup

from .. import kit
from ..kit import http
from .conftest import PHONE, REQUIRED, OpenPlayer, Player, fitted


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


SIZES = [PHONE, {"width": 390, "height": 844}]
SIZE_IDS = ["360x740", "390x844"]
LANGUAGES = ["en", "fr", "zh"]


def lang_table(base: str, players: int, decoys: int, language: str) -> list[kit.Player]:
    r = http.post(f"{base}/api/rooms", json={"name": "Ada", "decoys": decoys, "language": language})
    assert r.status_code == 201, r.text
    body = r.json()
    host = kit.Player(base, body["code"], body["token"], body["seat"], "Ada")
    return [host, *(kit.join(base, host.code, name) for name in kit.NAMES[1:players])]


def seated(open_player: OpenPlayer, seat: kit.Player, size: dict[str, int], **kw: Any) -> Player:
    player: Player = open_player(seat.name, size, token=seat.token, code=seat.code, **kw)
    player.goto(f"/r/{seat.code}")
    return player


def holder_of(players: list[kit.Player]) -> kit.Player:
    seat: int = players[0].state()["resolution"]["lock_holder"]
    return players[seat]


# --- 1. Chinese upright ------------------------------------------------------------------

# Each character of each leaf's clue and pair, as laid out: its box, in reading order.
CHAR_BOXES_JS = """(root) => [0, 1, 2, 3].map(leaf => {
    const el = document.querySelector(`${root} .leaf-${leaf} .leaf-text`);
    const boxes = [];
    for (const part of el.querySelectorAll(".clue, .pw")) {
        const text = part.firstChild;
        if (!text || text.nodeType !== 3) continue;
        for (let i = 0; i < text.length; i++) {
            if (!text.data[i].trim() || text.data[i] === "·" || text.data[i] === "…") continue;
            const range = document.createRange();
            range.setStart(text, i); range.setEnd(text, i + 1);
            const r = range.getBoundingClientRect();
            boxes.push({part: part.className, ch: text.data[i], left: r.left, top: r.top,
                        width: r.width, height: r.height});
        }
    }
    // No quarter or half turn on the way up: the old left leaf was turned 180 degrees.
    const turned = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
        const t = getComputedStyle(e).transform;
        if (t && t !== "none") {
            const m = new DOMMatrix(t);
            if (Math.abs(m.b) > 1e-6 || Math.abs(m.c) > 1e-6 || m.a < 0 || m.d < 0) turned.push(t);
        }
    }
    return {leaf, boxes, turned, mode: getComputedStyle(el).writingMode};
})"""

# The clue's ink (the clue's own green), in a picture of a leaf: split in two along the
# leaf (one character each), each cut to its ink and sampled on a 12 x 12 grid.
INK_JS = """async ([url, along]) => {
    const img = new Image(); img.src = url; await img.decode();
    const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
    const g = c.getContext("2d"); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const ink = (x, y) => { const i = (y * c.width + x) * 4;
        const [r, gg, b] = [d[i], d[i + 1], d[i + 2]];
        return gg - r > 40 && gg - b > 20 && gg < 150; };
    const bbox = (x0, y0, x1, y1) => {
        let a = [x1, y1, x0, y0];
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (ink(x, y)) {
            a = [Math.min(a[0], x), Math.min(a[1], y),
                 Math.max(a[2], x + 1), Math.max(a[3], y + 1)];
        }
        return a;
    };
    const [l, t, r, b] = bbox(0, 0, c.width, c.height);
    const mx = (l + r) >> 1, my = (t + b) >> 1;
    const halves = along === "x" ? [[l, t, mx, b], [mx, t, r, b]]
                                 : [[l, t, r, my], [l, my, r, b]];
    const cut = (lo, hi, k) => lo + Math.floor(k * (hi - lo) / 12);
    return halves.map(h => {
        const [x0, y0, x1, y1] = bbox(...h);
        const grid = [];
        for (let gy = 0; gy < 12; gy++) for (let gx = 0; gx < 12; gx++) {
            let on = 0, n = 0;
            for (let y = cut(y0, y1, gy); y < cut(y0, y1, gy + 1); y++)
                for (let x = cut(x0, x1, gx); x < cut(x0, x1, gx + 1); x++) {
                    n++; if (ink(x, y)) on++;
                }
            grid.push(n && on * 2 >= n ? 1 : 0);
        }
        return grid;
    });
}"""

UPRIGHT_CLUE = "凹凸"
"""Two characters that a half turn swaps (凹 turned over looks like 凸): a clue no deck holds."""


def rebuilt_on_a_page(
    players: list[kit.Player], open_player: OpenPlayer, size: dict[str, int]
) -> Player:
    """Clues done, the first clover rebuilt right by its lock holder through the API, and
    that player's page at ``size`` in a Chinese room, once it shows the full board."""
    for p in players:
        p.act("done")
    holder = holder_of(players)
    for s in sorted(kit.solution(players), key=lambda s: s["spot"]):
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    guesser = seated(open_player, holder, size, locale="zh-CN", bypass_csp=True)
    guesser.page.locator(".board .spot-3 .card").wait_for()
    return guesser


def _alike(a: list[int], b: list[int]) -> float:
    return sum(x == y for x, y in zip(a, b, strict=True)) / len(a)


def _turned(grid: list[int], quarter_turns: int) -> list[int]:
    cells = [grid[i * 12 : (i + 1) * 12] for i in range(12)]
    for _ in range(quarter_turns % 4):
        cells = [list(row) for row in zip(*cells[::-1], strict=True)]
    return [v for row in cells for v in row]


def _assert_upright(player: Player, root: str, where: str) -> None:
    page = player.page
    fitted(page)
    leaves = page.evaluate(CHAR_BOXES_JS, root)
    for leaf in leaves:
        n, boxes = leaf["leaf"], leaf["boxes"]
        assert not leaf["turned"], f"{where}: leaf {n} is turned: {leaf['turned']}"
        assert len(boxes) >= 2, f"{where}: leaf {n}: {boxes}"
        for part in {b["part"] for b in boxes}:
            run = [b for b in boxes if b["part"] == part]
            for a, b in itertools.pairwise(run):
                if n in (1, 3):  # down the leaf, one under the other, none sideways
                    assert b["top"] >= a["top"] + a["height"] - 1, f"{where}: leaf {n}: {a} {b}"
                    assert abs(b["left"] - a["left"]) < 2, f"{where}: leaf {n}: {a} {b}"
                else:
                    assert b["left"] >= a["left"] + a["width"] - 1, f"{where}: leaf {n}: {a} {b}"
    # The glyphs as drawn, against the top leaf's (always upright): the same way up.
    shots = {}
    for leaf in range(4):
        clue = page.locator(f"{root} .leaf-{leaf}")
        shots[leaf] = "data:image/png;base64," + base64.b64encode(clue.screenshot()).decode()
    blank = player.context.new_page()
    try:
        reference = blank.evaluate(INK_JS, [shots[0], "x"])
        for leaf in (1, 2, 3):
            drawn = blank.evaluate(INK_JS, [shots[leaf], "x" if leaf == 2 else "y"])
            for ch, (mine, ref) in enumerate(zip(drawn, reference, strict=True)):
                upright = _alike(mine, ref)
                others = {t: _alike(mine, _turned(ref, t)) for t in (1, 2, 3)}
                assert upright >= 0.8 and all(upright > v + 0.05 for v in others.values()), (
                    f"{where}: leaf {leaf}, character {ch}: upright {upright:.2f}, turned {others}"
                )
    finally:
        blank.close()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_chinese_reads_upright_on_every_leaf(
    open_player: OpenPlayer, server: Any, size: dict[str, int]
) -> None:
    players = lang_table(server.url, 3, 1, "zh")
    players[0].act("start")
    for p in players:
        p.act("clues", clues=[UPRIGHT_CLUE] * 4)
    writer = seated(open_player, players[0], size, locale="zh-CN", bypass_csp=True)
    writer.page.locator(".write .clover").wait_for()
    _assert_upright(writer, ".write .clover", f"writing clues, {size}")
    guesser = rebuilt_on_a_page(players, open_player, size)
    _assert_upright(guesser, ".resolve .board", f"rebuilding, {size}")
    # Each keyword by the left leaf is the one of the card beside it: the top card's first.
    board = holder_of(players).state()["resolution"]["board"]
    from app.rules.geometry import shown_word

    down = [shown_word(board[spot]["words"], board[spot]["rotation"], 3) for spot in (0, 3)]
    assert guesser.page.locator(".leaf-3 .pair .pw").all_inner_texts() == down


# --- 2. the news in view ---------------------------------------------------------------------

NEWS_IN_VIEW_JS = """() => {
    const out = [];
    for (const sel of [".top", "#announce", "#help-open", "#chat-open"]) {
        const el = document.querySelector(sel);
        const r = el.getBoundingClientRect();
        if (r.height === 0 && sel === "#chat-open") continue;  // desktop: no chat button
        if (r.top < -0.5 || r.bottom > innerHeight + 0.5 || r.height === 0)
            out.push(`${sel} at ${r.top.toFixed(0)}..${r.bottom.toFixed(0)}`);
        // on top of the page there: nothing scrolled over it
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!hit || !(el.contains(hit) || hit.contains(el)))
            out.push(`${sel} covered by ${hit && hit.className}`);
    }
    return out;
}"""

# Where the page's own scroll put the stage: its top just under the news, in view.
STAGE_UNDER_NEWS_JS = """() => {
    const news = document.querySelector("#announce").getBoundingClientRect();
    const stage = document.querySelector("#stage").getBoundingClientRect();
    return [Math.round(news.bottom), Math.round(stage.top)];
}"""


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_the_news_stays_in_view_in_every_phase(
    open_player: OpenPlayer, server: Any, size: dict[str, int]
) -> None:
    players = kit.table(server.url, 3)
    me = players[1]
    player = seated(open_player, me, size)
    page = player.page
    page.emulate_media(reduced_motion="reduce")  # the page's scroll is at once
    page.locator(".lobby").wait_for()

    def moment(act: Any, ready: str, phase: str) -> None:
        # The player is somewhere down the page, reading the players' list.
        page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
        assert page.evaluate(NEWS_IN_VIEW_JS) == [], f"{phase}, scrolled down"
        before = page.locator("#stage").get_attribute("data-moment")
        act()
        page.locator(ready).wait_for()
        page.wait_for_function(
            "(m) => document.querySelector('#stage').dataset.moment !== m", arg=before
        )
        # The page's own scroll, if any, came with the update (at once: reduced motion).
        fitted(page)
        assert page.evaluate(NEWS_IN_VIEW_JS) == [], f"{phase}, after the page's scroll"
        news, stage = page.evaluate(STAGE_UNDER_NEWS_JS)
        assert stage >= news - 1, f"{phase}: the stage's top ({stage}) under the news ({news})"

    host = players[0]
    host.act("timer", phase="clues", mode="enforced", minutes=5)
    moment(lambda: host.act("start"), ".write .clover", "clues")
    # The clue clock stays in sight while the fields are filled, far down the page.
    page.locator("#clue-3").scroll_into_view_if_needed()
    page.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    clock = page.locator(".clock").bounding_box()
    assert clock is not None and clock["y"] >= 0 and clock["y"] + clock["height"] <= size["height"]
    assert page.evaluate(NEWS_IN_VIEW_JS) == []

    def all_done() -> None:
        for p in players:
            p.act("clues", clues=kit.clues_for(p.seat))
        for p in players:
            p.act("done")

    moment(all_done, ".resolve, .reveal", "resolution")
    spectator = kit.spectator_of(players)
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    holder = holder_of(players)
    for s in truth[:3]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    wrong = (truth[3]["rotation"] + 2) % 4
    holder.act("place", card=truth[3]["card"], spot=truth[3]["spot"], rotation=wrong)
    moment(lambda: holder.act("lock"), ".board-head .tag.last", "the last try")
    last = truth[3]

    def right_and_lock() -> None:
        holder.act("place", card=last["card"], spot=last["spot"], rotation=last["rotation"])
        holder.act("lock")

    moment(right_and_lock, ".reveal", "the reveal")
    for _ in range(2):
        moment(lambda: players[0].act("next"), ".resolve", "the next clover")
        holder = holder_of(players)
        sol = kit.solution(players)
        for s in sol[:3]:
            holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])

        def finish(h: kit.Player = holder, s: dict[str, Any] = sol[3]) -> None:
            h.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
            h.act("lock")

        moment(finish, ".reveal", "a reveal")
    moment(lambda: players[0].act("next"), ".finished", "the end")
    assert spectator is not None


# --- 3. the pool holds still ----------------------------------------------------------------

POOL_PLACES_JS = """() => Object.fromEntries(
    [...document.querySelectorAll(".pool .card[data-card]")].map(c => {
        const r = c.getBoundingClientRect();
        return [c.dataset.card, [Math.round(r.left), Math.round(r.top + scrollY)]];
    }))"""


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_pool_cards_keep_their_place_when_another_player_moves(
    open_player: OpenPlayer, server: Any, size: dict[str, int]
) -> None:
    players = kit.table(server.url, 4, decoys=4)
    kit.start_and_write_clues(players)
    holder = holder_of(players)
    spectator = kit.spectator_of(players)
    mover = next(p for p in players if p.seat not in (holder.seat, spectator.seat))
    page = seated(open_player, holder, size).page
    page.locator(".resolve").wait_for()
    before = page.evaluate(POOL_PLACES_JS)
    assert len(before) == 8
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    for s in truth[:2]:
        mover.act("place", card=s["card"], spot=s["spot"], rotation=0)
        page.locator(f'.board .card[data-card="{s["card"]}"]').wait_for()
        fitted(page)
        now = page.evaluate(POOL_PLACES_JS)
        assert s["card"] not in now
        assert now == {k: v for k, v in before.items() if k in now}, "a card moved"
    for s in truth[:2]:
        mover.act("remove", spot=s["spot"])
        page.locator(f'.pool .card[data-card="{s["card"]}"]').wait_for()
    fitted(page)
    assert page.evaluate(POOL_PLACES_JS) == before, "a card came back to another place"


# --- 4 and 5. every word whole, at 12px at the least -----------------------------------------

# Every text a player reads on the clover, the pool, the boards and the drawing: its size
# as drawn (the computed size times every scale on the way up), whether it breaks over
# lines, and whether it stays inside its card or leaf, and inside every box that clips it.
WORDS_JS = """(scope) => {
    const out = [];
    const sizes = [];
    const scaleOf = (el) => {
        if (el instanceof SVGElement) {
            const m = el.getScreenCTM(); return m ? Math.hypot(m.a, m.b) : 1; }
        let s = 1;
        for (let e = el; e; e = e.parentElement) {
            const t = getComputedStyle(e).transform;
            if (t && t !== "none") { const m = new DOMMatrix(t); s *= Math.hypot(m.a, m.b); }
        }
        return s;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        const text = node.data.trim();
        if (!text || !el.closest(scope)) continue;
        if (el.closest(".sr-only, .leaf-name, title, [hidden]")) continue;
        const range = document.createRange(); range.selectNodeContents(node);
        const rects = [...range.getClientRects()].filter(r => r.width > 0 && r.height > 0);
        if (!rects.length || !el.checkVisibility()) continue;
        const size = parseFloat(getComputedStyle(el).fontSize) * scaleOf(el);
        sizes.push(size);
        const label = `"${text.slice(0, 24)}" (${el.className.baseVal ?? el.className})`;
        if (size < 11.99) out.push(`${label} at ${size.toFixed(1)}px`);
        if (el instanceof SVGElement) {
            const box = el.getBoundingClientRect();
            const holder = el.closest(".how-clover");
            const boxes = (sel) => [...holder.querySelectorAll(sel)]
                .map(r => r.getBoundingClientRect());
            const inside = (b) => box.left >= b.left - 0.5 && box.right <= b.right + 0.5 &&
                                  box.top >= b.top - 0.5 && box.bottom <= b.bottom + 0.5;
            const room = el.closest(".clues") ? boxes(".leafs ellipse") : boxes(".cards rect");
            if (!room.some(inside)) out.push(`${label} spills out`);
            continue;
        }
        const vertical = getComputedStyle(el).writingMode.startsWith("vertical");
        const lines = new Set(rects.map(r => Math.round(vertical ? r.left : r.top)));
        const word = el.closest(".w, .clue, .pair, .decoy-mark, .recap-clues dd");
        if (word && lines.size > 1) out.push(`${label} breaks over ${lines.size} lines`);
        const r = range.getBoundingClientRect();
        for (let e = el; e && e !== document.body; e = e.parentElement) {
            const cs = getComputedStyle(e);
            const b = e.getBoundingClientRect();
            const clipX = cs.overflowX !== "visible", clipY = cs.overflowY !== "visible";
            const isBox = e.matches(".card, .leaf");
            if ((clipX || isBox) && (r.left < b.left - 0.5 || r.right > b.right + 0.5))
                out.push(`${label} runs out of ${e.className} across`);
            if ((clipY || isBox) && (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5))
                out.push(`${label} runs out of ${e.className} up or down`);
            if (isBox) break;
        }
    }
    return {problems: [...new Set(out)], smallest: Math.min(...sizes), count: sizes.length};
}"""

WIDEST_JS = """(words) => {
    const probe = document.querySelector(".pool .card .w0");
    const keep = probe.textContent;
    probe.style.fontSize = "";
    const range = document.createRange();
    const widths = words.map(w => { probe.textContent = w; range.selectNodeContents(probe);
                                    return [range.getBoundingClientRect().width, w]; });
    probe.textContent = keep;
    widths.sort((a, b) => b[0] - a[0]);
    return widths.slice(0, 4).map(x => x[1]);
}"""

PUT_WORDS_JS = """(words) => {
    let i = 0;
    for (const w of document.querySelectorAll("#stage .w, #stage .pair .pw")) {
        w.textContent = words[i++ % words.length];
    }
    dispatchEvent(new Event("resize"));
}"""


def _words_ok(page: Any, scope: str, where: str) -> float:
    fitted(page)  # after a live update, or a resize (its fit comes 150 ms later)
    found = page.evaluate(WORDS_JS, scope)
    assert found["count"] > 0, where
    assert found["problems"] == [], f"{where}: {found['problems']}"
    return float(found["smallest"])


def _deck_words(language: str) -> list[str]:
    return [w for card in load_deck(builtin_deck_path(language)).cards for w in card]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_word_is_whole_and_12px_or_more(
    open_player: OpenPlayer, server: Any, size: dict[str, int], language: str
) -> None:
    locale = {"en": "en-US", "fr": "fr-FR", "zh": "zh-CN"}[language]
    players = lang_table(server.url, 3, 4, language)
    players[0].act("start")
    for p in players:
        p.act("clues", clues=[f"Qzorvlimp{p.seat}{leaf}" for leaf in range(4)])
    for p in players:
        p.act("done")
    holder = holder_of(players)
    spectator = kit.spectator_of(players)
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    for s in truth[:2]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    where = f"{language} {size['width']}x{size['height']}"

    guesser = seated(open_player, holder, size, locale=locale, bypass_csp=True)
    page = guesser.page
    page.locator(".resolve").wait_for()
    assert page.locator(".pool li").count() == 8
    sizes = [_words_ok(page, "#stage", f"{where}, rebuilding")]
    # The deck's widest keywords (as this browser draws them), on every edge of every card
    # and by every leaf; then French capitals with their accents.
    widest = page.evaluate(WIDEST_JS, _deck_words(language))
    for words in (widest, ["Étang", "Île", "Âne", "Éléphant"]):
        page.evaluate(PUT_WORDS_JS, words)
        sizes.append(_words_ok(page, "#stage", f"{where}, {words}"))
    # The Spectator: the decoys marked, and their instruction whole.
    watcher = seated(open_player, spectator, size, locale=locale, bypass_csp=True)
    watcher.page.locator(".resolve .solution-note").wait_for()
    sizes.append(_words_ok(watcher.page, "#stage", f"{where}, the Spectator"))
    cut = watcher.page.evaluate(
        """() => { const a = document.querySelector(".attempt");
                   return a.scrollWidth > a.clientWidth + 0.5
                       || a.scrollHeight > a.clientHeight + 0.5
                       || getComputedStyle(a).textOverflow === "ellipsis"; }"""
    )
    assert not cut, f"{where}: the Spectator's instruction is cut"
    # The help sheet's drawing.
    page.locator("#help-open").click()
    page.locator("#help[open]").wait_for()
    sizes.append(_words_ok(page, "#help .how-clover", f"{where}, the help's drawing"))
    page.keyboard.press("Escape")
    # The reveal, then the clovers so far.
    for s in truth[2:]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    holder.act("lock")
    page.locator(".reveal").wait_for()
    sizes.append(_words_ok(page, "#stage", f"{where}, the reveal"))
    page.goto(f"{guesser.base}/r/{holder.code}/history")
    page.locator(".recap-clover").wait_for()
    sizes.append(_words_ok(page, ".recap", f"{where}, the clovers so far"))
    print(f"{where}: smallest word drawn {min(sizes):.1f}px")


# --- 6. Latin words in a Chinese room ---------------------------------------------------------

# Each run of Latin letters on a side leaf, as drawn: its box, the box of each of its
# letters, the box of its leaf, its size as drawn, and the length the same run takes
# written across in the same font (a run lying sideways is as long down the leaf as that;
# letters standing one under the other take an em each, far longer).
LATIN_RUNS_JS = """(root) => {
    const out = [];
    for (const leaf of document.querySelectorAll(`${root} .leaf-1, ${root} .leaf-3`)) {
        const lb = leaf.getBoundingClientRect();
        for (const run of leaf.querySelectorAll(".run.sideways")) {
            const text = run.firstChild;
            const range = document.createRange(); range.selectNodeContents(text);
            const r = range.getBoundingClientRect();
            const letters = [];
            for (let i = 0; i < text.length; i++) {
                const one = document.createRange(); one.setStart(text, i); one.setEnd(text, i + 1);
                const b = one.getBoundingClientRect();
                letters.push({left: b.left, top: b.top, width: b.width, height: b.height});
            }
            const across = document.createElement("span");
            across.style.cssText =
                "position:absolute;writing-mode:horizontal-tb;white-space:nowrap";
            const cs = getComputedStyle(run);
            across.style.font = cs.font; across.textContent = text.data;
            document.body.appendChild(across);
            const acrossWidth = across.getBoundingClientRect().width;
            across.remove();
            out.push({leaf: leaf.className.baseVal ?? leaf.className, text: text.data,
                      box: {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                            width: r.width, height: r.height},
                      leafBox: {left: lb.left, right: lb.right, top: lb.top, bottom: lb.bottom},
                      letters, acrossWidth, size: parseFloat(cs.fontSize),
                      orientation: cs.textOrientation, upright: run.parentElement.closest(".pw")
                        ? null : run.parentElement.textContent});
        }
    }
    return out;
}"""

# The font the browser drew a leaf's Chinese with (Chrome's own account of it).
DRAWN_FONT_CDP = "CSS.getPlatformFontsForNode"


def _drawn_fonts(page: Any, selector: str) -> list[str]:
    session = page.context.new_cdp_session(page)
    try:
        session.send("DOM.enable")
        session.send("CSS.enable")
        root = session.send("DOM.getDocument")["root"]["nodeId"]
        node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = session.send(DRAWN_FONT_CDP, {"nodeId": node})["fonts"]
        return [f["familyName"] for f in fonts]
    finally:
        session.detach()


def _latin_reads_as_latin(page: Any, root: str, expected: set[str], where: str) -> None:
    fitted(page)
    runs = page.evaluate(LATIN_RUNS_JS, root)
    assert {r["text"] for r in runs} >= expected, f"{where}: {[r['text'] for r in runs]}"
    for run in runs:
        label = f"{where}: {run['text']!r} on {run['leaf']}"
        box, leaf = run["box"], run["leafBox"]
        assert run["orientation"] == "sideways", label
        # Lying along the leaf: taller than wide, as long as the word written across.
        assert box["height"] > box["width"], f"{label}: {box}"
        assert abs(box["height"] - run["acrossWidth"]) <= 0.1 * run["acrossWidth"] + 1, (
            f"{label}: {box['height']:.1f} down the leaf, {run['acrossWidth']:.1f} across"
        )
        # Its letters one after the other in one line, read downwards, none on a line of
        # its own (a letter standing alone takes an em of the leaf; these take their width).
        letters = run["letters"]
        assert len({round(a["left"]) for a in letters}) == 1, f"{label}: {letters}"
        for a, b in itertools.pairwise(letters):
            assert b["top"] >= a["top"] + a["height"] - 0.5, f"{label}: {a} {b}"
        narrow = [a for a in letters if a["height"] < 0.8 * run["size"]]
        assert narrow, f"{label}: every letter an em tall, as if standing: {letters}"
        # Inside its leaf, and big enough to read.
        assert box["left"] >= leaf["left"] - 0.5 and box["right"] <= leaf["right"] + 0.5, label
        assert box["top"] >= leaf["top"] - 0.5 and box["bottom"] <= leaf["bottom"] + 0.5, label
        assert run["size"] >= 12, f"{label}: {run['size']}px"


LATIN_CLUES = ["咖喱", "Hamburger", "油条", "DNA双螺旋"]
"""A clover's clues: a Latin word on the right leaf, a mixed clue on the left; none of
them a keyword of the Chinese deck, nor refused beside one
(``test_the_latin_clues_are_no_keywords_of_the_chinese_deck``): the deal is random."""


def test_the_latin_clues_are_no_keywords_of_the_chinese_deck() -> None:
    refused = {
        (clue, keyword)
        for clue in LATIN_CLUES
        for keyword in _deck_words("zh")
        if not check_clue_in("zh", clue, [keyword]).ok
    }
    assert not refused


def test_latin_words_read_sideways_on_the_side_leaves_of_a_chinese_room(
    open_player: OpenPlayer, server: Any
) -> None:
    players = lang_table(server.url, 3, 1, "zh")
    players[0].act("start")
    for p in players:
        p.act("clues", clues=LATIN_CLUES)
    writer = seated(open_player, players[1], PHONE, locale="zh-CN")
    page = writer.page
    page.locator(".write .clover").wait_for()
    if REQUIRED:  # CI reads the Chinese pages in the font of Android phones
        assert _drawn_fonts(page, ".write .leaf-0 .clue") == ["Noto Sans CJK SC"]
    _latin_reads_as_latin(page, ".write .clover", {"Hamburger", "DNA"}, "the clues as saved")
    _words_ok(page, "#stage", "zh 360x740, the clues as saved")
    # Chinese stays upright beside the Latin run: the mixed clue reads on after it.
    mixed = page.locator(".write .leaf-3 .clue")
    assert mixed.locator(".run.sideways").all_inner_texts() == ["DNA"]
    # Typed: the leaf cuts the clue as the server does, as it is typed.
    page.locator("#clue-1").fill("Chocolate")
    page.locator("#clue-3").fill("iPhone手机")
    page.locator(".write .leaf-3 .clue .run.sideways", has_text="iPhone").wait_for()
    page.locator(".write .leaf-1 .clue .run.sideways", has_text="Chocolate").wait_for()
    _latin_reads_as_latin(page, ".write .clover", {"Chocolate", "iPhone"}, "the clues typed")
    _words_ok(page, "#stage", "zh 360x740, the clues typed")
    page.locator("#clue-3").fill("3D打印")
    page.locator(".write .leaf-3 .clue .run.combined", has_text="3D").wait_for()
    _words_ok(page, "#stage", "zh 360x740, two letters in one cell")
    players[1].act("clues", clues=LATIN_CLUES)

    page = rebuilt_on_a_page(players, open_player, PHONE).page
    _latin_reads_as_latin(page, ".resolve .board", {"Hamburger", "DNA"}, "rebuilding")
    _words_ok(page, "#stage", "zh 360x740, rebuilding")
    # The built-in Chinese deck holds no Latin keyword; a custom one (SOCLOVER_KEYWORDS_ZH)
    # may, and its keywords are cut by the same filter as the clues: here they are.
    keywords = ["Sandwich", "Tofu", "Wi-Fi密码", "3D"]
    shown = [str(vertical_markup(w)) for w in keywords]
    page.evaluate(
        """(shown) => { let i = 0;
            for (const w of document.querySelectorAll(".resolve .board .leaf-1 .pw, "
                                                      + ".resolve .board .leaf-3 .pw"))
                w.innerHTML = shown[i++ % shown.length];
            dispatchEvent(new Event("resize")); }""",
        shown,
    )
    page.locator(".leaf-3 .pw .run.sideways", has_text="Wi-Fi").wait_for()
    _latin_reads_as_latin(page, ".resolve .board", {"Sandwich", "Tofu", "Wi-Fi"}, "keywords")
    _words_ok(page, "#stage", "zh 360x740, Latin keywords by the side leaves")
