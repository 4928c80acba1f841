"""Who is at the table, as a test decides it: open streams keep players present, and
a server started with ``QUICK`` sees a quiet player away within a second."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .players import Player, room_when
from .stream import Stream

QUICK = {"SOCLOVER_PRESENCE_GRACE_SECONDS": "0.5", "SOCLOVER_PRESENCE_SWEEP_SECONDS": "0.2"}
"""Server settings: away half a second after the last sign, swept five times a second."""


@contextmanager
def present(players: list[Player]) -> Iterator[list[Stream]]:
    """Each of ``players`` with a stream open (a player with an open stream is present)."""
    streams = [Stream(f"{p.base}/api/rooms/{p.code}/events", dict(p.headers)) for p in players]
    try:
        for stream in streams:
            stream.next()
        yield streams
    finally:
        for stream in streams:
            stream.close()


def gone_quiet(player: Player) -> None:
    """Wait until the table sees ``player`` away (they make no request meanwhile)."""
    room_when(
        player.base,
        player.code,
        lambda s: not s["players"][player.seat]["present"],
        what=f"{player.name} away",
    )
