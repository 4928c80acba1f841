"""Waiting on state, never on time: poll until a condition holds or a deadline passes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.05
"""How often a condition is read again: short beside every deadline, long beside a request."""


def wait_for(
    read: Callable[[], T],
    until: Callable[[T], Any] = bool,
    *,
    what: str,
    timeout: float = 10.0,
) -> T:
    """Read ``read()`` again and again until ``until`` holds of it; return that value.

    After ``timeout`` seconds it fails, naming ``what`` was awaited and the last
    value read, so a failure says what the server never came to.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if until(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(
                f"gave up after {timeout} s waiting for {what}; last seen: {shown(value)}"
            )
        time.sleep(POLL_SECONDS)


def shown(value: object, limit: int = 1500) -> str:
    """A value as a failure message quotes it: its end, if it is long (a log grows at the end)."""
    text = repr(value)
    return text if len(text) <= limit else f"…{text[-limit:]}"
