"""The game remembered: a room's checked clovers and their tries, from the action log.

The room's state forgets each clover's tries once the table moves on, so the
history is rebuilt by the rules (``app/rules/history.py``) from the current
game's log. A replay reads the log and replays the game so far, so its
result is kept per room while it still holds: the checked clovers change only
when another clover is checked or another game begins, while most actions
(every move, every chat line, every presence report) leave them as they were.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import replace

from app.rules.codec import action_from_data, room_from_data
from app.rules.errors import RuleError
from app.rules.history import GameRecord, LogMismatch, Step, record_game
from app.rules.state import Room
from app.service.store import RoomStore

log = logging.getLogger(__name__)

KEPT_ROOMS = 256
"""Rooms whose settled history is kept; the least recently read goes first."""

GameKey = tuple[tuple[str, ...], int]
"""Which game a room plays (its deal's card ids, drawn at random for each game) and
how many of its clovers are checked: the settled history of a room is the same as
long as both are."""


def game_key(room: Room) -> GameKey:
    deal = tuple(card.id for clover in room.clovers for card in clover.all_cards())
    return deal, len(room.results)


class HistoryBook:
    def __init__(self, store: RoomStore) -> None:
        self.store = store
        self._settled: OrderedDict[str, tuple[GameKey, GameRecord]] = OrderedDict()

    async def settled(self, room: Room) -> GameRecord:
        """``room``'s game as far as it is settled: its checked clovers, as of ``room.seq``.

        Before the first check there is nothing to read: the log is only read once a
        clover is checked, and then once per check. A log that does not replay into
        this room (it cannot happen unless the database was changed by hand) gives an
        empty history, said in the server's log: the table plays on without it.
        """
        if not room.results:
            return GameRecord(room.code, room.seq)
        key = game_key(room)
        known = self._settled.get(room.code)
        if known is not None and known[0] == key:
            self._settled.move_to_end(room.code)
            return replace(known[1], seq=room.seq)
        record = await self._replayed(room)
        if record is None:
            return GameRecord(room.code, room.seq)
        self._settled[room.code] = (key, record)
        self._settled.move_to_end(room.code)
        while len(self._settled) > KEPT_ROOMS:
            self._settled.popitem(last=False)
        return record

    async def _replayed(self, room: Room) -> GameRecord | None:
        logged = await self.store.game_log(room.code, room.seq)
        try:
            if not logged or logged[0].state is None:
                raise LogMismatch("no game start in the log")
            start = room_from_data(logged[0].state)
            steps = [Step(e.seq, e.seat, action_from_data(e.action), e.player) for e in logged[1:]]
            record = record_game(start, steps).settled()
            scores = [c.score for c in record.clovers]
            if record.seq != room.seq or scores != [r.score for r in room.results]:
                raise LogMismatch(f"the log replays to seq {record.seq}, scores {scores}")
        except (LogMismatch, RuleError, KeyError, TypeError, ValueError) as broken:
            log.warning("history of %s at seq %s not rebuilt: %s", room.code, room.seq, broken)
            return None
        return record
