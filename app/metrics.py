"""The table's figures for Prometheus, served at ``GET /metrics`` (``app/web/metrics.py``).

Built with prometheus_client, on a registry of each application's own rather than
the library's global one: a test process makes many applications, and each counts
its own actions. On it:

- what the action path counts as it goes (``app/service/meter.py``): actions by
  type and outcome, each action's time, each save's time. A counter and two
  histograms, a few microseconds an action whatever the load;
- what is counted only when the page is read (``TableCollector``): rooms in memory,
  open streams, bots at work. Counting them at every change would put work on
  the hot path for a figure read every fifteen seconds; counting them at a read
  walks the rooms and streams once, a millisecond for thousands of streams;
- the process's own (CPU, memory, open files), the interpreter's and its garbage
  collector's: prometheus_client's collectors, registered here too.

Each process answers for itself. prometheus_client's multiprocess mode
(``PROMETHEUS_MULTIPROC_DIR``) is not used: it sums only what each process writes
to its files as it changes, so the figures counted when the page is read (rooms,
streams, bots: the live objects of one process) could not be summed without
writing every change to a file, the very cost they avoid; it leaves the process
collectors out; and it needs a folder cleared at every start. Where several
processes serve, the layout that carries most is one server per port, each room
on one of them (docs/hosting.md, "Each room on one worker"): each is a target of
its own, scraped separately. With ``soclover --workers N`` a scrape reaches
whichever worker takes the connection (docs/hosting.md, "Metrics").
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder
from prometheus_client.registry import Collector

from app.rules.state import Phase
from app.rules.views import WATCHER, viewer_of

if TYPE_CHECKING:
    from app.service.bots import BotTable
    from app.service.rooms import RoomService

log = logging.getLogger(__name__)

BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds. An action takes a few ms and the target is a p99 under 50 ms
(docs/performance.md, "The current figures"); a save waits for the disk, sometimes
half a second."""

PHASES: tuple[Phase, ...] = ("lobby", "clues", "resolution", "finished")
STREAM_KINDS = ("player", "watcher", "public")
"""Who follows an open stream: a seated player, a watcher, or someone with neither
(the public view of a room, as a link opened by someone not yet seated)."""


class TableMetrics:
    """One application's registry, and the service's meter (``app.service.meter.Meter``).

    ``service`` and ``bots`` are handed over once the application has started
    (``app/main.py``); before that, the figures read at a scrape are zeros."""

    def __init__(self, version: str, database: str) -> None:
        self.registry = CollectorRegistry()
        self.service: RoomService | None = None
        self.bots: BotTable | None = None
        self.actions = Counter(
            "soclover_actions",
            "Actions asked of this process, by type and outcome: ok, refused (by the "
            "rules or the service), conflict (409 stale), error (500).",
            ["type", "outcome"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "soclover_action_duration_seconds",
            "Time of each action, from reading the room until it is saved and told to "
            "the streams: lock, rules, save, publish (refused ones included).",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.save_seconds = Histogram(
            "soclover_save_duration_seconds",
            "Time of each save of a room with its action's records, until the database "
            "has committed it (queueing for SQLite's writer or a connection included).",
            buckets=BUCKETS,
            registry=self.registry,
        )
        build = Info(
            "soclover_build", "This server's version and database.", registry=self.registry
        )
        build.info({"version": version, "database": database})
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self.registry.register(TableCollector(self))
        self._counted: dict[str, dict[str, Counter]] = {}
        if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
            log.warning(
                "PROMETHEUS_MULTIPROC_DIR is set, but /metrics answers for its own "
                "process only: scrape each server (see docs/hosting.md, Metrics)"
            )

    def attach(self, service: RoomService, bots: BotTable | None) -> None:
        """The started application's service and bots, to be counted at a scrape."""
        self.service, self.bots = service, bots

    # The meter: called on the action path, so a dict lookup and increments, no more.

    def action(self, kind: str, outcome: str, seconds: float) -> None:
        by_outcome = self._counted.get(kind)
        if by_outcome is None:
            by_outcome = self._counted[kind] = {}
        counter = by_outcome.get(outcome)
        if counter is None:
            # ``labels`` checks and locks: once per type and outcome, not per action.
            counter = by_outcome[outcome] = self.actions.labels(kind, outcome)
        counter.inc()
        self.action_seconds.observe(seconds)

    def saved(self, seconds: float) -> None:
        self.save_seconds.observe(seconds)

    def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """The page and its content type: Prometheus' text format, or OpenMetrics when
        the scraper's ``Accept`` asks for it (the library's own choice)."""
        encode, content_type = choose_encoder(accept)
        return encode(self.registry), content_type


class TableCollector(Collector):
    """The figures counted when the page is read, from the live objects themselves.

    Runs on the event loop (the route is async), where rooms and streams change, so
    what it walks does not change under it."""

    def __init__(self, metrics: TableMetrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        service, bots = self.metrics.service, self.metrics.bots
        rooms = GaugeMetricFamily(
            "soclover_rooms_in_memory",
            "Rooms this process holds in memory, by phase (idle ones are let go of hourly).",
            labels=["phase"],
        )
        phases = dict.fromkeys(PHASES, 0)
        streams = dict.fromkeys(STREAM_KINDS, 0)
        streamed = 0
        if service is not None:
            for room in service.in_memory.rooms():
                phases[room.phase] = phases.get(room.phase, 0) + 1
            streamed = len(service.hub.watched())
            for kind in stream_kinds(service):
                streams[kind] += 1
        for phase, count in phases.items():
            rooms.add_metric([phase], count)
        yield rooms
        open_streams = GaugeMetricFamily(
            "soclover_streams_open",
            "Live streams open on this process (JSON events and pages alike), by who "
            "follows them: player, watcher, or public (no seat).",
            labels=["kind"],
        )
        for kind, count in streams.items():
            open_streams.add_metric([kind], count)
        yield open_streams
        yield GaugeMetricFamily(
            "soclover_rooms_streamed",
            "Rooms with at least one live stream open on this process.",
            value=streamed,
        )
        yield GaugeMetricFamily(
            "soclover_bots_thinking",
            "Bots' decisions under way in the thinking process (waiting for it included).",
            value=0 if bots is None else bots.thinking,
        )
        yield GaugeMetricFamily(
            "soclover_bot_rooms",
            "Rooms whose bots are at work: thinking, or waiting a person's time to act.",
            value=0 if bots is None else bots.playing(),
        )


def stream_kinds(service: RoomService) -> Iterator[str]:
    """The kind (``STREAM_KINDS``) of each open stream of ``service``, by what its
    follower is in the room as held now: a watcher who sat down counts as the player
    they became, a player who left as the public."""
    for code, pid in service.hub.streams():
        room = service.in_memory.get(code)
        viewer = viewer_of(room, pid) if room is not None else pid
        if viewer is None:
            yield "public"
        elif viewer == WATCHER:
            yield "watcher"
        else:
            yield "player"
