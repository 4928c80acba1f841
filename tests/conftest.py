"""Settings every test process shares, before any app or test server starts."""

from __future__ import annotations

import os
import ssl
from pathlib import Path
from typing import Any

import pytest

# The bots' word vectors (several MB, computed once) are kept with the checkout's test
# caches, not in the user's own cache folder; test servers inherit the environment.
os.environ.setdefault(
    "SOCLOVER_BOT_CACHE", str(Path(__file__).resolve().parents[1] / ".pytest_cache" / "bots")
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "own_process: the test's server runs in a subprocess of its own, not on a thread "
        "of the tests' (it kills the server, or reads its log): see tests/kit/server.py",
    )


def _one_tls_context() -> None:
    """Every httpx client of the tests shares one TLS context.

    httpx builds a context for each client it makes, reading the whole CA bundle
    (tens of milliseconds, more than a request to a test server takes), and
    ``httpx.get`` makes a client for each call. The tests only ever speak plain
    http to their own servers, so one default context, built once, serves them all.
    Only the default (``verify=True``, no client certificate) is shared; anything
    else is built as httpx builds it.
    """
    from httpx._transports import default

    build = default.create_ssl_context
    shared: list[ssl.SSLContext] = []

    def create_ssl_context(
        verify: Any = True, cert: Any = None, trust_env: bool = True
    ) -> ssl.SSLContext:
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        if not shared:
            shared.append(build(verify=verify, cert=cert, trust_env=trust_env))
        return shared[0]

    default.create_ssl_context = create_ssl_context  # type: ignore[assignment]


_one_tls_context()
