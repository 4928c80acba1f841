"""The HTML table: pages and form actions, on the same action path as the API.

Forms post to ``/r/{code}/act``; the answer to an htmx request is 204 (the
live stream brings the change to every screen, this one included) or an error
message for the flash area. Without JavaScript, forms still work: the answer
is a redirect back to the room, or the page again with the refusal on it.

Every refusal a person can reach shows the form again with its message and
what they typed, under the refusal's own 4xx status: a form never answers with
a bare error or a 500.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import FormData

from app.rules import actions as act
from app.rules.errors import BadDecoys, CluesRejected, Invalid, RuleError
from app.rules.languages import check_clue_in
from app.rules.state import MAX_DECOYS, MIN_DECOYS, STANDARD_DECOYS
from app.rules.text import N_
from app.service.clock import epoch_ms
from app.service.codes import normalize_code
from app.service.errors import MovedOnOffline, NotSeated, RateLimited, RoomNotFound, StaleAction
from app.service.room_state import Legend
from app.service.rooms import RoomService
from app.service.seats import Seat
from app.web import live, render
from app.web.claimant import answering
from app.web.deps import (
    NoRoomPage,
    OptionalSeat,
    PageCode,
    SameOriginPosts,
    ServiceDep,
    cookie_name,
    forget_cookie,
    limit,
    presented_token,
    reader_seat,
    seat_in,
    set_seat_cookie,
)
from app.web.i18n import Lang, Message, localize
from app.web.schemas import ActionIn, form_fields, to_action

router = APIRouter(include_in_schema=False, dependencies=[SameOriginPosts])

ACTION: TypeAdapter[Any] = TypeAdapter(ActionIn)
MAX_FIELD = 200
"""Characters kept of a typed field shown back on a refused form (the rules allow far less)."""


def html(content: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def flash_response(message: Message, status: int, lang: str) -> HTMLResponse:
    """An error for the flash area of the page that sent the form.

    The forms name the flash area as their target (``hx-target="#flash"``),
    resolved when they are sent: a live update may replace the form before its
    answer comes back, and a target looked up from a replaced form finds nothing.
    """
    response = html(render.flash(message, lang), status)
    response.headers["HX-Reswap"] = "innerHTML"
    return response


def see_room(code: str) -> RedirectResponse:
    return RedirectResponse(f"/r/{code}", status_code=303)


def site(request: Request) -> str:
    """The address players reach us at: the configured one, else this request's."""
    public_url: str | None = request.app.state.settings.public_url
    return public_url or str(request.base_url).rstrip("/")


def typed(form: FormData, key: str) -> str:
    value = form.get(key)
    return value[:MAX_FIELD] if isinstance(value, str) else ""


HOME_LEGENDS = 3
"""Legends shown per table size on the home page."""


async def legends_by_count(service: RoomService) -> dict[int, list[Legend]]:
    return {n: await service.legends_of(players=n, limit=HOME_LEGENDS) for n in range(3, 7)}


# --- home ----------------------------------------------------------------------


def add_stream_route(app: FastAPI) -> None:
    """Declare the page's live stream of HTML regions (``app/web/live.py``) on the
    application's own router, with this router's dependencies: a route whose
    dependencies are all its own, for ``streams.StreamDoor`` to open ahead of the
    middleware."""
    app.router.add_api_route(
        "/r/{code}/stream",
        live.room_stream,
        methods=["GET", "HEAD"],
        dependencies=list(router.dependencies),
        include_in_schema=False,
    )


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def home(
    request: Request, service: ServiceDep, lang: Lang, left: str | None = None
) -> HTMLResponse:
    """The home page; ``?left=CODE`` after leaving a room says which one."""
    return html(await _home(service, lang, left=normalize_code(left) if left else None))


async def _home(service: RoomService, lang: str, **context: Any) -> str:
    context.setdefault("language", _room_language(service, lang))
    return render.page(
        "home",
        lang,
        legends=await legends_by_count(service),
        decoy_choices=range(MIN_DECOYS, MAX_DECOYS + 1),
        standard_decoys=STANDARD_DECOYS,
        languages=service.languages,
        **context,
    )


def _room_language(service: RoomService, lang: str) -> str:
    """A new room plays in its creator's interface language, if this table has its deck."""
    return lang if lang in service.languages else "en"


@router.post("/rooms")
async def create_room(request: Request, service: ServiceDep, lang: Lang) -> Response:
    form = await request.form()
    name, decoys_typed = typed(form, "name"), typed(form, "decoys")
    language = typed(form, "language") or _room_language(service, lang)
    try:
        decoys = _decoys(decoys_typed)
        await limit(request, service, "create")
        seated = await service.create(name, decoys, language)
    except RuleError as error:
        page = await _home(
            service,
            lang,
            create_error=error,
            name=name,
            decoys=decoys_typed,
            language=language[:8],
        )
        return html(page, error.status)
    response = see_room(seated.code)
    set_seat_cookie(request, response, seated.code, seated.token)
    return response


def _decoys(typed: str) -> int:
    if not typed.strip():
        return MIN_DECOYS
    decoys = form_number(typed)
    if decoys is None:
        raise BadDecoys()
    return decoys


MAX_DIGITS = 9
"""Digits a number in a form may have: no field of this game counts past a few."""


def form_number(typed: str) -> int | None:
    """A whole number as a form sends one: a few ASCII digits, maybe after a minus (a
    turn to the left is ``-1``), spaces around allowed; None for anything else.
    ``int()`` would take ``٣`` or ``3_0``, and ``str.isdigit()`` passes ``²``, which
    ``int()`` then refuses with an error: neither is what a form means."""
    typed = typed.strip()
    digits = typed.removeprefix("-")
    if 0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdigit():
        return int(typed)
    return None


@router.post("/practice")
async def create_practice(request: Request, service: ServiceDep, lang: Lang) -> Response:
    """The home page's "Learn with two bots": a practice table in the page's language."""
    name = typed(await request.form(), "name")
    try:
        await limit(request, service, "create")
        seated = await service.practice(name, _room_language(service, lang))
    except RuleError as error:
        page = await _home(service, lang, practice_error=error, practice_name=name)
        return html(page, error.status)
    response = see_room(seated.code)
    set_seat_cookie(request, response, seated.code, seated.token)
    return response


@router.post("/join")
async def join_by_code(request: Request, service: ServiceDep, lang: Lang) -> Response:
    """The home page's join form: the room's page if the code opens one."""
    code = typed(await request.form(), "code")
    normalized = normalize_code(code)
    try:
        if normalized is None:
            raise RoomNotFound()
        await limit(request, service, "lookup")
        await service.ensure_room(normalized)
    except RuleError as error:
        return html(await _home(service, lang, join_error=error, code=code), error.status)
    return see_room(normalized)


# --- a room ----------------------------------------------------------------------


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> HTMLResponse:
    seat = await seat_in(request, code, service)
    try:
        if seat is None:
            await limit(request, service, "lookup")
        view = await service.view(code, None if seat is None else seat.pid)
    except RoomNotFound:
        raise NoRoomPage() from None
    except RateLimited as error:
        return html(render.page("error", lang, message=error), error.status)
    if seat is None or view["you"] is None:
        cookie_token = request.cookies.get(cookie_name(code))
        if await service.seat_moved(code, cookie_token):
            # Its seat is played from another device now: say so, and how to ask back.
            return html(render.page("seat-moved", lang, **render.room_context(view)))
        return html(render.page("join", lang, **render.room_context(view)))
    service.touch(code, seat.pid)
    token = request.cookies.get(cookie_name(code), "")
    device_url = f"{site(request)}/r/{code}/seat#{token}" if token else None
    return _room(request, service, view, seat, lang, device_url=device_url)


def _room(
    request: Request,
    service: RoomService,
    view: Mapping[str, Any],
    seat: Seat,
    lang: str,
    *,
    device_url: str | None = None,
    flash: RuleError | str | None = None,
    status: int = 200,
) -> HTMLResponse:
    """The room's page for a seat: its regions from ``view``, the "play on another
    device" link if there is one, a refusal in the flash area if there is one, and the
    server's time written in as the page leaves."""
    context = render.region_context(view, site(request))
    page = render.page(
        "room",
        lang,
        flash=flash,
        device_url=device_url,
        server_now=render.SERVER_NOW,
        viewer_id=seat.pid,
        **context,
    )
    return html(render.stamped(page, epoch_ms(service.clock())), status)


@router.get("/r/{code}/history", response_class=HTMLResponse)
async def history_page(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> HTMLResponse:
    """The clovers of the game so far, for a player of the room.

    Someone without a seat here gets the page of a room that does not exist, as
    for an unknown code: the page tells nothing, not even that the room is there.
    """
    seat = await reader_seat(request, code, service)
    if seat is None:
        raise NoRoomPage()
    try:
        history = await service.history(code)
    except RoomNotFound:
        raise NoRoomPage() from None
    service.touch(code, seat.pid)
    return html(render.page("history", lang, code=code, history=history))


def missing(code: str, lang: str) -> HTMLResponse:
    """The page of a room that is not there, offering ``code`` (as typed) to put right:
    the answer to ``NoRoomPage`` wherever a page meets it (``errors.install``)."""
    return html(render.page("missing", lang, code=code[:MAX_FIELD]), 404)


@router.post("/r/{code}/join")
async def join_room(request: Request, code: PageCode, service: ServiceDep, lang: Lang) -> Response:
    return await _newcomer(request, code, service, lang, watch=False)


@router.post("/r/{code}/watch")
async def watch_room(request: Request, code: PageCode, service: ServiceDep, lang: Lang) -> Response:
    """The join page's other form: watch the room under a name, without a seat."""
    return await _newcomer(request, code, service, lang, watch=True)


async def _newcomer(
    request: Request, code: str, service: RoomService, lang: str, *, watch: bool
) -> Response:
    """Take a seat, or watch: the room's page with its token set, or the join page
    again with the refusal on it and the name typed."""
    name = typed(await request.form(), "name")
    try:
        await limit(request, service, "join")
        await reader_seat(request, code, service)
    except RateLimited as error:
        # Said before the room is read: the same page whether or not the code is a room.
        return html(render.page("error", lang, message=error), error.status)
    try:
        if watch:
            # A device with a seat here (or watching already) does not watch under
            # another name: the rules refuse it, said on the form.
            seat = await seat_in(request, code, service)
            presented = presented_token(request, code)
            token = (await service.watch(code, name, seat, presented)).token
        else:
            token = (await service.join(code, name)).token
    except RuleError as refusal:
        if refusal.status == 404:
            raise NoRoomPage() from None
        try:
            view = await service.view(code, None)
        except RoomNotFound:
            raise NoRoomPage() from None
        context = render.room_context(view)
        page = render.page("join", lang, error=refusal, name=name, **context)
        return html(page, refusal.status)
    response = see_room(code)
    set_seat_cookie(request, response, code, token)
    return response


@router.get("/r/{code}/invite.svg")
async def invite_qr(
    request: Request, code: PageCode, seat: OptionalSeat, service: ServiceDep
) -> Response:
    """The invite link as a QR code, for the address this page was asked for.

    It only draws the code it is given (no room is read), so it tells nothing
    about which rooms exist; without a seat it still counts as a lookup.
    """
    if seat is None:
        await limit(request, service, "lookup")
    svg = render.qr_svg(f"{site(request)}/r/{code}")
    return Response(
        svg, media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"}
    )


# --- actions from the room page ----------------------------------------------------


@router.post("/r/{code}/act")
async def room_action(
    request: Request, code: PageCode, service: ServiceDep, lang: Lang
) -> Response:
    """One action from a form or button of the room page."""
    seat = await reader_seat(request, code, service)
    if seat is None:
        # The same whether or not the code is a room.
        refusal = NotSeated(N_("You have no seat in this room."))
        return flash_response(refusal, 401, lang) if is_htmx(request) else see_room(code)
    try:
        form = await request.form()
        action = to_action(ACTION.validate_python(form_body(form)))
        action = answering(request, code, action)  # never from the asking browser
        tapped_at = form.get("moment")
        if isinstance(tapped_at, str) and not isinstance(action, ANY_MOMENT):
            await _act_at(service, code, seat, action, tapped_at)
        else:
            await service.act(code, seat, action)
        if form.get("then") == "done":
            await service.act(code, seat, act.Done())
    except CluesRejected as error:
        message = " ".join(localize(detail.text, lang) for detail in error.details)
        return await _refused(request, service, code, seat, message, error.status, lang)
    except RuleError as error:
        return await _refused(request, service, code, seat, error, error.status, lang)
    except ValidationError:
        malformed = Invalid()
        return await _refused(request, service, code, seat, malformed, 422, lang)
    if isinstance(action, act.Leave):
        return _left(request, code)
    if isinstance(action, act.Sit | act.Invite) and is_htmx(request):
        # Seated now, or a practice table open to friends: the page comes again whole.
        return Response(status_code=204, headers={"HX-Refresh": "true"})
    if is_htmx(request):
        return Response(status_code=204)
    return see_room(code)


ANY_MOMENT = (act.Say, act.Leave)
"""Moves that mean the same at any step of the game, held offline or not: a chat line,
leaving the table."""

HELD_TRIES = 3
"""Times a held move is tried while other moves keep landing first (each a new ``seq``)."""


async def _act_at(
    service: RoomService, code: str, seat: Seat, action: act.Action, tapped_at: str
) -> None:
    """A move the page held while the phone was offline (``static/table.js``), sent once
    it is back with the step of the game it was tapped at (``render.moment_of``): played
    only if the table is still at that step, as this seat sees it, and refused with a
    clear message otherwise. Its ``seq`` is pinned, so the table cannot move on between
    the look and the move."""
    for _ in range(HELD_TRIES):
        view = await service.view(code, seat.pid)
        if render.moment_of(view) != tapped_at:
            raise MovedOnOffline()
        try:
            await service.act(code, seat, action, expect_seq=view["seq"])
        except StaleAction:
            continue  # another move landed first: look again
        return
    raise StaleAction()


def _left(request: Request, code: str) -> Response:
    """After leaving: the home page, which says which room was left; the seat cookie goes."""
    target = f"/?left={code}"
    response: Response
    if is_htmx(request):
        response = Response(status_code=204, headers={"HX-Redirect": target})
    else:
        response = RedirectResponse(target, status_code=303)
    forget_cookie(request, response, cookie_name(code))
    return response


async def _refused(
    request: Request,
    service: RoomService,
    code: str,
    seat: Seat,
    message: RuleError | str,
    status: int,
    lang: str,
) -> Response:
    """A refused action: its message in the flash area, or without JavaScript the room
    page again with the message on it."""
    if is_htmx(request):
        return flash_response(message, status, lang)
    try:
        view = await service.view(code, seat.pid)
    except RoomNotFound:
        raise NoRoomPage() from None
    if view["you"] is None:
        return html(render.page("join", lang, error=message, **render.room_context(view)), status)
    return _room(request, service, view, seat, lang, flash=message, status=status)


FORM_FLAGS = {"true": True, "1": True, "on": True, "false": False, "0": False, "": False}
"""How a form spells a yes-or-no field (a checkbox sends "on", a script "true")."""


def form_body(form: FormData) -> dict[str, Any]:
    """A form's fields as the JSON body the API would take, by the action's own fields
    (numbers as numbers, flags as booleans; a list from numbered fields, ``clue0`` to
    ``clue3``)."""
    kind = form.get("type")
    body: dict[str, Any] = {"type": kind}
    if not isinstance(kind, str):
        return body
    for name, hint, keys in form_fields(kind):
        if keys is not None:  # a list, one field per item
            items = [form.get(keys.format(i)) for i in range(4)]
            body[name] = [v.strip() if isinstance(v, str) and v.strip() else None for v in items]
            continue
        value = form.get(name)
        if not isinstance(value, str):
            continue
        if hint is int:
            number = form_number(value)
            # Anything but a plain number is left as typed: refused below as not a number.
            body[name] = value if number is None else number
        elif hint is bool:
            body[name] = FORM_FLAGS.get(value.strip().lower(), value)  # else refused below
        else:
            body[name] = value
    return body


@router.post("/r/{code}/check", response_class=HTMLResponse)
async def check(
    request: Request,
    code: PageCode,
    seat: OptionalSeat,
    service: ServiceDep,
    lang: Lang,
    leaf_typed: Annotated[str, Form(alias="leaf", max_length=MAX_FIELD)] = "0",
) -> HTMLResponse:
    """Check one clue as it is typed: the verdict, nothing saved."""
    if seat is None:
        await limit(request, service, "lookup")  # the same answer, room or not
        return html("", 200)
    leaf = form_number(leaf_typed)
    if leaf is None or not 0 <= leaf <= 3:
        raise Invalid()
    form = await request.form()
    text = form.get(f"clue{leaf}")
    try:
        view = await service.view(code, seat.pid)
    except RoomNotFound:
        return html("", 200)
    clover = view["clover"]
    if clover is None or not isinstance(text, str) or not text.strip() or len(text) > 200:
        return html(render.region_check(leaf, None, None, lang))
    keywords = [word for leaf_ in clover["leaves"] for word in leaf_["pair"]]
    verdict = check_clue_in(view["language"], text, keywords)
    return html(
        render.region_check(
            leaf,
            verdict.error.text if verdict.error else None,
            verdict.warning.text if verdict.warning else None,
            lang,
        )
    )
