"""What one seat may do now, for screens and clients to show (and not to work out).

The engine decides every action; these answers let a page offer only the
buttons that would be accepted, without a rule written a second time: each
answer asks the engine's own check for that action (``engine.why_not_*``)
whether it has a refusal to give. A property test holds them to the engine:
each answer is True exactly when the engine would accept that action from that
seat.
"""

from __future__ import annotations

import typing
from collections.abc import Collection

from app.rules import chat, checks, claims, clock, lobby, resolution, seating, watchers, writing
from app.rules.state import Room
from app.rules.text import N_
from app.rules.view_types import Can

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
) -> Can:
    """Every action this seat may take now: a flag each, for ``kick`` and ``drop`` the
    seats, for ``allow`` and ``refuse`` the claims this seat may allow, or refuse.
    ``join`` and ``watch`` are for someone without a seat (``seat=None``): whether they
    may take one, or watch. ``watching``: the answers for a watcher, the same for every
    one of them (``sit``, ``leave``, ``say``). ``bot_languages``: the room languages this
    server's bots play in (``add_bot`` and ``stand_in`` offer bots only there).

    What an action carries (a name, a chat line, a number) is not asked: these say
    whether this seat may take the action now at all."""
    seated = seat is not None and 0 <= seat < len(room.players)
    if watching:
        return _only(
            sit=seating.why_not_sit(room) is None,
            leave=True,
            say=chat.why_watchers_quiet(room) is None,
        )
    if not seated:
        return _only(
            join=seating.why_not_sit(room) is None,
            # Whether some seat may be asked for (the engine then checks the one asked):
            # a person's, that no other request waits for; never at a practice table.
            claim=not room.practice
            and any(
                claims.why_not_ask(room.claims, pid=p.pid) is None
                for p in room.players
                if not p.bot
            ),
            watch=watchers.why_not_watch(room) is None,
        )
    assert seat is not None
    say = chat.why_not_say(room, seat) is None
    if room.players[seat].out:
        # Out of the game: they watch it, and may chat (but the Spectator's silence holds).
        return _only(say=say)
    seats = range(len(room.players))
    # Only the host removes, drops or stands a bot in: the engine's checks for each seat
    # are asked of the host alone, the answer for anyone else being no for every seat.
    host = checks.why_not_host(room, seat) is None
    set_up = lobby.why_not_set_up(room, seat) is None
    bots = why_no_bots(room.language, bot_languages) is None
    move = resolution.why_not_move(room, seat) is None
    write = writing.why_not_write(room, seat) is None
    return {
        "join": False,
        "watch": False,
        "sit": False,
        "watchers_chat": host,
        "send_away": [
            w.pid for w in room.watchers if watchers.why_not_send_away(room, seat, w.pid) is None
        ]
        if host
        else [],
        "settings": set_up,
        "start": set_up and lobby.why_not_start(room, seat) is None,
        "leave": seating.why_not_leave(room, seat) is None,
        "drop": [s for s in seats if seating.why_not_drop(room, seat, s) is None] if host else [],
        "kick": [s for s in seats if seating.why_not_kick(room, seat, s) is None] if set_up else [],
        "add_bot": set_up and bots and seating.why_not_add_bot(room, seat) is None,
        "stand_in": [s for s in seats if seating.why_not_stand_in(room, seat, s) is None]
        if host and bots
        else [],
        "allow": [c.id for c in room.claims if claims.why_not_allow(room, seat, c.id) is None],
        "refuse": [c.id for c in room.claims if claims.why_not_refuse(room, seat, c.id) is None],
        "claim": False,
        "claims_by": set_up,
        "language": set_up,
        "timer": set_up,
        "pause": host and clock.why_not_pause(room, seat) is None,
        "resume": host and clock.why_not_resume(room, seat) is None,
        "write": write,
        "done": write and writing.why_not_done(room, seat) is None,
        "undone": writing.why_not_undone(room, seat) is None,
        "move": move,
        "agree": move and resolution.why_not_agree(room, seat) is None,
        "unagree": move,
        "lock": move and resolution.why_not_lock(room, seat) is None,
        "next": resolution.why_not_next(room) is None,
        "say": say,
        "again": lobby.why_not_again(room) is None,
        "invite": lobby.why_not_invite(room, seat) is None,
    }


def _only(**flags: bool) -> Can:
    """Every answer no, every list empty, but for ``flags``: what someone who does not
    play this game now may do."""
    nothing: dict[str, object] = {key: [] if key in LISTS else False for key in Can.__annotations__}
    return typing.cast(Can, nothing | flags)


LISTS = frozenset(
    key for key, hint in typing.get_type_hints(Can).items() if typing.get_origin(hint) is list
)
"""The answers of ``Can`` that are lists (of seats, of claims): the rest are flags."""
