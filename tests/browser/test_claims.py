"""A seat claimed from any device, in Chromium: the phone that held it is gone, a new
browser says "I am Bea", everyone else at the table allows it, and Bea plays on there
(her clover, dealt to the phone that is gone, is not played); and a seat link, which
shows whose seat it opens and takes it only at the tap of its button."""

from __future__ import annotations

from typing import Any

from .. import kit
from ..kit import http
from .conftest import PHONE


def _browser(chromium_browser: Any, server: kit.Server, seat: kit.Player | None, code: str) -> Any:
    context = chromium_browser.new_context(viewport=PHONE)
    context.set_default_timeout(10_000)
    if seat is not None:
        context.add_cookies([{"name": f"soclover_{code}", "value": seat.token, "url": server.url}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/r/{code}")
    return page, errors


def new_token(page: Any, code: str) -> str:
    """The seat token the new browser was given, from its own (HttpOnly) cookie."""
    return next(c["value"] for c in page.context.cookies() if c["name"] == f"soclover_{code}")


def test_a_seat_lost_with_its_browser_is_claimed_from_a_new_one(
    chromium_browser: Any, quick_server: kit.Server
) -> None:
    api = quick_server.url
    ada, bea, cy = kit.table(api, 3)
    code = ada.code
    host, host_errors = _browser(chromium_browser, quick_server, ada, code)
    old, _ = _browser(chromium_browser, quick_server, bea, code)
    cy_page, cy_errors = _browser(chromium_browser, quick_server, cy, code)
    ada.act("start")
    old.locator("#clue-0").wait_for()
    old.fill("#clue-0", "Qzdraft0")
    old.fill("#clue-1", "Qzdraft1")
    old.get_by_role("button", name="Save", exact=True).click()
    kit.wait_for(
        lambda: bea.state()["clover"]["leaves"][1]["clue"], bool, what="Bea's drafts saved"
    )
    old.context.close()  # the phone died
    kit.room_when(api, code, lambda s: not s["players"][1]["present"], what="Bea away")

    # A new browser, no cookie: the room offers the seats; "I am Bea" asks the table.
    new, new_errors = _browser(chromium_browser, quick_server, None, code)
    new.get_by_role("button", name="I am Bea").click()
    new.locator("#claim-status", has_text="Waiting for the table").wait_for()
    new.locator("#claim-waiting-for", has_text="Yet to answer: Ada, Cy.").wait_for()
    banner = host.locator(".claims .claim-card", has_text="asks to play as Bea")
    banner.wait_for()
    cy_banner = cy_page.locator(".claims .claim-card", has_text="asks to play as Bea")
    cy_banner.wait_for()
    # One allow is not enough: the card and the waiting page say whom it still waits for.
    banner.get_by_role("button", name="Allow").click()
    banner.locator("text=You allowed it.").wait_for()
    cy_banner.locator("text=Yet to answer: Cy.").wait_for()
    new.locator("#claim-waiting-for", has_text="Yet to answer: Cy.").wait_for()
    cy_banner.get_by_role("button", name="Allow").click()
    host.locator(".claims").wait_for(state="detached")

    # The new browser is in, without the clover dealt to the phone that is gone: its
    # clues were not done, so it is not played; the others finish theirs.
    new.locator("#clover-hidden", has_text="it is not played this game").wait_for()
    assert new.locator("#clue-0").count() == 0
    assert "Qzdraft0" not in new.content()
    for p in (ada, cy):
        p.act("clues", clues=kit.clues_for(p.seat))
        p.act("done")
    new.locator(".resolve").wait_for()
    # The game plays to its end, Bea's new browser following it.
    moved = kit.Player(api, code, new_token(new, code), 1, "Bea")
    players = [ada, moved, cy]
    state = ada.state()
    while state["phase"] == "resolution":
        res = state["resolution"]
        holder = players[res["lock_holder"]]
        for s in kit.solution(players):
            holder.act("place", card=s["card"], spot=s["spot"], rotation=s["rotation"])
        holder.act("lock")
        state = holder.act("next")
    new.locator(".finished").wait_for()
    assert state["total"] == 12  # two clovers played
    # The token of the browser that is gone opens nothing any more.
    r = http.post(
        f"{api}/api/rooms/{code}/actions",
        json={"type": "say", "text": "hello?"},
        headers={"Authorization": f"Bearer {bea.token}"},
    )
    assert r.status_code == 401
    assert host_errors == cy_errors == new_errors == []


def test_a_request_for_the_spectators_seat_reads_clearly_on_a_phone(
    chromium_browser: Any, quick_server: kit.Server, tmp_path: Any
) -> None:
    """The request card on a 360 px screen: which seat, its role, the kind of device,
    that it waits for the check; Refuse and no Allow; nothing wider than the screen."""
    api = quick_server.url
    players = kit.table(api, 3)
    code = players[0].code
    kit.start_and_write_clues(players)
    spectator = kit.spectator_of(players)
    guesser = next(p for p in players if p is not spectator)
    page, errors = _browser(chromium_browser, quick_server, guesser, code)
    page.locator(".resolve").wait_for()
    kit.room_when(api, code, lambda s: not s["players"][spectator.seat]["present"], what="away")
    phone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Mobile/15E148 Safari/604.1"
    asked = http.post(
        f"{api}/api/rooms/{code}/claims",
        json={"seat": spectator.seat},
        headers={"User-Agent": phone},
    )
    assert asked.status_code == 201, asked.text
    card = page.locator(".claims .claim-card")
    card.wait_for()
    text = card.inner_text()
    role = "the host, and the Spectator" if spectator.seat == 0 else "the Spectator"
    assert f"Someone on a phone asks to play as {spectator.name} ({role})." in text
    assert "only once their clover is checked" in text
    assert card.get_by_role("button", name="Refuse").is_visible()
    assert card.get_by_role("button", name="Allow").count() == 0
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(tmp_path / "claim-card-360.png"))
    card.get_by_role("button", name="Refuse").click()
    page.locator(".claims").wait_for(state="detached")
    assert errors == []


def test_a_seat_link_shows_whose_seat_it_opens_and_takes_it_at_a_tap(
    chromium_browser: Any, quick_server: kit.Server
) -> None:
    """ "Play on another device": the link opened in a browser that plays Cy's seat says
    it opens Bea's and that Cy's would be given up here; nothing changes until the tap."""
    api = quick_server.url
    ada, bea, cy = kit.table(api, 3)
    code = ada.code
    page, errors = _browser(chromium_browser, quick_server, cy, code)
    page.locator(".lobby").wait_for()
    page.goto(f"{api}/r/{code}/seat#{bea.token}")
    button = page.get_by_role("button", name="Play here as Bea")
    button.wait_for()
    assert bea.token not in page.url
    assert "This browser plays Cy's seat in this room now" in page.content()
    assert new_token(page, code) == cy.token  # nothing set yet
    button.click()
    page.locator(".lobby").wait_for()
    assert new_token(page, code) == bea.token
    assert page.url == f"{api}/r/{code}"
    assert errors == []
