"""The first game's lesson: which steps a newcomer at a practice table is at.

A function of the seat's view and nothing else, so every screen of the seat says
the same, a reload finds the same step, and a test can hold each moment to its
step. The pages say each step in the news line (``partials/_lesson.html``) the
moment the state reaches it; a device may skip a step (its own choice, kept in
the browser), and the next step that applies is said instead.

``steps`` gives every step that applies now, the most pressing first: the page
shows the first one not skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

STEPS: Final = (
    "clover",  # what a clover and a leaf are
    "refused",  # an example clue the rules refuse, shown on the top leaf
    "warned",  # an example clue they only warn about, on the right leaf
    "write",  # one clue per leaf, then Done
    "waiting",  # done: the bots finish theirs
    "spectator",  # someone else's clover: they watch in silence, you rebuild it
    "place",  # a card from the pool onto a spot
    "turn",  # the round buttons turn a chosen card
    "agree",  # the board full: Agree; a move clears every Agree
    "lock",  # the lock holder's Lock in
    "agreed",  # you agree: waiting for the others
    "second",  # the second and last try; the right cards stay locked
    "silence",  # your own clover: watch in silence
    "decoy",  # your clover's first try took the decoy: it came back to the pool
    "reveal",  # a clover checked: its score, the solution, the decoy, Next
    "score",  # the game over: the total, never in the Record of Legends, invite friends
)
"""Every step of the lesson, in the order a game meets them."""


def steps(view: Mapping[str, Any]) -> list[str]:
    """The lesson's steps that apply to the seat reading ``view`` now, most pressing
    first; none outside a practice table, or for anyone without a seat in it."""
    you = view.get("you")
    if not view.get("practice") or you is None or you.get("seat") is None:
        return []
    seat = you["seat"]
    phase = view["phase"]
    if phase == "clues":
        return _writing(view)
    if phase == "resolution":
        return _rebuilding(view, seat)
    if phase == "finished":
        return ["score"]
    return []


def _writing(view: Mapping[str, Any]) -> list[str]:
    clover = view.get("clover")
    if clover is None:
        return []
    if clover["done"]:
        return ["waiting"]
    clues = [leaf["clue"] for leaf in clover["leaves"]]
    shown = []
    if not any(clues):
        shown.append("clover")
    if not clues[0]:
        shown.append("refused")
    if not clues[1] or view.get("warnings"):
        shown.append("warned")
    shown.append("write")
    return shown


def _rebuilding(view: Mapping[str, Any], seat: int) -> list[str]:
    res = view["resolution"]
    if res["checked"]:
        return ["reveal"]
    if res["spectator"] == seat:
        return ["decoy", "second"] if res["attempt"] == 2 else ["silence"]
    first = not view["results"] and res["attempt"] == 1
    placed = any(slot["card"] for slot in res["board"])
    shown = []
    if res["attempt"] == 2:
        shown.append("second")
    elif first and not placed:
        shown.append("spectator")
    if not res["full"]:
        shown.append("place")
        if first and placed:
            shown.append("turn")
        return shown
    if seat == res["lock_holder"] and seat not in res["agreed"]:
        shown.append("lock")
    shown.append("agreed" if seat in res["agreed"] else "agree")
    return shown
