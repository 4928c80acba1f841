"""Claiming a seat from another device, over HTTP: the routes, every refusal a person
meets on the way, the pages and what the asking browser tells (its kind, its address).

Who may let a seat go, when, and what each token opens afterwards is the service's:
``tests/service/test_claims.py`` decides it on the store in memory."""

from __future__ import annotations

import json
from typing import Any

import httpx

from ..kit import (
    QUICK,
    Player,
    Stream,
    assert_error,
    clues_for,
    gone_quiet,
    http,
    present,
    public,
    spectator_of,
    start_and_write_clues,
    table,
    table_of,
)


def ask(api: str, code: str, seat: int) -> httpx.Response:
    return http.post(f"{api}/api/rooms/{code}/claims", json={"seat": seat})


def claimed(api: str, code: str, seat: int) -> dict[str, Any]:
    r = ask(api, code, seat)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    assert body["status"] == "pending" and body["seat"] == seat and body["token"]
    return body


def status(api: str, code: str, claim: dict[str, Any]) -> str:
    r = http.get(
        f"{api}/api/rooms/{code}/claims/{claim['claim']}",
        headers={"Authorization": f"Bearer {claim['token']}"},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["status"])


def as_device(api: str, code: str, token: str, seat: int, name: str) -> Player:
    return Player(api, code, token, seat, name)


def test_the_host_may_keep_the_answer_and_a_claim_may_be_withdrawn(api: str) -> None:
    players = table(api, 3)
    ada, bea, _ = players
    assert_error(bea.post("claims_by", who="host"), 403, code="not_host")
    assert_error(ada.post("claims_by", who="nobody"), 422, code="bad_choice")
    ada.act("claims_by", who="host")
    claim = claimed(api, ada.code, 2)  # in the lobby too
    r = http.delete(
        f"{api}/api/rooms/{ada.code}/claims/{claim['claim']}",
        headers={"Authorization": "Bearer not-the-token"},
    )
    assert_error(r, 404, code="claim_not_found")
    r = http.delete(
        f"{api}/api/rooms/{ada.code}/claims/{claim['claim']}",
        headers={"Authorization": f"Bearer {claim['token']}"},
    )
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    assert ada.state()["claims"] == []
    assert status(api, ada.code, claim) == "refused"
    assert_error(ask(api, ada.code, 9), 422, code="bad_seat")
    assert_error(ask(api, "ZZZZZZ", 0), 404, code="room_not_found")


def test_claims_are_limited_per_address(api: str) -> None:
    players = table(api, 3)
    answers = [ask(api, players[0].code, n % 3).status_code for n in range(20)]
    assert answers.count(201) <= 10
    assert 429 in answers
    # The room holds six at most, whoever asks.
    assert len(players[0].state()["claims"]) <= 6


# --- claims that cannot be abused -----------------------------------------------------------

PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
COMPUTER = (
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Safari/537.36"
)


def ask_from(
    api: str, code: str, seat: int, agent: str = PHONE, token: str | None = None, **headers: str
) -> httpx.Response:
    """A request for ``seat`` from a device: its browser's User-Agent, the token it holds if
    any, and more headers (``X_Forwarded_For``: the address it asks from)."""
    sent = {"User-Agent": agent, **{k.replace("_", "-"): v for k, v in headers.items()}}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return http.post(f"{api}/api/rooms/{code}/claims", json={"seat": seat}, headers=sent)


def claim_cookie(code: str, claim: dict[str, Any]) -> dict[str, str]:
    """The cookie a browser keeps of the request it made."""
    return {"Cookie": f"soclover_claim_{code}={claim['claim']}.{claim['token']}"}


def page_of(player: Player) -> str:
    """The room page as the player's own browser reads it (their seat cookie)."""
    cookie = {"Cookie": f"soclover_{player.code}={player.token}"}
    r = http.get(f"{player.base}/r/{player.code}", headers=cookie)
    assert r.status_code == 200, r.text
    return r.text


def settle(by_seat: dict[int, Player]) -> None:
    """The lock holder lays pool cards on the empty spots and locks in, until the clover
    is checked (no seat needs to read the solution for it)."""
    state = next(iter(by_seat.values())).state()
    while not state["resolution"]["checked"]:
        res = state["resolution"]
        holder = by_seat[res["lock_holder"]]
        pool = [c["card"] for c in res["pool"]]
        for spot in [s["spot"] for s in res["board"] if s["card"] is None]:
            holder.act("place", card=pool.pop(0), spot=spot, rotation=0)
        state = holder.act("lock")


def test_a_present_players_seat_is_theirs_to_let_go(api: str) -> None:
    """The refusals of an answer, and the request as the table reads it: who asks from
    what kind of device, for whose seat."""
    ada, bea, cy = table(api, 3)
    ada.act("start")
    # One address holds two of the room's requests at most.
    here = "203.0.113.77"
    for seat in (1, 2):
        assert ask_from(api, ada.code, seat, X_Forwarded_For=here).status_code == 201
    third = ask_from(api, ada.code, 0, X_Forwarded_For=here)
    assert_error(third, 409, code="too_many_claims_here")
    asked = ask_from(api, ada.code, 0, agent=COMPUTER, X_Forwarded_For="198.51.100.77")
    assert asked.status_code == 201, asked.text
    claim = asked.json()
    before = table_of(api, ada.code)
    assert_error(bea.post("allow", claim=claim["claim"]), 403, code="owner_here")
    assert_error(bea.post("allow", claim="nope"), 409, code="claim_gone")
    assert_error(bea.post("allow", claim="x" * 40), 422)
    assert table_of(api, ada.code) == before
    shown = next(c for c in bea.state()["claims"] if c["id"] == claim["claim"])
    assert shown["host"] and shown["device"] == "computer" and not shown["spectator"]
    assert "Someone on a computer asks to play as Ada (the host)." in page_of(cy)
    # Turned down, its token opens nothing.
    ada.act("refuse", claim=claim["claim"])
    assert status(api, ada.code, claim) == "refused"
    new = as_device(api, ada.code, claim["token"], 0, "Ada")
    assert_error(new.post("say", text="hi"), 401, code="not_seated")


def test_a_guesser_cannot_take_the_spectators_seat_from_a_second_device(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    """The takeover: a guesser opens the room on a second device, asks for the seat of a
    Spectator who is away, and taps Allow on their first. The seat waits for the check,
    the guesser's own browser may not answer, and nothing of the request leaks."""
    api = make_server(**QUICK).url
    players = table(api, 3)
    code = players[0].code
    start_and_write_clues(players)
    spectator = spectator_of(players)
    guesser, other = [p for p in players if p is not spectator]
    with present([guesser, other]):
        gone_quiet(spectator)
        # A browser with a seat here asks for no other.
        refused = ask_from(api, code, spectator.seat, token=guesser.token)
        assert_error(refused, 409, code="already_seated")
        asked = ask_from(api, code, spectator.seat)
        assert asked.status_code == 201, asked.text
        claim = asked.json()
        # The answer to the asking says it waits, as reading the request does below.
        assert claim["status"] == "pending" and claim["waits"] is True
        # Nobody gives the Spectator's seat away before their clover is checked.
        for seated in (guesser, other):
            assert_error(
                seated.post("allow", claim=claim["claim"]), 409, code="spectator_seat_waits"
            )
            assert seated.state()["can"]["allow"] == []
        # The guesser's own browser, holding the request's cookie, may not answer it at all.
        own = guesser.http.post(
            f"{api}/api/rooms/{code}/actions",
            json={"type": "allow", "claim": claim["claim"]},
            headers={**guesser.headers, **claim_cookie(code, claim)},
        )
        assert_error(own, 403, code="own_request")
        # The claimant reads that it waits, and the second device sees no solution.
        r = http.get(
            f"{api}/api/rooms/{code}/claims/{claim['claim']}",
            headers={"Authorization": f"Bearer {claim['token']}"},
        )
        assert r.json()["status"] == "pending" and r.json()["waits"] is True
        waiting = http.get(f"{api}/r/{code}/claim", headers=claim_cookie(code, claim)).text
        assert "is the Spectator now" in waiting and "Your request waits until then" in waiting
        second = http.get(
            f"{api}/api/rooms/{code}", headers={"Authorization": f"Bearer {claim['token']}"}
        ).json()
        assert second["you"] is None and second["resolution"]["solution"] is None
        # The table reads which seat, its role and the kind of device; never a token or
        # the address it came from.
        state = guesser.state()
        shown = state["claims"][0]
        assert (shown["seat"], shown["spectator"], shown["waits"], shown["device"]) == (
            spectator.seat,
            True,
            True,
            "phone",
        )
        text = json.dumps(state)
        assert claim["token"] not in text and "127.0.0.1" not in text and "address" not in text
        page = page_of(other)
        role = "the host, and the Spectator" if shown["host"] else "the Spectator"
        assert f"Someone on a phone asks to play as {spectator.name} ({role})." in page
        assert "their seat moves to another device only once their clover is checked" in page
        assert 'value="allow"' not in page and 'value="refuse"' in page
        # Once the clover is checked its truth is the table's, and the seat may move: but
        # never on the say of the browser that asked.
        settle({p.seat: p for p in (guesser, other)})
        own = guesser.http.post(
            f"{api}/api/rooms/{code}/actions",
            json={"type": "allow", "claim": claim["claim"]},
            headers={**guesser.headers, **claim_cookie(code, claim)},
        )
        assert_error(own, 403, code="own_request")
        assert other.state()["can"]["allow"] == [claim["claim"]]


def test_a_player_whose_seat_moved_asks_for_it_back_past_its_holder(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    """The device a seat was taken from asks for it back: everyone at the table may let it
    in (whatever ``claims_by`` says) but the device holding the seat now."""
    api = make_server(**QUICK).url
    ada, bea, cy = table(api, 3)
    code = ada.code
    ada.act("claims_by", who="host")
    with present([ada, cy]):
        ada.act("start")
        gone_quiet(bea)
        news = Stream(f"{api}/r/{code}/stream", {"Cookie": f"soclover_{code}={cy.token}"})
        try:
            taken = ask_from(api, code, 1).json()
            cy.act("allow", claim=taken["claim"])
            ada.act("allow", claim=taken["claim"])  # the host among them, as she chose
            said = news.next()
            while "now plays from another device" not in said.data:
                said = news.next()
            assert "Bea now plays from another device (a phone), let in by Ada." in said.data
        finally:
            news.close()
        holder = Player(api, code, taken["token"], 1, "Bea")
        refused = bea.post("say", text="me?")
        assert_error(refused, 401, code="not_seated")
        assert "moved to another device" in refused.json()["error"]["message"]
        # The new device plays the seat, but not the clover dealt to the old one.
        assert_error(holder.post("clues", clues=clues_for(1)), 403, code="clover_elsewhere")
        # Bea's device, whose token the seat moved from, asks for it back.
        asked = ask_from(api, code, 1, agent=COMPUTER, token=bea.token)
        assert asked.status_code == 201, asked.text
        back = asked.json()
        with present([holder]):
            shown = ada.state()["claims"][0]
            assert shown["back"] and shown["device"] == "computer"
            can = holder.state()["can"]
            assert back["claim"] not in can["allow"] + can["refuse"]
            assert_error(holder.post("allow", claim=back["claim"]), 403, code="seat_holder")
            assert_error(holder.post("refuse", claim=back["claim"]), 403, code="seat_holder")
            assert "Bea asks for their seat back" in page_of(cy)
            # Cy lets it in: not the host, and the seat's holder is at the table.
            cy.act("allow", claim=back["claim"])
        assert status(api, code, back) == "allowed"
        assert_error(holder.post("say", text="mine now?"), 401, code="not_seated")
        assert Player(api, code, back["token"], 1, "Bea").state()["you"]["seat"] == 1


# --- a seat changes hands only when the table knowingly allows it ---------------------------


def test_one_players_allow_hands_over_no_other_players_seat(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    """Bea is away; a second browser of Cy's asks for her seat and Cy allows it from his
    own: the seat stays, the request waits for Ada, and both pages say so. Ada refuses:
    the request is over, and its address may not come straight back."""
    api = make_server(**QUICK).url
    ada, bea, cy = table(api, 3)
    code = ada.code
    ada.act("start")
    with present([ada, cy]):
        gone_quiet(bea)
        second_browser = ask_from(api, code, 1, X_Forwarded_For="203.0.113.9").json()
        assert second_browser["waiting_for"] == [0, 2]
        cy.act("allow", claim=second_browser["claim"])
        assert public(api, code)["players"][1]["present"] is False
        assert status(api, code, second_browser) == "pending"
        not_yet = Player(api, code, second_browser["token"], 1, "Bea").post("say", text="hi")
        assert_error(not_yet, 401, code="not_seated")
        waiting = http.get(f"{api}/r/{code}/claim", headers=claim_cookie(code, second_browser))
        assert "Yet to answer: Ada." in waiting.text
        shown = ada.state()["claims"][0]
        assert shown["allowed_by"] == [2] and shown["waiting_for"] == [0]
        page = page_of(cy)
        assert "You allowed it." in page and "Yet to answer: Ada." in page
        assert 'value="allow"' not in page  # once is all Cy may
        assert_error(cy.post("allow", claim=second_browser["claim"]), 409, code="already_allowed")
        ada.act("refuse", claim=second_browser["claim"])
        assert status(api, code, second_browser) == "refused"
        again = ask_from(api, code, 1, X_Forwarded_For="203.0.113.9")
        assert_error(again, 403, code="refused_here")
        # Nor may anyone else ask for a seat while a request for it waits.
        first = ask_from(api, code, 1, X_Forwarded_For="198.51.100.4")
        assert first.status_code == 201, first.text
        assert_error(
            ask_from(api, code, 1, X_Forwarded_For="192.0.2.8"), 409, code="seat_asked_for"
        )


def test_two_addresses_cannot_spend_a_rooms_request_budget(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    """Twenty tries from two addresses spend only their share of the room's budget: a
    real claimant from a third address still asks."""
    api = make_server(**QUICK).url
    ada = table(api, 3)[0]
    code = ada.code
    ada.act("start")
    answers = [
        ask_from(api, code, 1 + n % 2, X_Forwarded_For=f"203.0.113.{n % 2}").status_code
        for n in range(24)
    ]
    assert answers.count(429) >= 14  # past each address's share: the room's untouched
    real = ask_from(api, code, 0, X_Forwarded_For="198.51.100.4")
    assert real.status_code == 201, real.text
