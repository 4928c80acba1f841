"""Seat requests from another device: asked, withdrawn, allowed, refused or run
out, and who answers them.

A seat changes hands only when the table knowingly lets it: while its player is at
the table, they alone answer for it; while they are away, every other player at the
table must allow it (one refusal ends it), the host among them if the host chose so
(``ClaimsBy``); a seat asked back by a device it moved away from is let back by any
one of them but the device holding it. Whoever answers, the device the seat moves to
does not read the seat's own clover before the table has rebuilt it, unless it is the
device that clover was dealt to (``Room.hides_own_clover``, cut in the views).

Strangers cannot block a request: one waits per seat, a refused address may not ask
the room again for ``CLAIM_BAR_MS``, one address holds two of the room's requests.

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
    BARS_KEPT,
    CLAIM_BAR_MS,
    CLAIMS_BY,
    DEVICE_KINDS,
    MAX_CLAIMS,
    MAX_CLAIMS_PER_ADDRESS,
    MOVES_KEPT,
    Barred,
    Claim,
    Room,
)
from app.rules.text import N_
from app.rules.writing import resolution_if_all_done, with_clover


def on_claim(action: act.Claim, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A device without a seat asks for one. A device asking again replaces its own
    request; one request waits per seat; one address holds two of the room's six at
    most, and an address the table refused lately asks nothing. A device the seat moved
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
        refuse(why_not_ask(claims, action.address, pid=pid, barred=room.barred, now=action.now))
    claim = Claim(
        id=action.id,
        pid=pid,
        at=action.at,
        asked=action.now,
        kind=action.kind if action.kind in DEVICE_KINDS else "",
        address=action.address,
        back=action.back,
        was=action.was if action.back else "",
    )
    return replace(room, claims=(*claims, claim))


def why_not_ask(
    claims: Sequence[Claim],
    address: str = "",
    *,
    pid: int | None = None,
    barred: Sequence[Barred] = (),
    now: int = 0,
) -> Refusal | None:
    """Why a device may not ask for a seat (not asking back) beside ``claims``, from
    ``address``, for player ``pid``'s seat, at ``now``, or ``None``: not from an address
    the table refused within ``CLAIM_BAR_MS`` (``barred``), not while another request
    for that seat waits, six requests at most, two of them from one address."""
    if address and any(b.address == address and now < b.until for b in barred):
        return errors.RefusedHere
    asked = [c for c in claims if not c.back]
    if pid is not None and any(c.pid == pid for c in asked):
        return errors.SeatAskedFor
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
    """One allow: the seat moves once nobody's allow is still needed (``still_to_allow``)."""
    refuse(why_not_allow(room, seat, action.claim, action.mine))
    answering = _answering(room, action.claim, action.mine)
    assert isinstance(answering, tuple)
    claim, target = answering
    claim = replace(claim, allowed_by=claim.allowed_by | {room.players[seat].pid})
    room = replace(room, claims=tuple(claim if c.id == claim.id else c for c in room.claims))
    if still_to_allow(room, claim):
        return room
    return _moved(room, claim, target)


def settle(room: Room) -> Room:
    """``room`` with every request that nobody's allow is still needed for granted: the
    last player it waited for went away after the others allowed it. A request nobody
    allowed yet waits for someone at the table to."""
    for claim in room.claims:
        target = room.seat_of(claim.pid)
        if (
            target is not None
            and claim.allowed_by
            and not claim.back
            and not room.players[target].present
            and not room.seat_waits(target)
            and not still_to_allow(room, claim)
        ):
            room = _moved(room, claim, target)
    return room


def still_to_allow(room: Room, claim: Claim) -> list[int]:
    """The seats whose allow the request still needs before its seat moves: its own
    player's while they are at the table; while they are away, every other player at the
    table and in the game (bots never answer), the host too if the host chose so, even
    away. A request asked back needs one allow only: none is listed."""
    target = room.seat_of(claim.pid)
    if target is None or claim.back:
        return []
    if room.players[target].present:
        return [] if claim.pid in claim.allowed_by else [target]
    needed = {
        s
        for s, p in enumerate(room.players)
        if s != target and room.is_person_here(s) and room.in_game(s)
    }
    if room.claims_by == "host" and room.host != target:
        needed.add(room.host)
    return sorted(s for s in needed if room.players[s].pid not in claim.allowed_by)


def _moved(room: Room, claim: Claim, target: int) -> Room:
    """The seat ``target`` played from the claiming device now: the old device's token
    stops working, but may ask for the seat back. While clues are written, a clover
    the new device may not read (``Room.hides_own_clover``) cannot be finished there: if
    its clues were not done, it is not played (the game goes on with one fewer)."""
    players = list(room.players)
    player = players[target]
    moved_from = (*player.moved_from, player.device)[-MOVES_KEPT:]
    players[target] = replace(player, device=claim.id, moved_from=moved_from)
    room = _without_claim(replace(room, players=tuple(players)), claim.id)
    if claim.back and target < len(room.clovers) and room.clovers[target].device == claim.was:
        # Asked back from the device the clover was dealt to: it is that device again.
        room = with_clover(room, replace(room.clovers[target], device=claim.id))
    if room.phase == "clues" and room.hides_own_clover(target):
        clover = room.clovers[target]
        if not (clover.done or clover.dropped):
            room = resolution_if_all_done(with_clover(room, replace(clover, dropped=True)))
    return room


def on_refuse(action: act.Refuse, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    """One refusal ends a request; the address it came from may not ask this room again
    for ``CLAIM_BAR_MS`` (a request asked back bars nothing: only an old device of the
    seat makes one)."""
    refuse(why_not_refuse(room, seat, action.claim, action.mine))
    claim = room.claim(action.claim)
    assert claim is not None
    room = _without_claim(room, action.claim)
    if claim.back or not claim.address:
        return room
    bar = Barred(claim.address, action.now + CLAIM_BAR_MS)
    others = tuple(b for b in room.barred if b.address != claim.address)
    return replace(room, barred=(*others, bar)[-BARS_KEPT:])


def on_expire(action: act.Expire, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """Claims that ran out went in ``apply`` already: the server's sweep says no more."""
    if seat is not None:
        raise errors.NotSystem(N_("Only the server says when time is up."))
    return room


def unexpired(room: Room, now: int) -> Room:
    """``room`` without the claims that have run out at ``now``, nor the bars on refused
    addresses that have (``now`` 0, a time nobody stamped: nothing runs out)."""
    if now > 0 and any(b.until <= now for b in room.barred):
        room = replace(room, barred=tuple(b for b in room.barred if b.until > now))
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
    else; while they are away, each other player at the table, once (their allows add up:
    ``still_to_allow``). Whoever answers, the Spectator's seat stays put until their
    clover is checked."""
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
        if room.players[seat].pid in claim.allowed_by:
            return errors.AlreadyAllowed
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
