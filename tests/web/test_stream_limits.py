"""One seat token holds four live streams open at once, its JSON and page streams
together (a phone needs two); a fifth is refused with a 429 that says why (JSON for the
API, a page for the room page's stream), and the refusal closes nothing: the four go
on, other seats open theirs, and a stream that ends makes room for another.

A real server: streams need a socket.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import ExitStack

import pytest

from app.service.seats import Seat
from app.service.stream_slots import StreamSlots
from app.web.streams import event_stream

from ..kit import Player, Server, create, http, join, wait_for, watch
from ..kit.stream import Stream

SEATS = 4


@pytest.fixture
def api(shared_server: Server) -> str:
    return shared_server.url


def events_url(player: Player) -> str:
    return f"{player.base}/api/rooms/{player.code}/events"


def page_url(player: Player) -> str:
    return f"{player.base}/r/{player.code}/stream"


def cookie(player: Player) -> dict[str, str]:
    return {"Cookie": f"soclover_{player.code}={player.token}"}


def opening(url: str, headers: dict[str, str]) -> tuple[int, str, str]:
    """What opening a stream answers: its status, its content type, and its body when
    refused (an open stream's is read no further)."""
    with http.stream("GET", url, headers=headers, timeout=5) as r:
        body = "" if r.status_code == 200 else r.read().decode()
        return r.status_code, r.headers.get("content-type", ""), body


@pytest.fixture
def streams() -> Iterator[ExitStack]:
    with ExitStack() as opened:
        yield opened


def open_stream(opened: ExitStack, url: str, headers: dict[str, str]) -> Stream:
    stream = Stream(url, headers)
    opened.callback(stream.close)
    assert stream.status == 200, url
    stream.next()  # the room as it is
    return stream


def try_stream(opened: ExitStack, url: str, headers: dict[str, str]) -> Stream | None:
    """A stream, if it opens now; else ``None`` (and nothing left open)."""
    stream = Stream(url, headers)
    if stream.status != 200:
        stream.close()
        return None
    opened.callback(stream.close)
    return stream


def hears(stream: Stream, text: str) -> bool:
    """Whether ``text`` comes on ``stream`` before it falls quiet (the first events of a
    page's stream are every region of the room: read past them)."""
    return any(text in stream.next().data for _ in range(50))


def test_a_fifth_stream_of_one_token_is_refused_and_closes_nothing(
    api: str, streams: ExitStack
) -> None:
    ada = create(api, "Ada")
    bea = join(api, ada.code, "Bea")
    mine = [
        open_stream(streams, events_url(ada), ada.headers),
        open_stream(streams, events_url(ada), ada.headers),
        open_stream(streams, page_url(ada), cookie(ada)),
        open_stream(streams, page_url(ada), cookie(ada)),
    ]
    status, kind, body = opening(events_url(ada), ada.headers)
    assert (status, kind) == (429, "application/json"), body
    assert '"code":"too_many_streams"' in body and "too many screens" in body
    status, kind, body = opening(page_url(ada), cookie(ada))
    assert status == 429 and kind.startswith("text/html"), body
    assert "too many screens" in body
    # The refusals closed nothing: another seat opens its own, and all hear the room.
    theirs = open_stream(streams, events_url(bea), bea.headers)
    bea.act("say", text="still here?")
    for stream in [*mine, theirs]:
        assert hears(stream, "still here?")
    # A stream that ends makes room for one more, and no more.
    mine[0].close()
    replacement = wait_for(
        lambda: try_stream(streams, events_url(ada), ada.headers),
        what="the closed stream's place given back",
    )
    replacement.next()
    assert opening(events_url(ada), ada.headers)[0] == 429
    bea.act("say", text="and now?")
    for stream in [replacement, *mine[1:]]:
        assert hears(stream, "and now?")


def test_a_watchers_token_holds_four_and_someone_without_a_seat_is_counted_apart(
    api: str, streams: ExitStack
) -> None:
    ada = create(api, "Ada")
    wes = watch(api, ada.code, "Wes")
    for _ in range(SEATS):
        open_stream(streams, events_url(wes), wes.headers)
    assert opening(events_url(wes), wes.headers)[0] == 429
    # Without a token, a stream is a lookup (rate-limited per address), not a seat's.
    open_stream(streams, events_url(ada), {})


def test_the_host_sets_how_many(make_server: Callable[..., Server], streams: ExitStack) -> None:
    api = make_server(SOCLOVER_STREAMS_PER_SEAT="1").url
    ada = create(api, "Ada")
    open_stream(streams, page_url(ada), cookie(ada))
    assert opening(events_url(ada), ada.headers)[0] == 429


def test_a_stream_never_sent_gives_its_place_back() -> None:
    """A stream's response made, its client gone before it is sent: letting go of it gives
    the place back, as the end of a sent one does."""
    slots = StreamSlots()
    ada = Seat("ABCDEF", 1)

    async def nothing() -> AsyncIterator[bytes]:
        yield b""

    response = event_stream(nothing(), slots.take(ada))
    assert slots.held(ada) == 1
    del response
    gc.collect()
    assert slots.held(ada) == 0
