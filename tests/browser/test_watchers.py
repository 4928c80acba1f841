"""A watcher in Chromium, on a phone: they follow a whole game live and never see what
a guesser would not; they chat, marked as watching, until the host turns it off."""

from __future__ import annotations

from typing import Any

import pytest

from .. import kit
from .conftest import DESKTOP, PHONE, OpenPlayer, Player, axe_violations, describe_violations


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


SECRET_JS = """() => ({
    text: document.querySelector("#stage").innerText,
    decoys: document.querySelectorAll("#stage .decoy, #stage .decoy-mark").length,
    solution: document.querySelectorAll("#stage .solution-note").length,
    controls: document.querySelectorAll(
        "#stage .pool .card:not([disabled]), #stage .place:not([disabled]), "
        + "#stage .toolbar, #stage input[name^=clue], #stage button[type=submit]:not(.quiet)"
    ).length,
    toolbar: document.querySelectorAll(".toolbar").length,
})"""


def shown(watcher: Player) -> dict[str, Any]:
    return watcher.page.evaluate(SECRET_JS)  # type: ignore[no-any-return]


def test_a_watcher_follows_a_whole_game_and_never_sees_a_hidden_card(
    open_player: OpenPlayer,
) -> None:
    ada_page = open_player("Ada", DESKTOP)
    ada_page.goto("/")
    ada_page.page.fill("#create-name", "Ada")
    ada_page.page.get_by_role("button", name="Create a room", exact=True).click()
    ada_page.page.locator(".lobby").wait_for()
    code = ada_page.code
    base = ada_page.base
    ada = kit.Player(base, code, ada_page.token(), 0, "Ada")
    bea, cy = kit.join(base, code, "Bea"), kit.join(base, code, "Cy")

    # Gus opens the invite link on his phone and chooses to watch.
    gus = open_player("Gus", PHONE)
    gus.goto(f"/r/{code}")
    gus.page.fill("#join-name", "Gus")
    gus.page.get_by_role("button", name="Watch", exact=True).click()
    gus.page.locator("#watching-bar").wait_for()
    assert gus.page.get_by_role("button", name="Take a seat", exact=True).is_visible()
    assert gus.page.locator("#no-seat").count() == 0
    # The table sees him watching.
    ada_page.page.locator("#watchers", has_text="Gus").wait_for()
    assert "Watching 1:" in ada_page.page.locator("#watchers").inner_text()

    # He chats: his line is marked as a watcher's on every screen.
    gus.page.locator("#chat-open").click()
    gus.page.fill("#chat-form input[name=text]", "good luck!")
    gus.page.locator("#chat-form button[type=submit]").click()
    line = ada_page.page.locator("#chat-lines li.by-watcher", has_text="good luck!")
    line.wait_for()
    assert "watching" in line.inner_text()
    gus.page.locator("#chat-close").click()

    # The host turns the watchers' chat off: his form goes, saying why.
    ada_page.page.get_by_role("button", name="Turn the watchers' chat off").click()
    gus.page.locator("#chat-form", has_text="turned the watchers' chat off").wait_for(
        state="attached"
    )
    assert gus.page.locator("#chat-form input[name=text]").count() == 0

    # The game: the players play by the API, Gus follows on his phone.
    players = [ada, bea, cy]
    ada.act("start")
    gus.page.locator(".stage.phase-clues").wait_for()
    dealt = {p.seat: p.state()["clover"] for p in players}
    words = {w for clover in dealt.values() for card in clover["cards"] for w in card["words"]}
    seen = shown(gus)
    assert not any(w in seen["text"].split() for w in words)
    assert seen["controls"] == 0 and gus.page.locator("#clue-0").count() == 0
    assert gus.page.get_by_role("button", name="Take a seat", exact=True).count() == 0

    for p in players:
        p.act("clues", clues=kit.clues_for(p.seat))
        p.act("done")
    for turn in range(3):
        state = ada.state()
        res = state["resolution"]
        spectator = players[res["spectator"]]
        truth = spectator.state()["resolution"]["solution"]
        holder = players[res["lock_holder"]]
        gus.page.locator(".resolve").wait_for()
        # a card placed by a guesser reaches the watcher; nothing hidden does
        holder.act("place", card=truth[0]["card"], spot=truth[0]["spot"], rotation=0)
        gus.page.locator(f'.board .card[data-card="{truth[0]["card"]}"]').wait_for()
        seen = shown(gus)
        assert seen["decoys"] == 0 and seen["solution"] == 0, turn
        assert seen["controls"] == 0 and seen["toolbar"] == 0, turn
        later = [s for s in range(3) if s not in {r["spectator"] for r in state["results"]}]
        for seat in later:
            if seat != res["spectator"]:
                hidden = {w for card in dealt[seat]["cards"] for w in card["words"]}
                assert not any(w in seen["text"].split() for w in hidden), (turn, seat)
        holder.act("remove", spot=truth[0]["spot"])
        for p in truth:
            holder.act("place", card=p["card"], spot=p["spot"], rotation=p["rotation"])
        holder.act("lock")
        # the reveal: now the table, and the watcher, see the truth
        gus.page.locator("#stage .reveal").wait_for()
        if turn < 2:
            holder.act("next")
    ada.act("next")
    gus.page.locator(".stage.phase-finished").wait_for()
    assert "18" in gus.page.locator("#stage").inner_text()
    # Still watching, and no control to play again: that is the players' to do.
    assert gus.page.locator("#watching-bar").is_visible()
    assert gus.page.locator('#stage form input[value="again"]').count() == 0


def test_a_watcher_takes_a_free_seat_in_the_lobby(open_player: OpenPlayer) -> None:
    gus = open_player("Gus", PHONE)
    gus.goto("/")
    host = kit.create(gus.base, "Ada")
    kit.join(gus.base, host.code, "Bea")
    gus.goto(f"/r/{host.code}")
    gus.page.fill("#join-name", "Gus")
    gus.page.get_by_role("button", name="Watch", exact=True).click()
    gus.page.locator("#watching-bar").wait_for()
    gus.page.get_by_role("button", name="Take a seat", exact=True).click()
    # the page comes again as a player's: he sits in the third seat
    gus.page.locator("#watching-bar").wait_for(state="detached")
    gus.page.locator("#players .player", has_text="Gus").locator(".tag.you").wait_for()
    assert gus.state()["you"] == {"seat": 2, "host": False}
    # and the host may start: three at the table
    kit.wait_for(host.state, lambda s: s["can"]["start"], what="three seated")


def test_a_watcher_who_is_refused_a_name_is_told_why(open_player: OpenPlayer) -> None:
    gus = open_player("Gus", PHONE)
    gus.goto("/")
    host = kit.create(gus.base, "Ada")
    kit.join(gus.base, host.code, "Bea")
    kit.join(gus.base, host.code, "Cy")
    host.act("start")
    gus.goto(f"/r/{host.code}")
    gus.page.get_by_role("heading", name="Watch this game").wait_for()
    gus.allow("422")
    gus.page.fill("#watch-name", "bea")
    gus.page.get_by_role("button", name="Watch", exact=True).click()
    gus.page.locator(".error", has_text="already has that name").wait_for()
    assert gus.page.input_value("#watch-name") == "bea"
    gus.page.fill("#watch-name", "Gus")
    gus.page.get_by_role("button", name="Watch", exact=True).click()
    gus.page.locator("#watching-bar").wait_for()
    gus.page.locator(".stage.phase-clues").wait_for()


def test_the_watchers_pages_pass_axe_on_a_phone(open_player: OpenPlayer) -> None:
    gus = open_player("Gus", PHONE, bypass_csp=True)
    gus.goto("/")
    players = kit.table(gus.base, 3)
    host = players[0]
    gus.goto(f"/r/{host.code}")
    gus.page.locator("#join-name").wait_for()
    assert not (found := axe_violations(gus.page)), describe_violations(found)
    gus.page.fill("#join-name", "Gus")
    gus.page.get_by_role("button", name="Watch", exact=True).click()
    gus.page.locator("#watching-bar").wait_for()
    host.act("say", text="welcome, Gus")
    gus.page.locator("#chat-lines li", has_text="welcome").wait_for(state="attached")
    assert not (found := axe_violations(gus.page)), describe_violations(found)
    kit.start_and_write_clues(players)
    gus.page.locator(".resolve").wait_for()
    assert not (found := axe_violations(gus.page)), describe_violations(found)
