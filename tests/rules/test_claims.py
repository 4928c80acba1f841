"""A seat taken from another device: asked for, allowed or refused by the table."""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.engine import apply
from app.rules.state import CLAIM_MS, MAX_CLAIMS, MAX_CLAIMS_PER_ADDRESS
from app.rules.views import view

from .support import lobby, play_clover, resolving, started

T = 1_796_000_000_000
"""A server time in epoch ms, as the service stamps it on every action."""


def present(room, *seats):
    return apply(room, None, act.Presence(frozenset(seats)))


def claim(room, seat, claim_id="k1", **stamped):
    return apply(room, None, act.Claim(seat, claim_id, "2026-12-01T10:00:00Z", **stamped))


def test_a_claim_waits_for_the_table_and_is_shown_to_the_seated_only():
    room = claim(present(started(3), 0, 2), 1)
    assert [(c.id, c.pid) for c in room.claims] == [("k1", 1)]
    assert view(room, 0)["claims"] == [
        {
            "id": "k1",
            "seat": 1,
            "name": "Bea",
            "at": "2026-12-01T10:00:00Z",
            "expires": None,
            "device": None,
            "host": False,
            "spectator": False,
            "back": False,
            "waits": False,
        }
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
    assert view(room, 0)["can"]["allow"] == [] and view(room, 1)["can"]["allow"] == ["k1"]
    # Anyone seated turns a request down, though: it may be junk.
    assert view(room, 2)["can"]["refuse"] == ["k1"]
    assert apply(room, 2, act.Refuse("k1")).claims == ()
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
    with pytest.raises(errors.AlreadySeated):
        apply(started(3), 0, act.Claim(1, "k", "t"))
    with pytest.raises(errors.BadSeat):
        claim(started(3), 5)
    with pytest.raises(errors.NotAPlayer):
        apply(started(3), None, act.Allow("k1"))


# --- claims that cannot be abused -------------------------------------------------------------


def test_the_spectators_seat_waits_for_their_check_then_may_move():
    room = resolving(3)
    spectator = room.spectator()
    guesser = (spectator + 1) % 3
    others = [s for s in range(3) if s != spectator]
    room = claim(present(room, *others), spectator, kind="phone", now=T)
    # Nobody may give the Spectator's seat away now: it would show the solution.
    for seat in others:
        with pytest.raises(errors.SpectatorSeatWaits):
            apply(room, seat, act.Allow("k1"))
        assert view(room, seat)["can"]["allow"] == []
        assert view(room, seat)["can"]["refuse"] == ["k1"]
    shown = view(room, guesser)["claims"][0]
    assert shown["spectator"] and shown["waits"] and shown["device"] == "phone"
    # The request stays; once the clover is checked, the seat may move.
    room = play_clover(room, 4)
    assert view(room, guesser)["claims"][0]["waits"] is False
    assert view(room, guesser)["can"]["allow"] == ["k1"]
    assert apply(room, guesser, act.Allow("k1")).players[spectator].device == "k1"


def test_the_spectator_themself_cannot_move_before_the_check():
    room = resolving(3)
    spectator = room.spectator()
    room = claim(room, spectator)
    with pytest.raises(errors.SpectatorSeatWaits):
        apply(room, spectator, act.Allow("k1"))


def test_nobody_answers_a_request_from_their_own_browser():
    room = claim(present(started(3), 0, 2), 1)
    with pytest.raises(errors.OwnRequest):
        apply(room, 2, act.Allow("k1", mine="k1"))
    with pytest.raises(errors.OwnRequest):
        apply(room, 2, act.Refuse("k1", mine="k1"))
    # A browser holding another request of its own is no bar.
    assert apply(room, 2, act.Allow("k1", mine="k9")).players[1].device == "k1"


def test_anyone_seated_refuses_whatever_claims_by_says():
    room = claim(apply(present(lobby(3), 0, 1, 2), 0, act.ClaimsBy("host")), 1)
    with pytest.raises(errors.NotHost):
        apply(present(room, 0, 2), 2, act.Allow("k1"))
    assert apply(room, 2, act.Refuse("k1")).claims == ()


def test_claims_run_out_after_five_minutes_of_the_room_clock():
    room = claim(present(started(3), 0, 2), 1, now=T)
    assert view(room, 0)["claims"][0]["expires"] == "2026-11-30T00:58:20.000Z"
    just_in_time = apply(room, 0, act.Allow("k1", now=T + CLAIM_MS - 1))
    assert just_in_time.players[1].device == "k1"
    with pytest.raises(errors.ClaimGone):
        apply(room, 0, act.Allow("k1", now=T + CLAIM_MS))
    # Any action drops what ran out; the server's sweep is one that does nothing else.
    assert apply(room, 0, act.Say("hi", "t", now=T + CLAIM_MS)).claims == ()
    assert apply(room, None, act.Expire(now=T + CLAIM_MS)).claims == ()
    assert apply(room, None, act.Expire(now=T + 1)).claims == room.claims
    with pytest.raises(errors.NotSystem):
        apply(room, 0, act.Expire(now=T))
    # An action with no time stamped (an old log) leaves claims be.
    assert apply(room, 0, act.Say("hi", "t")).claims == room.claims


def test_a_claim_saved_before_claims_ran_out_goes_at_the_next_action():
    room = claim(present(started(3), 0, 2), 1)  # asked == 0: no time kept
    assert apply(room, 0, act.Say("hi", "t", now=T)).claims == ()


def test_one_address_fills_two_slots_and_a_device_replaces_its_own_request():
    room = started(3)
    for n in range(MAX_CLAIMS_PER_ADDRESS):
        room = claim(room, n % 3, f"a{n}", address="here", now=T)
    with pytest.raises(errors.TooManyClaimsHere):
        claim(room, 2, "a9", address="here", now=T)
    # The same device asking again: its older request goes, the new one takes its place.
    again = claim(room, 2, "a9", address="here", replaces="a0", now=T)
    assert [c.id for c in again.claims] == ["a1", "a9"]
    # Other addresses fill the rest, up to the room's bound.
    for n in range(MAX_CLAIMS - MAX_CLAIMS_PER_ADDRESS):
        room = claim(room, n % 3, f"b{n}", address=f"there{n}", now=T)
    with pytest.raises(errors.TooManyClaims):
        claim(room, 0, "c", address="elsewhere", now=T)


def moved(room, seat=1):
    """``seat`` played from another device, allowed while its player was away."""
    room = claim(present(room, *(s for s in range(3) if s != seat)), seat, "k1")
    return apply(room, 0 if seat else 1, act.Allow("k1"))


def test_a_seat_that_moved_is_asked_back_and_its_holder_cannot_answer():
    room = present(moved(started(3)), 0, 1, 2)  # the new device is at the table
    room = claim(room, 1, "back", back=True, kind="computer")
    shown = view(room, 0)["claims"][0]
    assert shown["back"] and shown["device"] == "computer"
    # The holder neither allows nor refuses; anyone else seated may, holder present or not.
    with pytest.raises(errors.SeatHolder):
        apply(room, 1, act.Allow("back"))
    with pytest.raises(errors.SeatHolder):
        apply(room, 1, act.Refuse("back"))
    assert view(room, 1)["can"]["allow"] == view(room, 1)["can"]["refuse"] == []
    assert view(room, 2)["can"]["allow"] == ["back"]
    assert apply(room, 2, act.Allow("back")).players[1].device == "back"


def test_asking_back_ignores_who_the_host_chose_and_the_room_bound():
    room = apply(present(lobby(3), 0, 2), 0, act.ClaimsBy("host"))
    room = present(moved(room), 0, 1, 2)
    for n in range(MAX_CLAIMS):
        room = claim(room, n % 3, f"k{n + 2}", address=f"a{n}")
    room = claim(room, 1, "back", back=True)
    # One request back per seat: a second replaces the first.
    room = claim(room, 1, "back2", back=True)
    assert [c.id for c in room.claims if c.back] == ["back2"]
    assert apply(room, 2, act.Allow("back2")).players[1].device == "back2"


def test_only_a_device_the_seat_moved_from_asks_it_back():
    with pytest.raises(errors.Invalid):
        claim(started(3), 1, "back", back=True)
    room = moved(started(3))
    assert room.players[1].moved_from == ("",)
    with pytest.raises(errors.Invalid):  # a device that never played it
        claim(room, 1, "back", back=True, was="k7")
    with pytest.raises(errors.Invalid):  # the device playing it now
        claim(room, 1, "back", back=True, was="k1")
    assert claim(room, 1, "back", back=True, was="").claims[-1].back
