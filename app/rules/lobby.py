"""The lobby: the room opened, how the table plays (decoys, language, clocks), the
game dealt, and another game asked for once one is finished.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse, why_not_host, why_not_host_in, why_not_phase
from app.rules.dealing import deal
from app.rules.deck import cards_needed
from app.rules.errors import Refusal
from app.rules.geometry import Words
from app.rules.practice import deal_practice
from app.rules.seating import join, on_add_bot, without
from app.rules.state import (
    LANGUAGES,
    MAX_DECOYS,
    MAX_PLAYERS,
    MAX_TIMER_MINUTES,
    MIN_DECOYS,
    MIN_PLAYERS,
    MIN_TIMER_MINUTES,
    TIMER_MODES,
    TIMER_PHASES,
    Room,
    Timer,
    Watcher,
)
from app.rules.text import N_


def on_create(action: act.Create, room: Room, seat: int | None, deck: Sequence[Words]) -> Room:
    _check_decoys(action.decoys)
    _check_language(action.language)
    room = join(replace(room, decoys=action.decoys, language=action.language), action.name)
    if not action.practice:
        return room
    # A practice table: its creator and two bots, for the practice deal's one decoy.
    room = replace(room, decoys=MIN_DECOYS, practice=True)
    for _ in range(2):
        room = on_add_bot(act.AddBot(), room, 0, deck)
    return room


def on_language(action: act.Language, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_set_up(room, seat))
    _check_language(action.language)
    return replace(room, language=action.language)


def on_settings(action: act.Settings, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_set_up(room, seat))
    _check_decoys(action.decoys)
    return replace(room, decoys=action.decoys)


def on_timer(action: act.Timer, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_set_up(room, seat))
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


def why_not_set_up(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not change how the table plays (decoys, language, clock, who
    answers seat requests), or ``None``: the host, in the lobby."""
    return why_not_host_in(room, seat, "lobby")


def on_start(action: act.Start, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_start(room, seat))
    if room.practice:
        # The same game every time, so the lesson meets the same clovers (practice.py).
        clovers, first = deal_practice(room.language, random.Random(action.seed))
        return replace(room, phase="clues", clovers=clovers, first_spectator=first)
    n = len(room.players)
    needed = cards_needed(n, room.decoys)
    if len(deck) < needed:
        raise errors.DeckTooSmall(
            N_("The deck has {cards} cards; this table and its decoys need {needed}."),
            cards=len(deck),
            needed=needed,
        )
    clovers, first = deal(deck, n, room.decoys, random.Random(action.seed))
    # Each clover is its seat's device's to read: a device the seat moves to later does
    # not read it before the table has rebuilt it (``Room.hides_own_clover``).
    clovers = tuple(replace(c, device=p.device) for c, p in zip(clovers, room.players, strict=True))
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
    refusal = why_not_host_in(room, seat, "lobby")
    if refusal is None and not MIN_PLAYERS <= len(room.players) <= MAX_PLAYERS:
        return errors.NotEnoughPlayers
    return refusal


def on_again(action: act.Again, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_again(room))
    # Who went out of the game gives up their seat now, as if they had left the lobby,
    # and watches on as who they are: same id, so their token opens the room still.
    # The cap holds newcomers back; nobody who was at the table is turned away.
    outs = [s for s, p in enumerate(room.players) if p.out]
    watching = tuple(
        Watcher(pid=p.pid, name=p.name, present=p.present, device=p.device)
        for p in (room.players[s] for s in outs)
    )
    for out in reversed(outs):
        room = without(room, out)
    room = replace(room, watchers=(*room.watchers, *watching))
    players = tuple(replace(p, stand_in=False) for p in room.players)
    return replace(room, players=players, phase="lobby", clovers=(), resolution=None, results=())


def why_not_again(room: Room) -> Refusal | None:
    """Why nobody may ask for another game, or ``None``: once this one is finished, but
    for a practice game, played once (``Invite`` opens the table to friends instead)."""
    if room.practice and room.phase == "finished":
        return errors.PracticeOver
    return why_not_phase(room, "finished")


def on_invite(action: act.Invite, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_invite(room, seat))
    # The practice bots go (bots are the host's to seat, where they speak the language),
    # the game with them: back in the lobby, whose code now lets friends in. What was
    # said at the table was said with nobody there: the friends do not find it.
    for bot in reversed([s for s, p in enumerate(room.players) if p.bot]):
        room = without(room, bot)
    players = tuple(replace(p, out=False, stand_in=False) for p in room.players)
    return replace(
        room,
        players=players,
        practice=False,
        phase="lobby",
        clovers=(),
        resolution=None,
        results=(),
        chat=(),
        held_chat=(),
        countdown=None,
        paused=False,
    )


def why_not_invite(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not open this table to friends, or ``None``: the host of a
    practice table, in any phase (a lesson may be left half way)."""
    if not room.practice:
        return errors.NotPractice
    return why_not_host(room, seat)


def _check_language(language: str) -> None:
    if language not in LANGUAGES:
        raise errors.BadLanguage()


def _check_decoys(decoys: int) -> None:
    if not MIN_DECOYS <= decoys <= MAX_DECOYS:
        raise errors.BadDecoys()
