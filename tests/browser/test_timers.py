"""The table's clock in real browsers: the same second on every screen, a pause seen
by all, and an enforced clock acting at zero while the pages watch."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .. import kit
from ..kit import Server, ThreadServer
from ..kit.players import clues_for
from .conftest import PHONE, OpenPlayer

STILL_JS = """() => new Promise(done => {
    let last = scrollY, still = 0;
    const frame = () => {
        still = scrollY === last ? still + 1 : 0;
        last = scrollY;
        if (still >= 3) done(scrollY); else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
})"""
"""Where the page comes to rest: its scroll, once three frames in a row leave it there."""

SKEW = 3600
"""The server's clock runs an hour ahead of the browsers': the pages must count by it."""


@pytest.fixture
def clock_file(tmp_path: Path) -> Path:
    path = tmp_path / "clock-offset"
    path.write_text(str(SKEW))
    return path


@pytest.fixture
def server(chromium_browser: Any, tmp_path: Path, clock_file: Path) -> Iterator[Server]:
    table = ThreadServer(
        tmp_path / "soclover.sqlite3", tmp_path / "server.log", SOCLOVER_CLOCK_FILE=str(clock_file)
    ).start()
    yield table
    table.stop()


def seconds_shown(page: Any) -> int:
    text = page.locator(".clock .clock-time").first.inner_text()
    match = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert match, text
    return int(match.group(1)) * 60 + int(match.group(2))


SHOWN_JS = """() => {
    const [m, s] = document.querySelector(".clock .clock-time").textContent.trim().split(":");
    return Number(m) * 60 + Number(s);
}"""


def ticked(page: Any, than: int) -> None:
    """Wait until the page's clock shows fewer seconds than ``than``: its next tick, at
    most a second away (a clock that stands still fails here)."""
    page.wait_for_function(f"() => ({SHOWN_JS})() < {than}", timeout=5_000)


def both_shown(pages: list[Any]) -> list[int]:
    """The clock of each page, read in one go by each page's own script."""
    return [seconds_shown(page) for page in pages]


def shown_alike(pages: list[Any]) -> list[int]:
    """The clock of each page, read one after the other: they agree to the second, give
    or take the seconds the reading itself took (on a loaded machine, more than one)."""
    start = time.monotonic()
    shown = both_shown(pages)
    slack = 1 + math.ceil(time.monotonic() - start)
    assert max(shown) - min(shown) <= slack, (shown, slack)
    return shown


def test_every_screen_counts_down_to_the_same_second(
    server: Server, open_player: OpenPlayer, clock_file: Path
) -> None:
    players = kit.table(server.url, 3)
    host = players[0]
    host.act("timer", phase="clues", mode="enforced", minutes=5)
    host.act("timer", phase="rebuild", mode="enforced", minutes=2)
    host.act("start")
    pages = [open_player(p.name, size=PHONE, token=p.token, code=p.code).page for p in players[:2]]
    for page in pages:
        page.goto(f"{server.url}/r/{host.code}")
        page.locator(".clock .clock-time").wait_for()
    # Both pages show the server's time left, an hour of skew notwithstanding, second
    # after second: each read as the first page's clock ticks (which it must).
    for _ in range(3):
        shown = shown_alike(pages)
        assert 4 * 60 <= shown[0] <= 5 * 60, shown
        ticked(pages[0], shown[0])

    # The host pauses: every screen holds the same time, marked paused.
    pages[0].get_by_role("button", name="Pause the clock").click()
    for page in pages:
        page.locator(".clock.paused").wait_for()
    held = both_shown(pages)
    # Nothing shows a clock standing still but time: a running one would have ticked.
    pages[1].wait_for_timeout(1500)
    assert both_shown(pages) == held and abs(held[0] - held[1]) <= 1
    pages[1].get_by_text("Ada paused the clock.").wait_for()
    pages[0].get_by_role("button", name="Start the clock again").click()
    for page in pages:
        page.locator(".clock:not(.paused)").wait_for()

    # Everyone writes; at zero of the try, the board is checked as it stands.
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        p.act("done")
    for page in pages:
        page.locator(".resolve .clock").wait_for()
    shown_alike(pages)
    clock_file.write_text(str(SKEW + 2 * 60 + 2))
    for page in pages:
        page.get_by_text(re.compile("Time is up: the board was checked as it stood")).wait_for()
    assert players[1].state()["resolution"]["attempt"] == 2


def test_a_pause_and_a_resume_leave_the_page_where_it_was(
    server: Server, open_player: OpenPlayer
) -> None:
    """The host starts the game, the page brings their clover into view, and they tap
    pause and then play: the stage is drawn again each time, and the page does not
    move under their thumb."""
    players = kit.table(server.url, 3)
    host = players[0]
    host.act("timer", phase="clues", mode="enforced", minutes=5)
    page = open_player(host.name, size=PHONE, token=host.token, code=host.code).page
    page.goto(f"{server.url}/r/{host.code}")
    page.get_by_role("button", name="Start the game").click()
    page.locator(".clock .clock-time").wait_for()

    # The page's smooth scroll to the clover began with the stage that showed the clock:
    # it has ended once a few frames in a row leave the page where it is.
    at = page.evaluate(STILL_JS)
    for button, shown in (
        ("Pause the clock", ".clock.paused"),
        ("Start the clock again", ".clock:not(.paused)"),
    ):
        page.get_by_role("button", name=button).click()
        page.locator(shown).wait_for()
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        assert page.evaluate("() => scrollY") == at, button


def test_a_page_slow_to_load_counts_by_the_server(server: Server, open_player: OpenPlayer) -> None:
    """A busy phone may take seconds over the page's script after the page itself came:
    those seconds are not added to its clock, which shows the server's time left."""
    players = kit.table(server.url, 3)
    host = players[0]
    host.act("timer", phase="clues", mode="enforced", minutes=5)
    host.act("start")
    player = open_player(host.name, size=PHONE, token=host.token, code=host.code)

    def held_back(route: Any) -> None:
        # The point of the test: the page's script comes four seconds late, and
        # nothing but time makes it late.
        time.sleep(4)
        route.continue_()

    player.page.route("**/static/table.js", held_back)
    player.page.goto(f"{server.url}/r/{host.code}")
    player.page.locator(".clock .clock-time").wait_for()
    ends_ms: int = host.state()["clock"]["ends_ms"]

    def left_on_server() -> int:
        return math.ceil((ends_ms - (time.time() + SKEW) * 1000) / 1000)

    for _ in range(3):
        before = left_on_server()
        shown = seconds_shown(player.page)
        after = left_on_server()
        assert after - 1 <= shown <= before + 1, (before, shown, after)
        ticked(player.page, shown)


def test_the_clock_fits_a_phone_and_reads_well(server: Server, open_player: OpenPlayer) -> None:
    """The host's lobby with the clock settings, and the rebuild with the clock and its
    pause button: accessible, big targets, and the whole try still on one screen."""
    from .test_phone import IN_VIEW_JS
    from .test_screens import Screens

    players = kit.table(server.url, 4, decoys=4)
    host = players[0]
    screens = Screens("phone")
    page = open_player(host.name, PHONE, token=host.token, code=host.code, bypass_csp=True)
    page.goto(f"/r/{host.code}")
    page.page.locator("#lobby-settings summary").click()  # the settings, folded on a phone
    page.page.select_option("#timer-clues", "enforced")
    page.page.locator("#timer-clues option[value=enforced][selected]").wait_for(state="attached")
    page.page.select_option("#timer-rebuild", "advisory")
    page.page.locator("#timer-rebuild option[value=advisory][selected]").wait_for(state="attached")
    assert host.state()["timers"]["clues"]["mode"] == "enforced"
    screens.look(page, "clock-lobby")
    host.act("start")
    for p in players:
        p.act("clues", clues=clues_for(p.seat))
        p.act("done")
    if host.state()["resolution"]["spectator"] == host.seat:
        # The host's own clover comes first: the table rebuilds it, and the next is theirs.
        holder = players[host.state()["resolution"]["lock_holder"]]
        for slot in kit.solution(players):
            holder.act("place", card=slot["card"], spot=slot["spot"], rotation=slot["rotation"])
        holder.act("lock")
        host.act("next")
    page.page.locator(".resolve .clock-button").wait_for()
    screens.look(page, "clock-resolution")
    assert screens.problems == [], "\n".join(screens.problems)
    # The board just under the header and the news line (where the clock is), as the page
    # scrolls to it.
    page.page.evaluate("() => document.querySelector('.board').scrollIntoView()")
    wanted = [
        ".board-head .clock",
        ".clock-button",
        ".board .spot",
        ".pool .card",
        ".decide button",
    ]
    assert page.page.evaluate(IN_VIEW_JS, wanted) == []
