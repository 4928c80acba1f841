"""The watchers: a newcomer watching, in any phase, and what a watcher may do:
sit down in the lobby, stop watching, or chat if the host lets them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.chat import chat_text, said, why_watchers_quiet
from app.rules.checks import refuse
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.seating import new_name, why_not_sit
from app.rules.state import MAX_WATCHERS, Player, Room, Watcher
from app.rules.text import N_


def on_watch(action: act.Watch, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A newcomer watches, in any phase. At the cap, the first come of the watchers who
    are away makes room; with every watcher here, none may come.

    A newcomer is here: their request is their first sign of life. Counted away until
    the next presence report, fifty arriving at once would each make room for the
    next, and a watcher would lose their place the moment they were given it."""
    if seat is not None:
        raise errors.AlreadySeated()
    name = new_name(room, action.name)
    refuse(why_not_watch(room))
    watchers = room.watchers
    if len(watchers) >= MAX_WATCHERS:
        away = next(w for w in watchers if not w.present)
        watchers = tuple(w for w in watchers if w is not away)
    watcher = Watcher(pid=room.next_pid, name=name, present=True)
    return replace(room, watchers=(*watchers, watcher), next_pid=room.next_pid + 1)


def why_not_watch(room: Room) -> Refusal | None:
    """Why nobody more may watch, or ``None``: under the cap, or with a watcher away to
    make room. Nobody watches a practice table (``errors.PrivateTable``)."""
    if room.practice:
        return errors.PrivateTable
    if len(room.watchers) >= MAX_WATCHERS and all(w.present for w in room.watchers):
        return errors.WatchersFull
    return None


def as_watcher(room: Room, pid: int, action: act.Action) -> Room:
    """A watcher's action: sit down in the lobby, stop watching, or chat if allowed."""
    watcher = room.watcher(pid)
    if watcher is None:
        raise errors.NotAPlayer(N_("You are not watching this room."))
    if isinstance(action, act.Sit):
        refuse(why_not_sit(room))
        player = Player(pid=pid, name=watcher.name, present=watcher.present, device=watcher.device)
        return replace(room, players=(*room.players, player), watchers=_unwatched(room, pid))
    if isinstance(action, act.Leave):
        return replace(room, watchers=_unwatched(room, pid))
    if isinstance(action, act.Say):
        refuse(why_watchers_quiet(room))
        return said(room, pid, watcher.name, chat_text(action.text), action.at, watcher=True)
    raise errors.WatcherCannotPlay()


def _unwatched(room: Room, pid: int) -> tuple[Watcher, ...]:
    return tuple(w for w in room.watchers if w.pid != pid)


def on_sit(action: act.Sit, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    raise errors.AlreadySeated()
