"""Settings every test process shares, before any app or test server starts."""

from __future__ import annotations

import os
from pathlib import Path

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
