"""What one client is to the limits per address (``ratelimit.address_key``): an IPv4
address; an IPv6 /64, which whoever has one address of it has whole."""

from __future__ import annotations

import pytest

from app.service.ratelimit import RateLimiter, address_key


@pytest.mark.parametrize(
    ("address", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("203.0.113.10", "203.0.113.10"),  # IPv4 neighbours are two clients
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"),
        ("2001:0DB8:0001:0002:0000:0000:0000:0009", "2001:db8:1:2::/64"),  # any spelling
        ("2001:db8:1:3::1", "2001:db8:1:3::/64"),  # the next /64 is another client
        ("::ffff:203.0.113.9", "203.0.113.9"),  # IPv4 on a dual-stack socket
        ("::ffff:cb00:7109", "203.0.113.9"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::1", "::/64"),
        ("unix:", "unix:"),  # a Unix socket's client: no address, one key for all
        ("unknown", "unknown"),
        ("", ""),
    ],
)
def test_a_client_address_is_keyed_by_what_its_owner_holds(address: str, key: str) -> None:
    assert address_key(address) == key


def test_every_address_of_a_64_draws_on_one_budget() -> None:
    limiter = RateLimiter(3, clock=lambda: 0.0)
    assert all(limiter.allow(address_key(f"2001:db8:5:6::{n:x}")) for n in range(3))
    assert not limiter.allow(address_key("2001:db8:5:6:dead:beef:0:1"))
    assert limiter.allow(address_key("2001:db8:5:7::1"))
    assert all(limiter.allow(address_key("198.51.100.7")) for _ in range(3))
    assert not limiter.allow(address_key("::ffff:198.51.100.7"))
