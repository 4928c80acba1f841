"""Two people and a bot play a whole game in Chromium: the bot is seated from the
lobby, its moves appear live on every page, and a person's move is built on."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .. import kit
from ..kit import Server
from .conftest import PHONE, OpenPlayer, Player, axe_violations, describe_violations
from .test_play import board, button, place, same_board

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SHOOTING = os.environ.get("SOCLOVER_SCREENSHOTS") == "1"


@pytest.fixture
def server(chromium_browser: Any, tmp_path: Path) -> Iterator[Server]:
    """A table whose bots move at 10 times a person's pace: a card every half second or
    so, the first after 2 s unless a person lays one first (the person reaches for the
    last free spot, which the bot fills last).

    In a process of its own: the bots think in the server's process, and on a thread
    of the tests' they would hold up the browser's driver, which a busy machine makes
    miss the game's pace."""
    table = Server(
        tmp_path / "soclover.sqlite3", tmp_path / "server.log", SOCLOVER_BOT_PACE="0.1"
    ).start()
    yield table
    table.stop()


def test_two_people_and_a_bot_play_a_whole_game(open_player: OpenPlayer, server: Server) -> None:
    ada = open_player("Ada", PHONE, bypass_csp=True)  # axe is injected as a script
    ada.goto("/")
    ada.page.fill("#create-name", "Ada")
    button(ada, "Create a room").click()
    ada.page.locator(".lobby").wait_for()
    bea_seat = kit.join(server.url, ada.code, "Bea")
    bea = open_player("Bea", PHONE, token=bea_seat.token, code=bea_seat.code)
    bea.goto(f"/r/{bea_seat.code}")
    people = [ada, bea]

    # The host adds a bot: every page shows it, marked as a bot, with a Remove button for her.
    ada.page.get_by_role("button", name="Add a bot").click()
    for p in people:
        p.page.locator("#players .player .tag.bot").wait_for()
    bot_name = ada.state()["players"][2]["name"]
    assert ada.page.get_by_role("button", name=f"Remove {bot_name}").count() == 1
    assert bea.page.get_by_role("button", name="Add a bot").count() == 0
    assert not axe_violations(ada.page), describe_violations(axe_violations(ada.page))
    if SHOOTING:
        ada.page.screenshot(path=str(SCREENSHOTS / "bots-lobby-phone.png"))
    button(ada, "Start the game").click()

    for n, p in enumerate(people):
        p.page.locator("#clue-3").wait_for()
        for leaf in range(4):
            p.page.fill(f"#clue-{leaf}", f"Qz{n}{leaf}")
        button(p, "Done").click()
    for p in people:
        p.page.locator(".resolve").wait_for(timeout=30_000)

    built_on = False
    for _clover in range(3):
        spectator = ada.state()["resolution"]["spectator"]
        seats = {p.name: p.state()["you"]["seat"] for p in people}
        guessing = [p for p in people if seats[p.name] != spectator]
        watching = next((p for p in people if seats[p.name] == spectator), None)
        if watching is not None and not built_on:
            # A person lays a card on the last free spot at once; the bot, which fills the
            # first free spot first, fills the other spots around it, live on every page,
            # and leaves it there. (The bot may lay that very card first: then the person
            # picks again, or tries on the next clover.)
            laid = _lay_before_the_bot(guessing[0], watching)
            if laid is not None:
                card, spot = laid
                shown = kit.wait_for(
                    lambda w=watching: board(w),
                    lambda b: all(b["spots"]),
                    what="the bot filling the board around the person's card",
                    timeout=30,
                )
                assert shown["spots"][spot] == [card, 0]
                built_on = True
                if SHOOTING:
                    guessing[0].page.screenshot(path=str(SCREENSHOTS / "bots-resolution-phone.png"))
        _play_out(people, guessing, bot_watches=watching is None)
        same_board(people)
        last = ada.page.get_by_role("button", name="See the final score")
        (last if last.count() else button(ada, "Next clover")).click()
        # The click only sends the request: the next clover's Spectator is read once every
        # page has left the reveal (so the table has moved on), and shows what comes next.
        for p in people:
            p.page.locator(".resolve, .finished").first.wait_for()
    for p in people:
        p.page.locator(".finished").wait_for(timeout=30_000)
    assert built_on
    final = ada.state()
    assert final["phase"] == "finished" and len(final["results"]) == 3
    assert [p["bot"] for p in final["players"]] == [False, False, True]


def _lay_before_the_bot(person: Player, watching: Player) -> tuple[str, int] | None:
    """The person lays a card (a decoy while there is one in the pool: the bot cannot
    tell decoys apart) on the last free spot, through the page; None when the bot keeps
    getting there first.

    Each reach is short: a card the bot took as the person reached for it is not waited
    for, the person reads the board again and picks another while spots are free."""
    decoy = watching.state()["resolution"]["decoys"][0]
    tried: tuple[str, int] | None = None
    for _ in range(5):
        res = person.state()["resolution"]
        if tried is not None and {"spot": tried[1], "card": tried[0], "rotation": 0} in [
            {key: slot[key] for key in ("spot", "card", "rotation")} for slot in res["board"]
        ]:
            return tried  # laid, though the page was slow to show it
        free = [slot["spot"] for slot in res["board"] if slot["card"] is None]
        if len(free) < 2:
            return None
        pool = [card["card"] for card in res["pool"]]
        tried = (decoy if decoy in pool else pool[-1], max(free))
        person.page.set_default_timeout(1_500)
        try:
            place(person, *tried, 0)
            return tried
        except PlaywrightError:
            continue  # that card or spot was taken as the person reached for it
        finally:
            person.page.set_default_timeout(10_000)
    return None


def _lay_any(guessing: list[Player]) -> None:
    """Lay pool cards on the free spots, one person after the other, never a placement
    a check refused."""
    res = guessing[0].state()["resolution"]
    refused = {(r["spot"], r["card"], r["rotation"]) for r in res["rejected"]}
    free = [slot["spot"] for slot in res["board"] if slot["card"] is None]
    cards = [card["card"] for card in res["pool"]]
    for n, spot in enumerate(free):
        card = cards.pop(0)
        rotation = next(r for r in range(4) if (spot, card, r) not in refused)
        place(guessing[n % 2], card, spot, rotation)
        same_board(guessing)


def _play_out(people: list[Player], guessing: list[Player], bot_watches: bool) -> None:
    """The people guessing agree with each full board (each try) until the reveal; on
    the bot's own clover they lay the cards too (the bot, its Spectator, stays silent)."""
    # A guard against a game that stops, not a wait: on the bot's own tries it lets the
    # people lay first for a while, then lays one card at a time, twice on a wrong try,
    # which on a loaded machine took over a minute.
    deadline = time.monotonic() + 150
    while not all(p.page.locator(".reveal").count() for p in people):
        res = guessing[0].state()["resolution"]
        if bot_watches and not res["full"] and not res["checked"]:
            _lay_any(guessing)
        assert time.monotonic() < deadline, json.dumps(people[0].state()["resolution"])
        for p in guessing:
            agree = button(p, "Agree")
            with contextlib.suppress(PlaywrightError):
                if agree.count() and agree.is_enabled(timeout=500):
                    agree.click(timeout=1000)
        time.sleep(0.3)  # the loop's pace: each turn reads the table again (a poll)
