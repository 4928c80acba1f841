"""The room page's live stream: HTML regions over Server-Sent Events.

Each event is named after the region it replaces and carries that region's
HTML as this seat may see it. A new stream (a page load, a reconnect after a
network drop) is sent every region, so it catches up whatever it missed; after
that only the regions whose HTML changed for this seat, so nobody's typing is
interrupted by someone else's move. The chat is sent whole once; after that a
``chat-line`` event carries only the lines a change added, appended on screen.

A change is rendered once per seat and interface language, and shared by every
stream of that seat in that language (every watcher's stream counts as one seat:
they all read one view), whatever else the requests carry: nothing
a client sends can make a change render more than three times per view. The
one thing a page needs of its own address, the invite link, is completed by the
page's script when a live update leaves it relative (without
``SOCLOVER_PUBLIC_URL``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import Request
from sse_starlette import ServerSentEvent

from app.service.following import Moved, Update
from app.service.hub import Ping
from app.web import render
from app.web.deps import CodeDep, ReaderSeat, ServiceDep
from app.web.i18n import interface_language
from app.web.renderings import RegionEvents, Regions, Renderings, WholeChat, renderings_of
from app.web.streams import PING_COMMENT, RoomStream, event_stream

MOVED_EVENT = ServerSentEvent(data="moved", event="moved").encode()
"""The last event of a page whose seat moved to another device: it reloads and says so."""
LIVE_REGIONS = tuple(name for name in render.REGIONS if name != "chat")
"""Rendered for every change; the chat only when a stream starts or resynchronizes."""


async def room_stream(
    request: Request, code: CodeDep, service: ServiceDep, seat: ReaderSeat
) -> RoomStream:
    """Every region of the page, then each region a change alters for this seat."""
    await service.ensure_room(code, None if seat is None else seat.pid)
    public_url: str | None = request.app.state.settings.public_url
    updates = service.follow(code, seat)
    regions = _regions(
        updates, renderings_of(request), public_url or "", interface_language(request)
    )
    # Past a token's streams, a 429 page: the page's script tries again later, and
    # shows that it is reconnecting meanwhile.
    return event_stream(regions, service.hold_stream(seat))


async def _regions(
    updates: AsyncIterator[Update | Ping | Moved], renderings: Renderings, site: str, lang: str
) -> AsyncIterator[bytes]:
    # What each region last showed, by its length and hash: an open page holds no HTML
    # of its own (it would hold every region's, 20 KB a page, for hours); each change's
    # regions are shared by the streams that send them, and Python keeps a string's hash
    # with it, so comparing costs a stream nothing. Two different renderings of one
    # region with the same 64-bit hash and length would leave a page one change behind:
    # a chance of about one in 10^19 a comparison.
    sent: dict[str, tuple[int, int]] = {}
    async for update in updates:
        if isinstance(update, Ping):
            yield PING_COMMENT
            continue
        if isinstance(update, Moved):
            # The seat is played from another device now: this page reloads and says so.
            yield MOVED_EVENT
            return
        whole_chat = update.chat_after is None or "chat" not in sent
        changed = []
        for name, content in (await _rendered(update, renderings, site, lang, whole_chat)).items():
            shown = (len(content), hash(content))
            if sent.get(name) != shown:
                sent[name] = shown
                changed.append(_event(update, renderings, lang, name, content))
        del update  # an idle stream holds no change
        if changed:
            # One write for the change's regions: a room's fifty watchers are fifty
            # writes a change, not two hundred.
            yield b"".join(changed)
        else:
            # Nothing this page shows changed (another seat's draft, say), but the hub
            # counts the change as heard and skips this stream's next ping: it speaks
            # anyway, or a page could go minutes without a byte while others type, and
            # a proxy would close it.
            yield PING_COMMENT
        del changed


def _event(update: Update, renderings: Renderings, lang: str, name: str, content: str) -> bytes:
    """A region's event as it goes on the wire, encoded once per change, seat (or every
    watcher) and language, and shared by their streams: fifty watchers' streams send
    the same bytes, not fifty encodings of them."""
    key = RegionEvents(update.viewer, lang)
    encoded: dict[str, bytes] | None = renderings.get(update.change, key)
    if encoded is None:
        encoded = renderings.keep_built(update.change, key, {})
    event = encoded.get(name)
    if event is None:
        event = ServerSentEvent(data=content, event=name, id=str(update.seq)).encode()
        encoded[name] = event
    return event


async def _rendered(
    update: Update, renderings: Renderings, site: str, lang: str, whole_chat: bool
) -> dict[str, str]:
    """This seat's regions after one change, rendered once per interface language and
    shared by its streams."""
    key = Regions(update.viewer, lang)
    regions: dict[str, str] | None = renderings.get(update.change, key)
    if regions is None:
        view = await update.view()
        context = render.region_context(view, site, happened=update.action)
        # A chat line leaves the announcement as it was: the chat log tells it itself.
        # So does a draft of clues, saved as it is typed: the table hears of Save and Done.
        quiet = update.action is not None and (
            update.action.get("type") == "say" or update.action.get("draft") is True
        )
        regions = {
            name: render.region(name, lang, context)
            for name in LIVE_REGIONS
            if not (quiet and name == "announce")
        }
        if update.chat_after is not None and view["chat"]:
            regions["chat-line"] = render.chat_lines(view["chat"], lang)
        renderings.keep_built(update.change, key, regions)
    if not whole_chat:
        return regions
    chat_key = WholeChat(update.viewer, lang)
    chat: str | None = renderings.get(update.change, chat_key)
    if chat is None:
        context = render.region_context(await update.whole(), site)
        chat = renderings.keep_built(update.change, chat_key, render.region("chat", lang, context))
    return {"chat": chat, **{k: v for k, v in regions.items() if k != "chat-line"}}
