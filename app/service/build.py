"""The room service, built and wired: the one place its parts are made.

The server (``app/main.py``) and the tests (``tests/service/support.py``) both
call ``build_service``; every part is made here and handed to those that use
it, and nothing is set on the service afterwards. What differs from one server
to another (the store, the decks, what processes share, the clock, the bots'
languages) is an argument.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.rules.deck import Deck
from app.rules.state import LANGUAGES, Room
from app.service.action_path import ActionPath, Listener
from app.service.claims import ClaimDesk
from app.service.clock import Clock, utcnow
from app.service.cluster import Cluster, LocalCluster
from app.service.following import Follower
from app.service.history import HistoryBook
from app.service.hub import RoomHub
from app.service.in_memory import RoomsInMemory
from app.service.legends import LegendBook
from app.service.locks import RoomLocks
from app.service.meter import UNMETERED, Meter
from app.service.presence import PresenceReports, PresenceTracker
from app.service.ratelimit import RateLimiter
from app.service.replay import Replay
from app.service.rooms import RoomService
from app.service.seats import SeatBook
from app.service.store import RoomStore
from app.service.stream_slots import STREAMS_PER_SEAT, StreamSlots
from app.service.viewing import RoomViews


def build_service(
    store: RoomStore,
    deck: Deck,
    *,
    decks: Mapping[str, Deck] | None = None,
    cluster: Cluster | None = None,
    presence: PresenceTracker | None = None,
    clock: Clock = utcnow,
    chat_limits: RateLimiter | None = None,
    meter: Meter = UNMETERED,
    bot_languages: frozenset[str] = frozenset(),
    streams_per_seat: int = STREAMS_PER_SEAT,
) -> RoomService:
    """A room service over ``store``, its parts wired.

    ``deck``: the English deck, and ``decks`` any other language's (a room chooses
    among them); ``cluster``: what this process shares with others (nothing, on its
    own); ``presence``: the signs of life (a 30 s grace by default); ``clock``: the
    time of every action; ``chat_limits``: per seat, a few lines at once, then about
    one a second; ``meter``: told of every action and save (the metrics page);
    ``bot_languages``: the languages this server's bots speak (none without their
    brain); ``streams_per_seat``: the live streams one seat token holds open at once.
    The store is the caller's to close.
    """
    all_decks = {**(decks or {}), "en": deck}
    cluster = cluster or LocalCluster({})
    tracker = presence or PresenceTracker(30)
    hub, locks = RoomHub(), RoomLocks()
    after_change: list[Listener] = []
    in_memory = RoomsInMemory(store, _first_read(tracker, after_change))
    legends = LegendBook(store, in_memory, clock)
    replay = Replay(store, in_memory, hub, locks, legends, deck.cards)
    path = ActionPath(
        store,
        in_memory,
        locks,
        hub,
        replay,
        legends,
        decks=all_decks,
        cluster=cluster,
        clock=clock,
        meter=meter,
        bot_languages=bot_languages,
        after_change=after_change,
    )
    views = RoomViews(
        path.load,
        legends,
        HistoryBook(store),
        languages=[language for language in LANGUAGES if language in all_decks],
        bot_languages=bot_languages,
    )
    seats = SeatBook(store, in_memory.get, path.load)
    reports = PresenceReports(tracker, cluster, in_memory, path.apply)
    return RoomService(
        path,
        views,
        seats,
        ClaimDesk(path.apply, path.load, seats, clock),
        reports,
        Follower(hub, tracker, path.load, views, reports.sync, StreamSlots(streams_per_seat)),
        chat_limits=chat_limits or RateLimiter(60, burst=8),
    )


def _first_read(tracker: PresenceTracker, after_change: list[Listener]) -> Listener:
    """What a room read from disk, not held here yet, is met with (after a restart)."""

    def met(room: Room) -> None:
        # Players shown present before a restart get the grace period to come back.
        for player in room.players:
            if player.present and not player.bot:
                tracker.touch(room.code, player.pid)
        for listener in after_change:  # a room read again after a restart: its bots
            listener(room)

    return met
