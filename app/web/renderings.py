"""What the live streams built from a change, kept for the other streams that send it.

Every stream of a seat sends the same bytes for a change, every watcher's stream
too (they all read one view), and a room's guessers share the common part of
their views (``views.audience``). So what a stream builds from a change (the
JSON of the common part, a seat's event, a page's regions and their events) is
built once and kept here, by the change and a key that says what it is and for
whom, for the streams that come to send the same.

Only the renderings of a room's last ``KEEP`` changes are kept: a stream that
still has an older change to send (a slow phone, a reconnect) builds it again.
Kept for every change the hub holds, every room's last 64 changes would hold
their JSON and HTML for every seat, a room's memory growing with every move
(docs/performance.md, "One view for the guessers, and renderings dropped once a
change is old"). A change nobody holds any more takes its renderings with it.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from starlette.requests import Request

from app.rules.views import Audience, Viewer
from app.service.hub import Change

KEEP = 2
"""Changes per room whose renderings are kept, for the streams still sending them."""


SWEEP = 1024
"""Changes rendered between two looks for rooms with nothing left to keep."""


@dataclass(frozen=True, slots=True)
class CommonJson:
    """The JSON of the common part of a view, shared by one audience."""

    audience: Audience


@dataclass(frozen=True, slots=True)
class StateEvent:
    """A seat's ``state`` event on the JSON stream."""

    viewer: Viewer


@dataclass(frozen=True, slots=True)
class Regions:
    """A seat's regions of the page, as HTML, in one interface language."""

    viewer: Viewer
    lang: str


@dataclass(frozen=True, slots=True)
class RegionEvents:
    """Those regions as Server-Sent Events, each encoded when first sent."""

    viewer: Viewer
    lang: str


@dataclass(frozen=True, slots=True)
class WholeChat:
    """The whole chat region, for a page stream that starts or catches up."""

    viewer: Viewer
    lang: str


class Renderings:
    """What streams built of each of a room's recent changes, by what it is and for whom."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._built: WeakKeyDictionary[Change, dict[Hashable, Any]] = WeakKeyDictionary()
        self._recent: dict[str, list[weakref.ref[Change]]] = {}
        self._added = 0

    def get(self, change: Change, key: Hashable) -> Any:
        """What was built as ``key`` from ``change``, or ``None``."""
        built = self._built.get(change)
        return None if built is None else built.get(key)

    def keep_built(self, change: Change, key: Hashable, built: Any) -> Any:
        """``built`` kept as ``key`` of ``change`` for the streams that send it next;
        returned as it is."""
        kept = self._built.get(change)
        if kept is None:
            kept = self._built[change] = {}
            self._forget_older(change)
        kept[key] = built
        return built

    def _forget_older(self, change: Change) -> None:
        """Drops what was built of the room's changes ``keep`` or more before ``change``."""
        code = change.room.code
        recent = [weakref.ref(change)]
        for ref in self._recent.get(code, ()):
            older = ref()
            if older is None:
                continue
            if older.seq <= change.seq - self.keep:
                self._built.pop(older, None)
            else:
                recent.append(ref)
        self._recent[code] = recent
        self._added += 1
        if self._added % SWEEP == 0:
            # Rooms whose changes are all gone (expired, forgotten): nothing to keep of them.
            for gone in [c for c, refs in self._recent.items() if all(r() is None for r in refs)]:
                del self._recent[gone]

    def __len__(self) -> int:
        """Changes with something built of them."""
        return len(self._built)


def renderings_of(request: Request) -> Renderings:
    """The application's renderings (``app.state.renderings``)."""
    renderings: Renderings = request.app.state.renderings
    return renderings
