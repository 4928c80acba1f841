"""A seat taken from another device: a request the table allows or refuses.

A phone runs out of battery, a browser forgets its cookie: its player asks for
their seat from another device. The request is an action like any other (the
rules decide who may answer it); what belongs here is its token. It is made
with the request and stored as the device the request names, so it opens the
seat exactly when the room plays that seat from the request (once allowed),
and the old device's token, naming the device before, stops working then.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from app.rules.actions import Action, Claim, Expire, Withdraw
from app.rules.claims import still_to_allow
from app.rules.state import Room
from app.service.clock import epoch_ms, iso
from app.service.codes import hash_token, new_claim_id, new_token
from app.service.errors import ClaimNotFound
from app.service.seats import Seat, SeatBook, plays_from
from app.service.store import Record, SeatRecord

ClaimStatus = Literal["pending", "allowed", "refused"]
"""``refused`` also stands for withdrawn, run out, or gone with a player who left the lobby."""


@dataclass(frozen=True)
class ClaimState:
    """Where a claim stands, for its claimant: its status, the seat it asks for (-1 once
    that player has left the room), whether it waits for the Spectator's check, and the
    seats whose allow it still needs (``rules.claims.still_to_allow``)."""

    status: ClaimStatus
    seat: int
    waits: bool = False
    waiting_for: tuple[int, ...] = ()


@dataclass(frozen=True)
class Claimed:
    """A seat request: its id, the seat asked for, the token (told this once) that
    opens the seat once the table allows it, and where it stands as it is made."""

    code: str
    claim: str
    token: str
    seat: int
    state: ClaimState = ClaimState("pending", -1)


def standing(room: Room, claim_id: str, pid: int, now: int) -> ClaimState:
    """Where the claim ``claim_id`` for player ``pid``'s seat stands in ``room`` at
    ``now``: the one answer every route gives (asking, reading, the waiting page). A
    request that has run out is refused, though no action has dropped it yet."""
    at = room.seat_of(pid)
    if at is None:
        return ClaimState("refused", -1)
    if room.players[at].device == claim_id:
        return ClaimState("allowed", at)
    claim = room.claim(claim_id)
    if claim is None or claim.expired(now):
        return ClaimState("refused", at)
    waiting = tuple(still_to_allow(room, claim))
    return ClaimState("pending", at, waits=room.seat_waits(at), waiting_for=waiting)


def address_tag(code: str, address: str) -> str:
    """What a claim keeps of its client address: a hash, per room, never the address.
    Enough to count one address's requests; nothing to read it back by in a room's copy."""
    return hash_token(f"claim {code} {address}")[:16]


class ClaimDesk:
    def __init__(
        self,
        apply: Callable[..., Awaitable[Room]],
        load: Callable[[str], Awaitable[Room]],
        seats: SeatBook,
        clock: Callable[[], datetime],
    ) -> None:
        self.apply = apply
        self.load = load
        self.seats = seats
        self.clock = clock

    async def claim(
        self,
        code: str,
        seat: int,
        *,
        held: Sequence[str | None] = (),
        kind: str = "",
        address: str = "",
    ) -> Claimed:
        """A device without a seat asks to play ``seat``; the table allows it or not.

        ``held``: the tokens the asking device presents for this room (its seat cookie or
        bearer token, its earlier request's). One that seats it refuses the request: a
        device at the table does not ask for a second seat. One of an earlier request of
        this device still waiting replaces it. One of this very seat, which moved away
        from it, asks the seat back. ``kind``: the device's kind (``DEVICE_KINDS``), read
        from its browser; ``address``: its client address, kept only as a hash."""
        token, claim_id = new_token(), new_claim_id()
        found = [s for s in [await self.seats.token(code, t) for t in held] if s is not None]
        room = await self.load(code)
        # Seated here: the rules refuse a claim from a seat (``already_seated``).
        seated = next(
            (s for s in found if room.seat_of(s.pid) is not None and plays_from(room, s)), None
        )
        tag = address_tag(code, address) if address else ""

        def action_for(room: Room) -> Action:
            waiting = next((s.device for s in found if s.device and room.claim(s.device)), "")
            target = room.players[seat].pid if 0 <= seat < len(room.players) else None
            was = next((s.device for s in found if s.pid == target and _moved(room, s)), None)
            return Claim(
                seat,
                claim_id,
                iso(self.clock()),
                kind=kind,
                address=tag,
                replaces=waiting,
                back=was is not None,
                was=was or "",
            )

        def seat_record(room: Room) -> list[Record]:
            claimed = room.claim(claim_id)
            assert claimed is not None
            return [SeatRecord(hash_token(token), code, claimed.pid, self.clock(), claim_id)]

        pid = None if seated is None else seated.pid
        room = await self.apply(code, pid, action_for, also=seat_record)
        claimed = room.claim(claim_id)
        assert claimed is not None
        state = standing(room, claim_id, claimed.pid, epoch_ms(self.clock()))
        return Claimed(code, claim_id, token, seat, state)

    async def status(self, code: str, claim_id: str, token: str | None) -> tuple[ClaimStatus, int]:
        """Where the claim ``claim_id`` stands, for the device holding its ``token``, and
        the seat it asks for (-1 once that player has left the room)."""
        state = await self.state(code, claim_id, token)
        return state.status, state.seat

    async def state(self, code: str, claim_id: str, token: str | None) -> ClaimState:
        """``status``, whether the request waits for the Spectator's check and whose
        allow it still needs (``standing``)."""
        claimant = await self._claimant(code, claim_id, token)
        room = await self.load(code)
        return standing(room, claim_id, claimant.pid, epoch_ms(self.clock()))

    async def withdraw(self, code: str, claim_id: str, token: str | None) -> int:
        """The claimant takes their claim back; the seat it asked for."""
        claimant = await self._claimant(code, claim_id, token)
        room = await self.apply(code, None, lambda _room: Withdraw(claim_id))
        at = room.seat_of(claimant.pid)
        return -1 if at is None else at

    async def expire(self, room: Room) -> None:
        """Drop the claims of ``room`` that have run out, through the one action path (an
        ``expire``), so the table stops showing them; nothing if none has."""

        def expired(room: Room) -> Action | None:
            now = epoch_ms(self.clock())
            return Expire() if any(c.expired(now) for c in room.claims) else None

        if room.claims and expired(room) is not None:
            await self.apply(room.code, None, expired)

    async def _claimant(self, code: str, claim_id: str, token: str | None) -> Seat:
        found = await self.seats.token(code, token)
        if found is None or not claim_id or found.device != claim_id:
            raise ClaimNotFound()
        return found


def _moved(room: Room, seat: Seat) -> bool:
    """Whether ``seat``'s device once played its player's seat, and plays it no more."""
    at = room.seat_of(seat.pid)
    return at is not None and seat.device in room.players[at].moved_from
