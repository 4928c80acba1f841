"""Where rooms live between actions: the storage port of the room service.

The service asks for a room, saves a room together with the records of the
action that made it, and reads the Record of Legends; it never sees a table
or a statement. One implementation per database (``app/db/store.py``) owns
every SQL statement: SQLite writes through its one writer thread, PostgreSQL
announces each change with ``NOTIFY`` inside the transaction that saves it.
Both save a room only over the ``seq`` it was read at, so two processes can
never both apply an action to the same state; a room's opening is saved the same
way, over none (``state.UNOPENED``), only while its code is nobody's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from app.rules.state import Room

Data = dict[str, Any]


@dataclass(frozen=True)
class ActionRecord:
    """A line of the room's action log: the audit trail, and enough to replay a game."""

    room: str
    seq: int
    seat: int | None
    """The acting seat at the time, as the engine took it (replays need it)."""
    player: int | None
    """The acting player's id, which never changes (seats move when someone leaves)."""
    action: Data
    at: datetime
    state: Data | None = None
    """The whole room after the action, for the actions a replay may start from."""


@dataclass(frozen=True)
class SeatRecord:
    """A seat token, stored hashed, and the player it stands for."""

    token_hash: str
    room: str
    pid: int
    created_at: datetime
    device: str = ""
    """"" for the device that took the seat; else the claim that may move it there."""


@dataclass(frozen=True)
class LegendRecord:
    """A finished game in the Record of Legends; it stays when its room expires."""

    room: str
    finished_at: datetime
    players: list[str]
    player_count: int
    decoys: int
    score: int
    max: int
    language: str = "en"


Record = ActionRecord | SeatRecord | LegendRecord


@dataclass(frozen=True)
class Logged:
    """An action read back from the log."""

    seq: int
    seat: int | None
    action: Data
    state: Data | None
    player: int | None = None
    """The acting player's or watcher's id: a watcher's action has no seat to replay by."""


class CodeTaken(Exception):
    """Another room already has that code."""


class RoomStore(Protocol):
    async def save(self, old_seq: int, room: Room, records: Sequence[Record], at: datetime) -> None:
        """Store ``room`` over the one at ``old_seq``, with ``records``, in one transaction;
        ``StaleAction`` (nothing written) if the stored room is no longer at ``old_seq``.
        Over ``state.UNOPENED`` (``room`` is the first state of a room): stored as a new room,
        or ``CodeTaken`` (nothing written) if another room has its code."""

    async def read(self, code: str) -> Room | None: ...

    async def seq(self, code: str) -> int | None: ...

    async def logged(self, code: str, after: int, upto: int) -> list[Logged]:
        """The logged actions of ``code`` with ``after < seq <= upto``, in order."""

    async def game_log(self, code: str, upto: int) -> list[Logged]:
        """The current game's logged actions up to ``upto``, in order: from the latest
        action at or before ``upto`` that logged its state whole (the game's ``Start``),
        that one included; none if no game has begun by then."""

    async def seat(self, token_hash: str) -> tuple[str, int, str] | None:
        """The room, player and device a seat token stands for."""

    async def seats(self, code: str) -> list[tuple[str, int, str]]:
        """Every seat token of ``code``: its hash, player and device."""

    async def legends(
        self,
        *,
        players: int | None,
        decoys: int | None,
        room: str | None,
        limit: int,
        language: str | None = None,
    ) -> list[Data]:
        """Finished games, best score first (the earliest first among equals)."""

    async def scores(self, code: str) -> list[int | None]:
        """A room's finished games' scores, the latest first; ``None`` for a game its
        operator hid from the Record (``soclover legends hide``), which counts nowhere."""

    async def hidden_legends(self) -> frozenset[int]:
        """The ids of the legends the operator hid from the Record; few, if any."""

    async def expire(self, idle_since: datetime) -> list[str]:
        """Delete the rooms untouched since ``idle_since`` (their legends stay); their codes."""

    async def close(self) -> None:
        """Close the connections the store opened itself; at the server's stop."""
