"""The JSON API (docs/api.md): rooms, actions, legends."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Body, FastAPI, Path, Query, Request, Response
from fastapi.responses import JSONResponse

from app.jsontext import to_bytes
from app.service.codes import normalize_code
from app.service.errors import ClaimNotFound, RoomNotFound
from app.service.rooms import RoomService
from app.web import events
from app.web.claimant import answering, claimant
from app.web.deps import (
    ActingDep,
    CodeDep,
    CountedAsLookup,
    CreateLimit,
    JoinLimit,
    OptionalSeat,
    ReaderSeat,
    SameOriginUnlessBearer,
    ServiceDep,
    limit,
    limit_claims,
    presented_token,
    seat_in,
    set_seat_cookie,
)
from app.web.events import state_json
from app.web.i18n import Lang
from app.web.plain_route import PlainRoute
from app.web.renderings import renderings_of
from app.web.schemas import (
    ActionIn,
    ActionOut,
    ClaimIn,
    ClaimOut,
    CreateRoom,
    HistoryOut,
    JoinRoom,
    LegendsOut,
    PracticeRoom,
    SeatOut,
    WatchOut,
    to_action,
)
from app.web.state_schema import RoomState
from app.web.streams import RoomStream


class ViewJSON(JSONResponse):
    """A view as JSON, written by the table's one encoder (``app.jsontext``): the same
    compact UTF-8 as Starlette's, at a tenth of the time (docs/performance.md, "One
    encoder for the view")."""

    def render(self, content: Any) -> bytes:
        return to_bytes(content)


router = APIRouter(prefix="/api", tags=["api"], dependencies=[SameOriginUnlessBearer])

T = TypeVar("T")

ROOM_ERRORS: dict[int | str, dict[str, Any]] = {404: {"description": "No such room"}}


async def post_action(
    acting: ActingDep,
    body: Annotated[ActionIn, Body()],
    request: Request,
) -> Response:
    """Apply one action for the caller's seat; the answer is the new state, already on disk.

    Its `chat` holds only the lines this action added (`chat_after` says after which
    line): the whole chat comes with `GET /api/rooms/{code}` and a stream's first event.
    """
    # An answer to a seat request says which request this browser made, if any.
    action = answering(request, acting.code, to_action(body))
    update = await acting.service.act(acting.code, acting.seat, action, body.seq)
    # The common part of the view is encoded once, here, for this answer and for every
    # stream of the seats that share it (``events.state_json``).
    answer = b'{"seq":%d,"state":%b}' % (
        update.seq,
        await state_json(update, renderings_of(request), keep_own=True),
    )
    return Response(answer, media_type="application/json")


def add_first_routes(app: FastAPI) -> None:
    """Declare the action route and the room's live stream on the application's own
    router, ahead of every included router: what the server matches most is matched
    first, and once (a route of an included router is matched by the router, then
    again by the route chosen; docs/performance.md, "Routes written once"), and the
    stream's route is one whose dependencies are all its own (``streams.StreamDoor``
    opens it ahead of the middleware with FastAPI's handler of the route). Called before
    the rest of the API is included; their prefix, tags and dependencies are the API
    router's own, and the application's."""
    add = partial(
        app.router.add_api_route,
        tags=list(router.tags),
        dependencies=list(router.dependencies),
        responses=ROOM_ERRORS,
    )
    add(
        f"{router.prefix}/rooms/{{code}}/actions",
        post_action,
        methods=["POST"],
        response_model=ActionOut,
        route_class_override=PlainRoute,
    )
    add(
        f"{router.prefix}/rooms/{{code}}/events",
        events.room_events,
        methods=["GET"],
        response_class=RoomStream,
        responses=events.RESPONSES,
    )
    # A HEAD answers as a GET does, without a body: not a second operation in the document.
    add(
        f"{router.prefix}/rooms/{{code}}/events",
        events.room_events,
        methods=["HEAD"],
        include_in_schema=False,
    )


@router.post("/rooms", status_code=201, response_model=SeatOut, dependencies=[CreateLimit])
async def create_room(
    body: CreateRoom, request: Request, response: Response, service: ServiceDep, lang: Lang
) -> SeatOut:
    """Create a room; its creator is the host in seat 0."""
    language = body.language or (lang if lang in service.languages else "en")
    seated = await service.create(body.name, body.decoys, language)
    set_seat_cookie(request, response, seated.code, seated.token)
    return SeatOut(code=seated.code, token=seated.token, seat=seated.seat)


@router.post("/practice", status_code=201, response_model=SeatOut, dependencies=[CreateLimit])
async def create_practice(
    body: PracticeRoom, request: Request, response: Response, service: ServiceDep, lang: Lang
) -> SeatOut:
    """Open a practice table: the caller (seat 0, the host) and two bots, already
    writing clues on the practice deal of its language (the same game every time; the
    bots' clues and moves are written in advance). Its state carries `practice: true`;
    its code opens it to nobody else (404 as for an unknown room) until the host sends
    `invite`; its game never enters the Record of Legends."""
    language = body.language or (lang if lang in service.languages else "en")
    seated = await service.practice(body.name, language)
    set_seat_cookie(request, response, seated.code, seated.token)
    return SeatOut(code=seated.code, token=seated.token, seat=seated.seat)


@router.post(
    "/rooms/{code}/join",
    status_code=201,
    response_model=SeatOut,
    responses=ROOM_ERRORS,
    dependencies=[JoinLimit, CountedAsLookup],
)
async def join_room(
    code: CodeDep, body: JoinRoom, request: Request, response: Response, service: ServiceDep
) -> SeatOut:
    """Take a seat in a room that is still in its lobby (409 if full or started)."""
    seated = await service.join(code, body.name)
    set_seat_cookie(request, response, seated.code, seated.token)
    return SeatOut(code=seated.code, token=seated.token, seat=seated.seat)


@router.post(
    "/rooms/{code}/watch",
    status_code=201,
    response_model=WatchOut,
    responses=ROOM_ERRORS,
    dependencies=[JoinLimit, CountedAsLookup],
)
async def watch_room(
    code: CodeDep,
    body: JoinRoom,
    request: Request,
    response: Response,
    service: ServiceDep,
    seat: OptionalSeat,
) -> WatchOut:
    """Watch a room without a seat, in any phase: see what a guesser sees, live, and
    chat while the host allows it (`watchers_chat`). Names follow the rules of seats
    (422 `bad_name`, `reserved_name`, `name_taken` against players and watchers alike);
    409 `watchers_full` when the room has 50 watchers, none of them away; 409
    `already_seated` (`already_watching`) for a token or cookie that holds a seat in
    the room (watches it already). In the lobby a watcher may take a free seat (`sit`),
    keeping their id and token."""
    watching = await service.watch(code, body.name, seat, presented_token(request, code))
    set_seat_cookie(request, response, watching.code, watching.token)
    return WatchOut(code=watching.code, token=watching.token, watcher=watching.watcher)


@router.get("/rooms/{code}", responses=ROOM_ERRORS, response_model=RoomState)
async def get_room(code: CodeDep, seat: ReaderSeat, service: ServiceDep) -> ViewJSON:
    """The room as the caller's seat may see it, with the whole recent chat; without a
    seat, the public view (rate-limited per client address: a code is a room's secret)."""
    if seat is not None:
        service.touch(code, seat.pid)
    # The view is plain JSON data already: written by the table's one encoder, as the
    # actions' answers and the events are, not by FastAPI's generic one.
    return ViewJSON(await service.view(code, None if seat is None else seat.pid))


@router.get("/rooms/{code}/history", response_model=HistoryOut, responses=ROOM_ERRORS)
async def get_history(code: CodeDep, seat: ReaderSeat, service: ServiceDep) -> HistoryOut:
    """The current game's clovers so far: each checked clover with its Spectator, clues,
    tries (every placement right or wrong), score, solution and decoys. A clover appears
    once checked, never before. Read like the room itself: as the caller's seat may see
    it, and without a seat as anyone may (rate-limited per client address)."""
    if seat is not None:
        service.touch(code, seat.pid)
    await service.ensure_room(code, None if seat is None else seat.pid)
    return HistoryOut.model_validate(await service.history(code))


@router.post(
    "/rooms/{code}/claims",
    status_code=201,
    response_model=ClaimOut,
    responses=ROOM_ERRORS,
    dependencies=[CountedAsLookup],
)
async def post_claim(
    code: CodeDep, body: ClaimIn, request: Request, service: ServiceDep
) -> ClaimOut:
    """Ask for a seat from a device without one ("I am Bea"): every seated player is
    shown the request; the seat's own player answers it while present, else every
    other player at the table must allow it (`waiting_for` says whose allow it still
    needs; the host's too if the host chose so) and one refusal ends it. Poll it with
    its token, or follow the room's events; once `allowed`, the token is this device's
    seat token and the seat's old device loses it. A seat that moved after its clover
    was dealt does not show that clover before the table has rebuilt it. Rate-limited
    per client address, per room, and per address within a room.

    The token the request carries (bearer or cookie) tells who asks: a seat of this
    room is refused (409 `already_seated`); an earlier request of this device still
    waiting is replaced by this one; a token of this very seat, which moved away from
    it, asks the seat back. One request waits per seat (409 `seat_asked_for`); one
    address holds two waiting requests at most (409 `too_many_claims_here`); an address
    whose request the table refused may not ask again for ten minutes (403
    `refused_here`); requests run out after 5 minutes."""
    await limit_claims(request, service, code)
    claimed = await service.claims.claim(code, body.seat, **claimant(request, code))
    state = claimed.state
    return ClaimOut(
        claim=claimed.claim,
        seat=state.seat,
        status=state.status,
        waits=state.waits,
        waiting_for=list(state.waiting_for),
        token=claimed.token,
    )


@router.get("/rooms/{code}/claims/{claim}", response_model=ClaimOut, responses=ROOM_ERRORS)
async def get_claim(
    code: CodeDep, claim: Annotated[str, Path(max_length=32)], request: Request, service: ServiceDep
) -> ClaimOut:
    """Where a seat request stands, for the device that made it (its token as
    `Authorization: Bearer`): `pending`, `allowed` (the token now opens the seat) or
    `refused` (also when withdrawn, run out, or gone with its seat). `waits`: the seat
    is the Spectator's, which moves only once their clover is checked."""
    state = await _claimant(request, code, service, service.claims.state, claim)
    return ClaimOut(
        claim=claim,
        seat=state.seat,
        status=state.status,
        waits=state.waits,
        waiting_for=list(state.waiting_for),
    )


@router.delete("/rooms/{code}/claims/{claim}", response_model=ClaimOut, responses=ROOM_ERRORS)
async def delete_claim(
    code: CodeDep, claim: Annotated[str, Path(max_length=32)], request: Request, service: ServiceDep
) -> ClaimOut:
    """Take a seat request back (with its token, as for reading it)."""
    seat = await _claimant(request, code, service, service.claims.withdraw, claim)
    return ClaimOut(claim=claim, seat=seat, status="withdrawn")


async def _claimant(
    request: Request,
    code: str,
    service: RoomService,
    asked: Callable[[str, str, str | None], Awaitable[T]],
    claim: str,
) -> T:
    """``asked(code, claim, token)`` for the device holding the claim's token. Anyone
    else gets 404 ``claim_not_found``, the same for a room that does not exist (no
    claim is found there either), and their try counts as a lookup by code."""
    try:
        return await asked(code, claim, presented_token(request, code))
    except ClaimNotFound:
        await limit(request, service, "lookup")
        raise


@router.get(
    "/legends", response_model=LegendsOut, response_model_exclude_none=True, responses=ROOM_ERRORS
)
async def legends(
    request: Request,
    service: ServiceDep,
    players: Annotated[int | None, Query(ge=3, le=6)] = None,
    decoys: Annotated[int | None, Query(ge=1, le=4)] = None,
    room: Annotated[str | None, Query(max_length=12)] = None,
    language: Annotated[Literal["en", "fr", "zh"] | None, Query()] = None,
    limit_: Annotated[int, Query(alias="limit", ge=1, le=100)] = 20,
) -> LegendsOut:
    """The Record of Legends: finished games, best score first.

    Public legends carry no room code: a code opens its room. With `room=CODE` and a
    seat of that room, that room's own legends, each with its `room`; without such a
    seat, 404 as for an unknown room.
    """
    code = None
    if room is not None:
        code = normalize_code(room)
        if code is None or await seat_in(request, code, service) is None:
            await limit(request, service, "lookup")
            raise RoomNotFound()
    rows = await service.legends_of(
        players=players, decoys=decoys, room=code, limit=limit_, language=language
    )
    return LegendsOut.model_validate({"legends": rows})
