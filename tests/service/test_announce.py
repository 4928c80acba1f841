"""A change's announcement to the other processes, and a follower replaying it.

On PostgreSQL a saved change's ``NOTIFY`` carries its logged actions when they fit
(``app/db/announce.py``): a process following the room replays them with no read of
the action log, and reads the log whenever they do not follow on from its copy.
Two services on one SQLite file stand for two processes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app.db.announce import PAYLOAD_BYTES, announcement, heard
from app.rules import actions as act
from app.service.rooms import RoomService
from app.service.seats import Seat
from app.service.store import ActionRecord, Logged, Record, SeatRecord
from tests.service.support import run_async
from tests.service.test_action_path import SharedCluster, SlowWriter, _game, another_process

AT = datetime(2026, 12, 3, tzinfo=UTC)


def record(seq: int, action: dict[str, Any], state: dict[str, Any] | None = None) -> ActionRecord:
    return ActionRecord("ABCDEF", seq, 1, 7, action, AT, state)


def test_an_action_is_heard_as_it_was_logged() -> None:
    say = {"type": "say", "text": '三叶草 ☘ "quoted" : colon'}
    seat = SeatRecord("hash", "ABCDEF", 7, AT)
    payload = announcement("ABCDEF", 12, [seat, record(12, say)])
    assert heard(payload) == ("ABCDEF", 12, [Logged(12, 1, say, None, 7)])


def test_what_does_not_fit_or_carries_a_whole_state_is_announced_bare() -> None:
    assert announcement("ABCDEF", 3, [record(3, {"type": "start"}, {"seq": 3})]) == "ABCDEF:3"
    assert announcement("ABCDEF", 3, []) == "ABCDEF:3"
    assert heard("ABCDEF:3") == ("ABCDEF", 3, None)
    # Three bytes a character: the limit is PostgreSQL's, in bytes.
    for length in (2_600, 2_700):
        payload = announcement("ABCDEF", 4, [record(4, {"type": "say", "text": "叶" * length})])
        assert len(payload.encode()) <= PAYLOAD_BYTES
        assert (payload == "ABCDEF:4") == (length == 2_700)


def test_news_not_wanted_is_dropped_before_its_actions_are_read() -> None:
    """A process hears every change, its own too: what its copy has already, or of a
    room it does not follow, is dropped on the room and seq alone."""
    payload = announcement("ABCDEF", 12, [record(12, {"type": "say", "text": "hi"})])
    asked: list[tuple[str, int]] = []

    def wanted(code: str, seq: int) -> bool:
        asked.append((code, seq))
        return seq > 11

    assert heard(payload, wanted) == (
        "ABCDEF",
        12,
        [Logged(12, 1, {"type": "say", "text": "hi"}, None, 7)],
    )
    assert heard(payload, lambda code, seq: False) is None
    assert heard("ABCDEF:12:{broken", lambda code, seq: False) is None
    assert asked == [("ABCDEF", 12)]


def test_a_payload_that_is_none_of_ours_is_ignored() -> None:
    for payload in ("", "ABCDEF", "ABCDEF:x", "ABCDEF:3:{", "ABCDEF:3:[[1,2]]", "ABCDEF:3:5"):
        assert heard(payload) is None, payload


def _heard_saves(service: RoomService) -> list[str]:
    """The announcements of every save ``service`` makes, as PostgreSQL's store makes them."""
    said: list[str] = []
    save = service.store.save

    async def announcing(old_seq: int, room: Any, records: Sequence[Record], at: Any) -> None:
        await save(old_seq, room, records, at)
        said.append(announcement(room.code, room.seq, records))

    service.store.save = announcing  # type: ignore[method-assign]
    return said


def _reads_of_the_log(service: RoomService) -> list[tuple[int, int]]:
    reads: list[tuple[int, int]] = []
    logged = service.store.logged

    async def counted(code: str, after: int, upto: int) -> list[Logged]:
        reads.append((after, upto))
        return await logged(code, after, upto)

    service.store.logged = counted  # type: ignore[method-assign]
    return reads


def test_a_follower_replays_what_it_heard_without_reading_the_log(tmp_path: Path) -> None:
    async def check(service: RoomService, writer: SlowWriter) -> None:
        code = (await service.create("Ada", 1)).code
        await service.join(code, "Bea")
        ours = await service.load(code)
        seen = service.hub.subscribe(code)
        reads = _reads_of_the_log(service)

        async with another_process(service, tmp_path) as other:
            said = _heard_saves(other)
            for text in ("one", "two", "three"):
                await other.act(code, Seat(code, 1), act.Say(text))
            # All news but the last two is lost (a follower catches up whenever the
            # next comes): Bea's three lines (she is present from her join on).
            news = [heard(payload) for payload in said]
            assert len(news) == 3 and all(n is not None and n[2] is not None for n in news)
            last = ours.seq + len(news)
            await service.catch_up(*news[-2])  # does not follow on from our copy: read
            assert reads == [(ours.seq, last - 1)]
            await service.catch_up(*news[-1])  # follows on: replayed as heard
            assert reads == [(ours.seq, last - 1)]
        room = await service.load(code)
        assert room.seq == last
        assert [line.text for line in room.chat] == ["one", "two", "three"]
        assert room == await service.store.read(code)  # the very state the other saved
        assert [c.seq for c in seen.pending] == list(range(ours.seq + 1, last + 1))

    run_async(_game(tmp_path, check, SharedCluster({})))
