"""Every screen, on a phone and on a desktop: accessible, no sideways scrolling, big targets.

``SOCLOVER_SCREENSHOTS=1`` also saves each screen to docs/screenshots/.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

from .. import kit
from ..kit import http
from .conftest import (
    COLOUR_RULES,
    DESKTOP,
    PHONE,
    OpenPlayer,
    Player,
    axe_violations,
    describe_violations,
)

SIZES = {"phone": PHONE, "desktop": DESKTOP}
SHOTS = kit.ROOT / "docs" / "screenshots"
SCREENSHOTS = os.environ.get("SOCLOVER_SCREENSHOTS") == "1"
TAP = 44  # px, the smallest comfortable target (WCAG 2.5.5, Apple and Google guidelines)
HOME_BUDGET = 100_000  # bytes on the wire for the first page and all it loads

SMALL_TARGETS_JS = """(tap) => {
    const out = [];
    for (const el of document.querySelectorAll(
        "main button, main a[href], main input:not([type=hidden]), main select, main summary"
    )) {
        // A checkbox or radio is tapped through its whole label.
        const label = el.matches("input[type=checkbox], input[type=radio]") && el.closest("label");
        const r = (label || el).getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;  // not shown
        if (r.width + 0.5 < tap || r.height + 0.5 < tap) {
            const name = el.id ? "#" + el.id : (el.getAttribute("aria-label") || el.textContent);
            out.push(`${el.tagName.toLowerCase()} "${name.trim().slice(0, 40)}" ` +
                     `${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
        }
    }
    return out;
}"""

OVERFLOW_JS = """(width) => {
    const out = [];
    const page = document.documentElement.scrollWidth;
    if (page > width) out.push(`the page scrolls sideways: ${page}px wide`);
    for (const el of document.querySelectorAll(".clover, .pool")) {
        const r = el.getBoundingClientRect();
        if (r.left < 0 || r.right > width + 0.5) {
            out.push(`.${el.className.split(" ").join(".")} runs off the screen: ` +
                     `${r.left.toFixed(0)}..${r.right.toFixed(0)}`);
        }
    }
    return out;
}"""


BROKEN_IMAGES_JS = """() => [...document.images]
    .filter(img => !img.complete || img.naturalWidth === 0)
    .map(img => img.getAttribute("src"))"""


class Screens:
    """Looks at one screen after another and gathers every problem found."""

    def __init__(self, size: str) -> None:
        self.size = size
        self.width = SIZES[size]["width"]
        self.problems: list[str] = []
        self.seen: list[str] = []

    def look(self, player: Player, screen: str) -> None:
        page = player.page
        page.wait_for_load_state("load")
        where = f"{screen} ({self.size})"
        self.seen.append(screen)
        # Colours change with the system's scheme (or the player's choice): both are checked.
        # The dark scheme changes the colours and nothing else (table.css sets its custom
        # properties only), so in it axe is asked what colours alone can change.
        for scheme, rules in (("light", None), ("dark", COLOUR_RULES)):
            page.emulate_media(color_scheme=scheme)
            violations = axe_violations(page, rules)
            if violations:
                report = describe_violations(violations)
                print(f"axe on {where}, {scheme}:\n{report}")
                self.problems.append(f"{where}, {scheme}: axe:\n{report}")
        page.emulate_media(color_scheme="light")
        for src in page.evaluate(BROKEN_IMAGES_JS):
            self.problems.append(f"{where}: an image that does not show: {src}")
        for small in page.evaluate(SMALL_TARGETS_JS, TAP):
            self.problems.append(f"{where}: target under {TAP}x{TAP}px: {small}")
        if self.size == "phone":
            for overflow in page.evaluate(OVERFLOW_JS, self.width):
                self.problems.append(f"{where}: {overflow}")
        if SCREENSHOTS:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=SHOTS / f"{screen}-{self.size}.png", full_page=True)


def test_the_dark_scheme_changes_colours_only() -> None:
    """What lets axe ask the dark scheme about colours alone (``Screens.look``): under
    ``prefers-color-scheme: dark``, table.css sets colours and nothing else."""
    css = (kit.ROOT / "static" / "table.css").read_text(encoding="utf-8")
    blocks = re.findall(r"@media \(prefers-color-scheme: dark\)\s*\{((?:[^{}]*\{[^{}]*\})*)", css)
    assert blocks, "no dark scheme in table.css"
    for block in blocks:
        for rule in re.findall(r"\{([^{}]*)\}", block):
            for declaration in filter(None, (d.strip() for d in rule.split(";"))):
                assert re.fullmatch(r"--[a-z-]+:\s*#[0-9a-f]{3,8}", declaration), declaration


@pytest.mark.parametrize("size", list(SIZES))
def test_every_screen(open_player: OpenPlayer, server: Any, size: str) -> None:
    screens = Screens(size)

    def browser(name: str, seat: kit.Player | None = None) -> Player:
        token, code = (seat.token, seat.code) if seat else (None, None)
        return open_player(name, SIZES[size], token=token, code=code, bypass_csp=True)

    visitor = browser("Visitor")
    visitor.goto("/")
    visitor.page.locator("#create-name").wait_for()
    screens.look(visitor, "home")

    players = kit.table(server.url, 3)
    code = players[0].code
    visitor.goto(f"/r/{code}")
    visitor.page.locator("#join-name").wait_for()
    screens.look(visitor, "join")

    # A seat link of someone who has left: opened as a player would (the token after
    # "#", posted by the page's script), it says so.
    gone = kit.join(server.url, code, "Dot")
    gone.act("leave")
    visitor.allow(r"status of 410")
    visitor.goto(f"/r/{code}/seat#{gone.token}")
    visitor.page.locator("h1", has_text="This seat link no longer works").wait_for()
    assert gone.token not in visitor.page.url
    screens.look(visitor, "seat-gone")
    visitor.goto(f"/?left={code}")
    visitor.page.locator(".notice").wait_for()
    screens.look(visitor, "home-left")

    pages = [browser(p.name, p) for p in players]
    for page in pages:
        page.goto(f"/r/{code}")
    host = pages[0]
    host.page.locator(".lobby").wait_for()
    screens.look(host, "lobby")

    # A device without a seat asks for one: it waits; the table sees the request.
    visitor.goto(f"/r/{code}")
    visitor.page.get_by_role("button", name="I am Cy").click()
    visitor.page.locator("#claim-status", has_text="Waiting for the table").wait_for()
    screens.look(visitor, "claim-waiting")
    host.page.locator(".claims .claim-card", has_text="asks to play as Cy").wait_for()
    screens.look(host, "claim-request")
    visitor.page.get_by_role("button", name="Take my request back").click()
    host.page.locator(".claims").wait_for(state="detached")

    # Clues: one keyword typed, so the rejection shows too.
    players[0].act("start")
    host.page.locator("#clue-0").wait_for()
    keyword = host.page.locator(".clue-field .pair-words").first.inner_text().split(" + ")[0]
    # The page saves what was typed as a draft a second later. Landing between the
    # clues and Done sent below through the API, it would put back the empty leaves
    # it holds: so it is awaited here.
    with host.page.expect_response(
        lambda r: r.url.endswith(f"/r/{code}/act") and r.request.method == "POST"
    ):
        host.page.fill("#clue-0", keyword)
        host.page.locator("#check-0.bad").wait_for()
    screens.look(host, "clues")
    # A draft the page sends once more (on the field's change) after Done is refused.
    host.allow(r"status of 409")

    # Resolution: two cards on the board, one of them chosen.
    for p in players:
        p.act("clues", clues=kit.clues_for(p.seat))
    for p in players:
        p.act("done")
    spectator = kit.spectator_of(players)
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    holder = players[players[0].state()["resolution"]["lock_holder"]]
    for s in truth[:2]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    guesser = pages[holder.seat]
    guesser.page.locator(f'.board .spot-1 .card[data-card="{truth[1]["card"]}"]').click()
    guesser.page.locator(".toolbar [data-do=remove]:enabled").wait_for()
    screens.look(guesser, "resolution")
    watcher = pages[spectator.seat]
    watcher.page.locator(".resolve .solution-note").wait_for()
    screens.look(watcher, "resolution-spectator")

    # The help sheet, and on a phone the chat sheet, over the board.
    guesser.page.locator("#help-open").click()
    guesser.page.locator("#help[open]").wait_for()
    screens.look(guesser, "help")
    guesser.page.keyboard.press("Escape")
    guesser.page.locator("#help").wait_for(state="hidden")
    if size == "phone":
        other = next(p for p in players if p.seat not in (spectator.seat, holder.seat))
        other.act("say", text="Shall we start with the top left?")
        guesser.page.locator("#chat-open").click()
        guesser.page.locator("#chat-box.open").wait_for()
        screens.look(guesser, "chat")
        guesser.page.locator("#chat-close").click()

    # The reveal, then the rest of the game straight through the API.
    for s in truth[2:]:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    holder.act("lock")
    guesser.page.locator(".reveal").wait_for()
    screens.look(guesser, "reveal")
    guesser.page.locator(".history-link a").click()
    guesser.page.locator(".recap-clover").wait_for()
    screens.look(guesser, "history")
    guesser.page.go_back()
    guesser.page.locator(".reveal").wait_for()
    for _ in range(2):
        players[0].act("next")
        state = players[0].state()["resolution"]
        holder = players[state["lock_holder"]]
        for s in kit.solution(players):
            holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
        holder.act("lock")
    players[0].act("next")
    guesser.page.locator(".finished").wait_for()
    # The end recaps every clover: its Spectator, its clues, its tries.
    recap = guesser.page.locator(".recap-clover")
    assert recap.count() == 3
    for p in players:
        clover = recap.filter(has_text=f"{p.name}'s clover")
        assert clover.count() == 1
        for clue in kit.clues_for(p.seat):
            assert clover.locator(".recap-clues dd", has_text=clue).count() == 1
        assert clover.locator(".recap-try").count() >= 1
    screens.look(guesser, "end")

    # Cy lets a new device take the seat: the old page says the seat moved.
    asked = http.post(f"{server.url}/api/rooms/{code}/claims", json={"seat": 2}).json()
    players[2].act("allow", claim=asked["claim"])
    mover = pages[2]
    mover.page.locator("h1", has_text="This seat moved to another device").wait_for()
    screens.look(mover, "seat-moved")

    assert screens.seen == [
        "home",
        "join",
        "seat-gone",
        "home-left",
        "lobby",
        "claim-waiting",
        "claim-request",
        "clues",
        "resolution",
        "resolution-spectator",
        "help",
        *(["chat"] if size == "phone" else []),
        "reveal",
        "history",
        "end",
        "seat-moved",
    ]
    assert not screens.problems, "\n".join(screens.problems)


@pytest.mark.parametrize("locale", ["en-US", "fr-FR", "zh-CN"])
def test_the_home_page_is_light(open_player: OpenPlayer, locale: str) -> None:
    """The first visit, cache empty: everything on the wire, as served (gzip), within
    budget, in each interface language."""
    visitor = open_player("Visitor", PHONE, locale=locale)
    finished: list[Any] = []
    visitor.page.on("requestfinished", lambda request: finished.append(request))
    visitor.goto("/")
    visitor.page.wait_for_load_state("networkidle")
    sizes = {}
    for request in finished:
        response = request.response()
        encoding = response.headers.get("content-encoding", "identity")
        # compressed: as on the wire; uncompressed (tiny files): the body itself
        body = (
            len(response.body()) if encoding == "identity" else request.sizes()["responseBodySize"]
        )
        assert body > 0, (request.url, request.sizes())
        sizes[request.url] = (body, encoding)
    report = "\n".join(f"{size:>7} {enc:>8} {url}" for url, (size, enc) in sizes.items())
    total = sum(size for size, _ in sizes.values())
    print(f"home page ({locale}): {total} bytes\n{report}")
    assert any(url.endswith("/table.css") for url in sizes), report
    assert any("htmx" in url for url in sizes), report
    for url, (size, encoding) in sizes.items():
        if url.endswith((".js", ".css", "/")) and size > 1000:
            assert encoding == "gzip", f"{url} is not compressed:\n{report}"
    assert total <= HOME_BUDGET, f"{total} bytes > {HOME_BUDGET}:\n{report}"
