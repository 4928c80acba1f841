"""A seat taken from another device: asked for, allowed or refused by the table."""

import pytest

from app.rules import actions as act
from app.rules import errors
from app.rules.codec import room_from_data, room_to_data
from app.rules.engine import apply
from app.rules.state import CLAIM_BAR_MS, CLAIM_MS, MAX_CLAIMS, MAX_CLAIMS_PER_ADDRESS
from app.rules.views import SEATED, audience, view

from .support import CLUES, DECK, lay, lobby, play_clover, resolving, started, truth

T = 1_796_000_000_000
"""A server time in epoch ms, as the service stamps it on every action."""


def present(room, *seats):
    return apply(room, None, act.Presence(frozenset(seats)))


def claim(room, seat, claim_id="k1", **stamped):
    return apply(room, None, act.Claim(seat, claim_id, "2026-12-01T10:00:00Z", **stamped))


def allow_by(room, claim_id, *seats, **stamped):
    """``claim_id`` allowed by each of ``seats`` in turn."""
    for seat in seats:
        room = apply(room, seat, act.Allow(claim_id, **stamped))
    return room


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
            "allowed_by": [],
            "waiting_for": [0, 2],
        }
    ]
    assert view(room, None)["claims"] == []


def test_an_away_players_seat_moves_once_every_other_player_at_the_table_allows():
    room = claim(present(started(4), 0, 2, 3), 1)
    assert view(room, 2)["can"]["allow"] == ["k1"]
    # Cy's allow alone hands nothing over: the request waits for Ada and Dot, and says so.
    room = apply(room, 2, act.Allow("k1"))
    assert room.players[1].device == "" and [c.id for c in room.claims] == ["k1"]
    shown = view(room, 0)["claims"][0]
    assert shown["allowed_by"] == [2] and shown["waiting_for"] == [0, 3]
    assert view(room, 2)["can"]["allow"] == [] and view(room, 2)["can"]["refuse"] == ["k1"]
    with pytest.raises(errors.AlreadyAllowed):
        apply(room, 2, act.Allow("k1"))
    room = apply(room, 0, act.Allow("k1"))
    assert room.players[1].device == ""
    room = apply(room, 3, act.Allow("k1"))
    assert room.players[1].device == "k1" and room.claims == ()
    with pytest.raises(errors.ClaimGone):
        apply(room, 0, act.Allow("k1"))


def test_one_refusal_ends_a_request_that_others_allowed():
    room = allow_by(claim(present(started(4), 0, 2, 3), 1), "k1", 2, 0)
    room = apply(room, 3, act.Refuse("k1"))
    assert room.claims == () and room.players[1].device == ""


def test_a_request_whose_last_awaited_player_goes_away_is_granted():
    room = allow_by(claim(present(started(4), 0, 2, 3), 1), "k1", 2, 0)
    assert view(room, 0)["claims"][0]["waiting_for"] == [3]
    # Dot goes away without answering: everyone still at the table has allowed it.
    room = present(room, 0, 2)
    assert room.players[1].device == "k1" and room.claims == ()
    # A request nobody at the table allowed yet waits, whoever goes.
    room = claim(present(started(4), 0, 2, 3), 1)
    assert [c.id for c in present(room, 0).claims] == ["k1"]


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


def test_the_host_may_choose_that_no_seat_moves_without_them():
    room = present(lobby(3), 0, 2)
    with pytest.raises(errors.NotHost):
        apply(room, 1, act.ClaimsBy("host"))
    with pytest.raises(errors.BadChoice):
        apply(room, 0, act.ClaimsBy("everyone"))
    room = claim(apply(room, 0, act.ClaimsBy("host")), 1)
    # With the host away, Cy's allow is not enough: the request waits for the host.
    room = apply(present(room, 2), 2, act.Allow("k1"))
    assert room.players[1].device == "" and view(room, 2)["claims"][0]["waiting_for"] == [0]
    assert apply(present(room, 0, 2), 0, act.Allow("k1")).players[1].device == "k1"


def test_a_claim_is_withdrawn_by_its_device_and_goes_with_a_seat_that_leaves():
    room = claim(lobby(3), 1)
    assert apply(room, None, act.Withdraw("k1")).claims == ()
    with pytest.raises(errors.ClaimGone):
        apply(room, None, act.Withdraw("nope"))
    assert apply(room, 1, act.Leave()).claims == ()


def test_claims_are_bounded_and_only_for_devices_without_a_seat():
    room = started(6)
    for n in range(MAX_CLAIMS):
        room = claim(room, n, f"k{n}")
    with pytest.raises(errors.SeatAskedFor):  # every seat is asked for already
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
    assert allow_by(room, "k1", *others).players[spectator].device == "k1"


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
    room = apply(room, 2, act.Allow("k1", mine="k9"))
    assert room.claims[0].allowed_by == {2}


def test_anyone_seated_refuses_whatever_claims_by_says():
    room = claim(apply(present(lobby(3), 0, 1, 2), 0, act.ClaimsBy("host")), 1)
    assert apply(room, 2, act.Refuse("k1")).claims == ()


def test_claims_run_out_after_five_minutes_of_the_room_clock():
    room = claim(present(started(3), 0, 2), 1, now=T)
    assert view(room, 0)["claims"][0]["expires"] == "2026-11-30T00:58:20.000Z"
    just_in_time = allow_by(room, "k1", 0, 2, now=T + CLAIM_MS - 1)
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
    room = started(6)
    for n in range(MAX_CLAIMS_PER_ADDRESS):
        room = claim(room, n, f"a{n}", address="here", now=T)
    with pytest.raises(errors.TooManyClaimsHere):
        claim(room, 2, "a9", address="here", now=T)
    # The same device asking again: its older request goes, the new one takes its place.
    again = claim(room, 2, "a9", address="here", replaces="a0", now=T)
    assert [c.id for c in again.claims] == ["a1", "a9"]
    # Other addresses fill the rest, up to the room's bound.
    for n in range(MAX_CLAIMS - MAX_CLAIMS_PER_ADDRESS):
        room = claim(room, n + 2, f"b{n}", address=f"there{n}", now=T)
    with pytest.raises(errors.SeatAskedFor):  # one request waits per seat: all six are
        claim(room, 0, "c", address="elsewhere", now=T)


def moved(room, seat=1, claim_id="k1"):
    """``seat`` played from another device, allowed while its player was away."""
    others = [s for s in range(len(room.players)) if s != seat]
    room = claim(present(room, *others), seat, claim_id)
    return allow_by(room, claim_id, *others)


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
    room = apply(present(lobby(6), 0, 2), 0, act.ClaimsBy("host"))
    room = present(moved(room), *range(6))
    for n in range(MAX_CLAIMS):
        room = claim(room, n, f"k{n + 2}", address=f"a{n}")
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


# --- strangers cannot block a request -------------------------------------------------------


def test_one_request_waits_per_seat():
    room = claim(started(3), 1, "k1", address="stranger", now=T)
    with pytest.raises(errors.SeatAskedFor):
        claim(room, 1, "k2", address="bea", now=T)
    # Another seat may be asked for; the same device asking again replaces its own.
    assert [c.id for c in claim(room, 2, "k2", address="bea", now=T).claims] == ["k1", "k2"]
    assert [c.id for c in claim(room, 1, "k3", replaces="k1", now=T).claims] == ["k3"]
    # Once the table refused it, the seat may be asked for again, from elsewhere.
    room = apply(present(room, 0, 2), 0, act.Refuse("k1", now=T))
    assert [c.id for c in claim(room, 1, "k2", address="bea", now=T).claims] == ["k2"]


def test_a_refused_address_may_not_ask_again_for_ten_minutes():
    room = claim(present(started(4), 0, 2), 1, "k1", address="stranger", now=T)
    room = apply(room, 0, act.Refuse("k1", now=T + 1000))
    for seat in (1, 3):  # nor for another seat
        with pytest.raises(errors.RefusedHere):
            claim(room, seat, "k2", address="stranger", now=T + 1000 + CLAIM_BAR_MS - 1)
    assert view(room, 0)["claims"] == [] and "stranger" not in str(view(room, 0))
    # Another address asks meanwhile; ten minutes on, the refused one may again.
    assert claim(room, 1, "k2", address="bea", now=T + 2000).claims[0].id == "k2"
    later = claim(room, 1, "k2", address="stranger", now=T + 1000 + CLAIM_BAR_MS)
    assert later.claims[0].id == "k2" and later.barred == ()
    # What the room keeps of it survives a restart.
    assert room_from_data(room_to_data(room)).barred == room.barred


def test_a_request_taken_back_or_run_out_bars_nothing():
    room = claim(present(started(3), 0, 2), 1, "k1", address="here", now=T)
    assert claim(apply(room, None, act.Withdraw("k1", now=T)), 1, "k2", address="here", now=T)
    expired = apply(room, None, act.Expire(now=T + CLAIM_MS))
    assert expired.barred == () and claim(expired, 1, "k2", address="here", now=T + CLAIM_MS)


def test_a_seat_asked_back_is_not_barred_by_a_refusal():
    room = present(moved(started(3)), 0, 1, 2)
    room = claim(room, 1, "back", back=True, address="home", now=T)
    room = apply(room, 2, act.Refuse("back", now=T))
    assert room.barred == ()
    assert claim(room, 1, "back2", back=True, address="home", now=T).claims[-1].back


# --- no device reads a clover it was not dealt before the table rebuilds it -----------------


def test_a_seat_taken_while_clues_are_written_does_not_show_its_clover():
    room = started(3)
    room = apply(room, 1, act.Clues(("Alpha", None, None, None), draft=True))
    assert view(room, 1)["clover"] is not None
    room = moved(room)  # Bea away; a second browser of Cy's asked for her seat, allowed
    seen = view(room, 1)
    assert seen["clover"] is None and seen["warnings"] == []
    assert seen["you"] == {"seat": 1, "host": False, "clover_hidden": True}
    assert audience(room, 1) == SEATED
    assert not seen["can"]["write"] and not seen["can"]["done"]
    with pytest.raises(errors.CloverElsewhere):
        apply(room, 1, act.Clues(CLUES))
    # Its clues were not done: it cannot be finished there, so it is not played.
    assert room.clovers[1].dropped and seen["players"][1]["not_played"]
    for seat in (0, 2):
        room = apply(apply(room, seat, act.Clues(CLUES)), seat, act.Done())
    assert room.phase == "resolution" and 1 not in room.turns()
    assert "Nq" not in str(view(room, 1)["resolution"]["clues"])


def test_a_clover_done_before_its_seat_moved_is_played_unseen_by_the_new_device():
    room = started(3)
    room = apply(apply(room, 1, act.Clues(CLUES)), 1, act.Done())
    room = moved(room)
    seen = view(room, 1)
    assert seen["clover"] is None and seen["you"]["clover_hidden"] is True
    with pytest.raises(errors.CloverElsewhere):
        apply(room, 1, act.Undone())
    assert not seen["can"]["undone"] and not room.clovers[1].dropped


def spectator_next(room):
    """The seat whose clover comes after the one being rebuilt."""
    turns = room.turns()
    return turns[turns.index(room.spectator()) + 1]


def test_a_seat_taken_before_its_clover_comes_up_reads_it_as_a_guesser_through_lock_and_next():
    room = resolving(3)
    bea = spectator_next(room)
    # Bea's seat moves during the clover before hers (it does not wait: not hers yet).
    room = present(room, *(s for s in range(3) if s != bea))
    room = moved(room, bea)
    assert room.players[bea].device == "k1"
    holder = room.lock_holder()
    assert holder is not None
    room = lay(room, holder, truth(room))
    room = apply(room, holder, act.Lock())  # the clover before hers is checked
    room = apply(room, holder, act.Next())  # hers comes up
    assert room.spectator() == bea
    seen = view(room, bea)
    assert seen["resolution"]["solution"] is None and seen["resolution"]["decoys"] is None
    assert audience(room, bea) == SEATED and seen["you"]["clover_hidden"] is True
    # Her new device learns the truth with the table, at the check.
    holder = room.lock_holder()
    assert holder is not None
    room = apply(lay(room, holder, truth(room)), holder, act.Lock())
    seen = view(room, bea)
    assert seen["resolution"]["checked"] and seen["resolution"]["solution"] is not None
    assert "clover_hidden" not in seen["you"]
    # Next game: the clovers are dealt to the device that plays the seat now.
    while room.phase == "resolution":
        holder = room.lock_holder()
        if not room.resolution.checked:
            room = apply(lay(room, holder, truth(room)), holder, act.Lock())
        room = apply(room, holder, act.Next())
    host = room.acting_host()
    room = apply(apply(room, host, act.Again()), host, act.Start(3), deck=DECK)
    assert view(room, bea)["clover"] is not None


def test_whoever_answers_only_the_device_a_clover_was_dealt_to_reads_it():
    # Bea, at the table, lets her own seat go to another device: that one does not read
    # the clover she was dealt either (moving it whole is "play on another device").
    room = claim(started(3), 1)
    room = apply(room, 1, act.Allow("k1"))
    assert view(room, 1)["clover"] is None and room.clovers[1].dropped
    # Taken, then asked back from the device it was dealt to: the clover shows there.
    room = apply(apply(started(3), 1, act.Clues(CLUES)), 1, act.Done())
    room = present(moved(room, claim_id="k1"), 0, 1, 2)
    room = apply(claim(room, 1, "back", back=True, was=""), 0, act.Allow("back"))
    assert room.players[1].device == "back" and not room.hides_own_clover(1)
    assert view(room, 1)["clover"] is not None
    # Asked back from a device it moved from after the deal: still hidden.
    room = apply(apply(started(3), 1, act.Clues(CLUES)), 1, act.Done())
    room = present(moved(moved(room, claim_id="k1"), claim_id="k2"), 0, 1, 2)
    assert room.players[1].moved_from == ("", "k1")
    room = apply(claim(room, 1, "back", back=True, was="k1"), 0, act.Allow("back"))
    assert room.hides_own_clover(1) and view(room, 1)["clover"] is None


def test_the_spectators_truth_stays_with_the_device_it_was_dealt_to():
    room = resolving(3)
    spectator = room.spectator()
    seen = view(room, spectator)
    assert seen["resolution"]["solution"] is not None and audience(room, spectator) == spectator
    # Dealt before devices were kept (an older room): whoever plays the seat.
    old = room_from_data(
        {
            **room_to_data(room),
            "clovers": [{**c, "device": None} for c in room_to_data(room)["clovers"]],
        }
    )
    assert not old.hides_own_clover(spectator)
    assert room_from_data(room_to_data(room)).clovers == room.clovers
