"""A bot's turn: from what its seat sees to the one action it takes next, if any.

A bot sees exactly what a person in its seat would: the seat's view, the
same dictionary the JSON API sends (``app.rules.views.view``). It decides one
action at a time, like a person tapping: the service waits a while (a human
pace), makes sure the room has not moved meanwhile, and sends it through the
one action path. After any change, the bot decides again from the new view,
so a person's move is built on, never fought.

- Clues: the bot writes the clues still missing on its clover (a bot standing
  in keeps those its player wrote), then says it is done.
- Resolution, as a guesser: it lays the card the clues call for on the first
  free spot, one card per turn (``Pace.CARD``: the service lets people lay
  first, and keeps to a reading pace); with the board full, it agrees. As the
  lock holder it locks the board in once the people at the table have all
  agreed, or after a long quiet (``Pace.IDLE``), never while they move cards.
- The Spectator, a bot who is out, and every other moment: nothing. A bot
  never chats and never moves the table on (people read the reveal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from app.bots.brain import Brain
from app.bots.guessing import Laid, best_board
from app.bots.writing import write_clues
from app.rules.actions import Action, Agree, Clues, Done, Lock, Place

View = Mapping[str, Any]


class Pace(Enum):
    """How long a person would take before this action; the service sets the seconds."""

    WRITE = "write"
    MOVE = "move"
    CARD = "card"
    """A card laid: at a reading pace, and the first only after people had their go."""
    IDLE = "idle"
    """Only if nothing happens meanwhile: a lock-in the table did not ask for."""


@dataclass(frozen=True)
class Turn:
    action: Action
    pace: Pace


def decide(view: View, brain: Brain) -> Turn | None:
    """The next action of the bot whose seat sees ``view``, or ``None``: nothing to do."""
    you = view.get("you")
    if you is None:
        return None
    seat = you["seat"]
    if view["players"][seat]["out"]:
        return None
    if view["phase"] == "clues":
        return _clues(view, brain)
    if view["phase"] == "resolution":
        return _resolution(view, seat, brain)
    return None


def _clues(view: View, brain: Brain) -> Turn | None:
    clover = view["clover"]
    if clover is None or not view["can"]["write"]:
        return None
    written = [leaf["clue"] for leaf in clover["leaves"]]
    if None in written or "" in written:
        pairs = [tuple(leaf["pair"]) for leaf in clover["leaves"]]
        keywords = [w for card in clover["cards"] for w in card["words"]]
        clues = write_clues(pairs, keywords, written, brain, view["language"])
        return Turn(Clues(clues), Pace.WRITE)
    if view["can"]["done"]:
        return Turn(Done(), Pace.MOVE)
    return None


def _resolution(view: View, seat: int, brain: Brain) -> Turn | None:
    res = view["resolution"]
    if res is None or res["checked"] or not view["can"]["move"]:
        return None
    board = {
        slot["spot"]: Laid(slot["card"], slot["rotation"])
        for slot in res["board"]
        if slot["card"] is not None
    }
    if not res["full"]:
        cards = {slot["card"]: slot["words"] for slot in res["board"] if slot["card"]}
        cards |= {card["card"]: card["words"] for card in res["pool"]}
        rejected = frozenset((r["spot"], r["card"], r["rotation"]) for r in res["rejected"])
        target = best_board(res["clues"], cards, board, rejected, brain, view["language"])
        spot = min(s for s in target if s not in board)
        laid = target[spot]
        return Turn(Place(card=laid.card, spot=spot, rotation=laid.rotation), Pace.CARD)
    if seat not in res["agreed"]:
        return Turn(Agree(), Pace.MOVE)
    if view["can"]["lock"]:
        people = {
            p["seat"]
            for p in view["players"]
            if p["present"] and not p["bot"] and not p["out"] and p["seat"] != res["spectator"]
        }
        waiting = people - set(res["agreed"])
        return Turn(Lock(), Pace.MOVE if not waiting else Pace.IDLE)
    return None
