"""The baseline: the least a room fan-out over SSE can do, to compare ours against.

A bare Starlette app with the same URLs as the JSON API: POST an action and it
is numbered and handed to every open stream of that room; GET streams them.
No database, no rules, no per-seat views, no rendering. Run it as the
benchmark does: ``uvicorn bench.baseline:app --port N``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

rooms: dict[str, dict] = {}
codes = itertools.count(1)


async def create(request: Request) -> JSONResponse:
    code = f"B{next(codes):06d}"
    rooms[code] = {"seq": 0, "seats": 1, "subscribers": set()}
    return JSONResponse({"code": code, "token": secrets.token_urlsafe(16), "seat": 0}, 201)


async def join(request: Request) -> JSONResponse:
    code = request.path_params["code"]
    room = rooms[code]
    room["seats"] += 1
    token = secrets.token_urlsafe(16)
    return JSONResponse({"code": code, "token": token, "seat": room["seats"] - 1}, 201)


async def watch(request: Request) -> JSONResponse:
    """Someone who only follows the room: a token, no seat (``python -m bench.watchers``)."""
    rooms[request.path_params["code"]]  # a KeyError for an unknown room, as join's
    return JSONResponse({"token": secrets.token_urlsafe(16), "seat": None}, 201)


async def act(request: Request) -> JSONResponse:
    room = rooms[request.path_params["code"]]
    body = await request.json()
    room["seq"] += 1
    seq = room["seq"]
    data = json.dumps({"seq": seq, "action": {"type": body.get("type")}}, separators=(",", ":"))
    message = f"event: state\nid: {seq}\ndata: {data}\n\n".encode()
    for queue in room["subscribers"]:
        queue.put_nowait(message)
    return JSONResponse({"seq": seq, "state": {"seq": seq}})


async def events(request: Request) -> StreamingResponse:
    room = rooms[request.path_params["code"]]
    queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def stream():  # type: ignore[no-untyped-def]
        room["subscribers"].add(queue)
        try:
            yield f"event: state\nid: {room['seq']}\ndata: {{}}\n\n".encode()
            while True:
                yield await queue.get()
        finally:
            room["subscribers"].discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream")


async def healthz(request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


app = Starlette(
    routes=[
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/api/rooms/{code}/watch", watch, methods=["POST"]),
        Route("/api/rooms/{code}/actions", act, methods=["POST"]),
        Route("/api/rooms/{code}/events", events),
        Route("/healthz", healthz),
    ]
)
