"""A room's Server-Sent Events, read by httpx-sse in a thread of the stream's own.

The thread reads the stream as it comes and queues each event, so a test can
wait for the next one with a deadline. Pings are SSE comments (``: ping``):
httpx-sse skips the comment but hands on the blank line after it as an empty
event, which is dropped here; an event named ``ping`` is dropped too.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_sse import SSEError, connect_sse

from . import http


@dataclass(frozen=True)
class Event:
    """One event. ``id`` is the stream's last event id, as a browser keeps it (an event
    without one carries the one before; ``None`` before any): the room's streams give
    every event its own."""

    id: str | None
    event: str
    data: str

    @property
    def json(self) -> Any:
        return json.loads(self.data)


class NoEvent(queue.Empty):
    """No event came in time, or the stream ended."""


_ENDED = None
"""Queued once the stream ends: whoever waits for the next event is told at once."""


class Stream:
    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = dict(headers or {})
        self.events: queue.Queue[Event | None] = queue.Queue()
        self.status: int | None = None
        self.response_headers: httpx.Headers | None = None
        self._client = http.Client(timeout=httpx.Timeout(5, read=None))
        self._response: httpx.Response | None = None
        self._opened = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._opened.wait(10), f"the stream {url} did not open"

    def _run(self) -> None:
        try:
            # headers: a copy, which connect_sse adds its Accept to; a Host given here
            # is sent as given, in place of the URL's.
            with connect_sse(self._client, "GET", self.url, headers=dict(self.headers)) as source:
                self._response = source.response
                self.status = source.response.status_code
                self.response_headers = source.response.headers
                self._opened.set()
                if self.status != 200:
                    return
                for sse in source.iter_sse():
                    if self._closed.is_set():
                        return
                    if sse.event == "message" and not sse.data:
                        # A ping comment ends in a blank line, which httpx-sse turns into
                        # an empty event carrying the last id: no event at all.
                        continue
                    if sse.event != "ping":
                        self.events.put(Event(sse.id or None, sse.event, sse.data))
        except (httpx.HTTPError, SSEError, RuntimeError, OSError):
            pass  # the stream ended, or was closed under the reader: it says so below
        finally:
            self._opened.set()
            self.events.put(_ENDED)

    def next(self, timeout: float = 10) -> Event:
        try:
            event = self.events.get(timeout=timeout)
        except queue.Empty:
            raise NoEvent(f"no event from {self.url} within {timeout} s") from None
        if event is None:
            self.events.put(_ENDED)  # it stays ended for the next caller too
            raise NoEvent(f"the stream {self.url} ended (status {self.status})")
        return event

    def take(self, count: int, timeout: float = 10) -> list[Event]:
        return [self.next(timeout) for _ in range(count)]

    def quiet(self, seconds: float = 0.5) -> bool:
        """True if no event but pings arrives within ``seconds`` (silence takes that long
        to see: there is no state to wait on)."""
        try:
            self.next(seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        """Hang up now, as a browser tab closing does: the socket is shut, so the
        reader wakes and the server sees the stream end without waiting for a ping."""
        self._closed.set()
        response = self._response
        if response is not None:
            network = response.extensions.get("network_stream")
            sock = network.get_extra_info("socket") if network is not None else None
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                self._thread.join(5)
        self._client.close()
