"""What the API, service and browser tests share: a real server, players at its tables,
the one shape of a refusal, the one way to wait, and a reader of the live streams.

- ``server``: a real server on a fresh database: ``ThreadServer`` (uvicorn on a thread of
  the test process, what most tests get) or ``Server`` (a subprocess, for tests that kill
  it, run several workers or read its log); a whole module's is the ``shared_server``
  fixture (tests/conftest.py).
- ``players``: a seat through the JSON API (``Player``, ``create``, ``join``, ``table``,
  ``watch`` for a watcher),
  whole phases of a game, and the room as anyone reads it (``public``, ``table_of``).
- ``checks``: ``assert_error``, the error shape with its status and code.
- ``waiting``: ``wait_for``, polling state until it holds or a deadline passes.
- ``stream``: ``Stream``, a room's Server-Sent Events through httpx-sse.
- ``presence``: ``present`` (open streams keep players at the table), ``gone_quiet``,
  and ``QUICK`` server settings under which a quiet player is away within a second.
"""

from .checks import assert_error
from .players import (
    NAMES,
    Player,
    clues_for,
    create,
    join,
    public,
    room_when,
    solution,
    spectator_of,
    start_and_write_clues,
    table,
    table_of,
    watch,
)
from .presence import QUICK, gone_quiet, present
from .server import (
    POSTGRES,
    ROOT,
    Server,
    ThreadServer,
    drop_database,
    free_port,
    fresh_database,
)
from .stream import Event, NoEvent, Stream
from .waiting import wait_for

__all__ = [
    "NAMES",
    "POSTGRES",
    "QUICK",
    "ROOT",
    "Event",
    "NoEvent",
    "Player",
    "Server",
    "Stream",
    "ThreadServer",
    "assert_error",
    "clues_for",
    "create",
    "drop_database",
    "free_port",
    "fresh_database",
    "gone_quiet",
    "join",
    "present",
    "public",
    "room_when",
    "solution",
    "spectator_of",
    "start_and_write_clues",
    "table",
    "table_of",
    "wait_for",
    "watch",
]
