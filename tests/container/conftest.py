"""The image both modules run, built once a session from the repository's Containerfile."""

from __future__ import annotations

import pytest

from .support import ENABLED, IMAGE, build


@pytest.fixture(scope="session")
def image() -> str:
    """The image as `docker build -t soclover-table .` makes it (bots included)."""
    if not ENABLED:
        pytest.skip("SOCLOVER_TEST_CONTAINERS=1 builds the image")
    seconds = build(IMAGE)
    print(f"\nbuilt {IMAGE} in {seconds:.0f} s")
    return IMAGE
