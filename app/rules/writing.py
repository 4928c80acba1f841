"""The clue phase: each player writes four clues on their own clover, and says when
they are done; once every clover still in the game is done, the clovers are rebuilt.

Whether a clue may be written is the clue checker's (``languages.check_clue_in``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse, why_not_phase
from app.rules.errors import Refusal
from app.rules.geometry import LEAVES, Words, outward_keywords
from app.rules.languages import check_clue_in
from app.rules.state import Clover, Resolution, Room


def on_clues(action: act.Clues, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    """Save the clues; a draft is never refused for a clue, only for who or when."""
    refuse(why_not_write(room, seat))
    clover = room.clovers[seat]
    if len(action.clues) != len(LEAVES):
        raise errors.BadClues()
    keywords = outward_keywords(clover.laid())
    saved: list[str | None] = []
    warnings: list[str | None] = []
    rejected: list[errors.ClueDetail] = []
    for leaf, text in enumerate(action.clues):
        if text is None:
            saved.append(None)
            warnings.append(None)
            continue
        verdict = check_clue_in(room.language, text, keywords)
        if verdict.error is not None and action.draft:
            # Still being typed: the leaf keeps what it held, refused text is never kept.
            saved.append(clover.clues[leaf])
            warnings.append(clover.warnings[leaf])
            continue
        if verdict.error is not None:
            rejected.append(errors.ClueDetail(leaf, verdict.error.code, verdict.error.text))
        saved.append(verdict.clue)
        warnings.append(verdict.warning.keyword if verdict.warning else None)
    if rejected:
        raise errors.CluesRejected(rejected)
    return with_clover(room, replace(clover, clues=tuple(saved), warnings=tuple(warnings)))


def on_done(action: act.Done, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_done(room, seat))
    clover = room.clovers[seat]
    return resolution_if_all_done(with_clover(room, replace(clover, done=True)))


def why_not_write(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not write clues now, or ``None``: while clues are written, until
    they said they were done, on a clover this seat's device may read."""
    refusal = why_not_phase(room, "clues")
    if refusal is None and room.hides_own_clover(seat):
        return errors.CloverElsewhere
    if refusal is None and room.clovers[seat].done:
        return errors.AlreadyDone
    return refusal


def why_not_done(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not say their clues are done, or ``None``: four clues written."""
    refusal = why_not_write(room, seat)
    if refusal is None and None in room.clovers[seat].clues:
        return errors.CluesMissing
    return refusal


def resolution_if_all_done(room: Room) -> Room:
    """On to the clovers once every clover still in the game has its clues done; with
    none left to play (the clue clock dropped them all), the game is over."""
    if all(c.done or c.dropped for c in room.clovers):
        if not room.turns():
            return replace(room, phase="finished", resolution=None)
        return replace(room, phase="resolution", resolution=Resolution(turn=0))
    return room


def on_undone(action: act.Undone, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_undone(room, seat))
    return with_clover(room, replace(room.clovers[seat], done=False))


def why_not_undone(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not take back their "done", or ``None``: while clues are written."""
    refusal = why_not_phase(room, "clues")
    if refusal is None and room.hides_own_clover(seat):
        return errors.CloverElsewhere
    if refusal is None and not room.clovers[seat].done:
        return errors.NotDone
    return refusal


def with_clover(room: Room, clover: Clover) -> Room:
    clovers = list(room.clovers)
    clovers[clover.owner] = clover
    return replace(room, clovers=tuple(clovers))
