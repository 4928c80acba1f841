"""What an action costs the server in instructions, which a busy host does not change.

    .venv/bin/python -m bench.instructions [--rooms 40] [--actions 400]
    PYTHONPATH=/path/to/old/checkout .venv/bin/python -m bench.instructions   # the code before

The server is started as users start it, under ``valgrind --tool=callgrind`` with
collection off; R rooms of 4 to 6 players are made and brought to the resolution,
each player holding the JSON stream. Collection is switched on for K actions of the
benchmark's mix (``loadgen.MIX``), sent one after another, each waiting until every
stream of its room has its event, then off. The same seed makes the same rooms and
the same actions on any code. Printed: the instructions of each thread of the server
(the event loop, SQLite's writer, any other) and their sum per action.

Wall time and CPU time swing by tens of per cent on this 2-core machine when other
work runs; these counts move by a tenth of a per cent from run to run. They count
the server's own work only, not the kernel's (the sockets' writes), and the server
runs some 50 times slower: the presence sweep and the pings, which run by the clock,
are off (``SOCLOVER_PRESENCE_SWEEP_SECONDS``, ``SOCLOVER_PING_SECONDS``). A run takes
a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import aiohttp

from bench import loadgen
from bench.run import BIN, free_port

OFF = "100000"
"""Seconds between two presence sweeps, and two pings: never, in a run."""


def callgrind(pid: int, *args: str) -> None:
    subprocess.run(["callgrind_control", *args, str(pid)], check=True, capture_output=True)


def instructions(path: str) -> int:
    """The instructions counted in one callgrind dump (its last ``totals:``)."""
    found = 0
    for line in Path(path).read_text(errors="replace").splitlines():
        if line.startswith("totals:"):
            found = int(line.split()[1])
    return found


async def act(gen: loadgen.LoadGen, path: str, body: dict[str, Any], token: str) -> Any:
    """``gen.post``, sent again once if the server had closed the connection it reused
    (a server this slow lets a kept-alive connection go while the streams open)."""
    try:
        return await gen.post(path, body, token)
    except aiohttp.ClientOSError:
        return await gen.post(path, body, token)


async def load(base: str, rooms: int, actions: int, seed: int, server: int) -> dict[str, int]:
    gen = loadgen.LoadGen(base, "app", seed)
    await gen.start()
    try:
        rng = random.Random(seed)
        # One room after another: the same requests in the same order on any code.
        gen.rooms = [await gen.setup_room(rng.choice([4, 5, 6])) for _ in range(rooms)]
        opened = await gen.open(600)
        if opened["opened"] != opened["clients"]:
            raise SystemExit(f"streams did not open: {opened}")
        await asyncio.sleep(2)
        kinds: dict[str, int] = {}
        callgrind(server, "-z")
        callgrind(server, "-i", "on")
        for i in range(actions):
            room = gen.rooms[i % len(gen.rooms)]
            actor, body = gen.pick(room)
            kinds[body["type"]] = kinds.get(body["type"], 0) + 1
            answer = await act(gen, f"/api/rooms/{room.code}/actions", body, actor.token)
            room.learn(answer["state"])
            while any(not c.ids or c.ids[-1] < answer["seq"] for c in room.clients):
                await asyncio.sleep(0.002)
        callgrind(server, "-i", "off")
        callgrind(server, "-d", "actions")
        return kinds
    finally:
        await gen.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=40)
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="soclover-instructions-"))
    port = free_port()
    env = {
        **os.environ,
        "SOCLOVER_DATABASE_URL": f"sqlite:///{work / 'rooms.sqlite3'}",
        "SOCLOVER_LOG_LEVEL": "warning",
        "SOCLOVER_CREATE_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_JOIN_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_PRESENCE_SWEEP_SECONDS": OFF,
        "SOCLOVER_PING_SECONDS": OFF,
        "PYTHONHASHSEED": "0",
    }
    out = str(work / "callgrind.%p")
    command = [
        *("valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes"),
        f"--callgrind-out-file={out}",
        *(str(BIN / "python"), str(BIN / "soclover"), "--port", str(port)),
    ]
    with (work / "server.log").open("wb") as log:
        server = subprocess.Popen(command, env=env, cwd=work, stdout=log, stderr=log)
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit((work / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    if json.loads(r.read()).get("status") == "ok":
                        break
            except OSError:
                pass
            time.sleep(1)
        base = f"http://127.0.0.1:{port}"
        kinds = asyncio.run(load(base, args.rooms, args.actions, args.seed, server.pid))
        server.send_signal(signal.SIGTERM)
        server.wait(120)
        threads = {
            path.rsplit("-", 1)[1]: instructions(path)
            for path in sorted(glob.glob(str(work / f"callgrind.{server.pid}.1-*")))
        }
        threads = {thread: count for thread, count in threads.items() if count}
        total = sum(threads.values())
        print(json.dumps({"actions": args.actions, "kinds": kinds, "threads": threads}))
        print(f"{total / 1e6:,.1f} M instructions, {total / args.actions / 1e6:.3f} M an action")
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
