"""The hub's mailboxes: changes in order, a slow stream resynchronized, pings spread out."""

from __future__ import annotations

import asyncio
import gc

from app.service.hub import PING, QUEUE_SIZE, Change, RoomHub
from app.web.renderings import KEEP, Renderings, StateEvent
from tests.rules.support import lobby
from tests.service.support import run_async


def test_every_stream_is_pinged_once_a_period_and_never_over_a_waiting_change() -> None:
    hub = RoomHub()
    subs = [hub.subscribe(f"ROOM{i:02d}") for i in range(40)]
    busy = subs[0]
    busy.put(Change(1, lobby(3), None))
    for tick in range(5):
        hub.ping(tick, 5)
    for sub in subs[1:]:
        assert list(sub.pending) == [PING]
    assert [type(item) for item in busy.pending] == [Change]
    # and one slice of a period pings only some rooms, not all at once
    hub2 = RoomHub()
    many = [hub2.subscribe(f"R{i:04d}") for i in range(200)]
    hub2.ping(0, 5)
    assert 0 < sum(1 for sub in many if sub.pending) < 200


def test_a_stream_sent_a_change_is_not_pinged_until_it_has_been_quiet_a_whole_period() -> None:
    hub = RoomHub()
    quiet, busy = hub.subscribe("QUIET1"), hub.subscribe("BUSY01")
    busy.put(Change(1, lobby(3), None))
    busy.pending.clear()  # its stream sent the change
    for tick in range(5):
        hub.ping(tick, 5)
    assert list(quiet.pending) == [PING]
    assert list(busy.pending) == []  # it spoke since the last round
    quiet.pending.clear()
    for tick in range(5, 10):
        hub.ping(tick, 5)
    assert list(quiet.pending) == [PING]
    assert list(busy.pending) == [PING]  # quiet a whole period now


def test_a_reader_gets_changes_in_order_and_a_stream_too_far_behind_is_marked() -> None:
    async def scenario() -> None:
        hub = RoomHub()
        sub = hub.subscribe("ABCDEF")
        room = lobby(3)
        reader = asyncio.ensure_future(sub.get())
        await asyncio.sleep(0)
        hub.publish("ABCDEF", Change(1, room, None))
        assert (await reader).seq == 1
        for seq in range(2, QUEUE_SIZE + 10):
            hub.publish("ABCDEF", Change(seq, room, None))
        assert sub.overflowed
        assert [(await sub.get()).seq for _ in range(3)] == [2, 3, 4]

    run_async(scenario())


def test_the_history_keeps_old_changes_but_not_what_streams_built_of_them() -> None:
    hub = RoomHub()
    renderings = Renderings()
    room = lobby(3)
    changes = [Change(seq, room, None) for seq in range(1, 6)]
    for change in changes:
        hub.publish("ABCDEF", change)
        renderings.keep_built(change, StateEvent(0), b"x" * 2_000)  # as a stream builds it
    assert hub.since("ABCDEF", 0) == changes  # a reconnecting stream still gets them all
    kept = [renderings.get(change, StateEvent(0)) is not None for change in changes]
    assert kept == [False] * (5 - KEEP) + [True] * KEEP
    assert len(renderings) == KEEP
    # a change nobody holds any more takes what was built of it along
    del change, changes
    hub = RoomHub()
    gc.collect()
    assert len(renderings) == 0
