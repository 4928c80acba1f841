"""Who sits at the table: joining, names, leaving, the host removing a seat, bots,
a bot standing in, a player going out of the game, and who is here.

A seat is taken in the lobby only (``why_not_sit``): a newcomer joins, a watcher
sits down (``watchers.py``). Once a game is on, nobody's seat moves: a player who
leaves or is dropped goes out of the game (``_out``) and keeps the seat until it
ends.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse, why_not_host_in
from app.rules.clues import fold
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.lookalikes import is_visible_name, look_alike
from app.rules.names import NO_LETTER, has_letter, is_reserved_name
from app.rules.resolution import check_if_agreed
from app.rules.state import BOT_NAMES, MAX_NAME_LENGTH, MAX_PLAYERS, Player, Room
from app.rules.writing import resolution_if_all_done, with_clover


def on_join(action: act.Join, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    return join(room, action.name)


def join(room: Room, name: str) -> Room:
    refuse(why_not_sit(room))
    name = new_name(room, name, watchers=False)
    # Here, as a watcher is: their request is their first sign of life.
    player = Player(pid=room.next_pid, name=name, present=True)
    room = replace(room, players=(*room.players, player), next_pid=room.next_pid + 1)
    return _watchers_make_way(room, name)


def why_not_sit(room: Room) -> Refusal | None:
    """Why nobody may take a seat now (a newcomer joining, a watcher sitting down), or
    ``None``: in the lobby, while a seat is free; never at a practice table, which its
    code opens to nobody (``errors.PrivateTable``)."""
    if room.practice:
        return errors.PrivateTable
    if room.phase != "lobby":
        return errors.GameStarted
    if len(room.players) >= MAX_PLAYERS:
        return errors.RoomFull
    return None


def new_name(room: Room, name: str, *, watchers: bool = True) -> str:
    """``name`` cleaned, if it is nobody's in the room and could pass for no one who runs it.

    A name that looks like another's could pass for them in the seats and the chat;
    a reserved one (``Admin``) for the table's staff. ``watchers``: whether the
    watchers' names count as taken; a player's claim on a name wins over a watcher's.
    """
    name = clean_name(name)
    if not has_letter(name):
        raise errors.BadName(NO_LETTER)
    if is_reserved_name(name):
        raise errors.ReservedName()
    taken = [p.name for p in room.players] + ([w.name for w in room.watchers] if watchers else [])
    if any(_same_name(other, name) for other in taken):
        raise errors.NameTaken()
    return name


def _same_name(a: str, b: str) -> bool:
    """Whether two names would pass for one another at the table."""
    return fold(a) == fold(b) or look_alike(a, b)


def _watchers_make_way(room: Room, name: str) -> Room:
    """The room where no watcher goes by ``name``, a player's now: a watcher who had it
    watches on under it with a number (``Bea (2)``). Players come first, so nobody can
    keep a player's own name from them by watching under it before they arrive."""
    watchers = list(room.watchers)
    for i, watcher in enumerate(watchers):
        if _same_name(watcher.name, name):
            others = [p.name for p in room.players] + [w.name for w in watchers]
            watchers[i] = replace(watcher, name=_numbered(watcher.name, others))
    return replace(room, watchers=tuple(watchers))


def _numbered(name: str, taken: list[str]) -> str:
    """``name`` with the first number in brackets that makes it nobody else's."""
    n = 2
    while True:
        suffix = f" ({n})"
        candidate = name[: MAX_NAME_LENGTH - len(suffix)].rstrip() + suffix
        if not any(_same_name(other, candidate) for other in taken):
            return candidate
        n += 1


def clean_name(name: str) -> str:
    """A player's name as shown: trimmed, inner runs of spaces folded, 1..24 visible characters.

    Every character must show: an invisible one (a zero-width space, a Hangul
    filler, a Braille blank) would make a name that looks like another's, or
    like no name. Emoji keep their joiners and presentation selectors.
    """
    name = " ".join(name.split())
    if not name or len(name) > MAX_NAME_LENGTH or not is_visible_name(name):
        raise errors.BadName()
    return name


def on_leave(action: act.Leave, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_leave(room, seat))
    if room.phase == "lobby":
        return without(room, seat)
    return _out(room, seat)


def why_not_leave(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not leave now, or ``None``: anyone may leave the lobby; out of a
    game, see ``_why_not_out``."""
    if room.phase == "lobby":
        return None
    return _why_not_out(room, seat)


def on_kick(action: act.Kick, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_kick(room, seat, action.seat))
    return without(room, action.seat)


def why_not_kick(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not remove ``target`` from the lobby, or ``None``: the host may
    remove a bot, or a player who is away."""
    refusal = why_not_host_in(room, seat, "lobby")
    if refusal is not None:
        return refusal
    if not 0 <= target < len(room.players):
        return errors.BadSeat
    if target == seat:
        return errors.PlayerPresent
    if target == room.host:
        # A stand-in holds the host's controls only while the host is away; the
        # host keeps the seat and the title and gets the controls back on return.
        return errors.HostStays
    if room.players[target].present and not room.players[target].bot:
        return errors.PlayerPresent
    return None


def on_add_bot(action: act.AddBot, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_add_bot(room, seat))
    # A bot takes a name nobody goes by, watchers included: it has eight to choose from.
    taken = [fold(p.name) for p in room.players] + [fold(w.name) for w in room.watchers]
    name = next((n for n in BOT_NAMES if fold(n) not in taken), None)
    if name is None:  # eight names for at most five bots: only people named like them
        name = next(f"Bot {n}" for n in range(1, 8) if fold(f"Bot {n}") not in taken)
    bot = Player(pid=room.next_pid, name=name, present=True, bot=True)
    return replace(room, players=(*room.players, bot), next_pid=room.next_pid + 1)


def why_not_add_bot(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not seat a bot now, or ``None``: the host, in the lobby, in a free
    seat. (Whether this server's bots play the room's language is the service's to say:
    ``allowed.why_no_bots``.)"""
    refusal = why_not_host_in(room, seat, "lobby")
    if refusal is None and len(room.players) >= MAX_PLAYERS:
        return errors.RoomFull
    return refusal


def on_stand_in(action: act.StandIn, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_stand_in(room, seat, action.seat))
    players = list(room.players)
    players[action.seat] = replace(players[action.seat], stand_in=True)
    return check_if_agreed(replace(room, players=tuple(players)))


def why_not_stand_in(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not have a bot play ``target`` now, or ``None``: the host, during
    a game, for a player away who is still in it and has no bot standing in yet."""
    refusal = why_not_host_in(room, seat, "clues", "resolution")
    if refusal is not None:
        return refusal
    if not 0 <= target < len(room.players):
        return errors.BadSeat
    player = room.players[target]
    if target == seat or player.present or player.bot:
        return errors.StandInForAway
    if player.out:
        return errors.AlreadyOut
    if player.stand_in:
        return errors.BotStandsIn
    return None


def on_drop(action: act.Drop, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_drop(room, seat, action.seat))
    return _out(room, action.seat)


def why_not_drop(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not take ``target`` out of the game now, or ``None``: the host,
    during a game, a player who is away (see ``_why_not_out``)."""
    refusal = why_not_host_in(room, seat, "clues", "resolution")
    if refusal is not None:
        return refusal
    if not 0 <= target < len(room.players):
        return errors.BadSeat
    if target == seat or room.players[target].present:
        return errors.PlayerPresent
    return _why_not_out(room, target)


def _out(room: Room, seat: int) -> Room:
    """``seat`` out of the game. While clues are written their clover is dropped (the game
    goes on with one clover fewer); once the clovers are being rebuilt it still comes,
    its clues being written, and nobody waits for them. The seat stays until the game
    ends, so no seat, turn or result moves; the host's title passes on if it was theirs.
    The caller asked ``_why_not_out`` first."""
    players = list(room.players)
    players[seat] = replace(players[seat], out=True)
    room = replace(room, players=tuple(players))
    if room.host == seat:
        room = replace(room, host=room.acting_host())
        if room.players[room.host].out:
            room = replace(room, host=next(s for s, p in enumerate(room.players) if not p.out))
    if room.phase == "clues":
        room = with_clover(room, replace(room.clovers[seat], dropped=True))
        return resolution_if_all_done(room)
    if room.phase == "resolution" and room.resolution is not None:
        res = room.resolution
        room = replace(room, resolution=replace(res, agreed=res.agreed - {seat}))
        return check_if_agreed(room)
    return room


def _why_not_out(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not go out of the game now, or ``None``: a game goes on with two
    players at least, so nobody more may go out of it then."""
    if room.players[seat].out:
        return errors.AlreadyOut
    if room.phase != "finished" and sum(not p.out for p in room.players) <= 2:
        return errors.TooFewLeft
    return None


def without(room: Room, seat: int) -> Room:
    """The room without ``seat``; later seats move down, hosting passes to the next seat.
    A claim for that seat goes with it."""
    gone = room.players[seat].pid
    room = replace(room, claims=tuple(c for c in room.claims if c.pid != gone))
    players = room.players[:seat] + room.players[seat + 1 :]
    host = room.host
    if seat < host:
        host -= 1
    elif seat == host and host >= len(players):
        host = 0
    if players and players[host].bot:  # a bot never hosts: the first person does
        host = next((s for s, p in enumerate(players) if not p.bot), host)
    return replace(room, players=players, host=host)


def on_presence(action: act.Presence, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    if seat is not None:
        raise errors.NotSystem()
    players = tuple(
        p
        if p.bot
        # a player back takes their seat back from the bot that stood in
        else replace(
            p, present=s in action.present, stand_in=p.stand_in and s not in action.present
        )
        for s, p in enumerate(room.players)
    )
    watchers = tuple(replace(w, present=w.pid in action.watchers) for w in room.watchers)
    return check_if_agreed(replace(room, players=players, watchers=watchers))
