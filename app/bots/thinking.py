"""A process of its own where bots think, so their thinking never holds the server's
interpreter: the server sends a seat's view and gets the bot's next action back.

The brain is loaded once, when the process starts; every decision after that is a
few milliseconds on that process's core.
"""

from __future__ import annotations

import time
from typing import Any

from app.bots.player import Turn, decide

_brain: Any = None


def start() -> None:
    """Load the brain (the process pool's initializer)."""
    global _brain
    from app.bots.brain import Brain

    _brain = Brain()


def think(view: dict[str, Any]) -> tuple[Turn | None, float]:
    """The bot's next action on ``view``, and the seconds the decision took."""
    if _brain is None:
        start()
    began = time.perf_counter()
    turn = decide(view, _brain)
    return turn, time.perf_counter() - began
