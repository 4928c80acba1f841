"""Who is asking, said once for the API, the pages and the streams alike.

The room from the path, the seat from a bearer token or the room's cookie,
the rate limits of what brute force would lean on, and the check that a
cookie-carried post comes from our own pages. The JSON routes take these as
FastAPI dependencies. The pages take the room's code the same way
(``PageCode``: a code that is none gets the page of a room that does not
exist), and call the other functions inside their handlers, so that a refusal
shows the form again instead of an error page.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Literal
from urllib.parse import urlsplit

from fastapi import Depends, Request, Response

from app.rules.errors import Forbidden
from app.rules.text import N_
from app.service.codes import normalize_code
from app.service.errors import NotSeated, RateLimited, RoomNotFound
from app.service.ratelimit import address_key
from app.service.rooms import RoomService
from app.service.seats import Seat

COOKIE_PREFIX = "soclover_"
COOKIE_DAYS = 30

Limited = Literal["create", "join", "lookup", "claim"]


def cookie_name(code: str) -> str:
    """One cookie per room, so a seat token is only ever sent for its own room's code."""
    return f"{COOKIE_PREFIX}{code}"


def set_seat_cookie(request: Request, response: Response, code: str, token: str) -> None:
    set_cookie(request, response, cookie_name(code), token, max_age=60 * 60 * 24 * COOKIE_DAYS)


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    """Every cookie the table sets, the same way: out of scripts' reach (HttpOnly), sent
    along with a link from elsewhere but never with another site's post (SameSite=Lax),
    and ``Secure`` whenever the page came over HTTPS (``secure_cookies``)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=secure_cookies(request),
        path="/",
    )


def forget_cookie(request: Request, response: Response, name: str) -> None:
    """A cookie taken back, with the attributes it was set with."""
    response.delete_cookie(
        name, path="/", httponly=True, samesite="lax", secure=secure_cookies(request)
    )


def secure_cookies(request: Request) -> bool:
    """Whether this answer's cookies are ``Secure``: the request came over HTTPS, to the
    server itself or to a proxy it trusts, which says so in ``X-Forwarded-Proto`` (uvicorn
    reads it from ``SOCLOVER_TRUSTED_PROXIES`` alone, so nobody else can claim it); or
    ``SOCLOVER_SECURE_COOKIES`` asks for it always. Over plain http a browser would drop a
    ``Secure`` cookie, so a table on a home network keeps working without it."""
    return request.scope.get("scheme") == "https" or bool(request.app.state.settings.secure_cookies)


# The dependencies are ``async def`` although most never await: FastAPI runs a
# plain ``def`` dependency in its thread pool, two thread hops per request, a
# cost seen under load (docs/performance.md, "The event loop kept free").


async def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.service
    return service


ServiceDep = Annotated[RoomService, Depends(get_service)]


async def room_code(code: str) -> str:
    normalized = normalize_code(code)
    if normalized is None:
        raise RoomNotFound()
    return normalized


CodeDep = Annotated[str, Depends(room_code)]


class NoRoomPage(RoomNotFound):
    """No room at a page's address: its code cannot be one, or names no room (for the
    one asking). Answered with the page that says so and offers the code typed again
    (``errors.install``)."""


async def page_code(code: str) -> str:
    """``room_code`` for the pages: a code that cannot be one gets the page of a room that
    does not exist, as an unknown one does."""
    normalized = normalize_code(code)
    if normalized is None:
        raise NoRoomPage()
    return normalized


PageCode = Annotated[str, Depends(page_code)]


def client_key(request: Request) -> str:
    """The client, as every per-address limit counts it (``ratelimit.address_key``: an
    IPv6 client by its /64). The address is the one uvicorn settles on: behind a
    trusted proxy, the one the proxy saw (``SOCLOVER_TRUSTED_PROXIES``)."""
    return address_key(request.client.host) if request.client else "unknown"


async def limit(request: Request, service: RoomService, kind: Limited) -> None:
    """Count one try of ``kind`` from this client address; ``RateLimited`` past the limit."""
    if not await service.cluster.allow(kind, client_key(request)):
        raise RateLimited()


async def limit_claims(request: Request, service: RoomService, code: str) -> None:
    """Seat requests are counted per client address, per address within the room (its
    share), then per room: every seated player is asked to answer them, so nobody may
    flood a table with them from many places; and a try past an address's share never
    reaches the room's budget, so two addresses cannot spend it and keep a real claimant
    (from a third) out."""
    await limit(request, service, "claim")
    if not await service.cluster.allow("claim-share", f"{code} {client_key(request)}"):
        raise RateLimited()
    if not await service.cluster.allow("claim-room", code):
        raise RateLimited(N_("This room has had many seat requests lately: wait a minute."))


def presented_token(request: Request, code: str) -> str | None:
    """The token the request carries (``Authorization: Bearer``, else the room's cookie)."""
    return _token(request, code)[0]


def _token(request: Request, code: str) -> tuple[str | None, bool]:
    """The presented token and whether it came from the cookie."""
    bearer = _bearer(request)
    if bearer is not None:
        return bearer, False
    return request.cookies.get(cookie_name(code)), True


def _bearer(request: Request) -> str | None:
    """The ``Authorization: Bearer`` token, if the request carries one."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def seat_in(request: Request, code: str, service: RoomService) -> Seat | None:
    """The caller's seat in ``code`` (a code already normalized), from token or cookie."""
    token, _ = _token(request, code)
    return await service.seat_for(code, token)


async def reader_seat(request: Request, code: CodeDep, service: ServiceDep) -> Seat | None:
    """The caller's seat, if any. Someone without one is reading a room by its code,
    the room's only secret: that is rate-limited per client address, like joining,
    so codes cannot be enumerated."""
    seat = await seat_in(request, code, service)
    if seat is None:
        await limit(request, service, "lookup")
    return seat


async def optional_seat(request: Request, code: CodeDep, service: ServiceDep) -> Seat | None:
    return await seat_in(request, code, service)


SEAT_MOVED = N_(
    "This seat moved to another device: its player plays there now. This device can "
    "ask for a seat again from the room's page."
)


async def required_seat(request: Request, code: CodeDep, service: ServiceDep) -> Seat:
    """The caller's seat, for what only a seat may do (the actions).

    Someone without one gets 401 whether or not there is a room ``code``: a 404 for
    unknown codes and a 401 for real ones would tell which codes are rooms, to anyone,
    as fast as they can ask. Their tries count against the lookups, as any read by
    code without a seat does. A seated player pays for one header check and the seat.
    """
    token, from_cookie = _token(request, code)
    if from_cookie:
        check_same_origin(request)  # before anything else, as for every form
    seat = await service.seat_for(code, token)
    if seat is None:
        await limit(request, service, "lookup")
        raise NotSeated(SEAT_MOVED if await service.seat_moved(code, token) else None)
    return seat


FROM_ANOTHER_SITE = N_("That request came from another site.")


def check_same_origin(request: Request) -> None:
    """Refuse a cookie-carried action that another site's page sent (CSRF).

    Browsers send ``Origin`` on every cross-site POST and ``Sec-Fetch-Site``
    on every request; a script or curl sends neither and carries no ambient
    cookie a third party could abuse.
    """
    origin = request.headers.get("origin")
    if origin is not None:
        if origin == "null" or urlsplit(origin).netloc != request.headers.get("host"):
            raise Forbidden(FROM_ANOTHER_SITE)
        return
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        raise Forbidden(FROM_ANOTHER_SITE)


SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


async def same_origin_posts(request: Request) -> None:
    """The pages' routers' dependency: every form post (every method but a read) comes
    from our own pages, checked before the route reads anything or changes anything, so
    that no route can forget it or do part of its work first."""
    if request.method not in SAFE_METHODS:
        check_same_origin(request)


async def same_origin_unless_bearer(request: Request) -> None:
    """The API's routers' dependency: a post that carries no bearer token (a cookie, or
    nothing) comes from our own pages or from a script, never from another site's page.
    A bearer token needs no such check: browsers never send one on their own."""
    if request.method not in SAFE_METHODS and _bearer(request) is None:
        check_same_origin(request)


def rate_limited(kind: Limited) -> Callable[..., Awaitable[None]]:
    """A dependency counting one try of ``kind`` (for routes that refuse with JSON)."""

    async def dependency(request: Request, service: ServiceDep) -> None:
        await limit(request, service, kind)

    return dependency


OptionalSeat = Annotated[Seat | None, Depends(optional_seat)]
ReaderSeat = Annotated[Seat | None, Depends(reader_seat)]
CreateLimit = Depends(rate_limited("create"))
JoinLimit = Depends(rate_limited("join"))
CountedAsLookup = Depends(reader_seat)
"""For a route by code that is not a read: its request counts as a lookup when it comes
from someone without a seat in the room, as every request by code does."""


@dataclass(frozen=True, slots=True)
class Acting:
    """Who acts, on which room, through which service: what an action's route needs."""

    code: str
    seat: Seat
    service: RoomService


async def acting(request: Request, code: str) -> Acting:
    """The room, the seat and the service of an action, in one dependency (the same
    functions, in the same order, as ``CodeDep``, ``ServiceDep`` and ``required_seat``).
    An action is what the server does most, and FastAPI solves each dependency at a
    cost of its own (docs/performance.md, "Routes written once")."""
    normalized = await room_code(code)
    service = await get_service(request)
    return Acting(normalized, await required_seat(request, normalized, service), service)


ActingDep = Annotated[Acting, Depends(acting)]
SameOriginPosts = Depends(same_origin_posts)
SameOriginUnlessBearer = Depends(same_origin_unless_bearer)
