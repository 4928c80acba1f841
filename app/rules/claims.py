"""Seat requests from another device: asked, withdrawn, allowed, refused or run
out, and who answers them (the host's choice, ``ClaimsBy``).

The rules of a request live here; its tokens are the service's
(``service/claims.py``), the device asking is the web's (``web/claimant.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.lobby import why_not_set_up
from app.rules.state import (
    CLAIMS_BY,
    DEVICE_KINDS,
    MAX_CLAIMS,
    MAX_CLAIMS_PER_ADDRESS,
    MOVES_KEPT,
    Claim,
    Room,
)
from app.rules.text import N_


def on_claim(action: act.Claim, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A device without a seat asks for one. A device asking again replaces its own
    request; one address holds two of the room's six at most. A device the seat moved
    away from asks it back outside those bounds: one such request per seat."""
    if seat is not None:
        raise errors.AlreadySeated(N_("You already have a seat in this room."))
    if room.practice:
        raise errors.PrivateTable()  # its player plays on another device by their seat link
    if not 0 <= action.seat < len(room.players) or room.players[action.seat].bot:
        raise errors.BadSeat()
    if not action.id or room.claim(action.id) is not None:
        raise errors.Invalid(N_("A claim needs an id of its own."))
    pid = room.players[action.seat].pid
    claims = tuple(c for c in room.claims if c.id != action.replaces)
    if action.back:
        if action.was not in room.players[action.seat].moved_from:
            raise errors.Invalid(N_("Only a device the seat moved away from asks for it back."))
        claims = tuple(c for c in claims if not (c.back and c.pid == pid))
    else:
        refuse(why_not_ask(claims, action.address))
    claim = Claim(
        id=action.id,
        pid=pid,
        at=action.at,
        asked=action.now,
        kind=action.kind if action.kind in DEVICE_KINDS else "",
        address=action.address,
        back=action.back,
    )
    return replace(room, claims=(*claims, claim))


def why_not_ask(claims: Sequence[Claim], address: str = "") -> Refusal | None:
    """Why a device may not ask for a seat (not asking back) beside ``claims``, from
    ``address``, or ``None``: six requests at most, two of them from one address."""
    asked = [c for c in claims if not c.back]
    if len(asked) >= MAX_CLAIMS:
        return errors.TooManyClaims
    here = [c for c in asked if c.address == address]
    if address and len(here) >= MAX_CLAIMS_PER_ADDRESS:
        return errors.TooManyClaimsHere
    return None


def on_withdraw(action: act.Withdraw, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    if room.claim(action.claim) is None:
        raise errors.ClaimGone()
    return _without_claim(room, action.claim)


def on_allow(action: act.Allow, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_allow(room, seat, action.claim, action.mine))
    answering = _answering(room, action.claim, action.mine)
    assert isinstance(answering, tuple)
    _, target = answering
    players = list(room.players)
    # The seat is played from the claiming device now; the old device's token stops working,
    # but may ask for the seat back.
    player = players[target]
    moved_from = (*player.moved_from, player.device)[-MOVES_KEPT:]
    players[target] = replace(player, device=action.claim, moved_from=moved_from)
    return _without_claim(replace(room, players=tuple(players)), action.claim)


def on_refuse(action: act.Refuse, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_refuse(room, seat, action.claim, action.mine))
    return _without_claim(room, action.claim)


def on_expire(action: act.Expire, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """Claims that ran out went in ``apply`` already: the server's sweep says no more."""
    if seat is not None:
        raise errors.NotSystem(N_("Only the server says when time is up."))
    return room


def unexpired(room: Room, now: int) -> Room:
    """``room`` without the claims that have run out at ``now``."""
    if not any(c.expired(now) for c in room.claims):
        return room
    return replace(room, claims=tuple(c for c in room.claims if not c.expired(now)))


def _answering(room: Room, claim_id: str, mine: str) -> tuple[Claim, int] | Refusal:
    """The claim and the seat it asks for, if it may be answered from where the answer
    comes, or why not: it is gone, or the answer comes from the browser that made it
    (``mine``, its claim cookie)."""
    claim = room.claim(claim_id)
    target = None if claim is None else room.seat_of(claim.pid)
    if claim is None or target is None:
        return errors.ClaimGone
    if mine and mine == claim.id:
        return errors.OwnRequest
    return claim, target


def why_not_allow(room: Room, seat: int, claim_id: str, mine: str = "") -> Refusal | None:
    """Why ``seat`` may not allow the claim, or ``None``. A seat asked back: anyone seated
    but its holder. Else its own player may; while that player is at the table, nobody
    else; while they are away, anyone seated, or only the host if the host chose so.
    Whoever answers, the Spectator's seat stays put until their clover is checked."""
    answering = _answering(room, claim_id, mine)
    if not isinstance(answering, tuple):
        return answering
    claim, target = answering
    if claim.back:
        if seat == target:
            return errors.SeatHolder
    elif seat != target:
        if room.players[target].present:
            return errors.OwnerHere
        if room.claims_by == "host" and seat != room.acting_host():
            return errors.NotHost(N_("The host lets other devices take the seats of this room."))
    if room.seat_waits(target):
        return errors.SpectatorSeatWaits
    return None


def why_not_refuse(room: Room, seat: int, claim_id: str, mine: str = "") -> Refusal | None:
    """Why ``seat`` may not refuse the claim, or ``None``: anyone seated may turn junk
    down, but the holder of a seat asked back, who is the one it is asked from."""
    answering = _answering(room, claim_id, mine)
    if not isinstance(answering, tuple):
        return answering
    claim, target = answering
    if claim.back and seat == target:
        return errors.SeatHolder
    return None


def _without_claim(room: Room, claim_id: str) -> Room:
    return replace(room, claims=tuple(c for c in room.claims if c.id != claim_id))


def on_claims_by(action: act.ClaimsBy, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_set_up(room, seat))
    if action.who not in CLAIMS_BY:
        raise errors.BadChoice()
    return replace(room, claims_by=action.who)
