"""The clock's actions: the host pausing and resuming it, the server's timeout.

When a countdown starts, stops and runs out is ``timers.py``'s; here is what the
table does when the server says an enforced one ran out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors, timers
from app.rules.checks import refuse, why_not_host_in
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.resolution import check_clover
from app.rules.state import Room
from app.rules.text import N_
from app.rules.writing import resolution_if_all_done, with_clover


def on_pause(action: act.Pause, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_pause(room, seat))
    return timers.paused(room, action.now)


def on_resume(action: act.Resume, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_resume(room, seat))
    return timers.resumed(room, action.now)


def why_not_pause(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not pause the clock, or ``None``: the host, during a timed game."""
    refusal = _why_not_clock(room, seat)
    if refusal is None and room.paused:
        return errors.AlreadyPaused
    return refusal


def why_not_resume(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not start the clock again, or ``None``: the host, once paused."""
    refusal = _why_not_clock(room, seat)
    if refusal is None and not room.paused:
        return errors.NotPaused
    return refusal


def _why_not_clock(room: Room, seat: int) -> Refusal | None:
    refusal = why_not_host_in(room, seat, "clues", "resolution")
    if refusal is None and not room.timed():
        return errors.NoClock
    return refusal


def on_timeout(action: act.Timeout, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """An enforced clock ran out. Clues: saved clues stand, and whoever left a leaf empty
    has the grace to finish; after the grace their clover is not played. A try: the
    board is checked as it stands, as if the lock holder had locked it (an empty spot
    is a wrong card)."""
    if seat is not None:
        raise errors.NotSystem(N_("Only the server says when time is up."))
    clock = room.countdown
    if clock is None or not timers.has_run_out(room, action.now):
        raise errors.NotDue()
    if clock.kind == "rebuild":
        return check_clover(room)
    late = False
    for clover in room.clovers:
        if clover.done or clover.dropped:
            continue
        if None not in clover.clues:
            room = with_clover(room, replace(clover, done=True))
        elif clock.kind == "grace":
            room = with_clover(room, replace(clover, dropped=True))
        else:
            late = True
    if late:
        return replace(room, countdown=timers.grace(room, action.now))
    return resolution_if_all_done(room)
