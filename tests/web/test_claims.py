"""Claiming a seat from another device, over HTTP: asked, allowed or refused by the
table, the old device's token retired, everything the seat may see on the new one."""

from __future__ import annotations

from typing import Any

import httpx

from ..kit import (
    QUICK,
    Player,
    Stream,
    assert_error,
    clues_for,
    gone_quiet,
    present,
    table,
    table_of,
)


def ask(api: str, code: str, seat: int) -> httpx.Response:
    return httpx.post(f"{api}/api/rooms/{code}/claims", json={"seat": seat})


def claimed(api: str, code: str, seat: int) -> dict[str, Any]:
    r = ask(api, code, seat)
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    assert body["status"] == "pending" and body["seat"] == seat and body["token"]
    return body


def status(api: str, code: str, claim: dict[str, Any]) -> str:
    r = httpx.get(
        f"{api}/api/rooms/{code}/claims/{claim['claim']}",
        headers={"Authorization": f"Bearer {claim['token']}"},
    )
    assert r.status_code == 200, r.text
    return str(r.json()["status"])


def as_device(api: str, code: str, token: str, seat: int, name: str) -> Player:
    return Player(api, code, token, seat, name)


def test_a_lost_seat_is_claimed_from_a_new_device_and_the_game_goes_on_there(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    api = make_server(**QUICK).url
    players = table(api, 3)
    ada, bea, cy = players
    with present([ada, cy]):
        ada.act("start")
        bea.act("clues", clues=[*clues_for(1)[:2], None, None])  # typed, then the phone died
        old = Stream(f"{api}/api/rooms/{bea.code}/events", dict(bea.headers))
        old.next()
        old.close()
        gone_quiet(bea)
        claim = claimed(api, ada.code, 1)
        # Every seated player sees the request; a device without a seat does not.
        assert [c["name"] for c in ada.state()["claims"]] == ["Bea"]
        assert httpx.get(f"{api}/api/rooms/{ada.code}").json()["claims"] == []
        assert ada.state()["can"]["allow"] == [claim["claim"]]
        assert status(api, ada.code, claim) == "pending"
        # Not a seat yet.
        new = as_device(api, ada.code, claim["token"], 1, "Bea")
        assert_error(new.post("done"), 401, code="not_seated")
        cy.act("allow", claim=claim["claim"])
        assert status(api, ada.code, claim) == "allowed"
        # The old token is retired, and says why; the new one sees the drafts.
        refused = bea.post("clues", clues=clues_for(1))
        assert_error(refused, 401, code="not_seated")
        assert "moved to another device" in refused.json()["error"]["message"]
        state = new.state()
        assert state["you"]["seat"] == 1
        assert [leaf["clue"] for leaf in state["clover"]["leaves"]] == [
            *clues_for(1)[:2],
            None,
            None,
        ]
        new.act("clues", clues=clues_for(1))
        for p in (ada, new, cy):
            if p is not new:
                p.act("clues", clues=clues_for(p.seat))
            p.act("done")
        assert new.state()["phase"] == "resolution"


def test_a_present_players_seat_moves_only_with_their_own_allow(
    make_server,  # type: ignore[no-untyped-def]
) -> None:
    api = make_server(**QUICK).url
    players = table(api, 3)
    ada, bea, cy = players
    with present(players) as here:
        ada.act("start")
        claim = claimed(api, ada.code, 1)
        before = table_of(api, ada.code)
        assert_error(ada.post("allow", claim=claim["claim"]), 403, code="owner_here")
        assert_error(cy.post("refuse", claim=claim["claim"]), 403, code="owner_here")
        assert_error(ada.post("allow", claim="nope"), 409, code="claim_gone")
        assert_error(ada.post("allow", claim="x" * 40), 422)
        assert table_of(api, ada.code) == before
        # Bea refuses: nothing changes, the claimant learns it, its token opens nothing.
        bea.act("refuse", claim=claim["claim"])
        assert status(api, ada.code, claim) == "refused"
        assert bea.state()["claims"] == [] and bea.state()["you"]["seat"] == 1
        new = as_device(api, ada.code, claim["token"], 1, "Bea")
        assert_error(new.post("say", text="hi"), 401, code="not_seated")
        # Asked again, Bea herself lets it go.
        again = claimed(api, ada.code, 1)
        bea.act("allow", claim=again["claim"])
        assert status(api, ada.code, again) == "allowed"
        # The old device's stream says the seat moved, and ends.
        event = here[1].next()
        while event.event != "moved":
            event = here[1].next()
        assert as_device(api, ada.code, again["token"], 1, "Bea").state()["you"]["seat"] == 1
        assert_error(bea.post("say", text="still me?"), 401, code="not_seated")


def test_the_host_may_keep_the_answer_and_a_claim_may_be_withdrawn(api: str) -> None:
    players = table(api, 3)
    ada, bea, _ = players
    assert_error(bea.post("claims_by", who="host"), 403, code="not_host")
    assert_error(ada.post("claims_by", who="nobody"), 422, code="bad_choice")
    ada.act("claims_by", who="host")
    claim = claimed(api, ada.code, 2)  # in the lobby too
    r = httpx.delete(
        f"{api}/api/rooms/{ada.code}/claims/{claim['claim']}",
        headers={"Authorization": "Bearer not-the-token"},
    )
    assert_error(r, 404, code="claim_not_found")
    r = httpx.delete(
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
