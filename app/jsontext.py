"""JSON out, fast: room states on every write, events on every change.

orjson does in a fifth of the time what ``json`` does, except integers past
64 bits (a game's seed may be one), which it refuses: ``json`` writes those.
Reading stays with ``json``: orjson would read such an integer as a float.

orjson hands back the buffer it wrote in, 4 KB or 16 KB of memory for a view of
2 KB. The streams keep what they encode of a room's last changes for every seat
(``web/renderings.py``): kept as orjson gives it, that came to 33 KB a stream with
every room idle, three times the stream itself (docs/performance.md, "The
action route from its own Dependant"). So the text is copied to its own size: a
copy of a few kilobytes, once per change and audience.
"""

from __future__ import annotations

import json
from typing import Any

import orjson


def to_bytes(value: Any) -> bytes:
    try:
        return memoryview(orjson.dumps(value)).tobytes()
    except TypeError:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def to_text(value: Any) -> str:
    return to_bytes(value).decode()
