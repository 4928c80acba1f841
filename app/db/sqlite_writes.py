"""The room store's writes on SQLite, as SQL text compiled once, run by its writer thread.

The writer hands each write the driver's own connection (``sqlite3``). Through
SQLAlchemy's ``Connection.execute`` the Python around a statement (an execution
context, events, the compiled-statement cache, a result object) cost more than
SQLite's own work, and the writer thread a large share of the server's CPU
(docs/performance.md, "SQLite's writer: SQL text on the driver's own
connection"). The statements are still written in
SQLAlchemy Core, next to the tables, and compiled here once with the SQLite
dialect, whose own converters turn datetimes and JSON into what its reads expect.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from app.db.rows import ROOM, TABLES, new_room_row, room_over
from app.jsontext import to_text
from app.rules.state import UNOPENED, Room
from app.service.errors import StaleAction
from app.service.store import CodeTaken, Record

_DIALECT = sqlite.dialect(json_serializer=to_text)


@dataclass(frozen=True)
class Prepared:
    """One statement as ``sqlite3`` takes it: ``?`` placeholders filled from named values."""

    sql: str
    names: tuple[str, ...]
    """The values' names, in the order of the placeholders."""
    convert: tuple[Callable[[Any], Any] | None, ...]
    """The dialect's converter for each value (a datetime to text, JSON to text), if any."""

    def run(self, db: sqlite3.Connection, values: Mapping[str, Any]) -> sqlite3.Cursor:
        return db.execute(
            self.sql,
            [
                value if convert is None else convert(value)
                for value, convert in zip(
                    (values[name] for name in self.names), self.convert, strict=True
                )
            ],
        )


def prepare(statement: ClauseElement, columns: Sequence[str] | None = None) -> Prepared:
    """Compile ``statement`` for SQLite once (an insert for exactly ``columns``)."""
    compiled = statement.compile(dialect=_DIALECT, column_keys=list(columns or ()) or None)
    assert isinstance(compiled, SQLCompiler)
    names = tuple(compiled.positiontup or ())
    convert = tuple(
        compiled.binds[name].type.dialect_impl(_DIALECT).bind_processor(_DIALECT) for name in names
    )
    return Prepared(compiled.string, names, convert)


_ROOM_COLUMNS = ("code", "seq", "phase", "state", "created_at", "updated_at")
_INSERT_ROOM = prepare(ROOM.insert(), _ROOM_COLUMNS)
_UPDATE_ROOM = prepare(
    ROOM.update()
    .where(ROOM.c.code == bindparam("b_code"), ROOM.c.seq == bindparam("b_seq"))
    .values(
        seq=bindparam("seq"),
        phase=bindparam("phase"),
        state=bindparam("state"),
        updated_at=bindparam("updated_at"),
    )
)
_IDLE_ROOMS = prepare(select(ROOM.c.code).where(ROOM.c.updated_at < bindparam("idle_since")))
_DELETE_ROOM = prepare(ROOM.delete().where(ROOM.c.code == bindparam("b_code")))
_INSERTS = {
    kind: prepare(table.insert(), [f.name for f in fields(kind)]) for kind, table in TABLES.items()
}


def insert(db: sqlite3.Connection, records: Sequence[Record]) -> None:
    """Insert records in the order given: a room before the rows that point at it."""
    for record in records:
        _INSERTS[type(record)].run(db, record.__dict__)


def save(
    db: sqlite3.Connection, old_seq: int, room: Room, records: Sequence[Record], at: datetime
) -> None:
    """Write ``room`` over the stored one, only if that is still at ``old_seq``; over
    ``UNOPENED``, as a new room, only if its code is nobody's."""
    if old_seq == UNOPENED:
        try:
            _INSERT_ROOM.run(db, new_room_row(room, at))
        except sqlite3.IntegrityError:
            raise CodeTaken() from None
    elif _UPDATE_ROOM.run(db, room_over(old_seq, room, at)).rowcount != 1:
        raise StaleAction()
    insert(db, records)


def expire(db: sqlite3.Connection, idle_since: datetime) -> list[str]:
    """Delete the rooms untouched since ``idle_since`` (their seats and actions go too)."""
    codes = [code for (code,) in _IDLE_ROOMS.run(db, {"idle_since": idle_since})]
    for code in codes:
        _DELETE_ROOM.run(db, {"b_code": code})
    return codes
