"""The "play on another device" links, as pages: whose seat a link opens, and the
button that takes it on this browser.

A link changes nothing by being opened: only the button, a post from our own page,
sets the seat's cookie. The routes sit on a router of their own, with the pages'
dependencies, included right after the pages' own (``app/main.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from app.service.rooms import RoomService
from app.service.seats import Seat
from app.web import render
from app.web.deps import (
    PageCode,
    SameOriginPosts,
    ServiceDep,
    limit,
    reader_seat,
    seat_in,
    set_seat_cookie,
)
from app.web.i18n import Lang
from app.web.pages import html, see_room

router = APIRouter(include_in_schema=False, dependencies=[SameOriginPosts])


@router.get("/r/{code}/seat", response_class=HTMLResponse)
async def seat_page(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> HTMLResponse:
    """The "play on another device" link: ``/r/CODE/seat#<token>``.

    The token rides in the fragment, which browsers never send: it stays out of
    every access log and proxy. Our script reads it and posts it below, which only
    shows whose seat it opens: nothing is set before the reader taps to take it. The
    page reads no room, but from a device without a seat it counts as a lookup, as
    every request by code does.
    """
    await reader_seat(request, code, service)
    return html(render.page("seat", lang, code=code))


@router.post("/r/{code}/seat")
async def take_seat(
    request: Request,
    code: PageCode,
    service: ServiceDep,
    lang: Lang,
    token: Annotated[str, Form()] = "",
    confirm: Annotated[str, Form()] = "",
) -> Response:
    """A seat link's token, posted by our own pages only (``SameOriginPosts``): without
    ``confirm``, the page that says whose seat it opens, with the button that takes it;
    with it (that button), the seat on this browser."""
    return await _seat_here(request, code, token, service, lang, take=confirm == "yes")


@router.get("/r/{code}/seat/{token}")
async def take_seat_by_path(
    request: Request, code: PageCode, token: str, service: ServiceDep, lang: Lang
) -> Response:
    """Seat links of the older form, with the token in the path (our access log redacts
    it). A link changes nothing: opened from anywhere, it shows whose seat it opens and
    a button; only that button (a post from our own page) sets the seat's cookie."""
    return await _seat_here(request, code, token, service, lang, take=False)


async def _seat_here(
    request: Request, code: str, token: str, service: RoomService, lang: str, *, take: bool
) -> Response:
    """Sit in the token's seat on this browser too (``take``), or say whose seat it is
    and offer to; a dead link says so and sets nothing."""
    seat = await service.seat_for(code, token)
    if seat is None:
        await limit(request, service, "lookup")
        if await service.seat_moved(code, token):
            view = await service.view(code, None)
            return html(render.page("seat-moved", lang, **render.room_context(view)), 410)
        return html(render.page("seat-gone", lang, code=code), 410)
    if not take:
        # Referrer-Policy stays same-origin (every page's): under no-referrer the browser
        # would post the button's form with ``Origin: null``, which no form passes.
        return html(await _seat_offer(request, code, token, seat, service, lang))
    response = see_room(code)
    set_seat_cookie(request, response, code, token)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def _seat_offer(
    request: Request, code: str, token: str, seat: Seat, service: RoomService, lang: str
) -> str:
    """The page a seat link shows before anything is set: whose seat it opens, which
    seat (if any) this browser holds in the room now and would give up, and the button.
    Read as the link's own seat reads the room: a practice table shows itself to its
    player alone, and its player's second device comes in by this link too."""
    view = await service.view(code, seat.pid)
    held = await seat_in(request, code, service)
    return render.page(
        "seat-take",
        lang,
        token=token,
        name=_name_of(view, seat.pid),
        here=None if held is None else _name_of(view, held.pid),
        same=held is not None and held.pid == seat.pid,
        **render.room_context(view),
    )


def _name_of(view: Mapping[str, Any], pid: int) -> str | None:
    """The name of the player or watcher ``pid`` in a room's public view."""
    people = [*view["players"], *view["watchers"]]
    return next((str(p["name"]) for p in people if p["id"] == pid), None)
