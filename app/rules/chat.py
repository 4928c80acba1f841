"""The chat: who may say something now, what a chat line may hold, and whether the
watchers may chat (the host's choice).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from operator import attrgetter

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse, why_not_host
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.state import CHAT_KEPT, MAX_CHAT_LENGTH, WATCHERS_CHAT_KEPT, ChatLine, Room


def on_say(action: act.Say, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    text = chat_text(action.text)
    refuse(why_not_say(room, seat))
    author = room.players[seat]
    return said(room, author.pid, author.name, text, action.at, ms=action.now)


def why_not_say(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not chat now, or ``None``: the Spectator keeps silent until their
    clover is checked."""
    res = room.resolution
    if res is not None and seat == room.spectator() and not res.checked:
        return errors.SpectatorSilent
    return None


def chat_text(text: str) -> str:
    """``text`` as a chat line shows it (trimmed), if it may be one."""
    text = text.strip()
    if not text or len(text) > MAX_CHAT_LENGTH or not is_plain_text(text):
        raise errors.BadText()
    return text


def said(
    room: Room,
    pid: int,
    name: str,
    text: str,
    at: str,
    *,
    watcher: bool = False,
    held: bool = False,
    ms: int = 0,
) -> Room:
    """The room with one more chat line, ``text`` (already checked by ``chat_text``)."""
    line = ChatLine(
        id=room.last_chat_id() + 1,
        pid=pid,
        text=text,
        at=at,
        name=name,
        watcher=watcher,
        held=held,
        ms=ms,
    )
    return replace(room, chat=kept((*room.chat, line)))


def kept(chat: tuple[ChatLine, ...]) -> tuple[ChatLine, ...]:
    """The lines a room keeps, ``chat`` being what it kept and one line more: the
    players' last ``CHAT_KEPT`` and the watchers' last ``WATCHERS_CHAT_KEPT``, each kind
    apart, in the order they were said. However much the watchers say, no line of a
    player's leaves the history for it.

    One line came, so at most the oldest line of its kind goes: counted at C speed,
    as this runs at every line said."""
    if len(chat) <= WATCHERS_CHAT_KEPT:
        return chat
    watcher = chat[-1].watcher
    watchers = sum(map(_IS_WATCHER, chat))
    over = watchers > WATCHERS_CHAT_KEPT if watcher else len(chat) - watchers > CHAT_KEPT
    if not over:
        return chat
    oldest = next(i for i, line in enumerate(chat) if line.watcher == watcher)
    return chat[:oldest] + chat[oldest + 1 :]


_IS_WATCHER = attrgetter("watcher")


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_plain_text(text: str) -> bool:
    """No control characters and no bidi overrides, which could disguise a message.

    Other invisible format characters stay allowed: emoji sequences need them.
    """
    return not any(unicodedata.category(ch) in ("Cc", "Cs") or ch in BIDI_CONTROLS for ch in text)


def on_watchers_chat(
    action: act.WatchersChat, room: Room, seat: int, deck: Sequence[Words]
) -> Room:
    refuse(why_not_host(room, seat))
    return replace(room, watchers_chat=action.on)


def why_watchers_quiet(room: Room) -> Refusal | None:
    """Why the watchers may not chat now (the host turned their chat off), or ``None``."""
    return None if room.watchers_chat else errors.WatchersQuiet
