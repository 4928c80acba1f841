"""What leaves the service: a room as one seat may see it, with what the service adds.

``rules/views.py`` cuts what a seat may see; here its view gets what only the
service knows: the languages this table offers and its bots speak, the room's
best game and the Record of Legends, and the history on the end screen. The
streams (``following.Follower``) build their views here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from app.rules.state import Room
from app.rules.view_types import HistoryOut, Own
from app.rules.views import Audience, Viewer, audience, common, history_view, own, viewer_of
from app.service.errors import RoomNotFound
from app.service.history import HistoryBook
from app.service.legends import LegendBook
from app.service.room_state import CommonState, RoomState

TABLE_LEGENDS = 5
"""Legends of the table's size shown on the end screen."""


class RoomViews:
    def __init__(
        self,
        load: Callable[[str], Awaitable[Room]],
        legends: LegendBook,
        history_book: HistoryBook,
        *,
        languages: list[str],
        bot_languages: frozenset[str],
    ) -> None:
        """``languages``: those a room may play in here; ``bot_languages``: those this
        server's bots speak (none without the bots' brain)."""
        self.load = load
        self.legends = legends
        self.history_book = history_book
        self.languages = languages
        self.bot_languages = bot_languages

    async def view(self, code: str, pid: int | None) -> RoomState:
        """The room as the player or watcher ``pid`` may see it (``None``, or neither: the
        public view), with the whole recent chat. ``RoomNotFound`` if there is no such room."""
        room = await self.load(code)
        viewer = viewer_of(room, pid)
        if room.practice and viewer is None:
            raise RoomNotFound()  # a practice table's code opens it to nobody else
        return await self.room_view(room, viewer)

    async def room_view(self, room: Room, seat: Viewer, chat_after: int | None = None) -> RoomState:
        """The per-seat view (``seat`` may be any watcher: see ``views.WATCHER``), plus
        what the Record of Legends says of this room."""
        common_part = await self.common_view(room, audience(room, seat), chat_after)
        return {**self.own_view(room, seat), **common_part}

    def own_view(self, room: Room, seat: Viewer) -> Own:
        """``views.own``: who reads the view and what they may do, bots offered where
        this server's bots play."""
        return own(room, seat, self.bot_languages)

    async def common_view(
        self, room: Room, shared_by: Audience, chat_after: int | None = None
    ) -> CommonState:
        """``room_view`` but for its ``views.own`` part: the same for every viewer of
        ``shared_by`` (see ``views.audience``), built once for all of them."""
        data = common(
            room,
            shared_by,
            chat_after=chat_after,
            languages=self.languages,
            bot_languages=self.bot_languages,
        )
        finished = room.phase == "finished"
        return {
            **data,
            "best": await self.legends.best(room.code),
            "record": finished and await self.legends.is_record(room.code),
            "legends": (
                await self.legends.listed(players=len(room.players), limit=TABLE_LEGENDS)
                if finished
                else None
            ),
            # The end screen shows the whole game again; during the game the history is a
            # read of its own (GET .../history), not a weight on every move's view.
            "history": (await self.room_history(room))["clovers"] if finished else None,
        }

    async def history(self, code: str) -> HistoryOut:
        """The current game's checked clovers, with their tries: the same for every seat
        and for anyone with the room's code (``views.history_view``). ``RoomNotFound`` if
        there is no such room."""
        return await self.room_history(await self.load(code))

    async def room_history(self, room: Room) -> HistoryOut:
        """``history`` of a room at hand."""
        return history_view(await self.history_book.settled(room))
