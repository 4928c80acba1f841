"""A room page whose live stream is refused (its seat token holds four streams already,
tests/web/test_stream_limits.py): the page says it is reconnecting, tries again by
itself, and is live again once one of the other streams has ended."""

from __future__ import annotations

from contextlib import ExitStack

import pytest

from .. import kit
from ..kit.stream import Stream
from .conftest import PHONE, OpenPlayer


@pytest.fixture
def server(shared_server: kit.Server) -> kit.Server:
    """One server for the module: each test plays in rooms of its own."""
    return shared_server


def test_a_refused_page_says_it_reconnects_and_comes_back_live(
    open_player: OpenPlayer, server: kit.Server
) -> None:
    ada, bea = kit.table(server.url, 2)
    with ExitStack() as held:
        others = []
        for _ in range(4):  # the seat's four streams, held elsewhere (its other screens)
            stream = Stream(f"{server.url}/api/rooms/{ada.code}/events", ada.headers)
            held.callback(stream.close)
            assert stream.status == 200
            others.append(stream)
        page = open_player("Ada", PHONE, token=ada.token, code=ada.code)
        page.allow(r"status of 429")  # the refused stream, as the browser logs it
        page.allow(r"^\[object Event\]$")  # htmx's word of the stream's error
        page.goto(f"/r/{ada.code}")
        page.page.locator("#reconnecting").wait_for()  # the banner shows
        others[0].close()
        # Tried again by itself: live, the banner gone, and the room's news comes.
        page.page.locator("#reconnecting").wait_for(state="hidden", timeout=40_000)
        bea.act("say", text="are you back?")
        page.page.locator("#chat").get_by_text("are you back?").wait_for(state="attached")
