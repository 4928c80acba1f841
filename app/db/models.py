"""The tables. The schema itself comes only from the Alembic migrations.

A room's current state is one JSON document (``RoomRow.state``); every
accepted action is also appended to ``ActionRow`` with its ``seq``: the audit
trail, the answer to ``Last-Event-ID``, and enough to replay a game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, ForeignKey, Index, String, UniqueConstraint, false
from sqlmodel import Field, SQLModel


class RoomRow(SQLModel, table=True):
    __tablename__ = "room"

    code: str = Field(primary_key=True, max_length=12)
    seq: int
    phase: str = Field(max_length=16)
    state: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime
    updated_at: datetime = Field(index=True)


class SeatRow(SQLModel, table=True):
    """A seat token (stored hashed) and the player it stands for."""

    __tablename__ = "seat"

    token_hash: str = Field(primary_key=True, max_length=64)
    room: str = Field(
        sa_column=Column(
            String(12), ForeignKey("room.code", ondelete="CASCADE"), nullable=False, index=True
        )
    )
    pid: int
    created_at: datetime
    device: str = Field(default="", max_length=32)
    """Which device of the seat this token opens: "" for the one that took the seat, or
    the claim that moved it. It stands for the seat while the room names that device."""


class ActionRow(SQLModel, table=True):
    __tablename__ = "action"
    __table_args__ = (UniqueConstraint("room", "seq", name="uq_action_room_seq"),)

    id: int | None = Field(default=None, primary_key=True)
    room: str = Field(
        sa_column=Column(String(12), ForeignKey("room.code", ondelete="CASCADE"), nullable=False)
    )
    seq: int
    seat: int | None = None
    """The acting seat at the time, as the engine took it (replays need it)."""
    player: int | None = None
    """The acting player's id, which never changes (seats move when someone leaves)."""
    action: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    at: datetime
    state: dict[str, Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )
    """The room after this action, kept for the actions that begin a game: replaying a
    room's changes starts from there and does not depend on the deck of the day."""


class LegendRow(SQLModel, table=True):
    """A finished game in the Record of Legends; kept when its room expires."""

    __tablename__ = "legend"
    __table_args__ = (Index("ix_legend_count_score", "player_count", "score"),)

    id: int | None = Field(default=None, primary_key=True)
    room: str = Field(max_length=12, index=True)
    finished_at: datetime
    players: list[str] = Field(sa_column=Column(JSON, nullable=False))
    player_count: int
    decoys: int
    score: int
    max: int
    language: str = Field(default="en", max_length=8)
    # Hidden by the operator (``soclover legends hide``): kept, but listed nowhere.
    # No default on Python's side: inserts leave it out, the database's default stands.
    hidden: bool = Field(sa_column=Column(Boolean, nullable=False, server_default=false()))


class PresenceRow(SQLModel, table=True):
    """Signs of life shared by several server processes: who was seen, and when."""

    __tablename__ = "presence"

    room: str = Field(primary_key=True, max_length=12)
    pid: int = Field(primary_key=True)
    seen_at: datetime = Field(index=True)


class RateRow(SQLModel, table=True):
    """Request counts per client and minute, shared by several server processes."""

    __tablename__ = "rate_limit"

    key: str = Field(primary_key=True, max_length=80)
    window: int = Field(primary_key=True)
    count: int
