"""Refusals and goodbyes in a real browser, as a new player meets them."""

from __future__ import annotations

import pytest

from .. import kit
from .conftest import PHONE, OpenPlayer


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


def test_done_with_an_empty_leaf_keeps_the_draft_and_says_why(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    players = kit.table(server.url, 3)
    players[0].act("start")
    bea = open_player("Bea", PHONE, token=players[1].token, code=players[1].code)
    bea.allow(r"status of 409")  # the refused Done, as the browser logs it
    bea.goto(f"/r/{players[1].code}")
    for leaf, clue in ((0, "Qzone"), (1, "Qztwo"), (2, "Qzthree")):
        bea.page.fill(f"#clue-{leaf}", clue)
    bea.page.get_by_role("button", name="Done", exact=True).click()
    # The draft is saved (the stage is drawn again from it) and the refusal is shown
    # all the same: the flash area was the form's target before the form was replaced.
    flash = bea.page.locator("#flash .flash")
    flash.wait_for()
    assert flash.inner_text() == "Write a clue on all four leaves first."
    kit.wait_for(
        lambda: players[1].state()["clover"]["leaves"][2]["clue"],
        lambda clue: clue == "Qzthree",
        what="Bea's draft of leaf 2 saved",
    )
    assert bea.page.input_value("#clue-2") == "Qzthree"
    assert bea.page.locator("#clue-3").count() == 1  # still writing


def test_a_refusal_goes_with_a_tap_or_when_the_table_moves_on(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    players = kit.table(server.url, 3)
    players[0].act("start")
    bea = open_player("Bea", PHONE, token=players[1].token, code=players[1].code)
    bea.allow(r"status of 409")  # the refused Done, as the browser logs it
    bea.goto(f"/r/{players[1].code}")
    done = bea.page.get_by_role("button", name="Done", exact=True)
    flash = bea.page.locator("#flash .flash")
    done.click()
    flash.wait_for()
    flash.click()  # read, put away
    flash.wait_for(state="detached")
    done.click()
    flash.wait_for()
    # Everyone's clues come in: the clovers are on, and the refusal of a Done that no
    # longer applies does not float over the first one.
    for p in players:
        p.act("clues", clues=kit.clues_for(p.seat))
        p.act("done")
    bea.page.locator("#stage.phase-resolution").wait_for()
    flash.wait_for(state="detached")
    assert bea.problems() == []


def test_leaving_ends_on_the_home_page_and_the_table_reads_who_left(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    base = server.url
    host = kit.create(base, "Ada")
    guest = kit.join(base, host.code, "Bea")
    ada = open_player("Ada", PHONE, token=host.token, code=host.code)
    bea = open_player("Bea", PHONE, token=guest.token, code=guest.code)
    ada.goto(f"/r/{host.code}")
    bea.goto(f"/r/{host.code}")
    ada.page.locator("#players .player").nth(1).wait_for()
    bea.page.get_by_role("button", name="Leave the room", exact=True).click()
    bea.page.wait_for_url(f"{base}/?left={host.code}")
    assert f"You left room {host.code}." in bea.page.locator(".notice").inner_text()
    assert not any(c["name"] == f"soclover_{host.code}" for c in bea.context.cookies(base))
    ada.page.locator("#announce", has_text="Bea left the table.").wait_for()
    assert ada.page.locator("#players .player").count() == 1
