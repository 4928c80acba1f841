"""Watching costs no more than a seat: every watcher's stream shares one rendering.

The hub keeps what streams build from a change by (kind, seat); every watcher reads
the same view, so however many watch, a change is rendered once for all of them.
Driven through ``RoomService`` on a real SQLite file, with the page's and the API's
own encoders.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

from app.rules import actions as act
from app.rules.views import WATCHER
from app.service.following import Moved, Update
from app.service.hub import Ping
from app.service.seats import Seat
from app.web import events, live
from tests.service.support import run_async, sqlite_service


async def _said(stream: AsyncIterator[Update | Ping | Moved], text: str) -> Update:
    """The stream's update for the chat line ``text`` (presence changes come between)."""
    while True:
        item = await asyncio.wait_for(anext(stream), 5)
        if isinstance(item, Update) and item.action and item.action["type"] == "say":
            view = await item.view()
            if view["chat"] and view["chat"][-1]["text"] == text:
                return item


def test_every_watchers_stream_hits_one_shared_rendering(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with sqlite_service(tmp_path) as service:
            code = (await service.create("Ada", 1)).code
            watchers = [await service.watch(code, name) for name in ("Gus", "Hal", "Ivy", "Jo")]
            streams = [service.follow(code, Seat(code, w.watcher)) for w in watchers]
            host = service.follow(code, Seat(code, 0))
            for stream in [*streams, host]:
                await anext(stream)  # the room as it is: each stream's own first update
            await service.act(code, Seat(code, 0), act.Say("welcome"))
            updates = [await _said(stream, "welcome") for stream in streams]
            hosts = await _said(host, "welcome")
            pages = [await live._rendered(u, "", "en", whole_chat=False) for u in updates]
            wired = [live._event(u, "en", "chat-line", pages[0]["chat-line"]) for u in updates]
            encoded = [await events._encoded(u) for u in updates]
            await live._rendered(hosts, "", "en", whole_chat=False)
            # one change, shared by every stream; one rendering per kind for all watchers
            change = updates[0]._change
            assert all(u._change is change for u in [*updates, hosts])
            assert set(change.rendered) == {
                ("html-en", WATCHER),
                ("sse-en", WATCHER),
                ("json", WATCHER),
                ("json-common", None),  # every onlooker's common part of the view
                ("html-en", 0),
            }
            assert all(page is pages[0] for page in pages)
            assert all(event is wired[0] for event in wired) and b"welcome" in wired[0]
            assert all(event is encoded[0] for event in encoded)
            assert b'"watcher":true' in encoded[0] and b'"welcome"' in encoded[0]
            # a watcher who sits down is rendered as their seat from then on
            await service.act(code, Seat(code, watchers[0].watcher), act.Sit())
            await service.act(code, Seat(code, 0), act.Say("sit with us"))
            seated = await _said(streams[0], "sit with us")
            still = await _said(streams[1], "sit with us")
            await live._rendered(seated, "", "en", whole_chat=False)
            await live._rendered(still, "", "en", whole_chat=False)
            assert set(seated._change.rendered) == {("html-en", 1), ("html-en", WATCHER)}

    run_async(scenario())
