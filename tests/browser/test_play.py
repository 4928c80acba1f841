"""Whole games in real browsers: taps, live updates, reloads, a dropped network."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.rules.geometry import SPOT_NAMES

from .. import kit
from .conftest import DESKTOP, PHONE, OpenPlayer, Player, fitted


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


# --- reading and tapping the page -----------------------------------------------------------

BOARD_JS = """() => {
    const spots = [0, 1, 2, 3].map(s => {
        const c = document.querySelector(`.board .spot-${s} .card[data-card]`);
        return c ? [c.dataset.card, Number(c.dataset.rotation)] : null;
    });
    const pool = [...document.querySelectorAll(".pool .card[data-card]")]
        .map(c => c.dataset.card).sort();
    return {spots, pool};
}"""


def board(player: Player) -> dict[str, Any]:
    """The board and pool as this page shows them."""
    return player.page.evaluate(BOARD_JS)  # type: ignore[no-any-return]


def same_board(players: list[Player]) -> dict[str, Any]:
    """Wait until every page shows the same board; return it."""
    shown = kit.wait_for(
        lambda: [board(p) for p in players],
        lambda boards: all(b == boards[0] for b in boards),
        what=f"the same board on the pages of {[p.name for p in players]}",
    )
    return shown[0]


def card_on(player: Player, spot: int, card: str, rotation: int | None = None) -> Any:
    selector = f'.board .spot-{spot} .card[data-card="{card}"]'
    if rotation is not None:
        selector += f'[data-rotation="{rotation}"]'
    return player.page.locator(selector)


def place(player: Player, card: str, spot: int, rotation: int) -> None:
    """Tap a pool card, tap an empty spot, then turn it with the round buttons."""
    page = player.page
    page.locator(f'.pool .card[data-card="{card}"]').click()
    page.locator(f'.place[data-spot="{spot}"]').click()
    # The placed card stays chosen, so the toolbar acts on it.
    page.locator(f'.board .spot-{spot} .card.chosen[data-card="{card}"]').wait_for()
    current = 0
    while current != rotation:
        turns = -1 if (rotation - current) % 4 == 3 else 1
        page.locator(f'.toolbar [data-do="rotate"][data-turns="{turns}"]').click()
        current = (current + turns) % 4
        chosen = f'.board .spot-{spot} .card.chosen[data-card="{card}"][data-rotation="{current}"]'
        page.locator(chosen).wait_for()


def button(player: Player, name: str) -> Any:
    return player.page.get_by_role("button", name=name, exact=True)


def solution_of(players: list[Player]) -> tuple[Player, list[dict[str, Any]]]:
    """The Spectator's page and the truth, read with the Spectator's own cookie."""
    state = players[0].state()
    spectator = next(
        p for p in players if p.state()["you"]["seat"] == state["resolution"]["spectator"]
    )
    truth = spectator.state()["resolution"]["solution"]
    assert truth is not None
    return spectator, sorted(truth, key=lambda s: s["spot"])


# --- (a) a whole game from the home page ----------------------------------------------------


def test_three_players_play_a_whole_game_from_the_home_page(open_player: OpenPlayer) -> None:
    ada = open_player("Ada", DESKTOP)
    bea = open_player("Bea", PHONE)
    cy = open_player("Cy", PHONE)
    everyone = [ada, bea, cy]

    # Ada makes a room.
    ada.goto("/")
    ada.page.fill("#create-name", "Ada")
    ada.page.select_option("select[name=decoys]", "1")
    button(ada, "Create a room").click()
    ada.page.locator(".lobby").wait_for()
    code = ada.code
    invite = ada.page.input_value("#invite-url")
    assert invite == f"{ada.base}/r/{code}"

    # Bea types the code on the home page (lower case does as well).
    bea.goto("/")
    bea.page.fill("#join-code", code.lower())
    button(bea, "Join").click()
    bea.page.fill("#join-name", "Bea")
    button(bea, "Take a seat").click()
    bea.page.locator(".lobby").wait_for()

    # Cy opens the invite link.
    cy.page.goto(invite)
    cy.page.fill("#join-name", "Cy")
    button(cy, "Take a seat").click()
    cy.page.locator(".lobby").wait_for()
    for p in everyone:
        p.page.locator("#players .player").nth(2).wait_for()

    button(ada, "Start the game").click()
    for p in everyone:
        p.page.locator("#clue-3").wait_for()

    # Clues: a keyword is rejected as it is typed, and Done refuses it.
    for n, p in enumerate(everyone):
        pair = p.page.locator(".clue-field .pair-words").first.inner_text()
        keyword = pair.split(" + ")[0].strip()
        p.page.fill("#clue-0", keyword)
        check = p.page.locator("#check-0.bad")
        check.wait_for()
        assert keyword in check.inner_text()
        for leaf in (1, 2, 3):
            p.page.fill(f"#clue-{leaf}", f"Qz{n}{leaf}")
        if p is ada:
            ada.allow(r"status of 422")  # the refused form, as the browser logs it
            button(ada, "Done").click()
            flash = ada.page.locator("#flash .flash")
            flash.wait_for()
            assert keyword in flash.inner_text()
            assert ada.page.locator("#clue-0").count() == 1  # still writing
        p.page.fill("#clue-0", f"Qz{n}0")
        p.page.locator("#check-0:not(.bad)").wait_for()
        if p is bea:
            button(bea, "Save").click()
            bea.page.locator("#announce", has_text="Bea saved clues").wait_for()
        button(p, "Done").click()
        # the last one done sends the table straight on to the clovers
        done = p.page.get_by_role("heading", name="Your clues are in")
        done.or_(p.page.locator(".resolve")).wait_for()
    for p in everyone:
        p.page.locator(".resolve").wait_for()

    # Clover 1: perfect on the first try, everyone agrees.
    spectator, truth = solution_of(everyone)
    guessers = [p for p in everyone if p is not spectator]
    for i, s in enumerate(truth):
        place(guessers[i // 2], s["card"], s["spot"], s["rotation"])
    same_board(everyone)
    for p in guessers:
        button(p, "Agree").click()
    for p in everyone:
        p.page.locator(".reveal h1", has_text="6 points").wait_for()
    button(spectator, "Next clover").click()
    for p in everyone:
        p.page.locator(".resolve").wait_for()

    # Clover 2: one card turned wrong, so a second try; then fixed.
    spectator, truth = solution_of(everyone)
    guessers = [p for p in everyone if p is not spectator]
    wrong = truth[1]
    for i, s in enumerate(truth):
        rotation = (s["rotation"] + 1) % 4 if s is wrong else s["rotation"]
        place(guessers[i % 2], s["card"], s["spot"], rotation)
    same_board(everyone)
    for p in guessers:
        button(p, "Agree").click()
    for p in everyone:
        p.page.locator(".board-head .tag.last", has_text="Try 2 of 2").wait_for()
    after_first = guessers[0].state()["resolution"]
    words = next(c["words"] for c in after_first["pool"] if c["card"] == wrong["card"])
    (tried_rotation,) = [r["rotation"] for r in after_first["rejected"]]
    top_word = words[(0 - tried_rotation) % 4]  # the word the tried card showed on top
    for p in everyone:
        page = p.page
        locked = page.locator(".board .spot.locked")
        assert locked.count() == 3
        for s in truth:
            if s is wrong:
                continue
            spot = page.locator(f".board .spot-{s['spot']}.locked")
            # The padlock drawn by the page (no emoji font needed), whole on its card.
            icon = spot.locator(".lock svg.icon-lock").bounding_box()
            card = spot.locator(".card").bounding_box()
            assert icon and card and icon["width"] >= 10 and icon["height"] >= 10
            assert card["x"] <= icon["x"] and icon["x"] + icon["width"] <= card["x"] + card["width"]
            assert spot.locator(f'.card[data-card="{s["card"]}"]').is_disabled()
        tried = page.locator(".board-panel .tried")
        assert f"{top_word} on top, {SPOT_NAMES[wrong['spot']]} ✗" in tried.inner_text()
        assert page.locator(f".board .spot-{wrong['spot']} .place").count() == 1
        assert page.locator(f'.pool .card[data-card="{wrong["card"]}"]').count() == 1
    place(guessers[1], wrong["card"], wrong["spot"], wrong["rotation"])
    same_board(everyone)
    for p in guessers:
        button(p, "Agree").click()
    for p in everyone:
        p.page.locator(".reveal h1", has_text="4 points").wait_for()
    button(guessers[0], "Next clover").click()
    for p in everyone:
        p.page.locator(".resolve").wait_for()

    # Clover 3: the lock holder locks it in without waiting for agreement.
    spectator, truth = solution_of(everyone)
    guessers = [p for p in everyone if p is not spectator]
    holder_seat = ada.state()["resolution"]["lock_holder"]
    holder = next(p for p in guessers if p.state()["you"]["seat"] == holder_seat)
    other = next(p for p in guessers if p is not holder)
    for s in truth:
        place(other, s["card"], s["spot"], s["rotation"])
    same_board(everyone)
    assert button(other, "Lock in").count() == 0
    button(holder, "Lock in").click()
    for p in everyone:
        p.page.locator(".reveal h1", has_text="6 points").wait_for()
    button(holder, "See the final score").click()

    # The end: 6 + 4 + 6 of 18, and another game with the same players.
    for p in everyone:
        p.page.locator(".finished").wait_for()
        assert " ".join(p.page.locator(".finished h1").inner_text().split()) == "16 of 18"
        assert p.page.locator(".results tbody tr").count() == 3
    assert ada.state()["total"] == 16
    button(cy, "Play again").click()
    for p in everyone:
        p.page.locator(".lobby").wait_for()
        names = p.page.locator("#players .player .name").all_inner_texts()
        assert names == ["Ada", "Bea", "Cy"]
    assert button(ada, "Start the game").is_enabled()


# --- (b) a reload and a dropped network mid-resolution --------------------------------------


def seated(open_player: OpenPlayer, players: list[kit.Player]) -> list[Player]:
    """Browsers for seats made through the API, each at the room's page."""
    pages = []
    for p in players:
        browser = open_player(p.name, PHONE, token=p.token, code=p.code)
        browser.goto(f"/r/{p.code}")
        pages.append(browser)
    for browser in pages:
        browser.page.locator("#stage .resolve").wait_for()
    return pages


def test_a_reload_and_a_dropped_network_catch_up(open_player: OpenPlayer, server: Any) -> None:
    players = kit.table(server.url, 4)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    truth = sorted(kit.solution(players), key=lambda s: s["spot"])
    guessers = [p for p in players if p.seat != spectator.seat]
    x, y, z, watcher = seated(open_player, [*guessers, spectator])
    everyone = [x, y, z, watcher]

    # X places a card, reloads in the middle of it all, sees the same board, carries on.
    place(x, truth[0]["card"], 0, truth[0]["rotation"])
    before = same_board(everyone)
    x.page.reload()
    x.page.locator("#stage .resolve").wait_for()
    assert board(x) == before
    assert card_on(x, 0, truth[0]["card"], truth[0]["rotation"]).count() == 1
    place(x, truth[1]["card"], 1, truth[1]["rotation"])
    same_board(everyone)

    # Y's network drops; the others move cards; Y comes back and catches up.
    banner = y.page.locator("#reconnecting")
    assert banner.is_hidden()
    y.go_offline()
    banner.wait_for(state="visible")
    while_away = board(y)
    place(x, truth[2]["card"], 2, truth[2]["rotation"])
    place(z, truth[3]["card"], 3, (truth[3]["rotation"] + 1) % 4)
    z.page.locator('.toolbar [data-do="rotate"][data-turns="-1"]').click()
    card_on(z, 3, truth[3]["card"], truth[3]["rotation"]).wait_for()
    moved = same_board([x, z, watcher])
    assert moved != while_away
    assert board(y) == while_away, "the offline page should not have heard of the moves"
    y.context.set_offline(False)
    banner.wait_for(state="hidden")
    assert same_board(everyone) == moved

    # And Y plays on: the agreement reaches the others.
    button(y, "Agree").click()
    y.page.get_by_role("button", name="Agreed: tap to take it back").wait_for()
    x.page.locator("#players .player", has_text=y.name).locator(".tag.done").wait_for()


def test_a_page_says_it_is_live_once_its_stream_has_caught_up(
    open_player: OpenPlayer, server: Any
) -> None:
    """The stream's first update draws every region again: what a test reads of the page
    before it is gone after it, so the page says when it has come (``fitted`` waits)."""
    ada = kit.table(server.url, 3)[0]
    page = open_player(ada.name, PHONE, token=ada.token, code=ada.code).page
    held: list[Any] = []
    page.route("**/stream", lambda route: held.append(route))
    page.goto(f"{server.url}/r/{ada.code}")
    page.locator(".lobby").wait_for()
    page.locator("html[data-fitted]").wait_for(state="attached")
    assert page.locator("html[data-live]").count() == 0
    before = page.query_selector("#stage > *")
    assert before is not None
    for route in held:
        route.continue_()
    fitted(page)
    assert not before.evaluate("e => e.isConnected"), "the first update drew the stage again"
    page.locator(".lobby").wait_for()


# --- (c) the Spectator cannot move or chat ----------------------------------------------------


def test_the_spectator_can_neither_move_nor_chat(open_player: OpenPlayer, server: Any) -> None:
    players = kit.table(server.url, 3)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    watch, other = seated(open_player, [spectator, guesser])
    page = watch.page

    assert page.locator("#stage button").count() >= 5  # four empty spots and the pool
    assert page.locator("#stage button:enabled").count() == 0
    assert page.locator("#stage [data-do]").count() == 0
    assert button(watch, "Agree").count() == 0
    assert button(watch, "Lock in").count() == 0
    page.locator(".pool .card").first.click(force=True)  # a disabled button: nothing happens
    assert page.locator("#stage .chosen").count() == 0

    chat = page.locator("#chat-form input:not([type=hidden])")
    assert chat.is_disabled()
    assert chat.get_attribute("aria-describedby") == "chat-off"
    assert "Spectator" in (page.locator("#chat-off").text_content() or "")
    assert page.locator("#chat-form button").is_disabled()

    # The API refuses the Spectator's cookie too, even from its own page's origin.
    pool = spectator.state()["resolution"]["pool"]
    url = f"{server.url}/api/rooms/{spectator.code}/actions"
    for action in (
        {"type": "place", "card": pool[0]["card"], "spot": 0, "rotation": 0},
        {"type": "say", "text": "It goes top left!"},
    ):
        r = page.request.post(
            url,
            data=json.dumps(action),
            headers={"Origin": server.url, "Content-Type": "application/json"},
        )
        assert r.status == 403, (action, r.status, r.text())
        assert r.json()["error"]["code"].startswith("spectator"), r.text()
    assert other.page.locator(".board .card[data-card]").count() == 0
    assert spectator.state()["chat"] == []


# --- (d) what a guesser's browser receives before the check ----------------------------------


def test_a_guessers_page_holds_no_decoy_and_no_solution(
    open_player: OpenPlayer, server: Any
) -> None:
    players = kit.table(server.url, 3)
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    guesser = next(p for p in players if p.seat != spectator.seat)
    watch, seen = seated(open_player, [spectator, guesser])
    assert "Your solution" in watch.page.content()  # the marker is the right one

    def table(page: Any) -> str:
        """The table as the page holds it now (the help beside it explains decoys)."""
        return str(page.locator("#table").evaluate("el => el.outerHTML"))

    def hidden(html: str) -> None:
        assert "decoy" not in html.lower()
        assert "Your solution" not in html

    hidden(table(seen.page))

    # A wrong first try: attempt 2 still keeps the secret.
    truth = kit.solution(players)
    state = guesser.state()
    holder = players[state["resolution"]["lock_holder"]]
    for s in truth:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=(s["rotation"] + 1) % 4)
    holder.act("lock")
    seen.page.locator(".board-head .tag.last").wait_for()
    hidden(table(seen.page))

    # Once checked, the table sees the decoys.
    for s in truth:
        holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
    holder.act("lock")
    seen.page.locator(".reveal .card.decoy").first.wait_for()
