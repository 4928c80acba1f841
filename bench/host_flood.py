"""What many live streams of one room, each with its own ``Host`` header, cost the server.

The room page's stream (``GET /r/{code}/stream``) sends HTML regions, and the lobby's
regions show the invite link and its QR code, built from the site address the request
names. This script measures whether a change of a room is rendered once per view or once
per distinct ``Host``: a client that opens ``--streams`` streams on one lobby with the host's
seat cookie, each naming its own ``Host``, and then the room's host changes a setting
``--actions`` times.

Per repeat (a fresh server on a fresh SQLite file, started as ``python -m app.cli`` from
``--root``, so the checkout measured is the one named, whatever the venv has installed):

- quiet: the attacked room's actions sent one after another with no stream open, while a
  probe changes a setting of an unrelated 3-player room now and then; the time of all the
  attacked room's actions, the probe's p50/p95 (request to answer) and the server's RSS;
- flood: the same with the streams open; the attacked room's actions are timed until the
  last stream has the last action's events (an event's ``id:`` is the room's seq, which
  the action's answer carries), plus the bytes the streams received and the peak RSS;
- after: the RSS 5 s after the streams closed (whether what they cost is given back).

``--full-chat`` first fills the attacked room's chat with 200 lines of 300 characters.
Each figure is printed as the median and the spread (min-max) over ``--repeat`` runs, then
one JSON line with every raw number, also written to ``bench/results/host_flood*.json``.

    .venv/bin/python -m bench.host_flood [--streams 200] [--actions 64] [--repeat 3]
        [--full-chat] [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench.run import RESULTS, ROOT, Server, machine, percentile

PROBES = 30
"""At least this many probe actions per phase."""
PROBE_GAP = 0.05
CHAT_LINES = 200
CHAT_CHARS = 300
SETTLE = 5.0
ID = re.compile(rb"^id: ?(\d+)\r?$", re.MULTILINE)


@dataclass
class Stream:
    host: str
    bytes: int = 0
    seqs: list[int] = field(default_factory=list)  # each rise of the highest id seen
    times: list[float] = field(default_factory=list)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    failed: str | None = None

    def reached(self, seq: int) -> float | None:
        """When this stream had finished receiving an event of ``seq`` or later."""
        return next((t for s, t in zip(self.seqs, self.times, strict=True) if s >= seq), None)


class Flood:
    def __init__(self, server: Server, http: aiohttp.ClientSession) -> None:
        self.server = server
        self.http = http
        self.rss_peak = 0

    async def post(self, path: str, body: dict[str, Any], token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with self.http.post(self.server.base + path, json=body, headers=headers) as r:
            raw = await r.read()
            if r.status >= 300:
                raise RuntimeError(f"POST {path}: {r.status} {raw[:200]!r}")
            return json.loads(raw)

    async def room(self) -> tuple[str, list[str]]:
        """A lobby of three players: its code and their tokens, the host's first."""
        host = await self.post("/api/rooms", {"name": "Ada"})
        tokens = [host["token"]]
        for name in ("Bea", "Cy"):
            seat = await self.post(f"/api/rooms/{host['code']}/join", {"name": name})
            tokens.append(seat["token"])
        return host["code"], tokens

    async def fill_chat(self, code: str, tokens: list[str]) -> dict[str, Any]:
        """200 long lines of chat, spread over the seats; waits and retries when refused."""
        started, refused = time.perf_counter(), 0
        for i in range(CHAT_LINES):
            text = (f"line {i} " + "blah " * CHAT_CHARS)[:CHAT_CHARS]
            while True:
                token = tokens[(i + refused) % len(tokens)]
                async with self.http.post(
                    f"{self.server.base}/api/rooms/{code}/actions",
                    json={"type": "say", "text": text},
                    headers={"Authorization": f"Bearer {token}"},
                ) as r:
                    await r.read()
                    if r.status == 200:
                        break
                    if r.status != 429:
                        raise RuntimeError(f"say: {r.status}")
                    refused += 1
                    await asyncio.sleep(float(r.headers.get("Retry-After", 1)))
        return {"chat_fill_s": time.perf_counter() - started, "chat_refused": refused}

    async def settings(self, code: str, token: str, i: int) -> int:
        answer = await self.post(
            f"/api/rooms/{code}/actions", {"type": "settings", "decoys": 1 + (i + 1) % 4}, token
        )
        return answer["seq"]

    async def probe(self, code: str, token: str, done: asyncio.Event) -> list[float]:
        """Times of the unrelated room's actions, sent until ``done`` and PROBES of them."""
        times: list[float] = []
        while not done.is_set() or len(times) < PROBES:
            t0 = time.perf_counter()
            await self.settings(code, token, len(times))
            times.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(PROBE_GAP)
        return times

    async def watch_rss(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.rss_peak = max(self.rss_peak, self.server.rss())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.05)

    async def phase(
        self, code: str, token: str, other: tuple[str, str], actions: int, streams: list[Stream]
    ) -> dict[str, Any]:
        """``actions`` settings on the attacked room, one after another, while the probe runs."""
        done = asyncio.Event()
        probe = asyncio.create_task(self.probe(*other, done))
        before = sum(s.bytes for s in streams)
        cpu, client_cpu = self.server.cpu_seconds(), time.process_time()
        started = time.perf_counter()
        last = 0
        for i in range(actions):
            last = await self.settings(code, token, i)
        answered = time.perf_counter()
        deadline = answered + 120
        while streams and time.perf_counter() < deadline:
            if all(s.reached(last) is not None or s.failed for s in streams):
                break
            await asyncio.sleep(0.05)  # arrival times come from the streams, not this loop
        arrivals = [s.reached(last) for s in streams]
        done.set()
        probe_ms = await probe
        ends = [t for t in arrivals if t is not None]
        return {
            "actions_s": (max(ends) if ends else answered) - started,
            "answers_s": answered - started,
            "missing": arrivals.count(None),
            "probe_p50_ms": percentile(probe_ms, 0.5),
            "probe_p95_ms": percentile(probe_ms, 0.95),
            "probe_n": len(probe_ms),
            "stream_mb": (sum(s.bytes for s in streams) - before) / 2**20,
            "server_cpu_s": self.server.cpu_seconds() - cpu,
            "client_cpu_s": time.process_time() - client_cpu,
        }


async def read(session: aiohttp.ClientSession, url: str, cookie: str, stream: Stream) -> None:
    """Read one HTML stream, keeping only its byte count and when each new seq arrived."""
    headers = {"Host": stream.host, "Cookie": cookie, "Accept": "text/event-stream"}
    try:
        async with session.get(url, headers=headers) as r:
            if r.status != 200:
                stream.failed = f"{r.status}"
                return
            tail = b""
            async for chunk in r.content.iter_any():
                now = time.perf_counter()
                stream.bytes += len(chunk)
                tail += chunk
                end = max(tail.rfind(b"\n\n"), tail.rfind(b"\r\n\r\n"))
                if end < 0:
                    continue
                complete, tail = tail[:end], tail[end:].lstrip(b"\r\n")
                ids = [int(m) for m in ID.findall(complete)]
                if ids and (not stream.seqs or max(ids) > stream.seqs[-1]):
                    stream.seqs.append(max(ids))
                    stream.times.append(now)
                    stream.opened.set()
        stream.failed = "ended"
    except asyncio.CancelledError:
        raise
    except Exception as error:
        stream.failed = repr(error)
    finally:
        stream.opened.set()


async def measure(server: Server, streams: int, actions: int, full_chat: bool) -> dict[str, Any]:
    result: dict[str, Any] = {}
    mb = 2**20
    jar = aiohttp.DummyCookieJar()
    async with (
        aiohttp.ClientSession(cookie_jar=jar, timeout=aiohttp.ClientTimeout(total=120)) as http,
        aiohttp.ClientSession(
            cookie_jar=jar,
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=30),
        ) as long,
    ):
        flood = Flood(server, http)
        code, tokens = await flood.room()
        other_code, other_tokens = await flood.room()
        other = (other_code, other_tokens[0])
        if full_chat:
            result.update(await flood.fill_chat(code, tokens))
        await asyncio.sleep(1)
        quiet = await flood.phase(code, tokens[0], other, actions, [])
        del quiet["missing"], quiet["stream_mb"]
        result.update({f"quiet_{k}": v for k, v in quiet.items()})
        result["quiet_rss_mb"] = server.rss() / mb

        stop = asyncio.Event()
        watcher = asyncio.create_task(flood.watch_rss(stop))
        url = f"{server.base}/r/{code}/stream"
        cookie = f"soclover_{code}={tokens[0]}"
        open_ = [Stream(f"h{i}.example:{server.port}") for i in range(streams)]
        started = time.perf_counter()
        tasks = [asyncio.create_task(read(long, url, cookie, s)) for s in open_]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(s.opened.wait() for s in open_)), 120)
        result["open_s"] = time.perf_counter() - started
        result["streams_open"] = sum(1 for s in open_ if s.opened.is_set() and not s.failed)
        result["stream_failures"] = sorted({s.failed for s in open_ if s.failed})[:5]
        await asyncio.sleep(1)
        result["open_rss_mb"] = server.rss() / mb
        flooded = await flood.phase(code, tokens[0], other, actions, open_)
        result.update({f"flood_{k}": v for k, v in flooded.items()})
        result["flood_peak_rss_mb"] = flood.rss_peak / mb
        stop.set()
        await watcher
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.sleep(SETTLE)
    result["closed_rss_mb"] = server.rss() / mb
    return result


def app_server(root: Path, workdir: Path) -> Server:
    """The app of ``root`` as ``soclover`` serves it, on a fresh SQLite file."""
    env = {
        "PYTHONPATH": str(root),
        "SOCLOVER_DATABASE_URL": f"sqlite:///{workdir / 'flood.sqlite3'}",
        "SOCLOVER_LOG_LEVEL": "warning",
        "SOCLOVER_JOIN_RATE_PER_MINUTE": "100000",
        "SOCLOVER_CREATE_RATE_PER_MINUTE": "100000",
        "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "100000",
        "SOCLOVER_CHAT_BURST": "100000",  # the chat is filled as fast as it goes
        "SOCLOVER_STREAMS_PER_SEAT": "100000",  # every stream is one seat's
    }
    command = [sys.executable, "-m", "app.cli"]
    where = subprocess.run(
        [sys.executable, "-c", "import app; print(app.__file__)"],
        env={**os.environ, **env},
        cwd=workdir,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).is_relative_to(root):
        raise RuntimeError(f"the server would run {where}, not the app of {root}")
    return Server("host-flood", command, env, workdir)


def summary(runs: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    numbers = [k for k, v in runs[0].items() if isinstance(v, int | float)]
    return {
        k: {
            "median": statistics.median(r[k] for r in runs),
            "min": min(r[k] for r in runs),
            "max": max(r[k] for r in runs),
        }
        for k in numbers
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bench.host_flood", description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=200)
    parser.add_argument("--actions", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full-chat", action="store_true", help="fill the chat first")
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose app is started")
    parser.add_argument("--out", type=Path, help="default: bench/results/host_flood[_chat].json")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    out = args.out or RESULTS / f"host_flood{'_chat' if args.full_chat else ''}.json"
    runs: list[dict[str, Any]] = []
    started = time.perf_counter()
    for i in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="host-flood-") as tmp:
            server = app_server(root, Path(tmp))
            try:
                run = asyncio.run(measure(server, args.streams, args.actions, args.full_chat))
            finally:
                server.stop()
        runs.append(run)
        brief = {k: round(v, 3) if isinstance(v, float) else v for k, v in run.items()}
        print(f"run {i + 1}/{args.repeat}: {json.dumps(brief)}", flush=True)
    figures = summary(runs)
    print(f"\n{root}: {args.streams} streams, {args.actions} actions, {args.repeat} runs")
    print(f"{'figure':<22} {'median':>9}   spread (min-max)")
    for name, f in figures.items():
        print(f"{name:<22} {f['median']:>9.2f}   {f['min']:.2f}-{f['max']:.2f}")
    result = {
        "root": str(root),
        "args": {k: str(v) for k, v in vars(args).items()},
        "seconds": time.perf_counter() - started,
        "machine": machine(),
        "summary": figures,
        "runs": runs,
    }
    line = json.dumps(result)
    print(line)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(line + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
