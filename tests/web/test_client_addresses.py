"""Who a client is to the limits per address, over HTTP: the address uvicorn settles on
(behind a trusted proxy, the one the proxy forwards), keyed as ``ratelimit.address_key``
says, an IPv6 client by its /64, in every limit: lookups, joins, watchers, new rooms.

The test client is on this machine, which the server trusts as its proxy (the default
``SOCLOVER_TRUSTED_PROXIES``), so ``X-Forwarded-For`` stands for the address of a
client the proxy saw. Which proxies are trusted is a setting of its own, checked at
start; the documented nginx in front is tests/web/test_proxy.py.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from starlette.requests import Request

from app.cli import main, proxy_options
from app.config import Settings
from app.web.deps import client_key

from ..kit import Server, assert_error, create, http

LIMIT = 3
"""Each limit of the module's server."""


@pytest.fixture(scope="module")
def shared_server_settings() -> dict[str, str]:
    return {f"SOCLOVER_{kind}_RATE_PER_MINUTE": str(LIMIT) for kind in ("LOOKUP", "JOIN", "CREATE")}


def sent_from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def test_lookups_from_one_64_share_one_budget(shared_server: Server) -> None:
    api = shared_server.url
    for n in range(LIMIT):  # a new address of the /64 each time
        r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from(f"2001:db8:a:1::{n + 1:x}"))
        assert_error(r, 404, code="room_not_found")
    r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from("2001:db8:a:1:1234:5678:9abc:def0"))
    assert_error(r, 429, code="rate_limited")
    # The next /64 is someone else.
    r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from("2001:db8:a:2::1"))
    assert_error(r, 404, code="room_not_found")


def test_an_ipv4_client_counts_as_itself_however_it_is_written(shared_server: Server) -> None:
    api = shared_server.url
    for _ in range(LIMIT):
        r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from("198.51.100.30"))
        assert_error(r, 404, code="room_not_found")
    r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from("::ffff:198.51.100.30"))
    assert_error(r, 429, code="rate_limited")
    r = http.get(f"{api}/api/rooms/ZZZZZZ", headers=sent_from("198.51.100.31"))
    assert_error(r, 404, code="room_not_found")


def test_joins_watchers_and_new_rooms_are_counted_by_the_64(shared_server: Server) -> None:
    api = shared_server.url
    code = create(api, "Ada").code
    # Joining and watching share the join limit: three from three addresses of one /64.
    for n, path in enumerate(("join", "join", "watch")):
        r = http.post(
            f"{api}/api/rooms/{code}/{path}",
            json={"name": f"P{n}"},
            headers=sent_from(f"2001:db8:b:1::{n + 1}"),
        )
        assert r.status_code == 201, r.text
    r = http.post(
        f"{api}/api/rooms/{code}/watch", json={"name": "P9"}, headers=sent_from("2001:db8:b:1::99")
    )
    assert_error(r, 429, code="rate_limited")
    for n in range(LIMIT):
        r = http.post(
            f"{api}/api/rooms", json={"name": "Ada"}, headers=sent_from(f"2001:db8:c:1::{n + 1}")
        )
        assert r.status_code == 201, r.text
    r = http.post(f"{api}/api/rooms", json={"name": "Ada"}, headers=sent_from("2001:db8:c:1::a"))
    assert_error(r, 429, code="rate_limited")


def test_the_limits_key_is_the_one_every_limit_and_claim_reads() -> None:
    def request(client: tuple[str, int] | None) -> Request:
        return Request({"type": "http", "client": client, "headers": []})

    assert client_key(request(("2001:db8:1:2:3:4:5:6", 443))) == "2001:db8:1:2::/64"
    assert client_key(request(("::ffff:192.0.2.1", 443))) == "192.0.2.1"
    assert client_key(request(("192.0.2.1", 443))) == "192.0.2.1"
    assert client_key(request(None)) == "unknown"


# --- which proxies are trusted ------------------------------------------------------------


def test_the_trusted_proxies_are_this_machine_unless_said() -> None:
    assert Settings().trusted_proxies == "127.0.0.1,::1"
    said = Settings(trusted_proxies=" 172.17.0.1, 10.89.0.0/24 ,::1 ")
    assert said.trusted_proxies == "172.17.0.1,10.89.0.0/24,::1"
    assert Settings(trusted_proxies="").trusted_proxies == ""  # no proxy: nobody forwards
    assert proxy_options(said) == {
        "proxy_headers": True,
        "forwarded_allow_ips": said.trusted_proxies,
    }


@pytest.mark.parametrize("value", ["*", "127.0.0.1, *", "0.0.0.0/0", "::/0", "nginx", "10.0.0.300"])
def test_everyone_or_a_typo_is_refused(value: str) -> None:
    """``*`` (or a network of every address) would let any client choose its own
    address; a word that is no address would trust nobody without a word (uvicorn
    takes it for a name no client has)."""
    with pytest.raises(ValidationError, match="SOCLOVER_TRUSTED_PROXIES"):
        Settings(trusted_proxies=value)


def test_the_server_will_not_start_trusting_everyone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.config import get_settings

    monkeypatch.setenv("SOCLOVER_TRUSTED_PROXIES", "*")
    get_settings.cache_clear()
    try:
        assert main(["--port", "1"]) == 2
    finally:
        get_settings.cache_clear()
    said = capsys.readouterr().err
    assert said.startswith("soclover: SOCLOVER_TRUSTED_PROXIES=* would let every client")
    assert "Traceback" not in said
