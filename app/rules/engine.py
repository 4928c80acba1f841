"""``apply``: one action on one room gives the next room, or a named refusal.

The engine is pure: no I/O, no clock, no global randomness. The seed of a deal
and the time of a chat line arrive inside the action, the deck as an argument.
A refusal raises a ``RuleError`` and leaves the room as it was (states are
immutable, so there is nothing to roll back). Every accepted action returns a
room whose ``seq`` is one more.

Each action has one handler, found by its type in ``HANDLERS``, in the module of
its phase: ``seating`` (joining, leaving, bots, who is here), ``lobby`` (opening,
the table's settings, the start, another game), ``claims`` (a seat asked for
from another device), ``writing`` (the clues), ``resolution`` (each clover
rebuilt and checked), ``clock`` (pausing, the server's timeout), ``watchers``
and ``chat``.

Who may take an action, and when, is checked by a ``why_not_*`` function beside
its handler that returns the refusal rather than raising it: the handler raises
what it returns, and ``allowed`` asks the same function whether there is none,
to tell a seat what it may do now. The checks every phase asks are in ``checks``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.rules import actions as act
from app.rules import (
    chat,
    claims,
    clock,
    errors,
    lobby,
    resolution,
    seating,
    timers,
    watchers,
    writing,
)
from app.rules.geometry import Words
from app.rules.state import MIN_DECOYS, UNOPENED, Room
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
    room = claims.unexpired(room, action.now)
    if not isinstance(action, act.Timeout) and timers.has_run_out(room, action.now):
        # Once an enforced clock has run out, only the server's timeout is taken: what
        # comes after the deadline is judged on the room the timeout makes.
        raise errors.TimeUp()
    if isinstance(action, act.Watch) and (seat is not None or watcher is not None):
        # One person, one place at the table: a player watching under another name
        # would speak while they must keep silent (the Spectator), or vote twice.
        raise errors.AlreadySeated() if watcher is None else errors.AlreadyWatching()
    if watcher is not None:
        new = timers.follow(room, watchers.as_watcher(room, watcher, action), action.now)
        return replace(watchers.released(room, new), seq=room.seq + 1)
    if seat is None and action.sent_by == "player":
        raise errors.NotAPlayer()
    if seat is not None and not 0 <= seat < len(room.players):
        raise errors.NotAPlayer()
    if seat is not None and room.players[seat].out and not isinstance(action, act.Say):
        # Out of the game, a player watches it and may chat: nothing else until the next.
        raise errors.AlreadyOut() if isinstance(action, act.Leave) else errors.OutOfGame()
    new = _handle(action, room, seat, deck)
    if isinstance(action, SETTLING):
        new = claims.settle(new)
    new = timers.follow(room, new, action.now)
    # Whatever checked a clover (a lock, the last Agree, the clock), what the watchers
    # said meanwhile reaches the table with it.
    return replace(watchers.released(room, new), seq=room.seq + 1)


SETTLING = (act.Presence, act.Leave, act.Drop, act.Kick)
"""Actions that may leave a seat request with nobody's allow still needed (the last
player it waited for went away, left or was taken out): it is granted then."""


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


Handler = Callable[[Any, Room, Any, Sequence[Words]], Room]
"""An action's handler: ``(action, room, seat, deck)`` to the next room, or a refusal
raised. ``seat`` is ``None`` for the server's own actions and a newcomer's."""

HANDLERS: dict[type[act.Action], Handler] = {
    # the lobby
    act.Create: lobby.on_create,
    act.Language: lobby.on_language,
    act.Settings: lobby.on_settings,
    act.Timer: lobby.on_timer,
    act.Start: lobby.on_start,
    act.Again: lobby.on_again,
    act.Invite: lobby.on_invite,
    # the seats
    act.Join: seating.on_join,
    act.Leave: seating.on_leave,
    act.Kick: seating.on_kick,
    act.AddBot: seating.on_add_bot,
    act.StandIn: seating.on_stand_in,
    act.Drop: seating.on_drop,
    act.Presence: seating.on_presence,
    # a seat taken from another device
    act.Claim: claims.on_claim,
    act.Withdraw: claims.on_withdraw,
    act.Allow: claims.on_allow,
    act.Refuse: claims.on_refuse,
    act.Expire: claims.on_expire,
    act.ClaimsBy: claims.on_claims_by,
    # the clues
    act.Clues: writing.on_clues,
    act.Done: writing.on_done,
    act.Undone: writing.on_undone,
    # the clovers rebuilt
    act.Place: resolution.on_place,
    act.Remove: resolution.on_remove,
    act.Rotate: resolution.on_rotate,
    act.Agree: resolution.on_agree,
    act.Unagree: resolution.on_unagree,
    act.Lock: resolution.on_lock,
    act.Next: resolution.on_next,
    # the clock
    act.Pause: clock.on_pause,
    act.Resume: clock.on_resume,
    act.Timeout: clock.on_timeout,
    # watchers and the chat
    act.Watch: watchers.on_watch,
    act.Sit: watchers.on_sit,
    act.Say: chat.on_say,
    act.WatchersChat: chat.on_watchers_chat,
    act.SendAway: watchers.on_send_away,
}
"""Every action's handler, by the action's type."""


def _handle(action: act.Action, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    handler = HANDLERS.get(type(action))
    if handler is None:
        raise errors.Invalid(N_("Unknown action {name}."), name=type(action).__name__)
    return handler(action, room, seat, deck)
