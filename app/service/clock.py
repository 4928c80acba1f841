"""The server's clock, and times as the API writes them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """``2026-12-01T09:30:00Z``: to the second, in UTC."""
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def epoch_ms(moment: datetime) -> int:
    """Milliseconds since 1970 in UTC: how the rules and the pages count the table's clock."""
    return round(moment.timestamp() * 1000)


def shifted_clock(path: Path) -> Clock:
    """The real time moved on by the seconds written in ``path`` (no file: not moved).

    For tests of the table's clock against a real server: they write how far the
    server's time has gone ahead, and a countdown of minutes runs out at once, in
    that server and in one started after it with the same file. Read at every call:
    only a test server runs on it.
    """

    def clock() -> datetime:
        try:
            offset = float(path.read_text().strip() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return utcnow() + timedelta(seconds=offset)

    return clock
