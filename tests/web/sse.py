"""A small Server-Sent Events reader for the tests: a thread per stream."""

from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Event:
    id: str | None
    event: str
    data: str

    @property
    def json(self) -> Any:
        return json.loads(self.data)


class Stream:
    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.url = url
        self.headers = headers or {}
        self.events: queue.Queue[Event] = queue.Queue()
        self.status: int | None = None
        self.response_headers: httpx.Headers | None = None
        self._client = httpx.Client(timeout=httpx.Timeout(5, read=None))
        self._opened = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        assert self._opened.wait(10), "stream did not open"

    def _run(self) -> None:
        try:
            with self._client.stream("GET", self.url, headers=self.headers) as response:
                self.status = response.status_code
                self.response_headers = response.headers
                self._opened.set()
                fields: dict[str, str] = {}
                data: list[str] = []
                for line in response.iter_lines():
                    if self._closed:
                        return
                    if line == "":
                        if data or fields:
                            self.events.put(
                                Event(
                                    fields.get("id"),
                                    fields.get("event", "message"),
                                    "\n".join(data),
                                )
                            )
                        fields, data = {}, []
                    elif line.startswith(":"):
                        continue
                    else:
                        name, _, value = line.partition(":")
                        value = value[1:] if value.startswith(" ") else value
                        if name == "data":
                            data.append(value)
                        else:
                            fields[name] = value
        except (httpx.HTTPError, RuntimeError):
            pass
        finally:
            self._opened.set()

    def next(self, timeout: float = 10) -> Event:
        while True:
            event = self.events.get(timeout=timeout)
            if event.event != "ping":
                return event

    def take(self, count: int, timeout: float = 10) -> list[Event]:
        return [self.next(timeout) for _ in range(count)]

    def quiet(self, seconds: float = 0.5) -> bool:
        """True if no event but pings arrives within ``seconds``."""
        try:
            self.next(seconds)
        except queue.Empty:
            return True
        return False

    def close(self) -> None:
        self._closed = True
        self._client.close()
