"""Asking for a seat from another device, as pages: "I am Bea", then a wait, then in.

The request is kept in a cookie of its own on the asking device (its id and
token); the page asks how it stands every few seconds. Once the table allows
it, its token becomes this device's seat cookie and the room opens.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.rules.errors import BadSeat, RuleError
from app.rules.text import N_
from app.service.errors import ClaimNotFound, RateLimited, RoomNotFound
from app.web import render
from app.web.claimant import claim_cookie, claim_of, claimant
from app.web.deps import (
    NoRoomPage,
    PageCode,
    SameOriginPosts,
    ServiceDep,
    forget_cookie,
    limit_claims,
    reader_seat,
    set_cookie,
    set_seat_cookie,
)
from app.web.i18n import Lang
from app.web.pages import form_number

router = APIRouter(include_in_schema=False, dependencies=[SameOriginPosts])

CLAIM_HOURS = 24


def _page(template: str, lang: str, status: int = 200, **context: object) -> HTMLResponse:
    return HTMLResponse(render.page(template, lang, **context), status_code=status)


def _to_room(code: str, request: Request) -> Response:
    if request.headers.get("hx-request") == "true":
        return Response(status_code=204, headers={"HX-Redirect": f"/r/{code}"})
    return RedirectResponse(f"/r/{code}", status_code=303)


@router.post("/r/{code}/claim")
async def ask_for_a_seat(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> Response:
    """ "I am Bea": a request every seated player sees at once."""
    try:
        if await reader_seat(request, code, service) is not None:
            return RedirectResponse(f"/r/{code}", status_code=303)
        await limit_claims(request, service, code)
    except RateLimited as error:
        # Said before the room is read: the same page whether or not the code is a room.
        return _page("error", lang, error.status, message=error)
    raw = (await request.form()).get("seat")
    seat = form_number(raw) if isinstance(raw, str) else None
    try:
        if seat is None or not 0 <= seat < 100:
            raise BadSeat(N_("Choose the seat that is yours."))
        claimed = await service.claims.claim(code, seat, **claimant(request, code))
    except RoomNotFound:
        raise NoRoomPage() from None
    except RuleError as error:
        try:
            view = await service.view(code, None)
        except RoomNotFound:
            raise NoRoomPage() from None
        return _page("join", lang, error.status, error=error, **render.room_context(view))
    response = RedirectResponse(f"/r/{code}/claim", status_code=303)
    set_cookie(
        request,
        response,
        claim_cookie(code),
        f"{claimed.claim}.{claimed.token}",
        max_age=60 * 60 * CLAIM_HOURS,
    )
    return response


@router.get("/r/{code}/claim", response_class=HTMLResponse)
async def waiting_for_the_table(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> Response:
    return await _claim_answer(request, code, service, lang, fragment=False)


@router.get("/r/{code}/claim/status", response_class=HTMLResponse)
async def claim_status(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> Response:
    """The waiting page's part that asks again every few seconds."""
    return await _claim_answer(request, code, service, lang, fragment=True)


async def _claim_answer(
    request: Request, code: str, service: ServiceDep, lang: str, fragment: bool
) -> Response:
    """How this device's request for a seat of ``code`` stands (the page, or its part
    that asks again)."""
    asked = claim_of(request, code)
    if asked is None:
        await reader_seat(request, code, service)  # a lookup, if seatless
        return _to_room(code, request)
    claim_id, token = asked
    waits, waiting_for = False, tuple[int, ...]()
    try:
        state = await service.claims.state(code, claim_id, token)
        status, seat, waits = state.status, state.seat, state.waits
        waiting_for = state.waiting_for
        view = await service.view(code, None)
    except ClaimNotFound:
        # No such request here, whether or not the code is a room: the same answer.
        await reader_seat(request, code, service)  # a lookup, if seatless
        status, seat, view = "refused", -1, None
    except RoomNotFound:
        raise NoRoomPage() from None
    except RuleError:
        status, seat, view = "refused", -1, None
    if status == "allowed":
        # In: this device's seat token is the request's own.
        response = _to_room(code, request)
        set_seat_cookie(request, response, code, token)
        forget_cookie(request, response, claim_cookie(code))
        return response
    name = _name_of(view, seat)
    context: dict[str, object] = {
        "code": code,
        "status": status,
        "name": name,
        "waits": waits,  # the Spectator's seat: it moves once their clover is checked
        # Whose allow it still needs, by name: every other player at the table's.
        "waiting_for": [n for n in (_name_of(view, s) for s in waiting_for) if n],
    }
    if fragment:
        return HTMLResponse(render.region("claim-status", lang, context))
    return HTMLResponse(render.page("claim", lang, **context))


def _name_of(view: Mapping[str, object] | None, seat: int) -> str | None:
    players = view.get("players") if view else None
    if isinstance(players, list) and 0 <= seat < len(players):
        return str(players[seat]["name"])
    return None


@router.post("/r/{code}/claim/withdraw")
async def withdraw_claim(request: Request, code: PageCode, service: ServiceDep) -> Response:
    asked = claim_of(request, code)
    try:
        if asked is None:
            raise ClaimNotFound()
        await service.claims.withdraw(code, *asked)
    except ClaimNotFound:
        # Nothing of this device's to take back, whether or not the code is a room.
        await reader_seat(request, code, service)  # a lookup, if seatless
    except RuleError:
        pass  # already answered or gone: nothing left to take back
    response = RedirectResponse(f"/r/{code}", status_code=303)
    forget_cookie(request, response, claim_cookie(code))
    return response
