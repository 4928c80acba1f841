"""Wiring: settings, database, deck, service, routes. No game logic here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.telemetry import TelemetryConfig
from starlette.types import ASGIApp

from app.bots import LANGUAGES as BOT_LANGUAGES
from app.bots.model import missing_packages
from app.config import Settings, get_settings
from app.db.engine import asyncpg_dsn, is_sqlite, make_async_engine, make_sessionmaker
from app.db.migrate import upgrade
from app.db.shared import PostgresCluster
from app.db.store import PostgresStore, SqliteStore
from app.db.writer import SqliteWriter
from app.decks import load_configured_decks
from app.metrics import TableMetrics
from app.resources import static_dir
from app.rules.languages import warm_checkers
from app.service import housekeeping
from app.service.bots import BotTable, Paces
from app.service.build import build_service
from app.service.clock import shifted_clock, utcnow
from app.service.cluster import Cluster, LocalCluster
from app.service.lesson import LessonPaces, LessonTable
from app.service.presence import PresenceTracker
from app.service.ratelimit import RateLimiter
from app.service.rooms import RoomService
from app.service.store import RoomStore
from app.service.timers import TableClock
from app.web import (
    api,
    api_docs,
    claim_pages,
    errors,
    events,
    i18n,
    install,
    live,
    pages,
    seat_links,
)
from app.web.compress import CompressPages
from app.web.metrics import router as metrics_router
from app.web.renderings import Renderings
from app.web.security import SecurityMiddleware, redact_access_log
from app.web.static import TableStatic
from app.web.streams import StreamDoor, close_streams_at_shutdown

log = logging.getLogger("soclover")

STATIC = static_dir()
# Whatever the machine's own mime.types says (older ones lack it): the manifest's own type.
mimetypes.add_type("application/manifest+json", ".webmanifest")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_access_log()
        await asyncio.to_thread(
            upgrade, settings.database_url, wait_seconds=settings.database_wait_seconds
        )
        engine = make_async_engine(settings.database_url)
        sessions = make_sessionmaker(engine)
        limits = {
            "join": settings.join_rate_per_minute,
            "create": settings.create_rate_per_minute,
            "lookup": settings.lookup_rate_per_minute,
            "claim": settings.claim_rate_per_minute,
            "claim-room": settings.claim_room_rate_per_minute,
            "claim-share": settings.claim_room_share_per_minute,
        }
        writer: SqliteWriter | None = None
        store: RoomStore
        cluster: Cluster
        if is_sqlite(settings.database_url):
            writer = SqliteWriter(settings.database_url)
            store, cluster = SqliteStore(engine, writer), LocalCluster(limits)
        else:
            store = PostgresStore(engine, asyncpg_dsn(settings.database_url))
            cluster = PostgresCluster(settings.database_url, sessions, limits)
        service = build_service(
            store,
            app.state.deck,
            decks=app.state.decks,
            cluster=cluster,
            presence=PresenceTracker(settings.presence_grace_seconds),
            clock=shifted_clock(settings.clock_file) if settings.clock_file else utcnow,
            chat_limits=RateLimiter(settings.chat_lines_per_minute, burst=settings.chat_burst),
            meter=app.state.metrics,
            bot_languages=BOT_LANGUAGES if _bots_offered(settings) else frozenset(),
            streams_per_seat=settings.streams_per_seat,
        )
        app.state.service = service
        bots = _bot_table(service, settings)
        # Every server offers the lesson: its bots play a script and need no brain.
        lessons = LessonTable(service, LessonPaces().scaled(settings.bot_pace))
        lessons.start()
        app.state.metrics.attach(service, bots)
        clock = TableClock(service)
        clock.start()
        await cluster.start(service.catch_up, service.followed, service.behind)
        tasks = [
            asyncio.create_task(
                housekeeping.every(
                    settings.presence_sweep_seconds, lambda: housekeeping.sweep_presence(service)
                )
            ),
            asyncio.create_task(housekeeping.ping_streams(service.hub, settings.ping_seconds)),
            asyncio.create_task(close_streams_at_shutdown(service.hub)),
            asyncio.create_task(
                housekeeping.every(
                    settings.expiry_sweep_seconds,
                    lambda: housekeeping.tidy(service, timedelta(days=settings.room_expiry_days)),
                )
            ),
        ]
        # Each checker's word data is read now, not at a player's first clue, where it
        # would hold up every room for a fraction of a second.
        await asyncio.to_thread(warm_checkers, service.languages)
        housekeeping.calm_garbage_collector()
        app.state.ready = True
        try:
            yield
        finally:
            app.state.ready = False
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await clock.stop()
            if bots is not None:
                await bots.stop()
            await lessons.stop()
            await cluster.stop()
            await store.close()
            if writer is not None:
                writer.close()
            await engine.dispose()

    app = TableApp(
        title="So Clover! table",
        summary="Rooms, actions and live events for the cooperative word game So Clover!",
        version="0.1.0",
        lifespan=lifespan,
        # FastAPI's own /docs and /redoc load from a CDN: app.web.api_docs serves /docs.
        docs_url=None,
        redoc_url=None,
        # FastAPI's own OpenTelemetry, on request: otherwise every request would ask
        # the global providers whether any is set up (docs/performance.md, "Routes
        # written once"). The table's own numbers are at /metrics.
        telemetry=None if settings.opentelemetry else NO_TELEMETRY,
    )
    app.state.settings = settings
    app.state.decks = load_configured_decks(settings)
    app.state.deck = app.state.decks["en"]
    app.state.ready = False
    app.state.renderings = Renderings()
    app.state.metrics = TableMetrics(
        app.version, "sqlite" if is_sqlite(settings.database_url) else "postgresql"
    )
    app.add_middleware(CompressPages, minimum_size=800)
    app.add_middleware(SecurityMiddleware)
    errors.install(app)
    # The action route first: the one matched most; then the rest of the API.
    api.add_first_routes(app)
    pages.add_stream_route(app)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(seat_links.router)
    app.include_router(claim_pages.router)
    app.include_router(install.router)
    app.include_router(i18n.router)
    app.include_router(metrics_router)
    app.include_router(api_docs.router)
    app.mount("/static", TableStatic(directory=STATIC), name="static")

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, str]:
        """200 once the schema is up to date and the app serves."""
        return {"status": "ok" if app.state.ready else "starting"}

    # HEAD as well, for probes that ask no body; one operation in the API's document.
    app.add_api_route("/healthz", healthz, methods=["HEAD"], include_in_schema=False)

    return app


LIVE_STREAMS = (events.room_events, live.room_stream)
"""The endpoints of the two live streams, opened ahead of the middleware (``TableApp``)."""

NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


class TableApp(FastAPI):
    """FastAPI, with a GET of a live stream handed to its route ahead of the middleware
    (``app.web.streams.StreamDoor``)."""

    def build_middleware_stack(self) -> ASGIApp:
        stack = super().build_middleware_stack()
        streams = [
            route
            for route in self.router.routes
            if isinstance(route, APIRoute) and route.endpoint in LIVE_STREAMS
        ]
        return StreamDoor(stack, streams, self.exception_handlers)


def _bots_offered(settings: Settings) -> bool:
    """Whether bots are offered here and their brain is installed."""
    return settings.bots and not missing_packages()


def _bot_table(service: RoomService, settings: Settings) -> BotTable | None:
    """The bots' table, started, where the service's bots speak a language."""
    if not service.bot_languages:
        return None
    table = BotTable(service, Paces().scaled(settings.bot_pace))
    table.start()
    return table
