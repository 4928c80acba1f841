"""The Record of Legends as its operator keeps it: list every entry, hide one, show it again.

The Record on the home page is public, and anyone can finish a game under any names
(one person holding every seat, a name that insults): what gets there is the
operator's to judge, not the program's. A hidden legend stays in the database, out of
every list the table shows (the home page, ``GET /api/legends``, a room's best), and
can be shown again. The command line (``soclover legends``) runs this beside a live
server, on SQLite or PostgreSQL alike: each call is one short transaction.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, create_engine, desc, select, update
from sqlalchemy.pool import NullPool

from app.db.engine import sync_url
from app.db.rows import LEGEND


@dataclass(frozen=True)
class Entry:
    """One finished game in the Record, as the operator sees it: room code included."""

    id: int
    room: str
    finished_at: datetime
    players: list[str]
    decoys: int
    score: int
    max: int
    language: str
    hidden: bool


@contextmanager
def _connected(database_url: str) -> Iterator[Connection]:
    engine = create_engine(sync_url(database_url), poolclass=NullPool)
    try:
        with engine.begin() as connection:
            yield connection
    finally:
        engine.dispose()


def entries(
    database_url: str, *, limit: int = 50, players: int | None = None, hidden_only: bool = False
) -> list[Entry]:
    """Best first, as the home page orders them, hidden entries included (and marked)."""
    g = LEGEND.c
    query = select(LEGEND).order_by(desc(g.score), g.finished_at, g.id).limit(limit)
    if players is not None:
        query = query.where(g.player_count == players)
    if hidden_only:
        query = query.where(g.hidden)
    with _connected(database_url) as connection:
        rows = connection.execute(query).all()
    return [
        Entry(
            id=r.id,
            room=r.room,
            finished_at=r.finished_at,
            players=list(r.players),
            decoys=r.decoys,
            score=r.score,
            max=r.max,
            language=r.language,
            hidden=bool(r.hidden),
        )
        for r in rows
    ]


def set_hidden(database_url: str, ids: Sequence[int], hidden: bool) -> list[int]:
    """Hide (or show again) the legends ``ids``; the ids that exist, in the order given."""
    g = LEGEND.c
    with _connected(database_url) as connection:
        found = set(connection.scalars(select(g.id).where(g.id.in_(ids))))
        if found:
            connection.execute(update(LEGEND).where(g.id.in_(found)).values(hidden=hidden))
    return [i for i in ids if i in found]
