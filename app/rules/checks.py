"""The checks every phase shares: when (the phase), who (the host), and ``refuse``.

Who may take an action, and when, is checked by a ``why_not_*`` function that
returns the refusal rather than raising it: the action's handler raises what it
returns, and ``allowed`` asks the same function whether there is none, to tell a
seat what it may do now. Each phase's module holds its own checks beside its
handlers; these few are the ones they all ask.
"""

from __future__ import annotations

from app.rules import errors
from app.rules.errors import Refusal
from app.rules.state import Room


def refuse(refusal: Refusal | None) -> None:
    """Raise ``refusal``, if there is one: the ``why_not_*`` checks say why not, the
    handlers raise it, and ``allowed`` asks the same checks whether there is none."""
    if refusal is not None:
        raise refusal


def why_not_phase(room: Room, *phases: str) -> Refusal | None:
    return None if room.phase in phases else errors.WrongPhase


def why_not_host(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not use the host's controls now, or ``None``."""
    return None if seat == room.acting_host() else errors.NotHost


def why_not_host_in(room: Room, seat: int, *phases: str) -> Refusal | None:
    """Why ``seat`` may not use the host's controls in one of ``phases`` now, or ``None``."""
    # Written out, not by the two checks above: ``can`` asks it several times a seat.
    if room.phase not in phases:
        return errors.WrongPhase
    return None if seat == room.acting_host() else errors.NotHost
