"""A room and its records as rows: the tables as SQLAlchemy Core sees them, and the
values that write a room, the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Table

from app.db.models import ActionRow, LegendRow, RoomRow, SeatRow
from app.rules.codec import room_to_data
from app.rules.state import Room
from app.service.store import ActionRecord, LegendRecord, SeatRecord

# SQLModel builds each table with its class.
ROOM: Table = RoomRow.__table__  # type: ignore[attr-defined]  # set by SQLModel at class creation
ACTION: Table = ActionRow.__table__  # type: ignore[attr-defined]  # likewise
SEAT: Table = SeatRow.__table__  # type: ignore[attr-defined]  # likewise
LEGEND: Table = LegendRow.__table__  # type: ignore[attr-defined]  # likewise
TABLES: dict[type, Table] = {ActionRecord: ACTION, SeatRecord: SEAT, LegendRecord: LEGEND}
"""The table each kind of record is saved in."""


def new_room_row(room: Room, at: datetime) -> dict[str, Any]:
    """The values of a new room's row."""
    return {
        "code": room.code,
        "seq": room.seq,
        "phase": room.phase,
        "state": room_to_data(room),
        "created_at": at,
        "updated_at": at,
    }


def room_over(old_seq: int, room: Room, at: datetime) -> dict[str, Any]:
    """The values that write ``room`` over the stored one at ``old_seq``: ``b_code``
    and ``b_seq`` find the row, the rest are its new values."""
    return {
        "b_code": room.code,
        "b_seq": old_seq,
        "seq": room.seq,
        "phase": room.phase,
        "state": room_to_data(room),
        "updated_at": at,
    }
