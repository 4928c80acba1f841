"""What the action path tells the metrics page (``app/metrics.py``), and nothing more.

The room service counts each action it is asked for, by its type and how it ended,
with the time it took, and times each save; what it counts goes to a ``Meter``. The
service does not know Prometheus: the metrics page's meter is given to it at start
(``app/main.py``), and a service made without one (most tests') meters nothing.

Counting is O(1): two clock reads, two dict lookups, a counter's increment and a
histogram's (prometheus_client takes a lock for each), whatever the number of
rooms, streams or actions before: a small part of what an action costs
(docs/performance.md, "The metrics: counting an action").
"""

from __future__ import annotations

from time import perf_counter
from types import TracebackType
from typing import Protocol

from app.rules.errors import RuleError
from app.service.errors import StaleAction

OK = "ok"
"""Applied, saved and told to the streams."""
REFUSED = "refused"
"""Refused by the rules or the service (not your turn, no seat, too fast): nothing changed."""
CONFLICT = "conflict"
"""409 ``stale``: the room had moved on from the ``seq`` the action was sent for, or
another process kept saving it first (``rooms.ATTEMPTS``)."""
ERROR = "error"
"""Anything else: the database away, a bug. The answer was a 500."""
OUTCOMES = (OK, REFUSED, CONFLICT, ERROR)

UNKNOWN = "unknown"
"""The type of an action refused before it was built: its seat gone, or a ``seq`` that
had moved on (a bot's action, sent over the ``seq`` it decided on)."""


class Meter(Protocol):
    """Where the service's counts go (``app.metrics.TableMetrics``)."""

    def action(self, kind: str, outcome: str, seconds: float) -> None:
        """One action of type ``kind`` ended as ``outcome`` (one of ``OUTCOMES``)."""

    def saved(self, seconds: float) -> None:
        """One save of a room (``RoomStore.save``) took ``seconds``, stale or not."""


class Unmetered:
    """The meter of a service made without one: counts nothing."""

    def action(self, kind: str, outcome: str, seconds: float) -> None:
        return None

    def saved(self, seconds: float) -> None:
        return None


UNMETERED = Unmetered()


def outcome_of(error: BaseException | None) -> str | None:
    """How an action that raised ``error`` (``None``: none) ended; ``None`` when it was
    cancelled rather than ended (the server stopping): not counted, since a cancelled
    action may have been saved all the same (``action_path.run_to_completion``)."""
    if error is None:
        return OK
    if isinstance(error, StaleAction):
        return CONFLICT
    if isinstance(error, RuleError):
        return REFUSED
    if isinstance(error, Exception):
        return ERROR
    return None


class Metered:
    """Times one action, from the ``with`` to its end, and tells the meter how it ended.

    ``kind`` may be set inside the block, once the action is known (``ActionPath.apply``
    builds its action from the room); an ``apply`` that found nothing to do leaves it
    ``None`` and is not counted: no action happened.
    """

    __slots__ = ("_began", "_meter", "kind")

    def __init__(self, meter: Meter, kind: str | None = None) -> None:
        self._meter = meter
        self.kind = kind
        self._began = 0.0

    def __enter__(self) -> Metered:
        self._began = perf_counter()
        return self

    def __exit__(
        self,
        error_type: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        outcome = outcome_of(error)
        if outcome is None or (self.kind is None and outcome == OK):
            return
        self._meter.action(self.kind or UNKNOWN, outcome, perf_counter() - self._began)
