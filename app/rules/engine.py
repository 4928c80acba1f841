"""``apply``: one action on one room gives the next room, or a named refusal.

The engine is pure: no I/O, no clock, no global randomness. The seed of a deal
and the time of a chat line arrive inside the action, the deck as an argument.
A refusal raises a ``RuleError`` and leaves the room as it was (states are
immutable, so there is nothing to roll back). Every accepted action returns a
room whose ``seq`` is one more.

Who may take an action, and when, is checked by a ``why_not_*`` function that
returns the refusal rather than raising it: the handler raises what it returns,
and ``allowed`` asks the same function whether there is none, to tell a seat
what it may do now.
"""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import singledispatch

from app.rules import actions as act
from app.rules import errors, timers
from app.rules.clues import fold
from app.rules.dealing import deal
from app.rules.deck import cards_needed
from app.rules.errors import Refusal
from app.rules.geometry import LEAVES, ROTATIONS, SPOTS, Words, outward_keywords, turn
from app.rules.languages import check_clue_in
from app.rules.lookalikes import is_visible_name, look_alike
from app.rules.names import is_reserved_name
from app.rules.scoring import check
from app.rules.state import (
    BOT_NAMES,
    CHAT_KEPT,
    CLAIMS_BY,
    DEVICE_KINDS,
    LANGUAGES,
    MAX_CHAT_LENGTH,
    MAX_CLAIMS,
    MAX_CLAIMS_PER_ADDRESS,
    MAX_DECOYS,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_TIMER_MINUTES,
    MAX_WATCHERS,
    MIN_DECOYS,
    MIN_PLAYERS,
    MIN_TIMER_MINUTES,
    MOVES_KEPT,
    TIMER_MODES,
    TIMER_PHASES,
    UNOPENED,
    ChatLine,
    Claim,
    Clover,
    Player,
    Resolution,
    Room,
    Slot,
    Timer,
    Watcher,
)
from app.rules.text import N_


def unopened(code: str) -> Room:
    """The room ``code`` before it opens: nothing yet, but the code. Only its opening
    (``actions.Create``) may be applied to it."""
    return Room(code=code, seq=UNOPENED)


def new_room(code: str, host_name: str, decoys: int = MIN_DECOYS, language: str = "en") -> Room:
    """A room in the lobby with its creator in seat 0 as host: ``unopened(code)`` opened."""
    return apply(unopened(code), None, act.Create(host_name, decoys, language))


def apply(
    room: Room,
    seat: int | None,
    action: act.Action,
    *,
    deck: Sequence[Words] = (),
    watcher: int | None = None,
) -> Room:
    """Apply ``action`` by ``seat`` to ``room``.

    ``seat`` is ``None`` for someone without a seat: a newcomer joining, or the
    server itself reporting presence. ``deck`` is only read by ``Start``.
    ``watcher`` is the pid of a watcher sending ``action`` (``seat`` is then
    ``None``): they may sit down, leave and chat, nothing else.
    Raises a ``RuleError`` subclass when the rules refuse the action.
    Claims that have run out by the action's ``now`` go first, whatever the action.
    """
    if (room.seq == UNOPENED) != isinstance(action, act.Create):
        # A room opens once, and nothing happens to it before.
        raise errors.Conflict()
    room = _unexpired(room, action.now)
    if not isinstance(action, act.Timeout) and timers.has_run_out(room, action.now):
        # Once an enforced clock has run out, only the server's timeout is taken: what
        # comes after the deadline is judged on the room the timeout makes.
        raise errors.TimeUp()
    if isinstance(action, act.Watch) and (seat is not None or watcher is not None):
        # One person, one place at the table: a player watching under another name
        # would speak while they must keep silent (the Spectator), or vote twice.
        raise errors.AlreadySeated() if watcher is None else errors.AlreadyWatching()
    if watcher is not None:
        new = timers.follow(room, _as_watcher(room, watcher, action), action.now)
        return replace(new, seq=room.seq + 1)
    if seat is None and action.sent_by == "player":
        raise errors.NotAPlayer()
    if seat is not None and not 0 <= seat < len(room.players):
        raise errors.NotAPlayer()
    if seat is not None and room.players[seat].out and not isinstance(action, act.Say):
        # Out of the game, a player watches it and may chat: nothing else until the next.
        raise errors.AlreadyOut() if isinstance(action, act.Leave) else errors.OutOfGame()
    new = timers.follow(room, _handle(action, room, seat, deck), action.now)
    return replace(new, seq=room.seq + 1)


@dataclass(frozen=True)
class Played:
    """An accepted action: the next room, and what happened that others act upon."""

    room: Room
    finished: bool = False
    """This action ended the game: its score belongs in the Record of Legends."""


def play(
    room: Room,
    seat: int | None,
    action: act.Action,
    *,
    deck: Sequence[Words] = (),
    watcher: int | None = None,
) -> Played:
    """``apply``, and say what happened: the service keeps the record of a finished
    game without looking into the rules for it."""
    new = apply(room, seat, action, deck=deck, watcher=watcher)
    # A game whose every clover was dropped (the clue clock ran out on all) scores nothing.
    finished = new.phase == "finished" and room.phase != "finished" and bool(new.turns())
    return Played(new, finished=finished)


@singledispatch
def _handle(action: object, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    raise errors.Invalid(N_("Unknown action {name}."), name=type(action).__name__)


# --- the lobby ---------------------------------------------------------------


@_handle.register
def _on_create(action: act.Create, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    _check_decoys(action.decoys)
    _check_language(action.language)
    return _join(replace(room, decoys=action.decoys, language=action.language), action.name)


@_handle.register
def _on_join(action: act.Join, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    return _join(room, action.name)


def _join(room: Room, name: str) -> Room:
    _refuse(why_not_sit(room))
    name = _new_name(room, name, watchers=False)
    # Here, as a watcher is: their request is their first sign of life.
    player = Player(pid=room.next_pid, name=name, present=True)
    room = replace(room, players=(*room.players, player), next_pid=room.next_pid + 1)
    return _watchers_make_way(room, name)


def why_not_sit(room: Room) -> Refusal | None:
    """Why nobody may take a seat now (a newcomer joining, a watcher sitting down), or
    ``None``: in the lobby, while a seat is free."""
    if room.phase != "lobby":
        return errors.GameStarted
    if len(room.players) >= MAX_PLAYERS:
        return errors.RoomFull
    return None


def _new_name(room: Room, name: str, *, watchers: bool = True) -> str:
    """``name`` cleaned, if it is nobody's in the room and could pass for no one who runs it.

    A name that looks like another's could pass for them in the seats and the chat;
    a reserved one (``Admin``) for the table's staff. ``watchers``: whether the
    watchers' names count as taken; a player's claim on a name wins over a watcher's.
    """
    name = clean_name(name)
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


# --- watchers ---------------------------------------------------------------------


@_handle.register
def _on_watch(action: act.Watch, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A newcomer watches, in any phase. At the cap, the first come of the watchers who
    are away makes room; with every watcher here, none may come.

    A newcomer is here: their request is their first sign of life. Counted away until
    the next presence report, fifty arriving at once would each make room for the
    next, and a watcher would lose their place the moment they were given it."""
    if seat is not None:
        raise errors.AlreadySeated()
    name = _new_name(room, action.name)
    _refuse(why_not_watch(room))
    watchers = room.watchers
    if len(watchers) >= MAX_WATCHERS:
        away = next(w for w in watchers if not w.present)
        watchers = tuple(w for w in watchers if w is not away)
    watcher = Watcher(pid=room.next_pid, name=name, present=True)
    return replace(room, watchers=(*watchers, watcher), next_pid=room.next_pid + 1)


def why_not_watch(room: Room) -> Refusal | None:
    """Why nobody more may watch, or ``None``: under the cap, or with a watcher away to
    make room."""
    if len(room.watchers) >= MAX_WATCHERS and all(w.present for w in room.watchers):
        return errors.WatchersFull
    return None


def _as_watcher(room: Room, pid: int, action: act.Action) -> Room:
    """A watcher's action: sit down in the lobby, stop watching, or chat if allowed."""
    watcher = room.watcher(pid)
    if watcher is None:
        raise errors.NotAPlayer(N_("You are not watching this room."))
    if isinstance(action, act.Sit):
        _refuse(why_not_sit(room))
        player = Player(pid=pid, name=watcher.name, present=watcher.present, device=watcher.device)
        return replace(room, players=(*room.players, player), watchers=_unwatched(room, pid))
    if isinstance(action, act.Leave):
        return replace(room, watchers=_unwatched(room, pid))
    if isinstance(action, act.Say):
        _refuse(why_watchers_quiet(room))
        return _said(room, pid, watcher.name, _chat_text(action.text), action.at, watcher=True)
    raise errors.WatcherCannotPlay()


def why_watchers_quiet(room: Room) -> Refusal | None:
    """Why the watchers may not chat now (the host turned their chat off), or ``None``."""
    return None if room.watchers_chat else errors.WatchersQuiet


def _unwatched(room: Room, pid: int) -> tuple[Watcher, ...]:
    return tuple(w for w in room.watchers if w.pid != pid)


@_handle.register
def _on_sit(action: act.Sit, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    raise errors.AlreadySeated()


@_handle.register
def _on_watchers_chat(
    action: act.WatchersChat, room: Room, seat: int, deck: Sequence[Words]
) -> Room:
    _refuse(why_not_host(room, seat))
    return replace(room, watchers_chat=action.on)


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_plain_text(text: str) -> bool:
    """No control characters and no bidi overrides, which could disguise a message.

    Other invisible format characters stay allowed: emoji sequences need them.
    """
    return not any(unicodedata.category(ch) in ("Cc", "Cs") or ch in BIDI_CONTROLS for ch in text)


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


@_handle.register
def _on_leave(action: act.Leave, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_leave(room, seat))
    if room.phase == "lobby":
        return _without(room, seat)
    return _out(room, seat)


def why_not_leave(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not leave now, or ``None``: anyone may leave the lobby; out of a
    game, see ``_why_not_out``."""
    if room.phase == "lobby":
        return None
    return _why_not_out(room, seat)


@_handle.register
def _on_kick(action: act.Kick, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_kick(room, seat, action.seat))
    return _without(room, action.seat)


def why_not_kick(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not remove ``target`` from the lobby, or ``None``: the host may
    remove a bot, or a player who is away."""
    refusal = _why_not_host_in(room, seat, "lobby")
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


@_handle.register
def _on_add_bot(action: act.AddBot, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_add_bot(room, seat))
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
    refusal = _why_not_host_in(room, seat, "lobby")
    if refusal is None and len(room.players) >= MAX_PLAYERS:
        return errors.RoomFull
    return refusal


@_handle.register
def _on_stand_in(action: act.StandIn, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_stand_in(room, seat, action.seat))
    players = list(room.players)
    players[action.seat] = replace(players[action.seat], stand_in=True)
    return _check_if_agreed(replace(room, players=tuple(players)))


def why_not_stand_in(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not have a bot play ``target`` now, or ``None``: the host, during
    a game, for a player away who is still in it and has no bot standing in yet."""
    refusal = _why_not_host_in(room, seat, "clues", "resolution")
    if refusal is not None:
        return refusal
    if not 0 <= target < len(room.players):
        return errors.BadSeat
    player = room.players[target]
    if target == seat or player.present or player.bot:
        return errors.PlayerPresent(N_("A bot can stand in only for a player who is away."))
    if player.out:
        return errors.AlreadyOut
    if player.stand_in:
        return errors.BotStandsIn
    return None


@_handle.register
def _on_drop(action: act.Drop, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_drop(room, seat, action.seat))
    return _out(room, action.seat)


def why_not_drop(room: Room, seat: int, target: int) -> Refusal | None:
    """Why ``seat`` may not take ``target`` out of the game now, or ``None``: the host,
    during a game, a player who is away (see ``_why_not_out``)."""
    refusal = _why_not_host_in(room, seat, "clues", "resolution")
    if refusal is not None:
        return refusal
    if not 0 <= target < len(room.players):
        return errors.BadSeat
    if target == seat or room.players[target].present:
        return errors.PlayerPresent
    return _why_not_out(room, target)


# --- a seat taken from another device ----------------------------------------------


@_handle.register
def _on_claim(action: act.Claim, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A device without a seat asks for one. A device asking again replaces its own
    request; one address holds two of the room's six at most. A device the seat moved
    away from asks it back outside those bounds: one such request per seat."""
    if seat is not None:
        raise errors.AlreadySeated(N_("You already have a seat in this room."))
    if not 0 <= action.seat < len(room.players) or room.players[action.seat].bot:
        raise errors.BadSeat()
    if not action.id or room.claim(action.id) is not None:
        raise errors.Invalid(N_("A claim needs an id of its own."))
    pid = room.players[action.seat].pid
    claims = tuple(c for c in room.claims if c.id != action.replaces)
    if action.back:
        if action.was not in room.players[action.seat].moved_from:
            raise errors.Invalid(N_("Only a device the seat moved away from asks for it back."))
        claims = tuple(c for c in claims if not (c.back and c.pid == pid))
    else:
        _refuse(why_not_ask(claims, action.address))
    claim = Claim(
        id=action.id,
        pid=pid,
        at=action.at,
        asked=action.now,
        kind=action.kind if action.kind in DEVICE_KINDS else "",
        address=action.address,
        back=action.back,
    )
    return replace(room, claims=(*claims, claim))


def why_not_ask(claims: Sequence[Claim], address: str = "") -> Refusal | None:
    """Why a device may not ask for a seat (not asking back) beside ``claims``, from
    ``address``, or ``None``: six requests at most, two of them from one address."""
    asked = [c for c in claims if not c.back]
    if len(asked) >= MAX_CLAIMS:
        return errors.TooManyClaims
    here = [c for c in asked if c.address == address]
    if address and len(here) >= MAX_CLAIMS_PER_ADDRESS:
        return errors.TooManyClaimsHere
    return None


@_handle.register
def _on_withdraw(action: act.Withdraw, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    if room.claim(action.claim) is None:
        raise errors.ClaimGone()
    return _without_claim(room, action.claim)


@_handle.register
def _on_allow(action: act.Allow, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_allow(room, seat, action.claim, action.mine))
    answering = _answering(room, action.claim, action.mine)
    assert isinstance(answering, tuple)
    _, target = answering
    players = list(room.players)
    # The seat is played from the claiming device now; the old device's token stops working,
    # but may ask for the seat back.
    player = players[target]
    moved_from = (*player.moved_from, player.device)[-MOVES_KEPT:]
    players[target] = replace(player, device=action.claim, moved_from=moved_from)
    return _without_claim(replace(room, players=tuple(players)), action.claim)


@_handle.register
def _on_refuse(action: act.Refuse, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_refuse(room, seat, action.claim, action.mine))
    return _without_claim(room, action.claim)


@_handle.register
def _on_expire(action: act.Expire, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """Claims that ran out went in ``apply`` already: the server's sweep says no more."""
    if seat is not None:
        raise errors.NotSystem(N_("Only the server says when time is up."))
    return room


def _unexpired(room: Room, now: int) -> Room:
    """``room`` without the claims that have run out at ``now``."""
    if not any(c.expired(now) for c in room.claims):
        return room
    return replace(room, claims=tuple(c for c in room.claims if not c.expired(now)))


def _answering(room: Room, claim_id: str, mine: str) -> tuple[Claim, int] | Refusal:
    """The claim and the seat it asks for, if it may be answered from where the answer
    comes, or why not: it is gone, or the answer comes from the browser that made it
    (``mine``, its claim cookie)."""
    claim = room.claim(claim_id)
    target = None if claim is None else room.seat_of(claim.pid)
    if claim is None or target is None:
        return errors.ClaimGone
    if mine and mine == claim.id:
        return errors.OwnRequest
    return claim, target


def why_not_allow(room: Room, seat: int, claim_id: str, mine: str = "") -> Refusal | None:
    """Why ``seat`` may not allow the claim, or ``None``. A seat asked back: anyone seated
    but its holder. Else its own player may; while that player is at the table, nobody
    else; while they are away, anyone seated, or only the host if the host chose so.
    Whoever answers, the Spectator's seat stays put until their clover is checked."""
    answering = _answering(room, claim_id, mine)
    if not isinstance(answering, tuple):
        return answering
    claim, target = answering
    if claim.back:
        if seat == target:
            return errors.SeatHolder
    elif seat != target:
        if room.players[target].present:
            return errors.OwnerHere
        if room.claims_by == "host" and seat != room.acting_host():
            return errors.NotHost(N_("The host lets other devices take the seats of this room."))
    if room.seat_waits(target):
        return errors.SpectatorSeatWaits
    return None


def why_not_refuse(room: Room, seat: int, claim_id: str, mine: str = "") -> Refusal | None:
    """Why ``seat`` may not refuse the claim, or ``None``: anyone seated may turn junk
    down, but the holder of a seat asked back, who is the one it is asked from."""
    answering = _answering(room, claim_id, mine)
    if not isinstance(answering, tuple):
        return answering
    claim, target = answering
    if claim.back and seat == target:
        return errors.SeatHolder
    return None


def _without_claim(room: Room, claim_id: str) -> Room:
    return replace(room, claims=tuple(c for c in room.claims if c.id != claim_id))


@_handle.register
def _on_claims_by(action: act.ClaimsBy, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_set_up(room, seat))
    if action.who not in CLAIMS_BY:
        raise errors.BadChoice()
    return replace(room, claims_by=action.who)


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
        room = _with_clover(room, replace(room.clovers[seat], dropped=True))
        return _resolution_if_all_done(room)
    if room.phase == "resolution" and room.resolution is not None:
        res = room.resolution
        room = replace(room, resolution=replace(res, agreed=res.agreed - {seat}))
        return _check_if_agreed(room)
    return room


def _why_not_out(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not go out of the game now, or ``None``: a game goes on with two
    players at least, so nobody more may go out of it then."""
    if room.players[seat].out:
        return errors.AlreadyOut
    if room.phase != "finished" and sum(not p.out for p in room.players) <= 2:
        return errors.TooFewLeft
    return None


def _without(room: Room, seat: int) -> Room:
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


@_handle.register
def _on_language(action: act.Language, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_set_up(room, seat))
    _check_language(action.language)
    return replace(room, language=action.language)


@_handle.register
def _on_settings(action: act.Settings, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_set_up(room, seat))
    _check_decoys(action.decoys)
    return replace(room, decoys=action.decoys)


@_handle.register
def _on_timer(action: act.Timer, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_set_up(room, seat))
    if (
        action.phase not in TIMER_PHASES
        or action.mode not in TIMER_MODES
        or not MIN_TIMER_MINUTES <= action.minutes <= MAX_TIMER_MINUTES
    ):
        raise errors.BadTimer()
    timer = Timer(mode=action.mode, minutes=action.minutes)
    if action.phase == "clues":
        return replace(room, clue_timer=timer)
    return replace(room, rebuild_timer=timer)


@_handle.register
def _on_start(action: act.Start, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_start(room, seat))
    n = len(room.players)
    needed = cards_needed(n, room.decoys)
    if len(deck) < needed:
        raise errors.DeckTooSmall(
            N_("The deck has {cards} cards; this table and its decoys need {needed}."),
            cards=len(deck),
            needed=needed,
        )
    clovers, first = deal(deck, n, room.decoys, random.Random(action.seed))
    return replace(
        room,
        phase="clues",
        clovers=clovers,
        first_spectator=first,
        resolution=None,
        results=(),
    )


def why_not_start(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not start the game, or ``None``: the host, in the lobby, with
    three to six at the table. (The deck it is dealt from is the server's.)"""
    refusal = _why_not_host_in(room, seat, "lobby")
    if refusal is None and not MIN_PLAYERS <= len(room.players) <= MAX_PLAYERS:
        return errors.NotEnoughPlayers
    return refusal


@_handle.register
def _on_again(action: act.Again, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_again(room))
    # Who went out of the game gives up their seat now, as if they had left the lobby,
    # and watches on as who they are: same id, so their token opens the room still.
    # The cap holds newcomers back; nobody who was at the table is turned away.
    outs = [s for s, p in enumerate(room.players) if p.out]
    watching = tuple(
        Watcher(pid=p.pid, name=p.name, present=p.present, device=p.device)
        for p in (room.players[s] for s in outs)
    )
    for out in reversed(outs):
        room = _without(room, out)
    room = replace(room, watchers=(*room.watchers, *watching))
    players = tuple(replace(p, stand_in=False) for p in room.players)
    return replace(room, players=players, phase="lobby", clovers=(), resolution=None, results=())


# --- the clue phase ------------------------------------------------------------


@_handle.register
def _on_clues(action: act.Clues, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    """Save the clues; a draft is never refused for a clue, only for who or when."""
    _refuse(why_not_write(room, seat))
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
    return _with_clover(room, replace(clover, clues=tuple(saved), warnings=tuple(warnings)))


@_handle.register
def _on_done(action: act.Done, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_done(room, seat))
    clover = room.clovers[seat]
    return _resolution_if_all_done(_with_clover(room, replace(clover, done=True)))


def why_not_write(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not write clues now, or ``None``: while clues are written, until
    they said they were done."""
    refusal = _why_not_phase(room, "clues")
    if refusal is None and room.clovers[seat].done:
        return errors.AlreadyDone
    return refusal


def why_not_done(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not say their clues are done, or ``None``: four clues written."""
    refusal = why_not_write(room, seat)
    if refusal is None and None in room.clovers[seat].clues:
        return errors.CluesMissing
    return refusal


def _resolution_if_all_done(room: Room) -> Room:
    """On to the clovers once every clover still in the game has its clues done; with
    none left to play (the clue clock dropped them all), the game is over."""
    if all(c.done or c.dropped for c in room.clovers):
        if not room.turns():
            return replace(room, phase="finished", resolution=None)
        return replace(room, phase="resolution", resolution=Resolution(turn=0))
    return room


@_handle.register
def _on_undone(action: act.Undone, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_undone(room, seat))
    return _with_clover(room, replace(room.clovers[seat], done=False))


def why_not_undone(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not take back their "done", or ``None``: while clues are written."""
    refusal = _why_not_phase(room, "clues")
    if refusal is None and not room.clovers[seat].done:
        return errors.NotDone
    return refusal


def _with_clover(room: Room, clover: Clover) -> Room:
    clovers = list(room.clovers)
    clovers[clover.owner] = clover
    return replace(room, clovers=tuple(clovers))


# --- resolution: the board ------------------------------------------------------


@_handle.register
def _on_place(action: act.Place, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, clover = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    if action.rotation not in ROTATIONS:
        raise errors.BadRotation()
    if clover.card(action.card) is None:
        raise errors.UnknownCard()
    target = res.board[spot]
    if target is not None:
        raise errors.SpotLocked() if target.locked else errors.SpotTaken()
    board = list(res.board)
    origin = res.spot_of(action.card)
    if origin is not None:
        moved = board[origin]
        if moved is not None and moved.locked:
            raise errors.CardLocked()
        board[origin] = None
    board[spot] = Slot(card=action.card, rotation=action.rotation)
    return _with_board(room, res, board)


@_handle.register
def _on_remove(action: act.Remove, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    _movable(res.board[spot])
    board = list(res.board)
    board[spot] = None
    return _with_board(room, res, board)


@_handle.register
def _on_rotate(action: act.Rotate, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    if action.turns not in (1, -1):
        raise errors.BadTurns()
    slot = _movable(res.board[spot])
    board = list(res.board)
    board[spot] = replace(slot, rotation=turn(slot.rotation, action.turns))
    return _with_board(room, res, board)


def _movable(slot: Slot | None) -> Slot:
    if slot is None:
        raise errors.SpotEmpty()
    if slot.locked:
        raise errors.SpotLocked()
    return slot


def _with_board(room: Room, res: Resolution, board: list[Slot | None]) -> Room:
    """Any change to the board clears every Agree."""
    return replace(room, resolution=replace(res, board=tuple(board), agreed=frozenset()))


# --- resolution: agreeing and checking ------------------------------------------


@_handle.register
def _on_agree(action: act.Agree, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_agree(room, seat))
    res, _ = _need_guesser_move(room, seat)
    room = replace(room, resolution=replace(res, agreed=res.agreed | {seat}))
    return _check_if_agreed(room)


@_handle.register
def _on_unagree(action: act.Unagree, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    return replace(room, resolution=replace(res, agreed=res.agreed - {seat}))


@_handle.register
def _on_lock(action: act.Lock, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_lock(room, seat))
    return _check(room)


def why_not_agree(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not agree to the board, or ``None``: a guesser, the board full."""
    refusal = why_not_move(room, seat)
    if refusal is None and not _board_full(room):
        return errors.BoardNotFull
    return refusal


def why_not_lock(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not lock the clover in, or ``None``: the lock holder, the board full."""
    refusal = why_not_move(room, seat)
    if refusal is not None:
        return refusal
    if seat != room.lock_holder():
        return errors.NotLockHolder
    if not _board_full(room):
        return errors.BoardNotFull
    return None


def _board_full(room: Room) -> bool:
    return room.resolution is not None and room.resolution.is_full()


def _check_if_agreed(room: Room) -> Room:
    """Check the clover once every present guesser has agreed (and someone has)."""
    res = room.resolution
    if (
        res is not None
        and not res.checked
        and res.agreed
        and res.is_full()
        and room.present_guessers() <= res.agreed
    ):
        return _check(room)
    return room


def _check(room: Room) -> Room:
    assert room.resolution is not None
    spectator = room.spectator()
    assert spectator is not None
    res, result = check(room.clovers[spectator], room.resolution, spectator)
    results = room.results if result is None else (*room.results, result)
    return replace(room, resolution=res, results=results)


@_handle.register
def _on_next(action: act.Next, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_next(room))
    res = room.resolution
    assert res is not None
    if res.turn + 1 < len(room.turns()):
        return replace(room, resolution=Resolution(turn=res.turn + 1))
    return replace(room, phase="finished", resolution=None)


def why_not_next(room: Room) -> Refusal | None:
    """Why nobody may go on to the next clover, or ``None``: once this one is checked."""
    refusal = _why_not_phase(room, "resolution")
    if refusal is None and room.resolution is not None and not room.resolution.checked:
        return errors.NotChecked
    return refusal


# --- the clock ----------------------------------------------------------------------


@_handle.register
def _on_pause(action: act.Pause, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_pause(room, seat))
    return timers.paused(room, action.now)


@_handle.register
def _on_resume(action: act.Resume, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    _refuse(why_not_resume(room, seat))
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
    refusal = _why_not_host_in(room, seat, "clues", "resolution")
    if refusal is None and not room.timed():
        return errors.NoClock
    return refusal


@_handle.register
def _on_timeout(action: act.Timeout, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
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
        return _check(room)
    late = False
    for clover in room.clovers:
        if clover.done or clover.dropped:
            continue
        if None not in clover.clues:
            room = _with_clover(room, replace(clover, done=True))
        elif clock.kind == "grace":
            room = _with_clover(room, replace(clover, dropped=True))
        else:
            late = True
    if late:
        return replace(room, countdown=timers.grace(room, action.now))
    return _resolution_if_all_done(room)


# --- any time ---------------------------------------------------------------------


@_handle.register
def _on_say(action: act.Say, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    text = _chat_text(action.text)
    _refuse(why_not_say(room, seat))
    author = room.players[seat]
    return _said(room, author.pid, author.name, text, action.at)


def why_not_say(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not chat now, or ``None``: the Spectator keeps silent until their
    clover is checked."""
    res = room.resolution
    if res is not None and seat == room.spectator() and not res.checked:
        return errors.SpectatorSilent
    return None


def _chat_text(text: str) -> str:
    """``text`` as a chat line shows it (trimmed), if it may be one."""
    text = text.strip()
    if not text or len(text) > MAX_CHAT_LENGTH or not is_plain_text(text):
        raise errors.BadText()
    return text


def _said(room: Room, pid: int, name: str, text: str, at: str, *, watcher: bool = False) -> Room:
    """The room with one more chat line, ``text`` (already checked by ``_chat_text``)."""
    line = ChatLine(
        id=room.last_chat_id() + 1, pid=pid, text=text, at=at, name=name, watcher=watcher
    )
    return replace(room, chat=(*room.chat, line)[-CHAT_KEPT:])


@_handle.register
def _on_presence(action: act.Presence, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
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
    return _check_if_agreed(replace(room, players=players, watchers=watchers))


# --- shared checks --------------------------------------------------------------------


def _refuse(refusal: Refusal | None) -> None:
    """Raise ``refusal``, if there is one: the checks below say why not, the handlers
    raise it, and ``allowed`` asks the same checks whether there is none."""
    if refusal is not None:
        raise refusal


def _why_not_phase(room: Room, *phases: str) -> Refusal | None:
    return None if room.phase in phases else errors.WrongPhase


def why_not_host(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not use the host's controls now, or ``None``."""
    return None if seat == room.acting_host() else errors.NotHost


def _why_not_host_in(room: Room, seat: int, *phases: str) -> Refusal | None:
    """Why ``seat`` may not use the host's controls in one of ``phases`` now, or ``None``."""
    return _why_not_phase(room, *phases) or why_not_host(room, seat)


def why_not_set_up(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not change how the table plays (decoys, language, clock, who
    answers seat requests), or ``None``: the host, in the lobby."""
    return _why_not_host_in(room, seat, "lobby")


def why_not_again(room: Room) -> Refusal | None:
    """Why nobody may ask for another game, or ``None``: once this one is finished."""
    return _why_not_phase(room, "finished")


def why_not_move(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not move the cards of the clover being rebuilt, or ``None``: a
    guesser, until the clover is checked."""
    refusal = _why_not_phase(room, "resolution")
    if refusal is not None:
        return refusal
    if seat == room.spectator():
        return errors.SpectatorCannotMove
    if room.resolution is not None and room.resolution.checked:
        return errors.AlreadyChecked
    return None


def _need_guesser_move(room: Room, seat: int) -> tuple[Resolution, Clover]:
    """The resolution and clover a guesser may act on now, or the reason they may not."""
    _refuse(why_not_move(room, seat))
    res = room.resolution
    clover = room.current_clover()
    assert res is not None and clover is not None
    return res, clover


def _check_spot(spot: int) -> int:
    if spot not in SPOTS:
        raise errors.BadSpot()
    return spot


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise errors.BadLanguage()


def _check_decoys(decoys: int) -> None:
    if not MIN_DECOYS <= decoys <= MAX_DECOYS:
        raise errors.BadDecoys()
