"""``GET /metrics``: Prometheus' text format, read back with the client library's own
parser; its counts move with the actions played through the JSON API; it answers only
whom ``SOCLOVER_METRICS`` allows, and a 404 like any unknown address to anyone else.

Most of it runs in process, through Starlette's client with the client address set
(``client=``), as uvicorn sets it; the open streams and ``X-Forwarded-For`` need a
real server (an in-process transport does not stream, and uvicorn reads the header).
FastAPI's own OpenTelemetry tracing is off unless ``SOCLOVER_OPENTELEMETRY`` asks for it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from pydantic import ValidationError
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.web.metrics import may_read

from ..kit import Server, create, http, join, wait_for, watch
from ..kit.stream import Stream

LOCAL = ("127.0.0.1", 50000)
AWAY = ("203.0.113.5", 1234)
"""An address of the documentation range (RFC 5737): someone on the internet."""

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def samples(text: str) -> Samples:
    """Every sample of the page, by name and labels, through prometheus_client's parser."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(found: Samples, name: str, **labels: str) -> float:
    return found.get((name, frozenset(labels.items())), 0.0)


def actions(found: Samples, kind: str, outcome: str) -> float:
    return value(found, "soclover_actions_total", type=kind, outcome=outcome)


def every_action(found: Samples) -> float:
    return sum(v for (name, _), v in found.items() if name == "soclover_actions_total")


def settings_in(folder: Path, **more: Any) -> Settings:
    return Settings(
        database_url=f"sqlite:///{folder / 'soclover.sqlite3'}",
        join_rate_per_minute=100_000,
        create_rate_per_minute=100_000,
        lookup_rate_per_minute=100_000,
        bots=False,
        **more,
    )


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return create_app(settings_in(tmp_path_factory.mktemp("metrics")))


@pytest.fixture(scope="module")
def client(app: Any) -> Iterator[TestClient]:
    # Starlette's client runs the app on a thread of its own: the browser tests leave
    # an event loop running on this one.
    with TestClient(app, client=LOCAL) as started:
        yield started


def scrape(client: TestClient) -> Samples:
    r = client.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    return samples(r.text)


def test_the_page_parses_and_holds_every_figure(client: TestClient) -> None:
    r = client.get("/metrics")
    families = {f.name: f.type for f in text_string_to_metric_families(r.text)}
    assert families["soclover_actions"] == "counter"
    assert families["soclover_action_duration_seconds"] == "histogram"
    assert families["soclover_save_duration_seconds"] == "histogram"
    for gauge in (
        "soclover_rooms_in_memory",
        "soclover_streams_open",
        "soclover_rooms_streamed",
        "soclover_bots_thinking",
        "soclover_bot_rooms",
    ):
        assert families[gauge] == "gauge", gauge
    assert families["soclover_build_info"] == "gauge"  # an info, as the text format has it
    # prometheus_client's own collectors, on this application's registry.
    assert "process_cpu_seconds" in families
    assert "process_resident_memory_bytes" in families
    assert "python_info" in families
    assert "python_gc_collections" in families
    found = samples(r.text)
    assert value(found, "soclover_build_info", version="0.1.0", database="sqlite") == 1
    for kind in ("player", "watcher", "public"):
        assert (("soclover_streams_open", frozenset({("kind", kind)}))) in found


def test_actions_played_through_the_api_move_the_counts_and_the_histogram(
    client: TestClient,
) -> None:
    before = scrape(client)
    made = client.post("/api/rooms", json={"name": "Ada"}).json()
    code, ada = made["code"], {"Authorization": f"Bearer {made['token']}"}
    bea: dict[str, str] = {}
    for name in ("Bea", "Cy"):
        seated = client.post(f"/api/rooms/{code}/join", json={"name": name}).json()
        bea = bea or {"Authorization": f"Bearer {seated['token']}"}
    url = f"/api/rooms/{code}/actions"
    for text in ("hello", "again"):
        assert client.post(url, json={"type": "say", "text": text}, headers=ada).status_code == 200
    refused = client.post(url, json={"type": "start"}, headers=bea)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    stale = client.post(url, json={"type": "say", "text": "late", "seq": 1}, headers=ada)
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"
    after = scrape(client)

    def moved(kind: str, outcome: str) -> float:
        return actions(after, kind, outcome) - actions(before, kind, outcome)

    assert moved("create", "ok") == 1
    assert moved("join", "ok") == 2
    assert moved("say", "ok") == 2
    assert moved("start", "refused") == 1
    assert moved("say", "conflict") == 1
    assert moved("say", "refused") == moved("say", "error") == 0
    # Every counted action is timed once (presence reports of the server's own included).
    timed = value(after, "soclover_action_duration_seconds_count")
    assert timed == every_action(after)
    assert timed - value(before, "soclover_action_duration_seconds_count") >= 7
    saved = value(after, "soclover_save_duration_seconds_count")
    assert saved - value(before, "soclover_save_duration_seconds_count") >= 4  # joins, chat
    assert value(after, "soclover_rooms_in_memory", phase="lobby") >= 1


def test_the_page_carries_the_security_headers_and_stays_out_of_the_api_doc(
    client: TestClient,
) -> None:
    r = client.get("/metrics")
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["cache-control"] == "no-store"
    assert "/metrics" not in client.get("/openapi.json").json()["paths"]


def test_off_is_a_404_like_any_unknown_address(tmp_path: Path) -> None:
    app = create_app(settings_in(tmp_path, metrics="off"))
    local = TestClient(app, client=LOCAL)
    refused, nothing = local.get("/metrics"), local.get("/nothing-here")
    assert refused.status_code == nothing.status_code == 404
    assert refused.headers["content-type"] == nothing.headers["content-type"]
    assert refused.text == nothing.text
    assert refused.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    ("address", "status"),
    [
        ("127.0.0.1", 200),
        ("127.0.0.53", 200),
        ("::1", 200),
        ("::ffff:127.0.0.1", 200),
        ("203.0.113.5", 404),
        ("10.1.2.3", 404),
        ("::ffff:203.0.113.5", 404),
        ("testclient", 404),
    ],
)
def test_local_serves_loopback_clients_only(app: Any, address: str, status: int) -> None:
    assert app.state.settings.metrics == "local"  # the default
    r = TestClient(app, client=(address, 1234)).get("/metrics")
    assert r.status_code == status, r.text


def test_on_serves_everyone(tmp_path: Path) -> None:
    app = create_app(settings_in(tmp_path, metrics="on"))
    r = TestClient(app, client=AWAY).get("/metrics")
    assert r.status_code == 200
    assert "soclover_actions" in {f.name for f in text_string_to_metric_families(r.text)}


def test_the_setting_reads_its_three_values_in_any_case() -> None:
    assert Settings(metrics="ON").metrics == "on"
    assert Settings(metrics=" Off ").metrics == "off"
    assert Settings().metrics == "local"
    with pytest.raises(ValidationError):
        Settings(metrics="public")
    assert not may_read("local", None)  # a Unix socket has no address to judge


def test_scrapers_that_ask_get_openmetrics(client: TestClient) -> None:
    r = client.get("/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"})
    assert r.headers["content-type"].startswith("application/openmetrics-text")
    assert r.text.endswith("# EOF\n")


# --- a real server: streams, and the address uvicorn settles on behind a proxy ----------


def test_open_streams_are_counted_by_who_follows_them(
    make_server: Callable[..., Server],
) -> None:
    server = make_server()
    base = server.url
    ada = create(base, "Ada")
    join(base, ada.code, "Bea")
    wes = watch(base, ada.code, "Wes")

    def streams() -> dict[str, float]:
        r = http.get(f"{base}/metrics")
        assert r.status_code == 200, r.text
        found = samples(r.text)
        return {
            kind: value(found, "soclover_streams_open", kind=kind)
            for kind in ("player", "watcher", "public")
        }

    assert streams() == {"player": 0, "watcher": 0, "public": 0}
    opened = [
        Stream(f"{base}/api/rooms/{ada.code}/events", ada.headers),
        Stream(f"{base}/api/rooms/{ada.code}/events", wes.headers),
        Stream(f"{base}/r/{ada.code}/stream"),  # the page of someone not seated
    ]
    try:
        for stream in opened:
            assert stream.status == 200
            stream.next()
        wait_for(
            streams,
            lambda now: now == {"player": 1, "watcher": 1, "public": 1},
            what="one stream of each kind",
        )
        r = http.get(f"{base}/metrics")
        assert value(samples(r.text), "soclover_rooms_streamed") == 1
    finally:
        for stream in opened:
            stream.close()
    wait_for(
        streams,
        lambda now: now == {"player": 0, "watcher": 0, "public": 0},
        what="every stream closed",
    )


def test_behind_a_local_proxy_the_proxys_client_is_judged(
    make_server: Callable[..., Server],
) -> None:
    """uvicorn trusts ``X-Forwarded-For`` from 127.0.0.1 (``proxy_headers``): a request a
    local nginx forwards from someone on the internet is theirs, and refused."""
    base = make_server().url
    assert http.get(f"{base}/metrics").status_code == 200
    forwarded = http.get(f"{base}/metrics", headers={"X-Forwarded-For": AWAY[0]})
    assert forwarded.status_code == 404
    local = http.get(f"{base}/metrics", headers={"X-Forwarded-For": "127.0.0.1"})
    assert local.status_code == 200
    # nginx appends the address it saw to what the client claimed: the claim is not
    # trusted, the last address before the trusted proxy is.
    spoofed = http.get(f"{base}/metrics", headers={"X-Forwarded-For": f"127.0.0.1, {AWAY[0]}"})
    assert spoofed.status_code == 404


SPANS_OF_A_REQUEST = """
import sys
from pathlib import Path

from opentelemetry import trace
from starlette.testclient import TestClient

from app.config import Settings
from app.main import create_app

started = []


class Tracer(trace.NoOpTracer):
    def start_span(self, name, *args, **kwargs):
        started.append(name)
        return super().start_span(name, *args, **kwargs)


class Provider(trace.TracerProvider):
    def get_tracer(self, *args, **kwargs):
        return Tracer()


trace.set_tracer_provider(Provider())
folder = Path(sys.argv[1])
settings = Settings(
    database_url=f"sqlite:///{folder / 'soclover.sqlite3'}",
    bots=False,
    opentelemetry=sys.argv[2] == "on",
)
assert TestClient(create_app(settings)).get("/healthz").status_code == 200
print(len(started))
"""
"""A process whose OpenTelemetry tracer provider is set up (as opentelemetry-instrument
sets one up) asks for one page, and prints how many spans FastAPI started. A process
of its own: the tracer provider is set once for a process."""


@pytest.mark.parametrize(("setting", "traced"), [("on", True), ("off", False)])
def test_fastapi_traces_requests_only_when_asked_to(
    tmp_path: Path, setting: str, traced: bool
) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", SPANS_OF_A_REQUEST, str(tmp_path), setting],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert (int(ran.stdout.split()[-1]) > 0) is traced
