"""The storage port's promises (``app/service/store.py``), held to every store alike.

The same tests run against the store in memory (``app/service/memory_store.py``),
SQLite on a real file, and PostgreSQL on a fresh database when
SOCLOVER_TEST_POSTGRES names a server (``make test-postgres``; with
SOCLOVER_REQUIRE_POSTGRES as well, a missing server is an error, not a skip).
What the service tests run on the store in memory, they would meet on either
database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.db.engine import asyncpg_dsn, make_async_engine
from app.db.migrate import upgrade
from app.db.store import PostgresStore, SqliteStore
from app.db.writer import SqliteWriter
from app.rules import actions as act
from app.rules.codec import action_to_data, room_to_data
from app.rules.engine import apply, new_room
from app.rules.state import UNOPENED, Room
from app.service.clock import iso
from app.service.errors import StaleAction
from app.service.memory_store import MemoryRoomStore
from app.service.store import ActionRecord, CodeTaken, LegendRecord, Logged, RoomStore, SeatRecord
from tests.kit.server import POSTGRES, drop_database, fresh_database
from tests.service.support import run_async

if os.environ.get("SOCLOVER_REQUIRE_POSTGRES") and not POSTGRES:
    raise RuntimeError("SOCLOVER_REQUIRE_POSTGRES is set but SOCLOVER_TEST_POSTGRES is not")

STORES = [
    "memory",
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not POSTGRES, reason="needs PostgreSQL: set SOCLOVER_TEST_POSTGRES"
        ),
    ),
]

AT = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


@contextlib.asynccontextmanager
async def opened_store(kind: str, tmp_path: Path) -> AsyncIterator[RoomStore]:
    """A store of ``kind`` with nothing in it yet, closed (and its database gone) after."""
    if kind == "memory":
        yield MemoryRoomStore()
        return
    if kind == "postgresql":
        url = fresh_database(tmp_path / "unused.sqlite3")  # a new database on the server
    else:
        url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    try:
        await asyncio.to_thread(upgrade, url)
        engine = make_async_engine(url)
        writer = SqliteWriter(url) if kind == "sqlite" else None
        store: RoomStore = (
            SqliteStore(engine, writer) if writer else PostgresStore(engine, asyncpg_dsn(url))
        )
        try:
            yield store
        finally:
            await store.close()
            if writer is not None:
                writer.close()
            await engine.dispose()
    finally:
        drop_database(url)


Check = Callable[[RoomStore], Awaitable[None]]


def run_on(kind: str, tmp_path: Path, check: Check) -> None:
    async def on_store() -> None:
        async with opened_store(kind, tmp_path) as store:
            await check(store)

    run_async(on_store())


def line(room: Room, action: act.Action, at: datetime = AT, *, whole: bool = False) -> ActionRecord:
    """The log line of the host's ``action`` that made ``room`` (its state too if ``whole``)."""
    return ActionRecord(
        room.code, room.seq, 0, 0, action_to_data(action), at, room_to_data(room) if whole else None
    )


def token(code: str, pid: int, device: str = "") -> SeatRecord:
    return SeatRecord(f"hash-{code}-{pid}-{device}", code, pid, AT, device)


async def open_room(store: RoomStore, code: str = "ABCDEF", at: datetime = AT) -> Room:
    """A room opened over none, with its host's seat token and the log line of its opening."""
    room = new_room(code, "Ada")
    opening = act.Create("Ada", 1, "en")
    await store.save(UNOPENED, room, [line(room, opening, at), token(code, 0)], at)
    return room


async def settle(
    store: RoomStore, room: Room, decoys: int, at: datetime = AT, *, whole: bool = False
) -> Room:
    """The host's ``Settings`` saved over ``room``: the next room."""
    action = act.Settings(decoys=decoys)
    new = apply(room, 0, action)
    await store.save(room.seq, new, [line(new, action, at, whole=whole)], at)
    return new


@pytest.mark.parametrize("kind", STORES)
def test_a_room_opened_over_none_is_read_back_as_saved(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        assert await store.read("ABCDEF") is None
        assert await store.seq("ABCDEF") is None
        room = await open_room(store)
        assert await store.read("ABCDEF") == room
        assert await store.seq("ABCDEF") == room.seq
        assert await store.seat(token("ABCDEF", 0).token_hash) == ("ABCDEF", 0, "")
        assert await store.read("BCDEFG") is None

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_a_room_opens_only_while_its_code_is_nobodys(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        first = await open_room(store)
        other = new_room("ABCDEF", "Bea")
        with pytest.raises(CodeTaken):
            await store.save(
                UNOPENED, other, [line(other, act.Create("Bea", 1)), token("X", 0)], AT
            )
        # Nothing of the refused opening is written: not its room, its log line, its seat.
        assert await store.read("ABCDEF") == first
        assert await store.seat(token("X", 0).token_hash) is None
        assert [entry.seq for entry in await store.logged("ABCDEF", -2, 10)] == [first.seq]

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_a_room_is_saved_only_over_the_seq_it_was_read_at(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        later = await settle(store, room, 2)
        assert await store.read("ABCDEF") == later and await store.seq("ABCDEF") == later.seq

        # Over the seq it was read at before ``later``: refused, nothing written.
        stale = apply(room, 0, act.Settings(decoys=3))
        with pytest.raises(StaleAction):
            await store.save(
                room.seq, stale, [line(stale, act.Settings(decoys=3)), token("Y", 1)], AT
            )
        assert await store.read("ABCDEF") == later
        assert [e.action["decoys"] for e in await store.logged("ABCDEF", room.seq, 10)] == [2]
        assert await store.seat(token("Y", 1).token_hash) is None

        # A room that is not there is no room to save over.
        nowhere = new_room("GHJKMN", "Cy")
        with pytest.raises(StaleAction):
            await store.save(nowhere.seq, apply(nowhere, 0, act.Settings(decoys=2)), [], AT)
        assert await store.read("GHJKMN") is None

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_of_two_saves_over_one_seq_one_is_written(kind: str, tmp_path: Path) -> None:
    """As two processes deciding on the same copy: one wins, the other is told stale."""

    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        moves = [apply(room, 0, act.Settings(decoys=d)) for d in (2, 3)]
        outcomes = await asyncio.gather(
            *(
                store.save(room.seq, new, [line(new, act.Settings(decoys=new.decoys))], AT)
                for new in moves
            ),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StaleAction"]
        stored = await store.read("ABCDEF")
        assert stored is not None and stored == moves[outcomes.index(None)]
        logged = await store.logged("ABCDEF", room.seq, room.seq + 5)
        assert [(e.seq, e.action["decoys"]) for e in logged] == [(stored.seq, stored.decoys)]

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_the_action_log_is_read_back_by_seq_as_it_was_written(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        say = act.Say('三叶草 ☘ "quoted"', at="2026-12-01T09:30:00Z", now=12)
        said = apply(room, 0, say)
        await store.save(room.seq, said, [line(said, say)], AT)
        last = await settle(store, said, 2)
        logged = await store.logged("ABCDEF", room.seq, last.seq)
        assert logged == [
            Logged(said.seq, 0, action_to_data(say), None, 0),
            Logged(last.seq, 0, action_to_data(act.Settings(decoys=2)), None, 0),
        ]
        assert await store.logged("ABCDEF", said.seq, said.seq) == []
        assert [e.seq for e in await store.logged("ABCDEF", room.seq - 1, said.seq)] == [
            room.seq,
            said.seq,
        ]
        assert await store.logged("ZZZZZZ", -1, 10) == []

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_a_games_log_starts_at_the_latest_whole_state(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        before = await settle(store, room, 2)
        assert await store.game_log("ABCDEF", before.seq) == []  # no game begun yet
        first = await settle(store, before, 3, whole=True)
        during = await settle(store, first, 4)
        second = await settle(store, during, 1, whole=True)
        after = await settle(store, second, 2)

        game = await store.game_log("ABCDEF", during.seq)
        assert [e.seq for e in game] == [first.seq, during.seq]
        assert game[0].state == room_to_data(first) and game[1].state is None
        assert [e.seq for e in await store.game_log("ABCDEF", after.seq)] == [second.seq, after.seq]
        assert [e.seq for e in await store.game_log("ABCDEF", second.seq)] == [second.seq]

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_seat_tokens_stand_for_their_room_player_and_device(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        joined = apply(room, None, act.Join("Bea"))
        bea = joined.players[-1].pid
        await store.save(
            room.seq, joined, [line(joined, act.Join("Bea")), token("ABCDEF", bea)], AT
        )
        await settle(store, joined, 2)
        claimed = token("ABCDEF", bea, "claim-1")
        other = await open_room(store, "BCDEFG")
        await store.save(other.seq, apply(other, 0, act.Settings(decoys=2)), [claimed], AT)

        assert await store.seat(claimed.token_hash) == ("ABCDEF", bea, "claim-1")
        assert sorted(await store.seats("ABCDEF")) == sorted(
            [
                (token("ABCDEF", 0).token_hash, 0, ""),
                (token("ABCDEF", bea).token_hash, bea, ""),
                (claimed.token_hash, bea, "claim-1"),
            ]
        )
        assert await store.seats("BCDEFG") == [(token("BCDEFG", 0).token_hash, 0, "")]
        assert await store.seat("no such hash") is None
        assert await store.seats("ZZZZZZ") == []

    run_on(kind, tmp_path, check)


def legend(
    room: str, score: int, at: datetime, *, players: int = 3, decoys: int = 1, language: str = "en"
) -> LegendRecord:
    names = ["Ada", "Bea", "Cy", "Dot", "Eve", "Flo"][:players]
    return LegendRecord(room, at, names, players, decoys, score, 24, language)


@pytest.mark.parametrize("kind", STORES)
def test_legends_are_listed_best_first_and_earliest_among_equals(kind: str, tmp_path: Path) -> None:
    async def check(store: RoomStore) -> None:
        room = await open_room(store)
        games = [
            legend("ABCDEF", 18, AT + 2 * MINUTE),
            legend("ABCDEF", 21, AT + 3 * MINUTE),
            legend("ABCDEF", 18, AT + MINUTE),
            legend("BCDEFG", 24, AT + 4 * MINUTE, players=4, decoys=2),
            legend("BCDEFG", 12, AT + 5 * MINUTE, language="fr"),
        ]
        for game in games:  # each saved with the change that finished its game
            moved = replace(room, seq=room.seq + 1)
            await store.save(room.seq, moved, [game], game.finished_at)
            room = moved

        listed = await store.legends(players=None, decoys=None, room=None, limit=10)
        assert [(g["score"], g["finished_at"]) for g in listed] == [
            (24, iso(AT + 4 * MINUTE)),
            (21, iso(AT + 3 * MINUTE)),
            (18, iso(AT + MINUTE)),
            (18, iso(AT + 2 * MINUTE)),
            (12, iso(AT + 5 * MINUTE)),
        ]
        assert all("room" not in g for g in listed)  # a room's code is its only secret
        assert listed[0] == {
            "id": listed[0]["id"],
            "finished_at": iso(AT + 4 * MINUTE),
            "players": ["Ada", "Bea", "Cy", "Dot"],
            "player_count": 4,
            "decoys": 2,
            "score": 24,
            "max": 24,
            "language": "en",
        }
        assert len({g["id"] for g in listed}) == 5

        def scores(found: list[dict[str, object]]) -> list[object]:
            return [g["score"] for g in found]

        assert scores(await store.legends(players=4, decoys=None, room=None, limit=10)) == [24]
        assert scores(await store.legends(players=None, decoys=2, room=None, limit=10)) == [24]
        assert scores(await store.legends(players=3, decoys=1, room=None, limit=2)) == [21, 18]
        fr = await store.legends(players=None, decoys=None, room=None, limit=10, language="fr")
        assert scores(fr) == [12]
        mine = await store.legends(players=None, decoys=None, room="ABCDEF", limit=1)
        assert [(g["room"], g["score"]) for g in mine] == [("ABCDEF", 21)]
        assert await store.scores("ABCDEF") == [21, 18, 18]  # the latest first
        assert await store.scores("BCDEFG") == [12, 24]
        assert await store.scores("ZZZZZZ") == []
        assert await store.hidden_legends() == frozenset()  # the operator hid none

    run_on(kind, tmp_path, check)


@pytest.mark.parametrize("kind", STORES)
def test_idle_rooms_expire_with_their_log_and_seats_but_not_their_legends(
    kind: str, tmp_path: Path
) -> None:
    async def check(store: RoomStore) -> None:
        idle = await open_room(store, "ABCDEF", AT)
        finished = apply(idle, 0, act.Settings(decoys=2))
        await store.save(idle.seq, finished, [legend("ABCDEF", 20, AT)], AT)
        busy = await open_room(store, "BCDEFG", AT)
        await settle(store, busy, 2, AT + 10 * MINUTE)  # touched since

        assert await store.expire(AT + MINUTE) == ["ABCDEF"]
        assert await store.read("ABCDEF") is None and await store.seq("ABCDEF") is None
        assert await store.logged("ABCDEF", -2, 10) == []
        assert await store.seat(token("ABCDEF", 0).token_hash) is None
        assert await store.seats("ABCDEF") == []
        assert await store.scores("ABCDEF") == [20]
        assert await store.read("BCDEFG") is not None
        assert await store.seat(token("BCDEFG", 0).token_hash) == ("BCDEFG", 0, "")
        assert await store.expire(AT + MINUTE) == []
        # An expired room's code is free again.
        assert await open_room(store, "ABCDEF", AT + 20 * MINUTE) == await store.read("ABCDEF")

    run_on(kind, tmp_path, check)
