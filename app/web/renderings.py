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
from typing import Any, Literal, NamedTuple

from starlette.requests import Request

from app.rules.views import Audience, Viewer
from app.service.hub import Change

KEEP = 2
"""Changes per room whose renderings are kept, for the streams still sending them."""


SWEEP = 1024
"""Changes rendered between two looks for rooms with nothing left to keep."""


# The keys are tuples, hashed and compared in C: every stream looks one up at every
# change. Each names what it is last, so that no two kinds of key are ever equal.


class CommonJson(NamedTuple):
    """The JSON of the common part of a view, shared by one audience."""

    audience: Audience
    kind: Literal["common"] = "common"


class OwnJson(NamedTuple):
    """The JSON of a seat's own part of a view (who it is, what it may do): the answer
    to its action and its streams' events carry the same. Kept for the seat that made
    the change only (``events.state_json``)."""

    viewer: Viewer
    kind: Literal["own"] = "own"


class StateEvent(NamedTuple):
    """A seat's ``state`` event on the JSON stream."""

    viewer: Viewer
    kind: Literal["state"] = "state"


class Regions(NamedTuple):
    """A seat's regions of the page, as HTML, in one interface language."""

    viewer: Viewer
    lang: str
    kind: Literal["regions"] = "regions"


class RegionEvents(NamedTuple):
    """Those regions as Server-Sent Events, each encoded when first sent."""

    viewer: Viewer
    lang: str
    kind: Literal["events"] = "events"


class WholeChat(NamedTuple):
    """The whole chat region, for a page stream that starts or catches up."""

    viewer: Viewer
    lang: str
    kind: Literal["chat"] = "chat"


class Renderings:
    """What streams built of each of a room's recent changes, by what it is and for whom.

    Kept by the change's ``id``, a plain dictionary's key: a weak dictionary would make
    a weak reference at every look-up. The entry goes when the change does (a weak
    reference's callback, made once per change), before its ``id`` may be another's."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._built: dict[int, dict[Hashable, Any]] = {}
        self._recent: dict[str, list[tuple[weakref.ref[Change], int]]] = {}
        self._added = 0

    def get(self, change: Change, key: Hashable) -> Any:
        """What was built as ``key`` from ``change``, or ``None``."""
        built = self._built.get(id(change))
        return None if built is None else built.get(key)

    def keep_built(self, change: Change, key: Hashable, built: Any) -> Any:
        """``built`` kept as ``key`` of ``change`` for the streams that send it next;
        returned as it is."""
        kept = self._built.get(id(change))
        if kept is None:
            kept = self._built[id(change)] = {}
            self._forget_older(change)
        kept[key] = built
        return built

    def _forget_older(self, change: Change) -> None:
        """Drops what was built of the room's changes ``keep`` or more before ``change``."""
        code = change.room.code
        ident = id(change)
        built = self._built
        recent = [(weakref.ref(change, lambda _: built.pop(ident, None)), ident)]
        for ref, older_id in self._recent.get(code, ()):
            older = ref()
            if older is None:
                continue
            if older.seq <= change.seq - self.keep:
                built.pop(older_id, None)
            else:
                recent.append((ref, older_id))
        self._recent[code] = recent
        self._added += 1
        if self._added % SWEEP == 0:
            # Rooms whose changes are all gone (expired, forgotten): nothing to keep of them.
            gone = [c for c, refs in self._recent.items() if all(r() is None for r, _ in refs)]
            for code in gone:
                del self._recent[code]

    def __len__(self) -> int:
        """Changes with something built of them."""
        return len(self._built)


def renderings_of(request: Request) -> Renderings:
    """The application's renderings (``app.state.renderings``)."""
    renderings: Renderings = request.app.state.renderings
    return renderings
