"""One load-generator process: its share of the rooms, their players and streams.

The orchestrator (``bench.run``) starts a few of these with ``multiprocessing``
and talks to each over a pipe: ``setup`` (create rooms and bring them to the
resolution phase), ``open`` (one SSE stream per player), ``run`` (send actions
at a fixed rate for a while, open loop, and report latencies), ``close``.
Every client of a room lives in the same process, so one monotonic clock times
an action from its send to its arrival on the room's last stream.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import random
import resource
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

NAMES = ["Ada", "Bea", "Cy", "Dot", "Eve", "Flo"]
MIX = (("place", 25), ("rotate", 30), ("remove", 15), ("agree", 10), ("say", 20))
"""The resolution phase as a table plays it: mostly moving cards, some talk."""
KINDS = [kind for kind, weight in MIX for _ in range(weight)]
SETUP_CONCURRENCY = 16
DRAIN_SECONDS = 2.0


@dataclass
class Client:
    code: str
    token: str
    seat: int
    ids: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    events: int = 0
    observer: bool = False
    path: str = "/api/rooms/{code}/events"
    """The stream it follows: the API's events, or a page's (``/r/{code}/stream``)."""
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str | None = None

    watcher: bool = False
    """Someone who watches the room without playing: a stream, never an action."""

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}


@dataclass
class Room:
    code: str
    clients: list[Client]
    state: dict[str, Any] | None = None
    guessers: list[Client] = field(default_factory=list)

    def learn(self, state: dict[str, Any]) -> None:
        if self.state is None or state.get("seq", -1) > self.state.get("seq", -1):
            self.state = state


class Errors(Exception):
    pass


class LoadGen:
    def __init__(self, base: str, mode: str, seed: int) -> None:
        # Several servers (comma-separated): rooms are created on the first, and each
        # room is then played on one of them, by its code (``at``).
        self.bases = base.split(",")
        self.base = self.bases[0]
        self.mode = mode  # "app" (the real game) or "baseline"
        self.rng = random.Random(seed)
        self.rooms: list[Room] = []
        self.http: aiohttp.ClientSession | None = None
        self.streams: aiohttp.ClientSession | None = None
        self.tasks: list[asyncio.Task[None]] = []
        self.errors: list[str] = []

    async def start(self) -> None:
        timeout = aiohttp.ClientTimeout(total=30)
        self.http = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=256), timeout=timeout
        )
        self.streams = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),
        )

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for session in (self.http, self.streams):
            if session is not None:
                await session.close()

    def at(self, code: str) -> str:
        """The server a room's requests go to: one per room, as a proxy hashing the room
        code picks it (the same on every load generator)."""
        return self.bases[zlib.crc32(code.encode()) % len(self.bases)]

    # --- setup ------------------------------------------------------------------

    async def post(self, path: str, body: dict[str, Any], token: str | None = None) -> Any:
        assert self.http is not None
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        code = path.split("/")[3] if path.startswith("/api/rooms/") else None
        base = self.base if code is None else self.at(code)
        async with self.http.post(base + path, json=body, headers=headers) as r:
            raw = await r.read()
            if r.status >= 300:
                raise Errors(f"POST {path} {body.get('type', '')}: {r.status} {raw[:200]!r}")
            return orjson.loads(raw)

    async def setup_room(self, players: int, watchers: int = 0) -> Room:
        host = await self.post("/api/rooms", {"name": NAMES[0]})
        code = host["code"]
        clients = [Client(code, host["token"], 0)]
        for name in NAMES[1:players]:
            seat = await self.post(f"/api/rooms/{code}/join", {"name": name})
            clients.append(Client(code, seat["token"], seat["seat"]))
        room = Room(code, clients)
        if self.mode == "baseline":
            room.guessers = clients[1:]
        else:
            await self.post(f"/api/rooms/{code}/actions", {"type": "start"}, clients[0].token)
            for c in clients:
                clues = [f"Qz{c.seat}{leaf}" for leaf in range(4)]
                await self.post(
                    f"/api/rooms/{code}/actions", {"type": "clues", "clues": clues}, c.token
                )
            answer: dict[str, Any] = {}
            for c in clients:
                answer = await self.post(f"/api/rooms/{code}/actions", {"type": "done"}, c.token)
            state = answer["state"]
            if state["phase"] != "resolution":
                raise Errors(f"room {code} did not reach resolution: {state['phase']}")
            room.learn(state)
            spectator = state["resolution"]["spectator"]
            room.guessers = [c for c in clients if c.seat != spectator]
        room.guessers[0].observer = True
        for n in range(watchers):
            room.clients.append(await self.watcher(code, n))
        return room

    async def watcher(self, code: str, n: int) -> Client:
        """A watcher of ``code``: named through the watch API where the server has one,
        else someone reading the room without a seat (what a guesser sees, either way)."""
        assert self.http is not None
        body = {"name": f"Watcher {n}"}
        async with self.http.post(f"{self.at(code)}/api/rooms/{code}/watch", json=body) as r:
            raw = await r.read()
            if r.status == 201:
                return Client(code, orjson.loads(raw)["token"], -1, watcher=True)
            if r.status not in (404, 405):
                raise Errors(f"POST watch: {r.status} {raw[:200]!r}")
        return Client(code, "", -1, watcher=True)

    async def setup(self, sizes: list[int], watchers: int = 0) -> dict[str, Any]:
        gate = asyncio.Semaphore(SETUP_CONCURRENCY)

        async def one(players: int) -> Room:
            async with gate:
                return await self.setup_room(players, watchers)

        started = time.perf_counter()
        self.rooms = list(await asyncio.gather(*(one(n) for n in sizes)))
        return {"rooms": len(self.rooms), "seconds": time.perf_counter() - started}

    # --- streams ------------------------------------------------------------------

    async def open(self, timeout: float) -> dict[str, Any]:
        clients = [c for room in self.rooms for c in room.clients]
        by_code = {room.code: room for room in self.rooms}
        gate = asyncio.Semaphore(64)  # connect in waves, not 5,000 SYNs at once

        async def opener(client: Client) -> None:
            async with gate:
                self.tasks.append(asyncio.create_task(self.stream(client, by_code[client.code])))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(client.opened.wait(), timeout)

        started = time.perf_counter()
        await asyncio.gather(*(opener(c) for c in clients))
        opened = sum(1 for c in clients if c.opened.is_set() and c.failed is None)
        failures = [c.failed for c in clients if c.failed][:5]
        return {
            "clients": len(clients),
            "opened": opened,
            "seconds": time.perf_counter() - started,
            "failures": failures,
        }

    async def stream(self, client: Client, room: Room) -> None:
        """Read one SSE stream with a small hand parser: ids and arrival times."""
        assert self.streams is not None
        url = self.at(client.code) + client.path.format(code=client.code)
        try:
            async with self.streams.get(url, headers=client.headers) as r:
                if r.status != 200:
                    client.failed = f"stream {client.code}: {r.status}"
                    return
                buffer = b""
                async for chunk in r.content.iter_any():
                    now = time.perf_counter()
                    buffer += chunk
                    if b"\r" in buffer:
                        buffer = buffer.replace(b"\r\n", b"\n")
                    while (end := buffer.find(b"\n\n")) >= 0:
                        block, buffer = buffer[:end], buffer[end + 2 :]
                        self.event(client, room, block, now)
            client.failed = client.failed or f"stream {client.code} ended"
        except asyncio.CancelledError:
            raise
        except Exception as error:
            client.failed = f"stream {client.code}: {error!r}"
        finally:
            client.opened.set()

    def event(self, client: Client, room: Room, block: bytes, now: float) -> None:
        seq = None
        data = None
        for line in block.split(b"\n"):
            if line.startswith(b"id:"):
                seq = int(line[3:])
            elif client.observer and line.startswith(b"data:"):
                data = line[5:]
        if seq is None:
            return  # a ping
        client.events += 1
        client.ids.append(seq)
        client.times.append(now)
        client.opened.set()
        if data is not None and self.mode == "app":
            room.learn(orjson.loads(data)["state"])

    # --- load ------------------------------------------------------------------------

    def pick(self, room: Room) -> tuple[Client, dict[str, Any]]:
        """One action of the mix that the room's latest known state allows."""
        rng = self.rng
        kind = rng.choice(KINDS)
        actor = rng.choice(room.guessers)
        if kind == "say":
            return actor, {"type": "say", "text": f"maybe {rng.randrange(1000)} goes left?"}
        res = room.state.get("resolution") if room.state else None
        if res is None or res.get("checked"):
            if self.mode == "baseline":
                return actor, {"type": kind, "spot": rng.randrange(4)}
            return actor, {"type": "say", "text": "next?"}
        board = res["board"]
        free = [b["spot"] for b in board if b["card"] is None and not b["locked"]]
        filled = [b["spot"] for b in board if b["card"] is not None and not b["locked"]]
        if kind == "agree" and not free:
            agreer = room.guessers[0]  # one guesser only: the clover is never checked
            agreed = agreer.seat in res["agreed"]
            return agreer, {"type": "unagree" if agreed else "agree"}
        if kind in ("rotate", "remove") and filled:
            if kind == "rotate":
                return actor, {"type": "rotate", "spot": rng.choice(filled), "turns": 1}
            return actor, {"type": "remove", "spot": rng.choice(filled)}
        if free and res["pool"]:
            card = rng.choice(res["pool"])["card"]
            return actor, {
                "type": "place",
                "card": card,
                "spot": rng.choice(free),
                "rotation": rng.randrange(4),
            }
        if filled:
            return actor, {"type": "remove", "spot": rng.choice(filled)}
        return actor, {"type": "say", "text": "hmm"}

    async def run(
        self, rate: float, duration: float, offset: float, per_room: bool = False
    ) -> dict[str, Any]:
        """Send ``rate`` actions/s for ``duration`` s on a fixed schedule; then time them
        (``per_room``: each room's latencies too, by code)."""
        assert self.http is not None
        for room in self.rooms:
            for c in room.clients:
                c.ids.clear()
                c.times.clear()
        order = self.rooms[:]
        self.rng.shuffle(order)
        count = max(1, int(rate * duration))
        sent: list[tuple[Room, float, int]] = []
        lags: list[float] = []
        counts = {"sent": 0, "ok": 0, "refused": 0, "errors": 0}
        kinds: dict[str, int] = {}
        samples: list[str] = []
        cpu0 = time.process_time()
        start = time.perf_counter() + 0.2 + offset / rate
        in_flight: set[asyncio.Task[None]] = set()

        async def send(room: Room, actor: Client, body: dict[str, Any]) -> None:
            t0 = time.perf_counter()
            try:
                async with self.http.post(  # type: ignore[union-attr]
                    f"{self.at(room.code)}/api/rooms/{room.code}/actions",
                    json=body,
                    headers=actor.headers,
                ) as r:
                    raw = await r.read()
                    if r.status == 200:
                        answer = orjson.loads(raw)
                        sent.append((room, t0, answer["seq"]))
                        counts["ok"] += 1
                        if self.mode == "app":
                            room.learn(answer["state"])
                    elif r.status < 500:
                        counts["refused"] += 1
                        if len(samples) < 5:
                            samples.append(f"{body['type']}: {r.status} {raw[:160]!r}")
                    else:
                        counts["errors"] += 1
                        self.errors.append(f"{body['type']}: {r.status} {raw[:200]!r}")
            except Exception as error:
                counts["errors"] += 1
                self.errors.append(f"{body['type']}: {error!r}")

        for i in range(count):
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            lags.append(time.perf_counter() - due)
            room = order[i % len(order)]
            actor, body = self.pick(room)
            kinds[body["type"]] = kinds.get(body["type"], 0) + 1
            counts["sent"] += 1
            task = asyncio.create_task(send(room, actor, body))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        wall = time.perf_counter() - start
        if in_flight:
            await asyncio.wait(in_flight, timeout=30)
        await asyncio.sleep(DRAIN_SECONDS)
        cpu = time.process_time() - cpu0
        latencies: list[float] = []
        by_room: dict[str, list[float]] = {}
        missing = 0
        for room, t0, seq in sent:
            worst = 0.0
            for c in room.clients:
                i = bisect.bisect_left(c.ids, seq)
                if i == len(c.ids):
                    worst = -1.0
                    break
                worst = max(worst, c.times[i] - t0)
            if worst < 0:
                missing += 1
            else:
                latencies.append(worst * 1000)
                by_room.setdefault(room.code, []).append(worst * 1000)
        lags.sort()
        return {
            **counts,
            "missing": missing,
            "latencies_ms": latencies,
            "room_latencies_ms": by_room if per_room else {},
            "wall": wall,
            "cpu_seconds": cpu,
            "lag_p99_ms": lags[int(0.99 * (len(lags) - 1))] * 1000 if lags else 0.0,
            "kinds": kinds,
            "refusal_samples": samples,
            "errors_sample": self.errors[-5:],
            "streams_failed": sum(1 for r in self.rooms for c in r.clients if c.failed),
        }


async def serve(conn: Any, base: str, mode: str, seed: int) -> None:
    loop = asyncio.get_running_loop()
    gen = LoadGen(base, mode, seed)
    await gen.start()
    try:
        while True:
            command, args = await loop.run_in_executor(None, conn.recv)
            try:
                if command == "setup":
                    answer = await gen.setup(args["sizes"], args.get("watchers", 0))
                elif command == "open":
                    answer = await gen.open(args["timeout"])
                elif command == "run":
                    answer = await gen.run(args["rate"], args["duration"], args["offset"])
                elif command == "cpu":
                    answer = {"cpu_seconds": time.process_time()}
                elif command == "close":
                    conn.send({"ok": True})
                    return
                else:
                    answer = {"error": f"unknown command {command}"}
            except Exception as error:
                answer = {"error": repr(error)}
            conn.send(answer)
    finally:
        await gen.stop()


def main(conn: Any, base: str, mode: str, seed: int) -> None:
    """Process entry point (``multiprocessing`` target)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        uvloop.run(serve(conn, base, mode, seed))
    except ImportError:
        asyncio.run(serve(conn, base, mode, seed))
