"""What one seat may do now, for screens and clients to show (and not to work out).

The engine decides every action; these answers let a page offer only the
buttons that would be accepted, without a rule written a second time in a
template. A property test holds them to the engine: each answer is True
exactly when the engine would accept that action from that seat.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from app.rules.state import MAX_CLAIMS, MAX_PLAYERS, MIN_PLAYERS, Claim, Room
from app.rules.text import N_

NO_BOTS_HERE = N_("Bots are not installed on this server.")
BOTS_SPEAK = N_("Bots speak English only for now: they play in English rooms.")


def why_no_bots(language: str, bot_languages: Collection[str]) -> str | None:
    """Why no bot may play in a room of ``language`` on a server whose bots speak
    ``bot_languages`` (the service says which: none without the bots' brain), or
    ``None`` if bots may. The one place this rule is written: the service refuses
    bots by it, and the views offer them by it."""
    if not bot_languages:
        return NO_BOTS_HERE
    if language not in bot_languages:
        return BOTS_SPEAK
    return None


def allowed(
    room: Room,
    seat: int | None,
    *,
    watching: bool = False,
    bot_languages: Collection[str] = (),
) -> dict[str, Any]:
    """Every action this seat may take now: a flag each, for ``kick`` and ``drop`` the
    seats, for ``allow`` and ``refuse`` the claims this seat may allow, or refuse.
    ``join`` and ``watch`` are for someone without a seat (``seat=None``): whether they
    may take one, or watch. ``watching``: the answers for a watcher, the same for every
    one of them (``sit``, ``leave``, ``say``). ``bot_languages``: the room languages this
    server's bots play in (``add_bot`` and ``stand_in`` offer bots only there)."""
    seated = seat is not None and 0 <= seat < len(room.players)
    if watching:
        return _only(sit=room.has_free_seat(), leave=True, say=room.watchers_chat)
    if not seated:
        return _only(
            join=room.has_free_seat(),
            claim=bool(room.players) and sum(not c.back for c in room.claims) < MAX_CLAIMS,
            watch=room.may_watch(),
        )
    assert seat is not None
    if room.players[seat].out:
        # Out of the game: they watch it, and may chat (but the Spectator's silence holds).
        res = room.resolution
        quiet = res is not None and seat == room.spectator() and not res.checked
        return _only(say=not quiet)
    host = seat == room.acting_host()
    lobby = room.phase == "lobby"
    playing = room.phase in ("clues", "resolution")
    # A game goes on with two players at least: nobody more may go out of it then.
    can_lose_one = sum(not p.out for p in room.players) > 2
    res = room.resolution
    clover = room.clovers[seat] if room.phase == "clues" else None
    moving = res is not None and not res.checked and room.is_guesser(seat)
    full = res is not None and res.is_full()
    bots = why_no_bots(room.language, bot_languages) is None
    return {
        "join": False,
        "watch": False,
        "sit": False,
        "watchers_chat": host,
        "settings": lobby and host,
        "start": lobby and host and MIN_PLAYERS <= len(room.players) <= MAX_PLAYERS,
        "leave": lobby or room.phase == "finished" or can_lose_one,
        "drop": [
            s
            for s, player in enumerate(room.players)
            if playing
            and host
            and can_lose_one
            and s != seat
            and not player.present
            and not player.out
        ],
        "kick": [
            s
            for s, player in enumerate(room.players)
            if lobby and host and s not in (seat, room.host) and (player.bot or not player.present)
        ],
        "add_bot": lobby and host and len(room.players) < MAX_PLAYERS and bots,
        "stand_in": [
            s
            for s, player in enumerate(room.players)
            if playing
            and host
            and bots
            and s != seat
            and not (player.present or player.bot or player.stand_in or player.out)
        ],
        "allow": [c.id for c in room.claims if _may_allow(room, seat, c)],
        "refuse": [c.id for c in room.claims if _may_refuse(room, seat, c)],
        "claim": False,
        "claims_by": lobby and host,
        "language": lobby and host,
        "timer": lobby and host,
        "pause": playing and host and room.timed() and not room.paused,
        "resume": playing and host and room.timed() and room.paused,
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


def _only(**flags: bool) -> dict[str, Any]:
    """Every answer no, every list empty, but for ``flags``: what someone who does not
    play this game now may do."""
    nothing: dict[str, Any] = {
        "kick": [],
        "drop": [],
        "stand_in": [],
        "allow": [],
        "refuse": [],
    }
    return dict.fromkeys((*FLAGS, "join", "claim", "watch"), False) | nothing | flags


def _may_allow(room: Room, seat: int, claim: Claim) -> bool:
    """Whether ``seat`` may allow ``claim`` (from no browser of its own: the views cannot
    tell which browser reads them, and the engine refuses that one by its cookie)."""
    target = room.seat_of(claim.pid)
    if target is None or room.seat_waits(target):
        return False
    if claim.back:
        return seat != target
    if seat == target:
        return True
    if room.players[target].present:
        return False
    return room.claims_by != "host" or seat == room.acting_host()


def _may_refuse(room: Room, seat: int, claim: Claim) -> bool:
    """Whether ``seat`` may refuse ``claim``: anyone seated, but the holder of a seat
    asked back."""
    target = room.seat_of(claim.pid)
    return target is not None and not (claim.back and seat == target)


FLAGS = (
    "sit",
    "watchers_chat",
    "settings",
    "add_bot",
    "claims_by",
    "language",
    "timer",
    "pause",
    "resume",
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
