"""What the action path tells the metrics page (``app/service/meter.py``,
``app/metrics.py``), driven through ``RoomService`` on a real SQLite file.

Every action is counted once, by its type and how it ended, with its time; every
save is timed; what is counted at a read (rooms, streams, bots) is what the service
holds at that moment.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from app.metrics import TableMetrics
from app.rules import actions as act
from app.rules.errors import RuleError
from app.service import bots as bots_module
from app.service.bots import BotTable
from app.service.errors import StaleAction
from app.service.meter import UNKNOWN
from app.service.rooms import RoomService
from app.service.seats import Seat
from tests.service.support import run_async, sqlite_service


@contextlib.asynccontextmanager
async def metered_service(tmp_path: Path) -> AsyncIterator[tuple[RoomService, TableMetrics]]:
    """A service on SQLite whose meter is the metrics page's, as the server wires it."""
    metrics = TableMetrics("test", "sqlite")
    async with sqlite_service(tmp_path, meter=metrics) as service:
        metrics.attach(service, None)
        yield service, metrics


def counted(metrics: TableMetrics, kind: str, outcome: str) -> float:
    value = metrics.registry.get_sample_value(
        "soclover_actions_total", {"type": kind, "outcome": outcome}
    )
    return value or 0.0


def every_action(metrics: TableMetrics) -> float:
    return sum(
        sample.value
        for family in metrics.registry.collect()
        if family.name == "soclover_actions"
        for sample in family.samples
        if sample.name == "soclover_actions_total"
    )


def sample(metrics: TableMetrics, name: str, labels: dict[str, str] | None = None) -> float:
    value = metrics.registry.get_sample_value(name, labels or {})
    assert value is not None, name
    return value


def test_each_action_is_counted_once_by_type_and_outcome_with_its_time(tmp_path: Path) -> None:
    async def check() -> None:
        async with metered_service(tmp_path) as (service, metrics):
            code = (await service.create("Ada", 1)).code
            await service.join(code, "Bea")
            await service.join(code, "Cy")
            host, guest = Seat(code, 0), Seat(code, 1)
            await service.act(code, host, act.Say("hello"))
            seq = (await service.load(code)).seq
            with pytest.raises(RuleError):  # only the host starts
                await service.act(code, guest, act.Start())
            with pytest.raises(StaleAction):  # sent for a seq the room has left
                await service.act(code, host, act.Say("late"), expect_seq=seq - 1)
            with pytest.raises(RuleError):  # nobody's seat: refused before it is built
                await service.apply(code, 99, lambda _room: act.Say("who?"))
            # Nothing to do is no action.
            await service.apply(code, None, lambda _room: None)

            real_save = service.store.save

            async def broken(*args: Any, **kwargs: Any) -> None:
                raise OSError("the disk is gone")

            service.store.save = broken  # type: ignore[method-assign]
            with pytest.raises(OSError):
                await service.act(code, host, act.Say("lost"))
            service.store.save = real_save  # type: ignore[method-assign]

            assert counted(metrics, "create", "ok") == 1
            assert counted(metrics, "join", "ok") == 2
            assert counted(metrics, "say", "ok") == 1
            assert counted(metrics, "start", "refused") == 1
            assert counted(metrics, "say", "conflict") == 1
            assert counted(metrics, UNKNOWN, "refused") == 1
            assert counted(metrics, UNKNOWN, "ok") == 0  # the apply with nothing to do
            assert counted(metrics, "say", "error") == 1
            # Presence reports the service made on its own count as actions too; the
            # histogram holds every counted action's time, no more, no less.
            assert every_action(metrics) >= 8
            timed = sample(metrics, "soclover_action_duration_seconds_count")
            assert timed == every_action(metrics)
            assert sample(metrics, "soclover_action_duration_seconds_sum") > 0
            # Saves: two joins, the chat line and the failed one (a refusal saves nothing),
            # and whatever presence reports were saved.
            presence = counted(metrics, "presence", "ok")
            assert sample(metrics, "soclover_save_duration_seconds_count") == 4 + presence

    run_async(check())


def test_rooms_and_streams_are_counted_when_read(tmp_path: Path) -> None:
    async def check() -> None:
        async with metered_service(tmp_path) as (service, metrics):
            code = (await service.create("Ada", 1)).code
            watching = await service.watch(code, "Wes")
            other = (await service.create("Bea", 1)).code
            for name in ("Cy", "Dot"):
                await service.join(other, name)
            await service.act(other, Seat(other, 0), act.Start())

            def streams(kind: str) -> float:
                return sample(metrics, "soclover_streams_open", {"kind": kind})

            assert sample(metrics, "soclover_rooms_in_memory", {"phase": "lobby"}) == 1
            assert sample(metrics, "soclover_rooms_in_memory", {"phase": "clues"}) == 1
            assert sample(metrics, "soclover_rooms_in_memory", {"phase": "finished"}) == 0
            assert [streams(k) for k in ("player", "watcher", "public")] == [0, 0, 0]

            followers = [
                service.follow(code, Seat(code, 0)),
                service.follow(code, Seat(code, watching.watcher)),
                service.follow(code, None),
                service.follow(other, None),
            ]
            for follower in followers:
                await anext(follower)  # the first update: the stream is open
            assert [streams(k) for k in ("player", "watcher", "public")] == [1, 1, 2]
            assert sample(metrics, "soclover_rooms_streamed") == 2
            for follower in followers:
                await follower.aclose()  # type: ignore[attr-defined]
            assert [streams(k) for k in ("player", "watcher", "public")] == [0, 0, 0]
            assert sample(metrics, "soclover_rooms_streamed") == 0

    run_async(check())


def test_bots_thinking_are_counted_while_they_think(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thinking process is stood in for by a thread whose thought waits for the
    test, so the gauge is read while a decision is under way."""
    thinking, done = threading.Event(), threading.Event()

    def slow_think(view: dict[str, Any]) -> tuple[None, float]:
        thinking.set()
        done.wait(10)
        return None, 0.0

    monkeypatch.setattr(bots_module, "think", slow_think)

    async def check() -> None:
        async with metered_service(tmp_path) as (service, metrics):
            table = BotTable(service)
            table._thinker.shutdown()
            table._thinker = ThreadPoolExecutor(max_workers=1)  # type: ignore[assignment]
            metrics.attach(service, table)
            assert sample(metrics, "soclover_bots_thinking") == 0
            decision = asyncio.create_task(table._decide({}))
            await asyncio.to_thread(thinking.wait, 10)
            assert sample(metrics, "soclover_bots_thinking") == 1
            done.set()
            assert await decision is None
            assert sample(metrics, "soclover_bots_thinking") == 0
            assert sample(metrics, "soclover_bot_rooms") == 0
            await table.stop()

    run_async(check())
