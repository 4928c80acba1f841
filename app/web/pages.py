"""The HTML table: pages and form actions, on the same action path as the API.

Forms post to ``/r/{code}/act``; the answer to an htmx request is 204 (the
live stream brings the change to every screen, this one included) or an error
message for the flash area. Without JavaScript, forms still work: the answer
is a redirect back to the room.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import FormData

from app.rules.clues import check_clue
from app.rules.errors import RuleError
from app.rules.state import MAX_DECOYS, MIN_DECOYS
from app.service.codes import normalize_code
from app.service.errors import RateLimited, RoomNotFound
from app.service.rooms import RoomService, Seat, iso
from app.web import render
from app.web.api import set_seat_cookie
from app.web.deps import OptionalSeat, ServiceDep, check_same_origin, client_key, cookie_name
from app.web.schemas import ActionIn, to_action

router = APIRouter(include_in_schema=False)

ACTION = TypeAdapter(ActionIn)
NUMBERS = ("spot", "rotation", "turns", "decoys", "seat", "seq")
TEXTS = ("type", "card", "text")


def html(content: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(content, status_code=status)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def flash_response(message: str, status: int) -> HTMLResponse:
    """An error for the flash area of the page that sent the form."""
    response = html(render.flash(message), status)
    response.headers["HX-Retarget"] = "#flash"
    response.headers["HX-Reswap"] = "innerHTML"
    return response


def see_room(code: str) -> RedirectResponse:
    return RedirectResponse(f"/r/{code}", status_code=303)


async def legends_by_count(service: RoomService, limit: int = 3) -> dict[int, list[dict[str, Any]]]:
    return {n: await service.legends(players=n, limit=limit) for n in range(3, 7)}


# --- home ----------------------------------------------------------------------


@router.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse)
async def home(request: Request, service: ServiceDep) -> HTMLResponse:
    return html(await _home(request, service))


async def _home(request: Request, service: RoomService, **context: Any) -> str:
    return render.page(
        "home",
        legends=await legends_by_count(service),
        decoy_choices=range(MIN_DECOYS, MAX_DECOYS + 1),
        **context,
    )


@router.post("/rooms")
async def create_room(
    request: Request,
    service: ServiceDep,
    name: Annotated[str, Form(max_length=100)] = "",
    decoys: Annotated[int, Form(ge=MIN_DECOYS, le=MAX_DECOYS)] = MIN_DECOYS,
) -> Response:
    check_same_origin(request)
    try:
        if not await service.cluster.allow("create", client_key(request)):
            raise RateLimited()
        room, token = await service.create(name, decoys)
    except RuleError as error:
        page = await _home(request, service, create_error=error.message, name=name)
        return html(page, error.status)
    response = see_room(room.code)
    set_seat_cookie(request, response, room.code, token)
    return response


@router.post("/join")
async def join_by_code(
    request: Request,
    service: ServiceDep,
    code: Annotated[str, Form(max_length=40)] = "",
) -> Response:
    normalized = normalize_code(code)
    if normalized is None:
        page = await _home(request, service, join_error=RoomNotFound.default_message, code=code)
        return html(page, 404)
    return see_room(normalized)


# --- a room ----------------------------------------------------------------------


@router.get("/r/{code}", response_class=HTMLResponse)
async def room_page(
    request: Request, code: str, seat: OptionalSeat, service: ServiceDep
) -> HTMLResponse:
    normalized = normalize_code(code)
    room = None
    if normalized is not None:
        try:
            room = await service.load(normalized)
        except RoomNotFound:
            room = None
    if room is None or normalized is None:
        return html(render.page("missing", code=code), 404)
    index = None if seat is None else room.seat_of(seat.pid)
    view = await service.room_view(room, index)
    if index is None:
        return html(render.page("join", **render.room_context(view)))
    assert seat is not None
    service.presence.touch(normalized, seat.pid)
    token = request.cookies.get(cookie_name(normalized), "")
    context = await region_context(service, view, request)
    return html(
        render.page(
            "room",
            device_url=f"{site(request)}/r/{normalized}/seat/{token}" if token else None,
            **context,
        )
    )


def site(request: Request) -> str:
    return str(request.base_url).rstrip("/")


async def region_context(
    service: RoomService, view: dict[str, Any], request: Request
) -> dict[str, Any]:
    """Everything the live regions render from: the seat's view and public legends."""
    extra: dict[str, Any] = {"invite_url": f"{site(request)}/r/{view['code']}"}
    if view["phase"] == "finished":
        extra["server_legends"] = await service.legends(players=len(view["players"]), limit=5)
    return render.room_context(view, **extra)


@router.post("/r/{code}/join")
async def join_room(
    request: Request,
    code: str,
    service: ServiceDep,
    name: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    normalized = normalize_code(code)
    if normalized is None:
        return html(render.page("missing", code=code), 404)
    check_same_origin(request)
    try:
        if not await service.cluster.allow("join", client_key(request)):
            raise RateLimited()
        _, token, _ = await service.join(normalized, name)
    except RuleError as error:
        if error.status == 404:
            return html(render.page("missing", code=code), 404)
        room = await service.load(normalized)
        view = await service.room_view(room, None)
        page = render.page("join", error=error.message, name=name, **render.room_context(view))
        return html(page, error.status)
    response = see_room(normalized)
    set_seat_cookie(request, response, normalized, token)
    return response


@router.get("/r/{code}/seat/{token}")
async def take_seat(request: Request, code: str, token: str, service: ServiceDep) -> Response:
    """The "play on another device" link: the same seat, on this browser too."""
    normalized = normalize_code(code)
    if normalized is None or await service.seat_for(normalized, token) is None:
        return html(render.page("missing", code=code), 404)
    response = see_room(normalized)
    set_seat_cookie(request, response, normalized, token)
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@router.post("/r/{code}/act")
async def act(request: Request, code: str, seat: OptionalSeat, service: ServiceDep) -> Response:
    """One action from a form or button of the room page."""
    normalized = normalize_code(code)
    htmx = is_htmx(request)
    if normalized is None or seat is None:
        message = "You have no seat in this room."
        return flash_response(message, 401) if htmx else see_room(code)
    try:
        check_same_origin(request)
        form = await request.form()
        then = form.get("then")
        action = to_action(ACTION.validate_python(form_body(form)), iso(service.clock()))
        await service.act(normalized, seat, action)
        if then == "done":
            action = to_action(ACTION.validate_python({"type": "done"}), iso(service.clock()))
            await service.act(normalized, seat, action)
    except RuleError as error:
        message = error.message
        if hasattr(error, "details"):
            message = " ".join(d.message for d in error.details)  # type: ignore[attr-defined]
        return flash_response(message, error.status) if htmx else see_room(normalized)
    except ValidationError:
        message = "That action is not well formed."
        return flash_response(message, 422) if htmx else see_room(normalized)
    if htmx:
        return Response(status_code=204)
    return see_room(normalized)


def form_body(form: FormData) -> dict[str, Any]:
    """A form's fields as the JSON body the API would take."""
    body: dict[str, Any] = {}
    for key in TEXTS:
        value = form.get(key)
        if isinstance(value, str):
            body[key] = value
    for key in NUMBERS:
        value = form.get(key)
        if isinstance(value, str) and value.strip():
            try:
                body[key] = int(value)
            except ValueError:
                body[key] = value
    if body.get("type") == "clues":
        clues = [form.get(f"clue{leaf}") for leaf in range(4)]
        body["clues"] = [c.strip() if isinstance(c, str) and c.strip() else None for c in clues]
    return body


@router.post("/r/{code}/check", response_class=HTMLResponse)
async def check(
    request: Request,
    code: str,
    seat: OptionalSeat,
    service: ServiceDep,
    leaf: Annotated[int, Form(ge=0, le=3)] = 0,
) -> HTMLResponse:
    """Check one clue as it is typed: the verdict, nothing saved."""
    normalized = normalize_code(code)
    if normalized is None or seat is None:
        return html("", 200)
    form = await request.form()
    text = form.get(f"clue{leaf}")
    view = await _seat_view(service, normalized, seat)
    clover = view["clover"] if view else None
    if clover is None or not isinstance(text, str) or not text.strip() or len(text) > 200:
        return html(render.region_check(leaf, None, None))
    keywords = [word for leaf_ in clover["leaves"] for word in leaf_["pair"]]
    verdict = check_clue(text, keywords)
    return html(
        render.region_check(
            leaf,
            verdict.error.message if verdict.error else None,
            verdict.warning.message if verdict.warning else None,
        )
    )


async def _seat_view(service: RoomService, code: str, seat: Seat) -> dict[str, Any] | None:
    try:
        room = await service.load(code)
    except RoomNotFound:
        return None
    index = room.seat_of(seat.pid)
    return None if index is None else await service.room_view(room, index)
