"""What one idle live stream holds, in Python's heap: the server runs in this process
(tracemalloc sees it), ``--streams`` clients in another open the JSON stream
(``--kind api``) or the room page's (``--kind page``) of one seat and read nothing
more; once they have settled, the heap's growth is divided by their number.
``--top N`` prints the N lines that allocated most of it.

The server is the checkout this is run from, or, to measure another version of the
code beside this one, the one first on ``PYTHONPATH``.

    .venv/bin/python -m bench.stream_memory [--streams 300] [--kind api|page] [--top 30]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import tracemalloc

import httpx
import uvicorn

CLIENT = """
import socket, sys
socks = []
for _ in range({n}):
    s = socket.create_connection(("127.0.0.1", {port}))
    s.sendall(b"GET {path} HTTP/1.1\\r\\nHost: 127.0.0.1:{port}\\r\\n"
              b"Authorization: Bearer {token}\\r\\n\\r\\n")
    socks.append(s)
for s in socks:
    s.settimeout(120)
    s.recv(65536)
print("open", flush=True)
sys.stdin.readline()
"""


async def measure(streams: int, kind: str, settle: float, top: int) -> None:
    folder = tempfile.mkdtemp()
    os.environ["SOCLOVER_DATABASE_URL"] = f"sqlite:///{folder}/soclover.sqlite3"
    os.environ.setdefault("SOCLOVER_BOTS", "false")
    os.environ.setdefault("SOCLOVER_STREAMS_PER_SEAT", str(streams))  # all one seat's
    from app.main import create_app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(
        create_app(), host="127.0.0.1", port=port, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.05)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
        seat = (await client.post("/api/rooms", json={"name": "Ann"})).json()
    path = f"/api/rooms/{seat['code']}/events" if kind == "api" else f"/r/{seat['code']}/stream"
    tracemalloc.start(25)
    await asyncio.sleep(1)
    before = tracemalloc.take_snapshot()
    script = CLIENT.format(n=streams, port=port, path=path, token=seat["token"])
    clients = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert clients.stdout is not None and clients.stdin is not None
    await clients.stdout.readline()
    await asyncio.sleep(settle)  # the streams' first events and signs of life, done
    after = tracemalloc.take_snapshot()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "traceback"))
    print(f"{kind}: {grown / streams / 1024:.2f} KB per idle stream ({streams} streams)")
    for stat in after.compare_to(before, "lineno")[:top]:
        print(f"{stat.size_diff / streams:8.0f} B  {stat.traceback[0]}")
    clients.stdin.write(b"\n")
    await clients.stdin.drain()
    await clients.wait()
    server.should_exit = True
    await serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--kind", choices=("api", "page"), default="api")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds before measuring")
    parser.add_argument("--top", type=int, default=0, help="lines that allocated most")
    args = parser.parse_args()
    asyncio.run(measure(args.streams, args.kind, args.settle, args.top))


if __name__ == "__main__":
    main()
