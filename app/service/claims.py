"""A seat taken from another device: a request the table allows or refuses.

A phone runs out of battery, a browser forgets its cookie: its player asks for
their seat from another device. The request is an action like any other (the
rules decide who may answer it); what belongs here is its token. It is made
with the request and stored as the device the request names, so it opens the
seat exactly when the room plays that seat from the request (once allowed),
and the old device's token, naming the device before, stops working then.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from app.rules.actions import Claim, Withdraw
from app.rules.state import Room
from app.service.clock import iso
from app.service.codes import hash_token, new_claim_id, new_token
from app.service.errors import ClaimNotFound
from app.service.seats import Seat, SeatBook
from app.service.store import Record, SeatRecord

ClaimStatus = Literal["pending", "allowed", "refused"]
"""``refused`` also stands for withdrawn, or gone with a player who left the lobby."""


@dataclass(frozen=True)
class Claimed:
    """A seat request: its id, the seat asked for, and the token (told this once) that
    opens the seat once the table allows it."""

    code: str
    claim: str
    token: str
    seat: int


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

    async def claim(self, code: str, seat: int) -> Claimed:
        """A device without a seat asks to play ``seat``; the table allows it or not."""
        token, claim_id = new_token(), new_claim_id()

        def seat_record(room: Room) -> list[Record]:
            claimed = room.claim(claim_id)
            assert claimed is not None
            return [SeatRecord(hash_token(token), code, claimed.pid, self.clock(), claim_id)]

        action = Claim(seat, claim_id, iso(self.clock()))
        await self.apply(code, None, lambda _room: action, also=seat_record)
        return Claimed(code, claim_id, token, seat)

    async def status(self, code: str, claim_id: str, token: str | None) -> tuple[ClaimStatus, int]:
        """Where the claim ``claim_id`` stands, for the device holding its ``token``, and
        the seat it asks for (-1 once that player has left the room)."""
        claimant = await self._claimant(code, claim_id, token)
        room = await self.load(code)
        at = room.seat_of(claimant.pid)
        if at is None:
            return "refused", -1
        if room.players[at].device == claim_id:
            return "allowed", at
        return ("pending" if room.claim(claim_id) is not None else "refused"), at

    async def withdraw(self, code: str, claim_id: str, token: str | None) -> int:
        """The claimant takes their claim back; the seat it asked for."""
        claimant = await self._claimant(code, claim_id, token)
        room = await self.apply(code, None, lambda _room: Withdraw(claim_id))
        at = room.seat_of(claimant.pid)
        return -1 if at is None else at

    async def _claimant(self, code: str, claim_id: str, token: str | None) -> Seat:
        found = await self.seats.token(code, token)
        if found is None or not claim_id or found.device != claim_id:
            raise ClaimNotFound()
        return found
