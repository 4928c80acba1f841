"""The first game that teaches itself: "Learn with two bots" from the home page, played
through on a phone (360 x 740) in English, French and Chinese.

Every step the newcomer acts on is waited for in the news line, read, and then
acted on as its words say; the table needs no scroll for a move, and the lesson's
words are 12 px or more. The moments the bots play alone (the newcomer's own
clover) pass at the bots' pace: their steps are held to the state by the rules'
tests (tests/rules/test_practice.py); here their outcome is read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app.rules.practice import DEALS, truth

from .. import kit
from .conftest import PHONE, OpenPlayer, Player, fitted
from .test_play import place

SHOTS = os.environ.get("SOCLOVER_LESSON_SHOTS")
"""A folder to keep a screenshot of each step in (to look at them), if set."""

NAMES = {"en": "Ada", "fr": "Amélie", "zh": "小明"}
LOCALES = {"en": "en-GB", "fr": "fr-FR", "zh": "zh-CN"}
OWN_CLUES = {
    "en": ("Art", "Chess", "Cook", "Colours"),
    "fr": ("Château", "Mer", "Insectes", "Flamme"),
    "zh": ("文具", "中秋", "洗漱", "蔬果"),
}


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    """The practice bots at a tenth of their pace: a card or an Agree in a quarter second."""
    return {"SOCLOVER_BOT_PACE": "0.1"}


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each language plays at a practice table of its own."""
    return shared_server


def step(player: Player, name: str) -> Any:
    """The news line's lesson showing step ``name``, waited for."""
    shown = player.page.locator(f'#lesson:not([hidden]) .step[data-step="{name}"]:not([hidden])')
    shown.wait_for()
    return shown


def shot(player: Player, lang: str, name: str) -> None:
    fitted(player.page)
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        player.page.screenshot(path=str(Path(SHOTS) / f"{lang}-{name}.png"))


def fits(player: Player, *selectors: str) -> None:
    """Each of ``selectors`` is on the screen as the page shows it, under the news line
    and its lesson: nothing to scroll for the move at hand."""
    lesson = player.page.locator("#lesson")
    band = lesson.bounding_box() if lesson.count() else None
    top = 0 if band is None else band["y"] + band["height"] - 1
    for selector in selectors:
        # A bot's move draws the stage again: an element measured as it is swapped out
        # has no box, so the one drawn in its place is measured instead.
        box = kit.wait_for(
            player.page.locator(selector).first.bounding_box, lambda b: b is not None, what=selector
        )
        assert box is not None
        assert box["y"] >= top, (selector, box, band)
        assert box["y"] + box["height"] <= PHONE["height"], (selector, box)


def smallest_text(player: Player, selector: str) -> float:
    return float(
        player.page.evaluate(
            """(selector) => Math.min(...[...document.querySelectorAll(selector)]
                .filter(e => e.offsetParent !== null && e.textContent.trim())
                .map(e => parseFloat(getComputedStyle(e).fontSize)))""",
            selector,
        )
    )


def rebuild(player: Player, lang: str, owner: int) -> None:
    """Lay the clover of ``owner`` right, card by card, turning each with the buttons."""
    where = truth(lang, owner)
    pool = player.state()["resolution"]["pool"]
    for card in pool:
        spot_rotation = where.get(tuple(card["words"]))
        if spot_rotation is not None:
            place(player, card["card"], *spot_rotation)


def until(player: Player, what: str, ok: Any) -> dict[str, Any]:
    """The seat's state once ``ok(state)`` holds."""
    return kit.wait_for(player.state, ok, what=what)  # type: ignore[no-any-return]


def press(player: Player, action: str) -> None:
    player.page.locator(f'form:has(input[name="type"][value="{action}"]) button').click()


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_a_newcomer_learns_the_game_with_two_bots(open_player: OpenPlayer, lang: str) -> None:
    deal = DEALS[lang]
    ada = open_player(NAMES[lang], PHONE, locale=LOCALES[lang])
    # The stage comes into view at once at a new clover (no smooth scroll to wait out).
    ada.page.emulate_media(reduced_motion="reduce")
    ada.goto("/")
    if SHOTS:
        ada.page.screenshot(path=str(Path(SHOTS) / f"{lang}-0-home.png"))
    fits(ada, "#learn-name ~ button")  # the lesson is offered on the home page's first screen
    ada.page.fill("#learn-name", NAMES[lang])
    ada.page.locator("#learn-name ~ button").click()

    # Writing: the clover and its leaves first, with the two example clues on purpose.
    step(ada, "clover")
    assert ada.page.input_value("#clue-0") == deal.refused
    assert ada.page.input_value("#clue-1") == deal.warned
    ada.page.locator("#check-0.bad").wait_for()
    ada.page.locator("#check-1.warn").wait_for()
    assert smallest_text(ada, "#lesson, #lesson *") >= 12
    shot(ada, lang, "1-clover")
    ada.page.locator("[data-lesson-skip]").click()  # each step can be skipped
    assert deal.refused in step(ada, "refused").inner_text()
    shot(ada, lang, "2-refused")
    mine = OWN_CLUES[lang]
    ada.page.fill("#clue-0", mine[0])
    ada.page.locator("#check-0:not(.bad)").wait_for()
    assert deal.warned in step(ada, "warned").inner_text()
    shot(ada, lang, "3-warned")
    ada.page.fill("#clue-2", mine[2])
    ada.page.fill("#clue-3", mine[3])
    ada.page.locator("[data-lesson-skip]").click()
    step(ada, "write")
    ada.page.locator('button[name="then"][value="done"]').click()

    # The first bot's clover: the Spectator's silence, placing and turning, agreeing.
    bot = ada.state()["players"][1]["name"]
    assert bot in step(ada, "spectator").inner_text()
    fitted(ada.page)
    fits(ada, ".board .spot-0", ".pool li:last-child", 'form:has(input[value="agree"]) button')
    shot(ada, lang, "4-spectator")
    rebuild(ada, lang, 1)
    step(ada, "agree")
    fits(ada, 'form:has(input[value="agree"]) button')
    shot(ada, lang, "5-agree")
    press(ada, "agree")
    step(ada, "reveal")
    shot(ada, lang, "6-reveal")
    press(ada, "next")
    until(ada, "the second clover", lambda s: s["resolution"]["spectator"] == 2)

    # The second bot's clover: the newcomer holds the tie-break, and locks it in.
    rebuild(ada, lang, 2)
    step(ada, "lock")
    fits(ada, 'form:has(input[value="lock"]) button')
    shot(ada, lang, "7-lock")
    press(ada, "lock")
    step(ada, "reveal")
    press(ada, "next")

    # The newcomer's own clover: the bots lay the decoy on purpose, the check sends it
    # back, and the second try finds the last card: 3 + 1 points.
    state = until(ada, "the third clover checked", lambda s: len(s["results"]) == 3)
    step(ada, "reveal")
    shot(ada, lang, "8-own-reveal")
    assert state["results"][-1] == {"spectator": 0, "attempts": 2, "score": 4}
    press(ada, "next")

    # The score, out of the Record of Legends; then the table opens to friends.
    assert "16" in step(ada, "score").inner_text()
    assert state["total"] == 16
    shot(ada, lang, "9-score")
    press(ada, "invite")
    ada.page.locator(".lobby #invite-url").wait_for()
    assert ada.page.locator("#lesson").is_hidden()
    after = ada.state()
    assert not after["practice"] and [p["name"] for p in after["players"]] == [NAMES[lang]]
    shot(ada, lang, "10-invite")
