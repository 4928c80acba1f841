"""Seat requests from a second device, decided by the service: who may let a seat go,
when, and what the old and new devices' tokens open afterwards.

Driven through ``RoomService`` on the store in memory, on a clock the test moves
(``tests/web/test_claims.py`` keeps the routes, every refusal on them and the pages).
"""

from __future__ import annotations

import pytest

from app.rules import actions as act
from app.rules import errors
from app.service import housekeeping
from app.service.claims import ClaimState
from app.service.errors import ClaimNotFound, RoomNotFound
from app.service.following import Moved, Update
from app.service.seats import Seat
from tests.service.support import (
    HandClock,
    clues_for,
    memory_service,
    quiet,
    run_async,
    table,
    write_clues,
)


def test_a_lost_seat_moves_to_the_device_the_whole_table_lets_in() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        typed = (*clues_for(1)[:2], None, None)
        await service.act(t.code, t.seat(1), act.Clues(typed, draft=True))  # then her phone died
        await quiet(t, clock, 1)

        claim = await service.claims.claim(t.code, 1, kind="phone")
        assert claim.state == ClaimState("pending", 1, waiting_for=(0, 2))
        assert await service.claims.state(t.code, claim.claim, claim.token) == claim.state
        assert await service.seat_for(t.code, claim.token) is None  # no seat before it is let in
        # Every seated player sees the request; the room read without a seat does not.
        assert [c["name"] for c in (await service.view(t.code, 0))["claims"]] == ["Bea"]
        assert (await service.view(t.code, None))["claims"] == []
        assert (await service.view(t.code, 0))["can"]["allow"] == [claim.claim]

        # Bea is away: Cy's allow is one of two; the claimant reads whose it still waits for.
        await service.act(t.code, t.seat(2), act.Allow(claim.claim))
        state = await service.claims.state(t.code, claim.claim, claim.token)
        assert (state.status, state.waiting_for) == ("pending", (0,))
        assert await service.seat_for(t.code, claim.token) is None
        shown = (await service.view(t.code, 0))["claims"][0]
        assert shown["allowed_by"] == [2] and shown["waiting_for"] == [0]
        assert not (await service.view(t.code, None))["players"][1]["present"]
        # Once is all Cy may; the seat waits for Ada.
        assert claim.claim not in (await service.view(t.code, 2))["can"]["allow"]
        with pytest.raises(errors.AlreadyAllowed):
            await service.act(t.code, t.seat(2), act.Allow(claim.claim))
        await service.act(t.code, t.seat(0), act.Allow(claim.claim))
        assert (await service.claims.state(t.code, claim.claim, claim.token)).status == "allowed"
        # The old device's token opens nothing now, and says why; the new one is the seat.
        old = t.seated[1].token
        assert await service.seat_for(t.code, old) is None
        assert await service.seat_moved(t.code, old)
        moved = await service.seat_for(t.code, claim.token)
        assert moved == Seat(t.code, 1, claim.claim)
        # The new device plays the seat, but not the clover dealt to the old one: it does
        # not read it, and as its clues were not done, it is not played.
        view = await service.view(t.code, moved.pid)
        assert view["you"]["seat"] == 1 and view["clover"] is None
        assert view["players"][1]["not_played"]
        assert "Qz10" not in str(view)  # nothing the old device typed
        with pytest.raises(errors.CloverElsewhere):
            await service.act(t.code, moved, act.Clues(clues_for(1)))
        # The game goes on without that clover once the others are done.
        for seat in (0, 2):
            await service.act(t.code, t.seat(seat), act.Clues(clues_for(seat)))
            await service.act(t.code, t.seat(seat), act.Done())
        assert (await service.view(t.code, moved.pid))["phase"] == "resolution"

    run_async(scenario())


def test_a_second_browser_of_a_player_reads_no_clover_of_the_seat_it_takes() -> None:
    """Cy, at the table, asks for Bea's seat (Bea is away) from a second browser, and
    allows it from his own seat: the seat waits for Ada. Allowed just before Bea's clover
    comes up, the new device locks the clover before and moves on (it holds the lock:
    Bea sits to that Spectator's left), and reads Bea's clover as a guesser does: in the
    answers to its actions and in its stream, until the check."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await write_clues(t)
        room = await service.load(t.code)
        turns = room.turns()
        bea = turns[1]  # the seat whose clover comes second
        ada, cy = [s for s in range(3) if s != bea]
        assert room.lock_holder() == bea  # to the left of the first Spectator
        await quiet(t, clock, bea)

        claim = await service.claims.claim(t.code, bea, held=[None])
        await service.act(t.code, t.seat(cy), act.Allow(claim.claim))
        assert (await service.load(t.code)).players[bea].device == ""
        assert await service.seat_for(t.code, claim.token) is None
        await service.act(t.code, t.seat(ada), act.Allow(claim.claim))
        moved = await service.seat_for(t.code, claim.token)
        assert moved is not None
        service.touch(t.code, moved.pid)
        await housekeeping.sweep_presence(service)

        stream = service.follow(t.code, moved)
        await anext(stream)
        room = await service.load(t.code)
        assert room.lock_holder() == bea  # back at the table, from the new device
        actor = moved
        clover = room.current_clover()
        assert clover is not None
        for spot, card in enumerate(clover.cards):
            await service.act(t.code, actor, act.Place(card.id, spot, clover.rotations[spot]))
        locked = await service.act(t.code, actor, act.Lock())
        assert (await locked.view())["resolution"]["checked"]
        answer = await service.act(t.code, actor, act.Next())
        room = await service.load(t.code)
        assert room.spectator() == bea
        for seen in [await service.view(t.code, moved.pid), await answer.view()]:
            assert seen["you"]["seat"] == bea
            res = seen["resolution"]
            assert res["spectator"] == bea and res["solution"] is None and res["decoys"] is None
            assert seen["you"]["clover_hidden"] is True
        told = None
        while True:
            item = await anext(stream)
            if isinstance(item, Update) and (await item.view())["resolution"]["spectator"] == bea:
                told = await item.view()
                break
        assert told["resolution"]["solution"] is None and told["resolution"]["decoys"] is None
        assert (await service.view(t.code, None))["resolution"]["solution"] is None
        await stream.aclose()

    run_async(scenario())


def test_a_present_players_seat_moves_only_with_their_own_allow() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        claim = await service.claims.claim(t.code, 1)
        before = await service.load(t.code)
        with pytest.raises(errors.OwnerHere):
            await service.act(t.code, t.seat(0), act.Allow(claim.claim))
        with pytest.raises(errors.ClaimGone):
            await service.act(t.code, t.seat(0), act.Allow("nope"))
        assert await service.load(t.code) == before  # a refusal changes nothing

        bea = service.follow(t.code, t.seat(1))
        await anext(bea)  # the room as it is
        # Bea turns it down: the claimant learns it, its token opens nothing.
        await service.act(t.code, t.seat(1), act.Refuse(claim.claim))
        assert (await service.claims.state(t.code, claim.claim, claim.token)).status == "refused"
        assert (await service.load(t.code)).claims == ()
        assert await service.seat_for(t.code, claim.token) is None
        assert await service.seat_for(t.code, t.seated[1].token) == t.seat(1)  # still hers
        assert (await service.view(t.code, 1))["you"]["seat"] == 1
        # Asked again, Bea herself lets it go; her old device's stream is told, and ends.
        again = await service.claims.claim(t.code, 1)
        await service.act(t.code, t.seat(1), act.Allow(again.claim))
        assert await service.seat_for(t.code, again.token) == Seat(t.code, 1, again.claim)
        assert await service.seat_for(t.code, t.seated[1].token) is None
        told = [item async for item in bea]
        assert isinstance(told[-1], Moved)

    run_async(scenario())


def test_the_spectators_seat_waits_for_their_clover_to_be_checked() -> None:
    """The takeover: a guesser asks from a second device for the seat of a Spectator
    who is away, and taps Allow on their first. The seat waits for the check, and the
    browser that asked may never answer its own request."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await write_clues(t)
        room = await service.load(t.code)
        spectator = room.spectator()
        assert spectator is not None
        guesser, other = [seat for seat in range(3) if seat != spectator]
        await quiet(t, clock, spectator)

        # A device seated here asks for no other seat.
        with pytest.raises(errors.AlreadySeated):
            await service.claims.claim(t.code, spectator, held=[t.seated[guesser].token])
        claim = await service.claims.claim(t.code, spectator)
        for seat in (guesser, other):
            with pytest.raises(errors.SpectatorSeatWaits):
                await service.act(t.code, t.seat(seat), act.Allow(claim.claim))
        state = await service.claims.state(t.code, claim.claim, claim.token)
        assert (state.status, state.seat, state.waits) == ("pending", spectator, True)
        assert claim.state == state  # the answer to the asking says the same
        # The guesser's own browser, which holds the request, may not answer it at all.
        with pytest.raises(errors.OwnRequest):
            await service.act(t.code, t.seat(guesser), act.Allow(claim.claim, mine=claim.claim))
        # The second device reads no solution meanwhile.
        assert (await service.view(t.code, None))["resolution"]["solution"] is None

    run_async(scenario())


def test_a_player_back_a_moment_ago_answers_for_their_own_seat() -> None:
    """An answer judges presence now, not as of the last sweep: the host, back for a
    moment (a read of the room), is at the table, and only she may let her seat go."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        await quiet(t, clock, 0)
        assert not (await service.load(t.code)).players[0].present
        claim = await service.claims.claim(t.code, 0, kind="computer")
        service.touch(t.code, 0)  # Ada reads the room: no sweep has run since
        with pytest.raises(errors.OwnerHere):
            await service.act(t.code, t.seat(1), act.Allow(claim.claim))
        assert (await service.load(t.code)).players[0].present

    run_async(scenario())


def test_one_address_holds_two_requests_and_requests_run_out() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        here = "203.0.113.7"
        first = await service.claims.claim(t.code, 1, address=here)
        second = await service.claims.claim(t.code, 2, address=here)
        with pytest.raises(errors.TooManyClaimsHere):
            await service.claims.claim(t.code, 0, address=here)
        # The same device asking again: its earlier request makes way for this one.
        again = await service.claims.claim(t.code, 0, held=[first.token], address=here)
        room = await service.load(t.code)
        assert [c.id for c in room.claims] == [second.claim, again.claim]
        assert (await service.claims.state(t.code, first.claim, first.token)).status == "refused"
        elsewhere = await service.claims.claim(t.code, 1, address="198.51.100.4")
        # Anyone seated turns junk down, though the seat is not theirs and its player is here.
        claims = (await service.view(t.code, 2))["claims"]
        assert (await service.view(t.code, 2))["can"]["refuse"] == [c["id"] for c in claims]
        await service.act(t.code, t.seat(2), act.Refuse(second.claim))
        assert second.claim not in [c.id for c in (await service.load(t.code)).claims]
        # Five minutes on, the sweep drops every request, and the claimants read it.
        clock.forward(301)
        await quiet(t, clock)
        assert (await service.load(t.code)).claims == ()
        state = await service.claims.state(t.code, elsewhere.claim, elsewhere.token)
        assert state.status == "refused"

    run_async(scenario())


def test_the_host_may_keep_the_answer_and_a_claim_may_be_withdrawn() -> None:
    async def scenario() -> None:
        service = memory_service()
        t = await table(service, "Ada", "Bea", "Cy")
        with pytest.raises(errors.NotHost):
            await service.act(t.code, t.seat(1), act.ClaimsBy("host"))
        await service.act(t.code, t.seat(0), act.ClaimsBy("host"))
        claim = await service.claims.claim(t.code, 2)  # in the lobby too
        with pytest.raises(ClaimNotFound):
            await service.claims.withdraw(t.code, claim.claim, "not-the-token")
        assert await service.claims.withdraw(t.code, claim.claim, claim.token) == 2
        assert (await service.load(t.code)).claims == ()
        assert (await service.claims.state(t.code, claim.claim, claim.token)).status == "refused"
        with pytest.raises(errors.BadSeat):
            await service.claims.claim(t.code, 9)
        with pytest.raises(RoomNotFound):
            await service.claims.claim("ZZZZZZ", 0)

    run_async(scenario())


def test_a_refused_address_waits_ten_minutes_and_others_still_ask() -> None:
    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.Start())
        await quiet(t, clock, 1)
        stranger, bea = "203.0.113.7", "198.51.100.4"
        junk = await service.claims.claim(t.code, 1, address=stranger)
        # While it waits, nobody else may ask for that seat: the table answers it first.
        with pytest.raises(errors.SeatAskedFor):
            await service.claims.claim(t.code, 1, address=bea)
        await service.act(t.code, t.seat(0), act.Refuse(junk.claim))
        with pytest.raises(errors.RefusedHere):
            await service.claims.claim(t.code, 1, address=stranger)
        with pytest.raises(errors.RefusedHere):
            await service.claims.claim(t.code, 2, address=stranger)
        real = await service.claims.claim(t.code, 1, address=bea)
        assert real.state.status == "pending"
        # What the room keeps of the address is a hash of it, never the address.
        assert stranger not in repr(await service.load(t.code))
        await service.claims.withdraw(t.code, real.claim, real.token)
        clock.forward(10 * 60 + 1)
        await quiet(t, clock, 1)
        again = await service.claims.claim(t.code, 1, address=stranger)
        assert again.state.status == "pending"

    run_async(scenario())


def test_a_player_whose_seat_moved_asks_for_it_back_past_its_holder() -> None:
    """The device a seat was taken from asks for it back: everyone at the table may let it
    in (whatever ``claims_by`` says) but the device holding the seat now."""

    async def scenario() -> None:
        clock = HandClock()
        service = memory_service(clock)
        t = await table(service, "Ada", "Bea", "Cy")
        await service.act(t.code, t.seat(0), act.ClaimsBy("host"))
        await service.act(t.code, t.seat(0), act.Start())
        await quiet(t, clock, 1)
        taken = await service.claims.claim(t.code, 1, kind="phone")
        await service.act(t.code, t.seat(2), act.Allow(taken.claim))
        await service.act(t.code, t.seat(0), act.Allow(taken.claim))  # the host, as she chose
        holder = await service.seat_for(t.code, taken.token)
        assert holder is not None
        old = t.seated[1].token
        assert await service.seat_for(t.code, old) is None and await service.seat_moved(t.code, old)
        # Bea's device, whose token the seat moved from, asks for it back.
        back = await service.claims.claim(t.code, 1, held=[old], kind="computer")
        service.touch(t.code, holder.pid)  # the seat's holder is at the table
        shown = (await service.view(t.code, 0))["claims"][0]
        assert shown["back"] and shown["device"] == "computer"
        can = (await service.view(t.code, holder.pid))["can"]
        assert back.claim not in can["allow"] + can["refuse"]
        with pytest.raises(errors.SeatHolder):
            await service.act(t.code, holder, act.Allow(back.claim))
        with pytest.raises(errors.SeatHolder):
            await service.act(t.code, holder, act.Refuse(back.claim))
        # Cy lets it in: not the host, and the seat's holder is at the table.
        await service.act(t.code, t.seat(2), act.Allow(back.claim))
        assert (await service.claims.state(t.code, back.claim, back.token)).status == "allowed"
        assert await service.seat_for(t.code, taken.token) is None
        again = await service.seat_for(t.code, back.token)
        assert again is not None and (await service.view(t.code, again.pid))["you"]["seat"] == 1

    run_async(scenario())
