"""Whole games in French and in Chinese, on phones whose browsers speak that language.

Every screen of the game is read as its players see it, and must hold none of the
interface's English (the English catalog's phrases whose translation differs); each
screen is also taken as a picture at 360 x 740 (kept in docs/screenshots/ with
``SOCLOVER_SCREENSHOTS=1``).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.web.i18n import translate

from ..kit import ROOT
from ..kit.catalogs import english_left
from .conftest import PHONE, OpenPlayer, Player, fitted
from .test_play import place, same_board, solution_of

SCREENSHOTS = os.environ.get("SOCLOVER_SCREENSHOTS") == "1"
SHOTS = ROOT / "docs" / "screenshots"

LOCALES = {"fr": "fr-FR", "zh": "zh-CN"}
CLUES = ["Qzor", "Vlimp", "Grobu", "Fnak"]
"""Clues no deck holds, so the checker accepts them in either language without a warning."""


def say(lang: str, english: str) -> str:
    return translate(lang, english)


def no_english(player: Player, lang: str, screen: str, tmp: Path) -> None:
    """The screen as its player sees it holds no English of the interface; its picture."""
    page = player.page
    fitted(page)  # long words fitted to their cards
    text = page.locator("body").inner_text()
    labels = page.evaluate(
        """() => [...document.querySelectorAll('[aria-label],[title],[placeholder],[alt]')]
            .flatMap(e => ['aria-label', 'title', 'placeholder', 'alt']
                .map(a => e.getAttribute(a)).filter(Boolean)).join('\\n')"""
    )
    left = english_left(text + "\n" + labels, lang)
    assert not left, f"{lang} {screen}: English left on the screen of {player.name}: {left}"
    assert page.evaluate("document.documentElement.lang").startswith(lang)
    target = (SHOTS if SCREENSHOTS else tmp) / f"{lang}-{screen}-phone.png"
    page.screenshot(path=target, full_page=False)


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_a_whole_game_in_the_tables_own_language(
    open_player: OpenPlayer, lang: str, tmp_path: Path
) -> None:
    ada = open_player("Ada", PHONE, locale=LOCALES[lang])
    bea = open_player("Bea", PHONE, locale=LOCALES[lang])
    cy = open_player("Cy", PHONE, locale=LOCALES[lang])
    everyone = [ada, bea, cy]

    def button(player: Player, english: str) -> object:
        return player.page.get_by_role("button", name=say(lang, english), exact=True)

    ada.goto("/")
    no_english(ada, lang, "home", tmp_path)
    ada.page.fill("#create-name", "Ada")
    ada.page.select_option("select[name=decoys]", "1")
    # The room's language is the creator's interface language unless chosen otherwise.
    assert ada.page.input_value("select[name=language]") == lang
    button(ada, "Create a room").click()
    ada.page.locator(".lobby").wait_for()
    invite = ada.page.input_value("#invite-url")
    for p in (bea, cy):
        p.page.goto(invite)
        if p is bea:
            no_english(bea, lang, "join", tmp_path)
        p.page.fill("#join-name", p.name)
        button(p, "Take a seat").click()
        p.page.locator(".lobby").wait_for()
    for p in everyone:
        p.page.locator("#players .player").nth(2).wait_for()
    no_english(ada, lang, "lobby", tmp_path)
    no_english(bea, lang, "lobby-guest", tmp_path)
    bea.page.locator("#help-open").click()
    bea.page.locator("#help[open]").wait_for()
    no_english(bea, lang, "help", tmp_path)
    bea.page.keyboard.press("Escape")
    bea.page.locator("#chat-open").click()
    bea.page.locator("#chat-box.open").wait_for()
    no_english(bea, lang, "chat", tmp_path)
    bea.page.keyboard.press("Escape")
    assert ada.state()["language"] == lang

    button(ada, "Start the game").click()
    for p in everyone:
        p.page.locator("#clue-3").wait_for()
    no_english(bea, lang, "clues", tmp_path)
    for p in everyone:
        for leaf, clue in enumerate(CLUES):
            p.page.fill(f"#clue-{leaf}", clue + p.name)
        p.page.locator("#check-3:not(.bad)").wait_for()
        button(p, "Done").click()
        if p is ada:
            heading = p.page.get_by_role("heading", name=say(lang, "Your clues are in"))
            heading.wait_for()
            no_english(ada, lang, "clues-done", tmp_path)
    for p in everyone:
        p.page.locator(".resolve").wait_for()

    for clover in range(3):
        spectator, truth = solution_of(everyone)
        guessers = [p for p in everyone if p is not spectator]
        for i, s in enumerate(truth):
            place(guessers[i % 2], s["card"], s["spot"], s["rotation"])
        same_board(everyone)
        if clover == 0:
            no_english(guessers[0], lang, "resolution", tmp_path)
            no_english(spectator, lang, "resolution-spectator", tmp_path)
        for p in guessers:
            button(p, "Agree").click()
        for p in everyone:
            p.page.locator(".reveal").wait_for()
        if clover == 0:
            no_english(guessers[1], lang, "reveal", tmp_path)
        last = clover == 2
        button(spectator, "See the final score" if last else "Next clover").click()
        if not last:
            for p in everyone:
                p.page.locator(".resolve").wait_for()

    for p in everyone:
        p.page.locator(".finished").wait_for()
    assert ada.state()["total"] == 18
    no_english(cy, lang, "end", tmp_path)
    ada.goto(f"/r/{ada.code}/history")
    no_english(ada, lang, "history", tmp_path)
