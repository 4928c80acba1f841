"""The live streams one seat token holds open at once (``stream_slots``): four, its JSON
and page streams together; a fifth is refused and takes nothing from the others."""

from __future__ import annotations

import pytest

from app.service.errors import TooManyStreams
from app.service.seats import Seat
from app.service.stream_slots import STREAMS_PER_SEAT, StreamSlots

ADA = Seat("ABCDEF", 1)
ADA_ELSEWHERE = Seat("ABCDEF", 1, device="claim-7")
"""The same seat, moved to another device: another token."""
ADA_IN_ANOTHER_ROOM = Seat("GHJKLM", 1)


def test_a_token_holds_four_streams_and_the_fifth_is_refused() -> None:
    slots = StreamSlots()
    held = [slots.take(ADA) for _ in range(STREAMS_PER_SEAT)]
    assert STREAMS_PER_SEAT == 4
    with pytest.raises(TooManyStreams) as refused:
        slots.take(ADA)
    assert (refused.value.status, refused.value.code) == (429, "too_many_streams")
    assert slots.held(ADA) == 4  # the refusal took nothing, and gave nothing back
    # Other tokens are counted apart: another device of the seat, another room.
    slots.take(ADA_ELSEWHERE)
    slots.take(ADA_IN_ANOTHER_ROOM)
    # A stream that ends gives its place back, once however often it is told.
    held[0].release()
    held[0].release()
    assert slots.held(ADA) == 3
    slots.take(ADA)
    with pytest.raises(TooManyStreams):
        slots.take(ADA)


def test_a_token_whose_streams_all_ended_is_forgotten() -> None:
    slots = StreamSlots()
    for slot in [slots.take(ADA), slots.take(ADA)]:
        slot.release()
    assert slots.held(ADA) == 0 and not slots._held


def test_the_number_is_the_hosts() -> None:
    slots = StreamSlots(per_seat=1)
    slots.take(ADA)
    with pytest.raises(TooManyStreams):
        slots.take(ADA)
