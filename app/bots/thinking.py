"""A process of its own where bots think, so their thinking never holds the server's
interpreter: the server sends a seat's view and gets the bot's next action back.

The brain is loaded once, when the process starts; every decision after that is a
few milliseconds on that process's core.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping
from typing import Any

from app.bots.player import Turn, decide

_brain: Any = None


NICENESS = 10
"""How much lower than the server's this process's CPU priority is."""


def start() -> None:
    """Load the brain (the process pool's initializer), at a lower CPU priority.

    A bot that waits a few milliseconds more for a core is never noticed (it plays at
    a person's pace); a person's action that waits behind a bot's thought is.
    """
    global _brain
    from app.bots.brain import Brain

    with contextlib.suppress(OSError, AttributeError):  # not everywhere, and not vital
        os.nice(NICENESS)

    _brain = Brain()


def think(view: Mapping[str, Any]) -> tuple[Turn | None, float]:
    """The bot's next action on ``view``, and the seconds the decision took."""
    if _brain is None:
        start()
    began = time.perf_counter()
    turn = decide(view, _brain)
    return turn, time.perf_counter() - began
