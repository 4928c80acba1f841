"""How fast and how big: the benchmark. ``.venv/bin/python -m bench``.

For each configuration (one process on SQLite; PostgreSQL with 1 and 2
workers; the bare Starlette baseline of ``bench/baseline.py``) it starts the
server as users do, opens R rooms of 4-6 players each holding a live SSE
stream, and steps the total action rate up on a fixed (open-loop) schedule.
Per step: p50/p95/p99 of the time from sending an action to the moment every
client of its room has that action's event, server CPU and memory (psutil),
and the load generators' own CPU. Results: a table on stdout,
``bench/results/latest.json`` and, when matplotlib is installed, a plot.

``--repeat N`` runs every configuration N times, the configurations taking
turns, and reports the median of the runs and their spread (min-max): this
machine's speed swings from one minute to the next, so one run's figure says
little, and a ratio means something only between configurations of one run.

``--smoke``: a few rooms, a few seconds, SQLite only; non-zero exit if
anything breaks (errors, missing events). For CI.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil

from bench import loadgen

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
BIN = Path(sys.executable).parent
P99_LIMIT_MS = 50.0
POSTGRES = os.environ.get("SOCLOVER_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432")
TWO_WORKERS = {
    "postgres-2": "postgres, 2 workers",
    "postgres-2-by-room": "postgres, 2 workers, each room on one",
}
"""The configurations of two workers, each compared with one worker (``postgres-1``)."""
DEFAULT_RATES = [50, 100, 200, 300, 400, 500, 600, 800, 1000, 1300, 1600, 2000]


# --- servers ------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process started the way users start it, and its measurements."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], workdir: Path) -> None:
        self.name = name
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = workdir / f"{name}.log"
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen(
                [*command, "--port", str(self.port)],
                env={**os.environ, **env},
                cwd=workdir,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.ps = psutil.Process(self.proc.pid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{name} exited: {self.log.read_text()[-2000:]}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.base + "/healthz", timeout=2) as r,
            ):
                if json.loads(r.read()).get("status") == "ok":
                    time.sleep(0.5)  # let every worker finish starting
                    return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{name} did not become healthy: {self.log.read_text()[-2000:]}")

    def processes(self) -> list[psutil.Process]:
        with contextlib.suppress(psutil.Error):
            return [self.ps, *self.ps.children(recursive=True)]
        return []

    def cpu_seconds(self) -> float:
        total = 0.0
        for p in self.processes():
            with contextlib.suppress(psutil.Error):
                t = p.cpu_times()
                total += t.user + t.system
        return total

    def rss(self) -> int:
        total = 0
        for p in self.processes():
            with contextlib.suppress(psutil.Error):
                total += p.memory_info().rss
        return total

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)


class Servers:
    """Servers started one after another on one database, measured as one: each room's
    requests go to one of them, by its code (``bench/loadgen.py``), as a proxy that
    hashes the room code sends them (docs/deploy/nginx-rooms.conf)."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.name = servers[0].name
        self.base = ",".join(server.base for server in servers)

    def processes(self) -> list[psutil.Process]:
        return [p for server in self.servers for p in server.processes()]

    def cpu_seconds(self) -> float:
        return sum(server.cpu_seconds() for server in self.servers)

    def rss(self) -> int:
        return sum(server.rss() for server in self.servers)

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


@contextlib.contextmanager
def postgres_database(url: str):  # type: ignore[no-untyped-def]
    import psycopg

    name = f"soclover_bench_{os.getpid()}_{random.randrange(10**6)}"
    with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{url}/{name}"
    finally:
        with psycopg.connect(f"{url}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def app_server(name: str, database_url: str, workers: int, workdir: Path) -> Server:
    env = {
        "SOCLOVER_DATABASE_URL": database_url,
        "SOCLOVER_LOG_LEVEL": "warning",
        # the bench creates every room from one address
        "SOCLOVER_CREATE_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_JOIN_RATE_PER_MINUTE": "1000000",
        "SOCLOVER_LOOKUP_RATE_PER_MINUTE": "1000000",
    }
    command = [str(BIN / "soclover")]
    if workers > 1:
        command += ["--workers", str(workers)]
    return Server(name, command, env, workdir)


def baseline_server(workdir: Path) -> Server:
    command = [str(BIN / "python"), "-m", "uvicorn", "bench.baseline:app", "--log-level", "warning"]
    return Server("baseline", command, {"PYTHONPATH": str(ROOT)}, workdir)


# --- load generators ----------------------------------------------------------------


class Generators:
    def __init__(self, count: int, base: str, mode: str, seed: int) -> None:
        ctx = mp.get_context("spawn")
        self.pipes = []
        self.procs = []
        for i in range(count):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=loadgen.main, args=(child, base, mode, seed + i), daemon=True)
            proc.start()
            self.pipes.append(parent)
            self.procs.append(proc)

    def ask(self, command: str, args: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        for pipe, a in zip(self.pipes, args, strict=True):
            pipe.send((command, a))
        answers = []
        for pipe in self.pipes:
            if not pipe.poll(timeout):
                raise RuntimeError(f"load generator did not answer {command} in {timeout} s")
            answer = pipe.recv()
            if "error" in answer:
                raise RuntimeError(f"load generator {command}: {answer['error']}")
            answers.append(answer)
        return answers

    def close(self) -> None:
        for pipe in self.pipes:
            with contextlib.suppress(Exception):
                pipe.send(("close", {}))
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def measure(
    server: Server | Servers,
    mode: str,
    rooms: int,
    rates: list[float],
    duration: float,
    generators: int,
    seed: int,
    say: Any,
    watchers: int = 0,
) -> dict[str, Any]:
    rng = random.Random(seed)
    sizes = [rng.randint(4, 6) for _ in range(rooms)]
    result: dict[str, Any] = {"name": server.name, "rooms": rooms, "steps": []}
    gens = Generators(generators, server.base, mode, seed)
    try:
        share = [sizes[i::generators] for i in range(generators)]
        t = time.perf_counter()
        setup = gens.ask("setup", [{"sizes": s, "watchers": watchers} for s in share], timeout=1800)
        result["setup_seconds"] = round(time.perf_counter() - t, 1)
        say(f"  {rooms} rooms ready in {result['setup_seconds']} s")
        time.sleep(3)
        rss_before = server.rss()
        opened = gens.ask("open", [{"timeout": 60}] * generators, timeout=600)
        clients = sum(o["clients"] for o in opened)
        result["clients"] = clients
        result["streams_open"] = sum(o["opened"] for o in opened)
        failures = [f for o in opened for f in o["failures"]]
        if failures:
            result["stream_failures"] = failures
        time.sleep(5)
        rss_after = server.rss()
        result["rss_before_streams_mb"] = round(rss_before / 2**20, 1)
        result["rss_idle_streams_mb"] = round(rss_after / 2**20, 1)
        result["kb_per_idle_client"] = round((rss_after - rss_before) / 1024 / max(1, clients), 1)
        say(
            f"  {result['streams_open']}/{clients} streams open; "
            f"{result['kb_per_idle_client']} KB server RSS per idle client"
        )
        del setup
        sustained = 0.0
        stalled = failed = False
        for rate in rates:
            cpu0, t0 = server.cpu_seconds(), time.perf_counter()
            answers = gens.ask(
                "run",
                [
                    {"rate": rate / generators, "duration": duration, "offset": i / generators}
                    for i in range(generators)
                ],
                timeout=duration + 120,
            )
            wall = time.perf_counter() - t0
            server_cpu = (server.cpu_seconds() - cpu0) / wall * 100
            lat = [x for a in answers for x in a["latencies_ms"]]
            ok = sum(a["ok"] for a in answers)
            step = {
                "rate": rate,
                "achieved": round(ok / max(a["wall"] for a in answers), 1),
                "sent": sum(a["sent"] for a in answers),
                "ok": ok,
                "refused": sum(a["refused"] for a in answers),
                "errors": sum(a["errors"] for a in answers),
                "missing": sum(a["missing"] for a in answers),
                "p50_ms": round(percentile(lat, 0.50), 1),
                "p95_ms": round(percentile(lat, 0.95), 1),
                "p99_ms": round(percentile(lat, 0.99), 1),
                "max_ms": round(max(lat), 1) if lat else None,
                "server_cpu_pct": round(server_cpu, 1),
                "server_rss_mb": round(server.rss() / 2**20, 1),
                "loadgen_cpu_pct": round(sum(a["cpu_seconds"] for a in answers) / wall * 100, 1),
                "loadgen_lag_p99_ms": round(max(a["lag_p99_ms"] for a in answers), 1),
                "streams_failed": sum(a["streams_failed"] for a in answers),
                "kinds": _sum_dicts(a["kinds"] for a in answers),
            }
            samples = [s for a in answers for s in a["errors_sample"] + a["refusal_samples"]]
            if samples:
                step["samples"] = samples[:5]
            result["steps"].append(step)
            say(
                f"  {rate:>6.0f}/s: achieved {step['achieved']:>7.1f}/s  "
                f"p50 {step['p50_ms']:>6.1f}  p95 {step['p95_ms']:>6.1f}  "
                f"p99 {step['p99_ms']:>7.1f} ms  server CPU {step['server_cpu_pct']:>5.1f}%  "
                f"RSS {step['server_rss_mb']:>6.1f} MB  "
                f"loadgen CPU {step['loadgen_cpu_pct']:>5.1f}%"
                f"  refused {step['refused']} errors {step['errors']} missing {step['missing']}"
            )
            held = (
                step["p99_ms"] <= P99_LIMIT_MS
                and step["errors"] == 0
                and step["missing"] == 0
                and step["achieved"] >= 0.9 * rate
            )
            if held and not stalled:
                sustained = rate  # the last step that held, every step below it held
            stalled = stalled or not held
            # One step over the limit may be a stall of this machine (a slow commit, the
            # collector) rather than the server's ceiling: the next step is measured too,
            # so the CPU per action at the rates above is not lost to one bad moment. Two
            # in a row, or a step that fell short of its rate, end the run.
            if not held and (failed or step["achieved"] < 0.9 * rate):
                break
            failed = not held
        result["sustained_rate"] = sustained
    finally:
        gens.close()
    return result


def _sum_dicts(dicts: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for d in dicts:
        for k, v in d.items():
            total[k] = total.get(k, 0) + v
    return total


# --- report ----------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = platform.processor()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def step_at(config: dict[str, Any], rate: float) -> dict[str, Any] | None:
    return next((s for s in config["steps"] if s["rate"] == rate), None)


def compare(run: dict[str, Any]) -> dict[str, Any]:
    """Each configuration against the baseline of the same run."""
    configs = {c["name"]: c for c in run["configs"]}
    base = configs.get("baseline")
    ratios: dict[str, Any] = {}
    for name, c in configs.items():
        if name == "baseline" or base is None:
            continue
        r: dict[str, Any] = {}
        if base["sustained_rate"]:
            r["throughput"] = round(c["sustained_rate"] / base["sustained_rate"], 2)
        common = [
            s["rate"]
            for s in c["steps"]
            if s["p99_ms"] <= P99_LIMIT_MS and step_at(base, s["rate"]) is not None
        ]
        if common:
            rate = max(common)
            ours, theirs = step_at(c, rate), step_at(base, rate)
            assert ours is not None and theirs is not None
            r["at_rate"] = rate
            for q in ("p50_ms", "p99_ms"):
                if theirs[q]:
                    r[q.replace("_ms", "_latency")] = round(ours[q] / theirs[q], 2)
        ratios[name] = r
    return ratios


def cpu_ms_per_action(step: dict[str, Any]) -> float:
    """The server's CPU time per action answered: the steadiest figure on a noisy machine."""
    return round(step["server_cpu_pct"] * 10 / max(1.0, step["achieved"]), 2)


def spread(values: list[float]) -> dict[str, Any]:
    """The median of the runs' values, their min and max, and the values themselves."""
    return {
        "median": round(statistics.median(values), 2),
        "min": min(values),
        "max": max(values),
        "runs": values,
    }


def shown(s: dict[str, Any] | None, unit: str = "") -> str:
    if s is None:
        return "-"
    if len(s["runs"]) == 1:
        return f"{s['median']:g}{unit}"
    return f"{s['median']:g}{unit} ({s['min']:g}-{s['max']:g})"


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Per configuration, over the runs: the sustained rate, memory per idle client, the
    ratio to the baseline, and at each rate the p99 and the CPU per action."""
    names = [c["name"] for c in runs[0]["configs"]]
    summary: dict[str, Any] = {}
    for name in names:
        configs = [c for run in runs for c in run["configs"] if c["name"] == name]
        ratios = [
            run["ratios"][name]["throughput"]
            for run in runs
            if "throughput" in run["ratios"].get(name, {})
        ]
        rates = sorted({s["rate"] for c in configs for s in c["steps"]})
        at: dict[str, Any] = {}
        for rate in rates:
            steps = [s for c in configs if (s := step_at(c, rate)) is not None]
            at[f"{rate:g}"] = {
                "p99_ms": spread([s["p99_ms"] for s in steps]),
                "cpu_ms_per_action": spread([cpu_ms_per_action(s) for s in steps]),
                # run by run (None where the run stopped short of the rate): a figure of
                # one configuration is compared with another's of the same run only
                "cpu_ms_per_action_by_run": [
                    None if (s := step_at(c, rate)) is None else cpu_ms_per_action(s)
                    for c in configs
                ],
            }
        summary[name] = {
            "sustained_rate": spread([c["sustained_rate"] for c in configs]),
            "kb_per_idle_client": spread([c["kb_per_idle_client"] for c in configs]),
            "streams_open": min(c["streams_open"] for c in configs),
            "rooms": configs[0]["rooms"],
            "at": at,
        }
        if ratios:
            summary[name]["throughput_ratio"] = spread(ratios)
    return summary


def targets(summary: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    sqlite = summary.get("sqlite")
    if sqlite:
        out["1000 rooms / 5000 clients connected"] = {
            "measured": f"{sqlite['rooms']} rooms / {sqlite['streams_open']} streams",
            "holds": sqlite["rooms"] >= 1000 and sqlite["streams_open"] >= 5000,
        }
        out["200 actions/s with p99 < 50 ms, in every run"] = every_run(sqlite, 200)
        out["<= 30 KB per idle client"] = {
            "measured": shown(sqlite["kb_per_idle_client"], " KB"),
            "holds": sqlite["kb_per_idle_client"]["median"] <= 30,
        }
        ratio = sqlite.get("throughput_ratio")
        if ratio is not None:
            out[">= 50% of baseline throughput"] = {
                "measured": shown(ratio),
                "holds": ratio["median"] >= 0.5,
            }
    pg1 = summary.get("postgres-1")
    if pg1:
        out["postgres, 1 worker: 200 actions/s with p99 < 50 ms, in every run"] = every_run(
            pg1, 200
        )
    for two_workers, label in TWO_WORKERS.items():
        pg2 = summary.get(two_workers)
        if pg1 and pg2:
            out.update(two_against_one(pg1, pg2, label))
    return out


def two_against_one(pg1: dict[str, Any], pg2: dict[str, Any], name: str) -> dict[str, Any]:
    """Two workers' CPU per action against one worker's, run by run, and what they carry."""
    out: dict[str, Any] = {}
    common = [rate for rate in pg1["at"] if rate in pg2["at"]]
    if common:
        rate = max(common, key=float)
        ratios = [
            round(two / one, 2)
            for one, two in zip(
                pg1["at"][rate]["cpu_ms_per_action_by_run"],
                pg2["at"][rate]["cpu_ms_per_action_by_run"],
                strict=False,
            )
            if one and two
        ]
        cost = spread(ratios)
        out[f"{name}: CPU per action <= 1.2x 1 worker's (at {rate}/s)"] = {
            "measured": shown(cost),
            "holds": cost["median"] <= 1.2,
        }
    if pg1["sustained_rate"]["median"]:
        scale = round(pg2["sustained_rate"]["median"] / pg1["sustained_rate"]["median"], 2)
        out[f"{name} >= 1.6x 1 worker"] = {"measured": scale, "holds": scale >= 1.6}
    return out


def every_run(config: dict[str, Any], rate: float) -> dict[str, Any]:
    """Whether ``rate`` held with p99 under the limit in every run, and the p99s."""
    at = config["at"].get(f"{rate:g}")
    if at is None:
        return {"measured": "not reached", "holds": False}
    p99s = at["p99_ms"]["runs"]
    held = len(p99s) == len(config["sustained_rate"]["runs"]) and all(
        p <= P99_LIMIT_MS for p in p99s
    )
    return {"measured": "p99 " + ", ".join(f"{p:g}" for p in p99s) + " ms", "holds": held}


def table(results: dict[str, Any]) -> str:
    runs = results["runs"]
    lines = [
        f"machine: {results['machine']['cpus']} CPUs ({results['machine']['cpu_model']}), "
        f"{results['machine']['memory_gb']} GB; one host for server, database and load",
        "",
        f"{'config':<18} {'run':>3} {'rooms':>5} {'clients':>7} {'KB/idle':>7} "
        f"{'sustained/s':>11}   at that rate: {'p50':>6} {'p95':>6} {'p99':>6} ms "
        f"{'srv CPU%':>8} {'CPU/action':>10} {'srv MB':>7} {'gen CPU%':>8}",
    ]
    for number, run in enumerate(runs, 1):
        for c in run["configs"]:
            s = step_at(c, c["sustained_rate"]) or (c["steps"][0] if c["steps"] else {})
            lines.append(
                f"{c['name']:<18} {number:>3} {c['rooms']:>5} {c['streams_open']:>7} "
                f"{c['kb_per_idle_client']:>7} {c['sustained_rate']:>11}   "
                f"{'':>13} {s.get('p50_ms', 0):>6} {s.get('p95_ms', 0):>6} "
                f"{s.get('p99_ms', 0):>6}    {s.get('server_cpu_pct', 0):>8} "
                f"{cpu_ms_per_action(s) if s else 0:>7} ms {s.get('server_rss_mb', 0):>7} "
                f"{s.get('loadgen_cpu_pct', 0):>8}"
            )
        if len(runs) > 1:
            ratios = {n: r.get("throughput") for n, r in run["ratios"].items()}
            lines.append(f"{'':<18} {number:>3} throughput / baseline's: {json.dumps(ratios)}")
    lines += ["", f"over {len(runs)} run(s): median (min-max)"]
    for name, c in results["summary"].items():
        lines.append(
            f"  {name:<18} sustained {shown(c['sustained_rate'], '/s')}; "
            f"KB per idle client {shown(c['kb_per_idle_client'])}"
            + (
                f"; throughput / baseline's {shown(c['throughput_ratio'])}"
                if "throughput_ratio" in c
                else ""
            )
        )
        for rate, at in c["at"].items():
            lines.append(
                f"  {'':<18} at {rate:>5}/s: p99 {shown(at['p99_ms'], ' ms')}; "
                f"server CPU per action {shown(at['cpu_ms_per_action'], ' ms')}"
            )
    lines += ["", "targets:"]
    for name, t in results["targets"].items():
        lines.append(f"  [{'x' if t['holds'] else ' '}] {name}: {t['measured']}")
    return "\n".join(lines)


def plot(results: dict[str, Any], path: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(7, 4))
    for c in results["runs"][-1]["configs"]:
        xs = [s["achieved"] for s in c["steps"]]
        ax.plot(xs, [s["p99_ms"] for s in c["steps"]], marker="o", label=c["name"])
    ax.axhline(P99_LIMIT_MS, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("actions/s (achieved)")
    ax.set_ylabel("p99 action-to-every-client (ms)")
    ax.set_yscale("log")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


# --- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few rooms, seconds, SQLite only")
    parser.add_argument("--rooms", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per rate step")
    parser.add_argument("--rates", type=str, default=",".join(map(str, DEFAULT_RATES)))
    parser.add_argument("--generators", type=int, default=2, help="load generator processes")
    parser.add_argument(
        "--configs",
        default="sqlite,postgres-1,postgres-2,postgres-2-by-room,baseline",
        help="comma-separated subset of sqlite,postgres-1,postgres-2,postgres-2-by-room,baseline",
    )
    parser.add_argument("--out", type=Path, default=RESULTS / "latest.json")
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="runs of every configuration, taking turns; the report gives their median and spread",
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.rooms, args.duration, args.rates = 4, 3.0, "10,20"
        args.configs, args.generators = "sqlite,baseline", 1
    rates = [float(r) for r in args.rates.split(",")]
    names = [n.strip() for n in args.configs.split(",") if n.strip()]

    def say(message: str) -> None:
        print(message, flush=True)

    results: dict[str, Any] = {
        "machine": machine(),
        "settings": {
            "rooms": args.rooms,
            "duration_s": args.duration,
            "rates": rates,
            "generators": args.generators,
            "p99_limit_ms": P99_LIMIT_MS,
            "mix": dict(loadgen.MIX),
            "smoke": args.smoke,
        },
        "runs": [],
    }
    workdir = Path(tempfile.mkdtemp(prefix="soclover-bench-"))
    problems: list[str] = []
    try:
        for number in range(1, max(1, args.repeat) + 1):
            # Taking turns: no configuration always runs first, on a cooler machine.
            order = names if number % 2 else names[::-1]
            configs = []
            for name in order:
                say(f"{name}" + (f", run {number} of {args.repeat}:" if args.repeat > 1 else ":"))
                config = run_config(name, args, rates, workdir, say)
                configs.append(config)
                problems += check(config)
            configs.sort(key=lambda c: names.index(c["name"]))
            run = {"configs": configs}
            run["ratios"] = compare(run)
            results["runs"].append(run)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    results["summary"] = summarize(results["runs"])
    results["targets"] = targets(results["summary"])
    results["problems"] = problems
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2) + "\n")
    say("")
    say(table(results))
    if plot(results, args.out.with_suffix(".png")):
        say(f"\nplot: {args.out.with_suffix('.png')}")
    say(f"results: {args.out}")
    for p in problems:
        say(f"PROBLEM: {p}")
    return 1 if problems else 0


def run_config(
    name: str, args: argparse.Namespace, rates: list[float], workdir: Path, say: Any
) -> dict[str, Any]:
    """One run of one configuration, on a server of its own (a fresh database)."""
    with contextlib.ExitStack() as stack:
        server: Server | Servers
        if name == "sqlite":
            database = workdir / f"bench-{time.monotonic_ns()}.sqlite3"
            server = app_server(name, f"sqlite:///{database}", 1, workdir)
        elif name == "postgres-2-by-room":
            url = stack.enter_context(postgres_database(POSTGRES))
            first = app_server(f"{name}-a", url, 1, workdir)
            stack.callback(first.stop)
            server = Servers([first, app_server(f"{name}-b", url, 1, workdir)])
            server.name = name
        elif name.startswith("postgres-"):
            url = stack.enter_context(postgres_database(POSTGRES))
            server = app_server(name, url, int(name.split("-")[1]), workdir)
        elif name == "baseline":
            server = baseline_server(workdir)
        else:
            raise SystemExit(f"unknown config {name}")
        stack.callback(server.stop)
        mode = "baseline" if name == "baseline" else "app"
        return measure(
            server, mode, args.rooms, rates, args.duration, args.generators, args.seed, say
        )


def check(config: dict[str, Any]) -> list[str]:
    """What counts as broken (the smoke test's verdict): not merely slow."""
    problems = []
    name = config["name"]
    if config["streams_open"] < config["clients"]:
        problems.append(f"{name}: {config['clients'] - config['streams_open']} streams failed")
    for s in config["steps"][:1]:  # later steps may fail by overload, that is the measurement
        if s["ok"] == 0:
            problems.append(f"{name}: no action succeeded at {s['rate']}/s")
        if s["errors"]:
            problems.append(f"{name}: {s['errors']} errors at {s['rate']}/s: {s.get('samples')}")
        if s["missing"]:
            problems.append(f"{name}: {s['missing']} actions never reached every client")
        if s["refused"] > 0.2 * max(1, s["sent"]):
            problems.append(f"{name}: {s['refused']} of {s['sent']} refused: {s.get('samples')}")
    return problems


if __name__ == "__main__":
    raise SystemExit(main())
