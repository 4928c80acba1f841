"""The closed set of actions a room accepts.

Actions are plain data. The web layer parses and bounds raw input into one of
these; the engine checks who may do it and when. ``Start`` carries the seed of
the deal and ``Say`` the time, so applying an action needs no clock and no
randomness, and a game can be replayed from its action log.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Join:
    name: str


@dataclass(frozen=True)
class Leave:
    pass


@dataclass(frozen=True)
class Kick:
    """The host removes an absent player from the lobby."""

    seat: int


@dataclass(frozen=True)
class Settings:
    decoys: int


@dataclass(frozen=True)
class Start:
    seed: int


@dataclass(frozen=True)
class Clues:
    """The four clues in leaf order; ``None`` leaves a leaf unwritten for now."""

    clues: tuple[str | None, ...]


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Undone:
    pass


@dataclass(frozen=True)
class Place:
    card: str
    spot: int
    rotation: int


@dataclass(frozen=True)
class Remove:
    spot: int


@dataclass(frozen=True)
class Rotate:
    spot: int
    turns: int


@dataclass(frozen=True)
class Agree:
    pass


@dataclass(frozen=True)
class Unagree:
    pass


@dataclass(frozen=True)
class Lock:
    pass


@dataclass(frozen=True)
class Next:
    pass


@dataclass(frozen=True)
class Say:
    text: str
    at: str


@dataclass(frozen=True)
class Again:
    """Play again in the same room with the same seats: back to the lobby."""


@dataclass(frozen=True)
class Presence:
    """The server's word on which seats are present; only the system sends it."""

    present: frozenset[int]


Action = (
    Join
    | Leave
    | Kick
    | Settings
    | Start
    | Clues
    | Done
    | Undone
    | Place
    | Remove
    | Rotate
    | Agree
    | Unagree
    | Lock
    | Next
    | Say
    | Again
    | Presence
)

BOARD_ACTIONS = (Place, Remove, Rotate)
"""Actions that change the board, and so clear every Agree."""
