"""Whether watchers cost a room more than a seat: the same rooms with 50 watchers, and without.

Every watcher reads the same view, so a change of a room is rendered (and encoded)
once for all its watchers, whatever their number; what is left per watcher is
sending the same bytes once more. This measures what that costs the table: the
time from sending an action to the moment every client of its room (players and
watchers) has that action's event, p50 and p99, for ``--rooms`` rooms of 4 players
in the resolution phase, each player holding their API stream as in ``python -m
bench``, played at ``--rate`` actions/s over all rooms with the bench's mix:

- without: nobody watches;
- with: each room has ``--watchers`` watchers, each with a live stream (the room
  page's HTML stream by default, ``--streams api`` for the API's events).

Each is measured on a fresh server on a fresh SQLite file (started as users start
it), one after the other, in turns (without first, then with first, ...), so a
slow moment of the machine falls on either. ``--watchers 0`` measures the same
thing twice: the noise the ratio has of itself. ``--server baseline`` measures the
same on ``bench/baseline.py``, the bare fan-out (no database, no rules, events of a
hundred bytes): the least that one more stream a room costs any server that writes
every stream its own copy, here. The figures are printed as the
median and the spread (min-max) over ``--repeat`` pairs; the p99 ratio (with /
without) should stay within 1.10. One JSON line with every raw number follows, also
written to ``bench/results/watchers-p99.json``.

    .venv/bin/python -m bench.watchers [--watchers 50] [--rooms 4] [--rate 40]
        [--duration 20] [--repeat 5] [--streams page|api] [--server app|baseline]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.loadgen import Client, LoadGen
from bench.run import RESULTS, Server, app_server, baseline_server, percentile

LIMIT = 1.10
"""A watched room's p99 over an unwatched one's: the promise is within 10 %."""
STREAMS = {"page": "/r/{code}/stream", "api": "/api/rooms/{code}/events"}


async def watched(gen: LoadGen, rooms: list[Any], watchers: int, path: str) -> int:
    """``watchers`` watchers in each of ``rooms``, each with a stream open; how many opened."""
    crowd: list[Client] = []
    for room in rooms:
        for n in range(watchers):
            answer = await gen.post(f"/api/rooms/{room.code}/watch", {"name": f"W{n}"})
            client = Client(room.code, answer["token"], -1, path=path)
            room.clients.append(client)
            crowd.append(client)
    for client in crowd:
        room = next(r for r in rooms if r.code == client.code)
        gen.tasks.append(asyncio.create_task(gen.stream(client, room)))
    await asyncio.wait_for(asyncio.gather(*(c.opened.wait() for c in crowd)), 120)
    return sum(1 for c in crowd if c.failed is None)


async def one_run(
    server: Server, args: argparse.Namespace, watchers: int, seed: int
) -> dict[str, Any]:
    """One measurement on a fresh server: ``args.rooms`` rooms with ``watchers`` each."""
    gen = LoadGen(server.base, args.server, seed)
    await gen.start()
    try:
        await gen.setup([4] * args.rooms)
        opened = await gen.open(60)
        streams = await watched(gen, gen.rooms, watchers, STREAMS[args.streams])
        # The watchers' comings are presence changes, each an event: let them settle.
        await asyncio.sleep(args.settle)
        cpu = server.cpu_seconds()
        answer = await gen.run(args.rate, args.duration, 0.0)
        cpu = server.cpu_seconds() - cpu
        latencies = answer["latencies_ms"]
        return {
            "watchers": watchers,
            "players_streams": opened["opened"],
            "watcher_streams": streams,
            "actions": answer["ok"],
            "refused": answer["refused"],
            "errors": answer["errors"],
            "missing": answer["missing"],
            "p50_ms": round(percentile(latencies, 0.5), 2),
            "p99_ms": round(percentile(latencies, 0.99), 2),
            # The server's CPU (user and system) while the actions ran, per action: what
            # each change costs it, the steadiest figure on a noisy machine.
            "server_cpu_ms_per_action": round(cpu * 1000 / max(1, answer["ok"]), 2),
            # The load generator reads every stream too: if it is busy, so is the figure.
            "loadgen_cpu_pct": round(answer["cpu_seconds"] / answer["wall"] * 100, 1),
            "loadgen_lag_p99_ms": round(answer["lag_p99_ms"], 1),
        }
    finally:
        await gen.stop()


def _run(work: Any) -> Any:
    """The load generator's loop: uvloop where installed, as ``python -m bench`` runs it."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(work)
    return uvloop.run(work)


def measured(args: argparse.Namespace, watchers: int, seed: int) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="soclover-watchers-"))
    if args.server == "baseline":
        server = baseline_server(workdir)
    else:
        server = app_server("sqlite", f"sqlite:///{workdir}/bench.sqlite3", 1, workdir)
    try:
        started = time.perf_counter()
        run = _run(one_run(server, args, watchers, seed))
        run["seconds"] = round(time.perf_counter() - started, 1)
        run["server_rss_mb"] = round(server.rss() / 2**20, 1)
        run["server_cpu_s"] = round(server.cpu_seconds(), 1)
        return run
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def spread(runs: list[dict[str, Any]], key: str) -> str:
    values = [r[key] for r in runs if r[key] is not None]
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.watchers", description=__doc__)
    parser.add_argument("--watchers", type=int, default=50, help="watchers per room")
    parser.add_argument("--rooms", type=int, default=4, help="rooms of 4 players")
    parser.add_argument("--rate", type=float, default=40.0, help="actions/s over all rooms")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of actions")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--settle", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument("--streams", choices=sorted(STREAMS), default="page")
    parser.add_argument(
        "--server",
        choices=("app", "baseline"),
        default="app",
        help="baseline: the bare fan-out of bench/baseline.py, the floor of a send per stream",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "watchers-p99.json")
    args = parser.parse_args(argv)
    if args.server == "baseline":
        args.streams = "api"  # the bare fan-out has no pages
    runs: list[dict[str, Any]] = []
    for n in range(args.repeat):
        order = [0, args.watchers] if n % 2 == 0 else [args.watchers, 0]
        first = measured(args, order[0], seed=100 + n)
        second = measured(args, order[1], seed=100 + n)
        without, with_ = (first, second) if n % 2 == 0 else (second, first)
        run = {
            "without": without,
            "with": with_,
            "p50_without_ms": without["p50_ms"],
            "p50_with_ms": with_["p50_ms"],
            "p99_without_ms": without["p99_ms"],
            "p99_with_ms": with_["p99_ms"],
            "ratio": round(with_["p99_ms"] / without["p99_ms"], 3) if without["p99_ms"] else None,
            "cpu_ms_per_action_without": without["server_cpu_ms_per_action"],
            "cpu_ms_per_action_with": with_["server_cpu_ms_per_action"],
            "errors": without["errors"] + with_["errors"],
            "missing": without["missing"] + with_["missing"],
        }
        runs.append(run)
        print(
            f"pair {n + 1}: p99 without {run['p99_without_ms']} ms, with {args.watchers} "
            f"watchers a room {run['p99_with_ms']} ms (x{run['ratio']}); p50 "
            f"{run['p50_without_ms']} / {run['p50_with_ms']} ms; server CPU an action "
            f"{run['cpu_ms_per_action_without']} / {run['cpu_ms_per_action_with']} ms; "
            f"{with_['watcher_streams']} watcher streams, loadgen CPU "
            f"{without['loadgen_cpu_pct']} / {with_['loadgen_cpu_pct']} %, "
            f"missing {run['missing']}, errors {run['errors']}",
            flush=True,
        )
    print()
    print(f"{args.repeat} pairs, median (min-max):")
    print(f"  p50 without watchers  {spread(runs, 'p50_without_ms')} ms")
    print(f"  p50 with {args.watchers:<3} watchers {spread(runs, 'p50_with_ms')} ms")
    print(f"  p99 without watchers  {spread(runs, 'p99_without_ms')} ms")
    print(f"  p99 with {args.watchers:<3} watchers {spread(runs, 'p99_with_ms')} ms")
    print(f"  ratio (with/without)  {spread(runs, 'ratio')}")
    print(f"  server CPU an action, without {spread(runs, 'cpu_ms_per_action_without')} ms")
    print(f"  server CPU an action, with    {spread(runs, 'cpu_ms_per_action_with')} ms")
    ratios = [r["ratio"] for r in runs if r["ratio"] is not None]
    holds = bool(ratios) and statistics.median(ratios) <= LIMIT
    broken = any(r["errors"] or r["missing"] for r in runs)
    print(f"  [{'x' if holds else ' '}] median p99 ratio <= {LIMIT}")
    result = {"settings": vars(args) | {"out": str(args.out)}, "runs": runs, "holds": holds}
    print(json.dumps(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    return 1 if broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
