"""A seat taken from another device: asked for, allowed or refused by the table."""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply
from app.rules.state import MAX_CLAIMS
from app.rules.views import view

from .support import lobby, started


def present(room, *seats):
    return apply(room, None, act.Presence(frozenset(seats)))


def claim(room, seat, claim_id="k1"):
    return apply(room, None, act.Claim(seat, claim_id, "2026-12-01T10:00:00Z"))


def test_a_claim_waits_for_the_table_and_is_shown_to_the_seated_only():
    room = claim(present(started(3), 0, 2), 1)
    assert [(c.id, c.pid) for c in room.claims] == [("k1", 1)]
    assert view(room, 0)["claims"] == [
        {"id": "k1", "seat": 1, "name": "Bea", "at": "2026-12-01T10:00:00Z"}
    ]
    assert view(room, None)["claims"] == []


def test_anyone_seated_allows_a_claim_for_an_absent_player_and_the_seat_moves():
    room = claim(present(started(3), 0, 2), 1)
    assert view(room, 2)["can"]["allow"] == ["k1"]
    room = apply(room, 2, act.Allow("k1"))
    assert room.players[1].device == "k1" and room.claims == ()
    with pytest.raises(errors.ClaimGone):
        apply(room, 0, act.Allow("k1"))


def test_while_the_player_is_here_only_they_may_let_their_seat_go():
    room = claim(present(started(3), 0, 1, 2), 1)
    with pytest.raises(errors.OwnerHere):
        apply(room, 0, act.Allow("k1"))
    with pytest.raises(errors.OwnerHere):
        apply(room, 2, act.Refuse("k1"))
    assert view(room, 0)["can"]["allow"] == [] and view(room, 1)["can"]["allow"] == ["k1"]
    refused = apply(room, 1, act.Refuse("k1"))
    assert refused.claims == () and refused.players[1].device == ""


def test_the_host_may_keep_the_answer_for_themselves():
    room = present(lobby(3), 0, 2)
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.ClaimsBy("host"))
    with pytest.raises(errors.BadChoice):
        apply(room, 0, act.ClaimsBy("everyone"))
    room = claim(apply(room, 0, act.ClaimsBy("host")), 1)
    with pytest.raises(errors.NotHost):
        apply(room, 2, act.Allow("k1"))
    assert apply(room, 0, act.Allow("k1")).players[1].device == "k1"


def test_a_claim_is_withdrawn_by_its_device_and_goes_with_a_seat_that_leaves():
    room = claim(lobby(3), 1)
    assert apply(room, None, act.Withdraw("k1")).claims == ()
    with pytest.raises(errors.ClaimGone):
        apply(room, None, act.Withdraw("nope"))
    assert apply(room, 1, act.Leave()).claims == ()


def test_claims_are_bounded_and_only_for_devices_without_a_seat():
    room = started(3)
    for n in range(MAX_CLAIMS):
        room = claim(room, n % 3, f"k{n}")
    with pytest.raises(errors.TooManyClaims):
        claim(room, 0, "one-more")
    with pytest.raises(errors.NotAPlayer):
        apply(started(3), 0, act.Claim(1, "k", "t"))
    with pytest.raises(errors.BadSeat):
        claim(started(3), 5)
    with pytest.raises(errors.NotAPlayer):
        apply(started(3), None, act.Allow("k1"))
