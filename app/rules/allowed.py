"""What one seat may do now, for screens and clients to show (and not to work out).

The engine decides every action; these answers let a page offer only the
buttons that would be accepted, without a rule written a second time in a
template. A property test holds them to the engine: each answer is True
exactly when the engine would accept that action from that seat.
"""

from __future__ import annotations

from typing import Any

from app.rules.state import MAX_PLAYERS, MIN_PLAYERS, Room


def allowed(room: Room, seat: int | None) -> dict[str, Any]:
    """Every action this seat may take now: a flag each, and for ``kick`` the seats.
    ``join`` is for someone without a seat (``seat=None``): whether they may take one."""
    seated = seat is not None and 0 <= seat < len(room.players)
    if not seated:
        joinable = room.phase == "lobby" and len(room.players) < MAX_PLAYERS
        return dict.fromkeys(FLAGS, False) | {"kick": [], "join": joinable}
    assert seat is not None
    host = seat == room.acting_host()
    lobby = room.phase == "lobby"
    res = room.resolution
    clover = room.clovers[seat] if room.phase == "clues" else None
    moving = res is not None and not res.checked and room.is_guesser(seat)
    full = res is not None and res.is_full()
    return {
        "join": False,
        "settings": lobby and host,
        "start": lobby and host and MIN_PLAYERS <= len(room.players) <= MAX_PLAYERS,
        "leave": lobby,
        "kick": [
            s
            for s, player in enumerate(room.players)
            if lobby and host and s not in (seat, room.host) and not player.present
        ],
        "write": clover is not None and not clover.done,
        "done": clover is not None and not clover.done and None not in clover.clues,
        "undone": clover is not None and clover.done,
        "move": moving,
        "agree": moving and full,
        "unagree": moving,
        "lock": moving and full and seat == room.lock_holder(),
        "next": res is not None and res.checked,
        "say": not (res is not None and seat == room.spectator() and not res.checked),
        "again": room.phase == "finished",
    }


FLAGS = (
    "settings",
    "start",
    "leave",
    "write",
    "done",
    "undone",
    "move",
    "agree",
    "unagree",
    "lock",
    "next",
    "say",
    "again",
)
