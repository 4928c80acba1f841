"""The table's clock: when a countdown starts, pauses, resumes and runs out.

A table may time the writing of its clues and each try at a clover, each
timer ``off``, ``advisory`` (a clock for everyone, nothing happens at zero) or
``enforced`` (at zero the server's ``timeout`` acts). Times are the server's,
in epoch milliseconds, and reach the rules inside each action (``now``): the
rules never read a clock, and a replay of the log meets the very same times.

``follow`` is the one place a countdown begins or ends: after every accepted
action it compares the stage the table was at with the stage it is at now
(writing clues; a try at one clover; anything else, untimed), and starts the
clock of a new stage. So however a phase begins (the last Done, a player
dropped, a check, Next), its clock starts with it.
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.state import GRACE_MS, Countdown, Room

Stage = tuple[object, ...] | None


def stage(room: Room) -> Stage:
    """What the clock times now: the clues, one try at one clover, or nothing."""
    if room.phase == "clues":
        return ("clues",)
    res = room.resolution
    if room.phase == "resolution" and res is not None and not res.checked:
        return ("rebuild", res.turn, res.attempt)
    return None


def follow(before: Room, after: Room, now: int) -> Room:
    """``after`` with its clock: kept within a stage, started anew with the next one."""
    at = stage(after)
    if at is None:
        if after.phase in ("lobby", "finished"):
            # A game over, or not begun: the next one starts with a running clock.
            return replace(after, countdown=None, paused=False)
        return after if after.countdown is None else replace(after, countdown=None)
    if at == stage(before):
        return after
    return replace(after, countdown=start(after, str(at[0]), now))


def start(room: Room, phase: str, now: int) -> Countdown | None:
    """A new countdown for ``phase`` (``clues`` or ``rebuild``), held while paused."""
    timer = room.timer(phase)
    if timer.mode == "off":
        return None
    length = timer.minutes * 60_000
    return _countdown(room, phase, timer.mode, length, now)


def grace(room: Room, now: int) -> Countdown:
    """The half minute after the clue clock for the players who left a leaf empty."""
    return _countdown(room, "grace", "enforced", GRACE_MS, now)


def _countdown(room: Room, kind: str, mode: str, length: int, now: int) -> Countdown:
    if room.paused:
        return Countdown(kind=kind, mode=mode, length=length, left=length)
    return Countdown(kind=kind, mode=mode, length=length, ends=now + length)


def paused(room: Room, now: int) -> Room:
    """The clock stopped where it stands; the time left is kept."""
    clock = room.countdown
    if clock is not None and clock.ends is not None:
        clock = replace(clock, ends=None, left=max(0, clock.ends - now))
    return replace(room, countdown=clock, paused=True)


def resumed(room: Room, now: int) -> Room:
    """The clock going again from the time it had left."""
    clock = room.countdown
    if clock is not None and clock.left is not None:
        clock = replace(clock, ends=now + clock.left, left=None)
    return replace(room, countdown=clock, paused=False)


def due(room: Room) -> int | None:
    """When the server must act on this room's clock (epoch ms), or ``None``: no clock
    that acts is running."""
    clock = room.countdown
    if clock is None or clock.mode != "enforced" or clock.ends is None:
        return None
    return clock.ends


def has_run_out(room: Room, now: int) -> bool:
    """Whether an enforced clock has reached zero at ``now``."""
    ends = due(room)
    return ends is not None and now >= ends
