"""The practice table's bots: their clues and moves written in advance for its deal.

A practice game teaches, so its bots play a script (``app/rules/practice.py``)
rather than think: the lesson meets the same moments every time, in every
language, with no bots' brain installed. Like every bot they act from their
seat's view, one action at a time, through the one action path
(``app.service.lesson`` plays them).

- Clues: the bot writes its clover's clues, then says it is done.
- On a bot's clover the newcomer rebuilds: the other bot lays nothing and agrees
  whenever the board is full (a move of the newcomer's clears it, and it agrees
  again), so the newcomer places, turns and agrees or locks in.
- On the newcomer's clover the two bots rebuild it from the script: three cards
  right and the decoy on the last spot, so the first check keeps three and sends
  the decoy back; on the second try they lay the right card. The newcomer, the
  Spectator, watches a second try and a decoy without having to fail.
- Never a chat line, never Next: the newcomer reads each reveal at their own pace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.rules.actions import Action, Agree, Clues, Done, Place
from app.rules.practice import DEALS, NEWCOMER, truth

View = Mapping[str, Any]


def decide(view: View) -> Action | None:
    """The next action of the practice bot whose seat sees ``view``, or ``None``."""
    you = view.get("you")
    if you is None or you.get("seat") is None or not view.get("practice"):
        return None
    seat = you["seat"]
    can = view["can"]
    if view["phase"] == "clues":
        if can["write"] and view["clover"] is not None:
            written = [leaf["clue"] for leaf in view["clover"]["leaves"]]
            if None in written:
                deal = DEALS.get(view["language"], DEALS["en"])
                return Clues(deal.clovers[seat].clues)
        return Done() if can["done"] else None
    res = view["resolution"]
    if view["phase"] != "resolution" or res is None or res["checked"] or not can["move"]:
        return None
    if res["spectator"] == NEWCOMER and not res["full"]:
        return _rebuild(view, res)
    if res["full"] and seat not in res["agreed"] and can["agree"]:
        return Agree()
    return None


def _rebuild(view: View, res: Mapping[str, Any]) -> Action | None:
    """The next card of the newcomer's clover: the right ones on the first three spots,
    then on the first try the decoy, on the second the right card."""
    where = truth(view["language"], NEWCOMER)
    free = [slot["spot"] for slot in res["board"] if slot["card"] is None]
    spot = free[0]
    for card in res["pool"]:
        placed = where.get(tuple(card["words"]))
        if placed is not None and placed[0] == spot and (spot < 3 or res["attempt"] == 2):
            return Place(card=card["card"], spot=spot, rotation=placed[1])
        if placed is None and spot == 3 and res["attempt"] == 1:
            return Place(card=card["card"], spot=spot, rotation=0)  # the decoy, on purpose
    return None
