"""Icons the page draws: no legend or button leans on an emoji.

On a phone without an emoji font an emoji is an empty box, and a legend such as
"(padlock) = right" then says nothing. Every icon a legend or a button needs is drawn by
the page (inline SVG), named for a screen reader where the words beside it do not say it.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
import regex

from ..kit import ROOT, Server, http, solution, table
from ..kit.players import Player, start_and_write_clues

EMOJI = regex.compile(
    r"\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|"
    r"(?=\p{Extended_Pictographic})[\U0001F000-\U0001FFFF]"
)
"""A character drawn from an emoji font: one shown as an emoji by default, one asked to
be (VS-16), or any pictograph of the emoji planes. Text symbols (✓ ✗ ✕ ↺ ↻ ← →) are
in the phone's ordinary fonts and stay text."""

SOURCES = [
    *sorted((ROOT / "app/templates").rglob("*.html")),
    *sorted((ROOT / "static").glob("*.js")),
    *sorted((ROOT / "static").glob("*.css")),
    *sorted((ROOT / "app/locale").rglob("*.po")),
    ROOT / "app/locale/messages.pot",
]


def test_the_rule_tells_emoji_from_text_symbols() -> None:
    assert EMOJI.findall("🔒 ✅ ⏸️ 🍀") == ["🔒", "✅", "⏸\ufe0f", "🍀"]
    assert EMOJI.findall("✓ ✗ ✕ ↺ ↻ ← → · … ©") == []


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_script_style_or_catalog_holds_an_emoji(source: Path) -> None:
    found = [
        f"{source.relative_to(ROOT)}:{n}: {line.strip()[:80]}"
        for n, line in enumerate(source.read_text().splitlines(), 1)
        if EMOJI.search(line)
    ]
    assert found == []


LANGUAGES = {"en": "en", "fr": "fr-FR,fr;q=0.9", "zh": "zh-CN,zh;q=0.9"}
PADLOCK = {"en": "padlock", "fr": "cadenas", "zh": "锁"}


def page_of(player: Player, accept: str) -> str:
    headers = {"Cookie": f"soclover_{player.code}={player.token}", "Accept-Language": accept}
    r = http.get(f"{player.base}/r/{player.code}", headers=headers)
    assert r.status_code == 200, r.text
    return r.text


def text_of(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_the_last_tries_legend_draws_its_padlock_and_names_it(server: Server) -> None:
    players = table(server.url, 3)
    start_and_write_clues(players)
    seat = players[0].state()["resolution"]["lock_holder"]
    holder = players[seat]
    truth = sorted(solution(players), key=lambda s: s["spot"])
    for s in truth[:3]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    last = truth[3]
    holder.act("place", card=last["card"], spot=last["spot"], rotation=(last["rotation"] + 2) % 4)
    holder.act("lock")
    for lang, accept in LANGUAGES.items():
        page = page_of(holder, accept)
        legend = re.search(r'<p class="attempt muted">(.*?)</p>', page, re.S)
        assert legend, lang
        # The padlock drawn, hidden from screen readers, and named for them in words.
        assert '<svg class="icon icon-lock"' in legend.group(1), lang
        assert 'aria-hidden="true"' in legend.group(1), lang
        said = re.search(r'<span class="sr-only">([^<]*)</span>', legend.group(1))
        assert said and said.group(1) == PADLOCK[lang], lang
        # The three cards kept carry the same drawing; no text of the page is an emoji.
        assert page.count('<span class="lock"><svg class="icon icon-lock"') == 3, lang
        assert EMOJI.findall(text_of(page)) == [], lang
        buttons = re.findall(r"<button\b[^>]*>(.*?)</button>", page, re.S)
        assert buttons and not any(EMOJI.search(text_of(b)) for b in buttons), lang
