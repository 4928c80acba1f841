"""What a saved change says to the other processes on PostgreSQL: its ``NOTIFY``.

The payload is ``<code>:<seq>``, then, when they fit, ``:`` and the change's
logged actions as JSON. A process following the room replays those onto its
copy as they came, with no read of the action log: with two workers, that read
was a round trip to the database for every action, in every other worker. When
the actions do not fit (PostgreSQL takes up to 8,000 bytes) or carry a whole
state (a game's first one), the payload is only ``<code>:<seq>`` and the
follower reads the log, as it does whenever a payload does not follow on from
its copy.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from app.service.store import ActionRecord, Logged, Record

CHANNEL = "soclover_rooms"
"""The PostgreSQL channel every committed change is announced on."""

PAYLOAD_BYTES = 7_999
"""PostgreSQL refuses a payload of 8,000 bytes or more (its default build)."""


def announcement(code: str, seq: int, records: Sequence[Record]) -> str:
    """The payload announcing that ``code`` is at ``seq``, saved with ``records``."""
    head = f"{code}:{seq}"
    actions = [r for r in records if isinstance(r, ActionRecord)]
    if not actions or any(r.state is not None for r in actions):
        return head
    logged = [[r.seq, r.seat, r.player, r.action] for r in actions]
    payload = f"{head}:{json.dumps(logged, separators=(',', ':'), ensure_ascii=False)}"
    return payload if len(payload.encode()) <= PAYLOAD_BYTES else head


def heard(
    payload: str, wanted: Callable[[str, int], bool] = lambda _code, _seq: True
) -> tuple[str, int, list[Logged] | None] | None:
    """The room, its seq and the logged actions a payload carries (None: read the log);
    None for a payload that is none of ours, or news that is not ``wanted``.

    ``wanted`` is asked before the actions are read: every process hears every change,
    its own included, and most of it is news of rooms it does not follow or has
    brought along already."""
    code, _, rest = payload.partition(":")
    seq, _, body = rest.partition(":")
    try:
        at = int(seq)
        if not wanted(code, at):
            return None
        logged = None
        if body:
            logged = [
                Logged(seq=s, seat=seat, action=action, state=None, player=player)
                for s, seat, player, action in json.loads(body)
            ]
    except (ValueError, TypeError):
        return None
    return code, at, logged
