"""The watchers: a newcomer watching, in any phase, and what a watcher may do:
sit down in the lobby, stop watching, or chat if the host lets them. The host may
send one away.

While a clover is being rebuilt (``Room.holds_watchers``) its Spectator must keep
silent, and a watcher may be the Spectator in a second browser: a stranger to the
table, like any watcher. So what the watchers say then, and the names of those who
come, are held back and reach the table at the check (``released``), marked as
said during the clover. Nobody reads a held line before that, watchers included: a
guesser watching from a second browser would read it too.

The watchers share one budget for the whole room (``WATCHERS_CHAT_BURST`` lines in
``WATCHERS_CHAT_WINDOW_MS``), and the chat keeps their lines apart from the players'
(``chat.said``): a crowd can neither flood the table nor push its lines out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.chat import chat_text, said, why_watchers_quiet
from app.rules.checks import refuse, why_not_host
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.seating import new_name, why_not_sit
from app.rules.state import (
    MAX_WATCHERS,
    SENT_AWAY_KEPT,
    SENT_AWAY_MS,
    WATCHERS_CHAT_BURST,
    WATCHERS_CHAT_KEPT,
    WATCHERS_CHAT_WINDOW_MS,
    ChatLine,
    Player,
    Room,
    SentAway,
    Watcher,
)
from app.rules.text import N_


def on_watch(action: act.Watch, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    """A newcomer watches, in any phase. At the cap, the first come of the watchers who
    are away makes room; with every watcher here, none may come. While a clover is being
    rebuilt their name waits for its check (see the module).

    A newcomer is here: their request is their first sign of life. Counted away until
    the next presence report, fifty arriving at once would each make room for the
    next, and a watcher would lose their place the moment they were given it."""
    if seat is not None:
        raise errors.AlreadySeated()
    refuse(why_not_come_back(room, action.former, action.now))
    name = new_name(room, action.name)
    refuse(why_not_watch(room))
    watchers = room.watchers
    if len(watchers) >= MAX_WATCHERS:
        away = next(w for w in watchers if not w.present)
        watchers = tuple(w for w in watchers if w is not away)
    watcher = Watcher(pid=room.next_pid, name=name, present=True, held=room.holds_watchers())
    return replace(room, watchers=(*watchers, watcher), next_pid=room.next_pid + 1)


def why_not_watch(room: Room) -> Refusal | None:
    """Why nobody more may watch, or ``None``: under the cap, or with a watcher away to
    make room. Nobody watches a practice table (``errors.PrivateTable``)."""
    if room.practice:
        return errors.PrivateTable
    if len(room.watchers) >= MAX_WATCHERS and all(w.present for w in room.watchers):
        return errors.WatchersFull
    return None


def why_not_come_back(room: Room, former: int, now: int) -> Refusal | None:
    """Why the device whose token stood for ``former`` may not watch again yet, or
    ``None``: the host sent that watcher away less than ``SENT_AWAY_MS`` ago."""
    if any(s.pid == former and now < s.until for s in room.sent_away):
        return errors.WatcherSentAway
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
        text = chat_text(action.text)
        refuse(why_watchers_busy(room, action.now))
        if room.holds_watchers():
            line = ChatLine(0, pid, text, action.at, watcher.name, True, True, action.now)
            return replace(room, held_chat=(*room.held_chat, line)[-WATCHERS_CHAT_KEPT:])
        return said(room, pid, watcher.name, text, action.at, watcher=True, ms=action.now)
    raise errors.WatcherCannotPlay()


def why_watchers_busy(room: Room, now: int) -> Refusal | None:
    """Why no watcher may say more now, or ``None``: the watchers together have said
    ``WATCHERS_CHAT_BURST`` lines in the last ``WATCHERS_CHAT_WINDOW_MS``, held ones
    included. One budget for the room, not one for each: fifty watchers get no more
    than one."""
    since = now - WATCHERS_CHAT_WINDOW_MS
    recent = sum(1 for line in room.held_chat if line.ms > since)
    # From the newest line back, to the first too old. Lines said in the open come in
    # the order of their times; lines held for a check come after lines said before it
    # was made, but were said before them all, so each is counted on its own.
    for line in reversed(room.chat):
        if line.ms <= since and not line.held:
            break
        recent += line.watcher and line.ms > since
    return errors.WatchersChatBusy if recent >= WATCHERS_CHAT_BURST else None


def released(before: Room, room: Room) -> Room:
    """``room``, which an action made of ``before``, with what its watchers said or who
    came while a clover was being rebuilt handed to the table, if that action checked
    the clover (or ended the game): the lines join the chat in the order they were
    said, with ids after every line before, so a client that holds the chat so far is
    sent them as new; the newcomers are named. Asked at every action, so it answers
    at once when no hold ends."""
    if not before.holds_watchers() or room.holds_watchers():
        return room
    for line in room.held_chat:
        room = said(
            room, line.pid, line.name, line.text, line.at, watcher=True, held=True, ms=line.ms
        )
    watchers = tuple(replace(w, held=False) if w.held else w for w in room.watchers)
    return replace(room, held_chat=(), watchers=watchers)


def kept_back(action: act.Action, before: Room, after: Room, pid: int) -> bool:
    """Whether the table may not yet be told who the watcher ``pid`` is, who did
    ``action`` from ``before`` to ``after``: a watcher who came while the clover is
    rebuilt (their name waits for its check), or a line said then (who said it, and
    when, would be a sign as good as its words)."""
    watcher = before.watcher(pid) or after.watcher(pid)
    return (watcher is not None and watcher.held) or (
        isinstance(action, act.Say) and before.holds_watchers()
    )


def on_send_away(action: act.SendAway, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    """The host sends a watcher away, with whatever they said that waits for a check."""
    refuse(why_not_send_away(room, seat, action.watcher))
    gone = SentAway(pid=action.watcher, until=action.now + SENT_AWAY_MS)
    remembered = tuple(s for s in room.sent_away if s.until > action.now)
    return replace(
        room,
        watchers=_unwatched(room, action.watcher),
        held_chat=tuple(line for line in room.held_chat if line.pid != action.watcher),
        sent_away=(*remembered, gone)[-SENT_AWAY_KEPT:],
    )


def why_not_send_away(room: Room, seat: int, watcher: int) -> Refusal | None:
    """Why ``seat`` may not send the watcher ``watcher`` away, or ``None``: the host (or
    their stand-in) may, in any phase, a watcher the table sees. One who came while the
    clover is rebuilt is nobody to the table until its check, when they may be."""
    refusal = why_not_host(room, seat)
    found = room.watcher(watcher)
    if refusal is None and (found is None or found.held):
        return errors.NoSuchWatcher
    return refusal


def _unwatched(room: Room, pid: int) -> tuple[Watcher, ...]:
    return tuple(w for w in room.watchers if w.pid != pid)


def on_sit(action: act.Sit, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    raise errors.AlreadySeated()
