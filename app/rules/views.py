"""``view``: what one seat may see of a room. The only road out of the engine.

Everything a client receives (JSON, HTML, live events) is built from the
dictionary ``view`` returns, or for the game's history from the one
``history_view`` returns, so hidden information is cut away here and nowhere
else:

- in the clue phase a player sees their own clover and nobody else's;
- in resolution the guessers see the Spectator's clues, the pool (in its
  shuffled order, by random ids) and the board, but neither the solution nor
  which cards are decoys until the clover is checked; the Spectator sees both;
- once a clover is checked its solution and decoys are public to the room;
- a seat's own clover (its cards while writing, its truth as the Spectator) is shown
  only to the device it was dealt to: a device the seat moved to since reads it as a
  guesser does until it is checked (``Room.hides_own_clover``);
- the history of the game holds the checked clovers only, with their tries:
  of the clover being rebuilt it holds nothing, not even for its Spectator.

``seat=None`` is an onlooker with no seat: they see what a guesser sees. So does
a watcher (``seat=WATCHER``), whose view is one and the same for every watcher:
nothing in it names which watcher reads it, so a change is rendered once for all.
Beyond that, a view is two parts (``own`` and ``common``): seats that know the same
share the common one (``audience``), so it is built once for a room's guessers.
The result is plain JSON-ready data in the shape of the API's room state (docs/api.md),
declared in ``view_types`` (the API's document is derived from those declarations).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final, Literal, cast

from app.rules.allowed import allowed
from app.rules.claims import still_to_allow
from app.rules.geometry import LEAVES, SPOTS, pair
from app.rules.languages import warning_text
from app.rules.scoring import PERFECT_SCORE, is_right, max_score
from app.rules.state import (
    CLAIM_MS,
    LANGUAGES,
    MAX_DECOYS,
    MAX_PLAYERS,
    MAX_TIMER_MINUTES,
    MIN_DECOYS,
    MIN_PLAYERS,
    MIN_TIMER_MINUTES,
    STANDARD_DECOYS,
    TIMER_PHASES,
    ChatLine,
    Clover,
    Resolution,
    Room,
)
from app.rules.view_types import (
    ClaimShown,
    Clock,
    ClueWarning,
    Common,
    HistoryClover,
    HistoryOut,
    Limits,
    Own,
    OwnClover,
    ResolutionOut,
    SeatedYou,
    SolutionSpot,
    Timers,
    View,
    WatcherYou,
)

if TYPE_CHECKING:  # the views read records; they need not load the engine that makes them
    from app.rules.history import CloverRecord, GameRecord


def limits(languages: Sequence[str] = LANGUAGES, bot_languages: Collection[str] = ()) -> Limits:
    """The bounds the rules hold a table to, for pages and clients to offer (never restate),
    and the languages this table has a deck in and its bots speak (the service's to say)."""
    return {
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "decoys": {"min": MIN_DECOYS, "max": MAX_DECOYS, "standard": STANDARD_DECOYS},
        "timer_minutes": {"min": MIN_TIMER_MINUTES, "max": MAX_TIMER_MINUTES},
        "languages": list(languages),
        "bot_languages": sorted(bot_languages),
    }


WATCHER: Final = "watcher"
"""Who a view is for when it is for a watcher, in place of a seat."""
Viewer = int | Literal["watcher"] | None
"""Whom a view is for: a seat, any watcher, or someone with neither."""


def viewer_of(room: Room, pid: int | None) -> Viewer:
    """Whom a view is for when the player or watcher ``pid`` asks (``None``: neither)."""
    seat = None if pid is None else room.seat_of(pid)
    if seat is not None:
        return seat
    return WATCHER if pid is not None and room.watcher(pid) is not None else None


SEATED: Final = "seated"
"""The audience of a view every seated player shares: the guessers' (or everyone's,
when nobody knows more than the table)."""
Audience = int | Literal["seated"] | None
"""Who shares a view's common part: one seat that knows what no other does (its own
clover, the Spectator's truth), every other seat together (``SEATED``), or everyone
without a seat, watchers included (``None``)."""


def view(
    room: Room,
    viewer: Viewer,
    *,
    chat_after: int | None = None,
    bot_languages: Collection[str] = (),
    languages: Sequence[str] = LANGUAGES,
) -> View:
    """The room as ``viewer`` may see it: a seat, ``WATCHER``, or ``None`` for someone
    with neither. A watcher sees what someone without a seat sees, and what they may do
    (``bot_languages``: the room languages the server's bots play in, see ``own``).

    With ``chat_after`` (a chat line id), ``chat`` holds only the lines after
    it: an answer or event following one change carries what that change
    added to the chat, not the whole chat again (200 long lines would make
    every move weigh hundreds of KB). ``chat_after`` is in the view too, so a
    client knows whether to replace its chat (``null``) or append to it.

    It is two parts: ``own`` (who reads it, what they may do) and ``common``, the
    same for every viewer of one ``audience``, so a change can be told to the four
    guessers of a room at the cost of one.
    """
    common_part = common(
        room,
        audience(room, viewer),
        chat_after=chat_after,
        languages=languages,
        bot_languages=bot_languages,
    )
    return {**own(room, viewer, bot_languages), **common_part}


def audience(room: Room, viewer: Viewer) -> Audience:
    """Whose ``common`` part ``viewer`` reads: its own seat's while that seat knows
    what the others do not, else the one every seat reads, or every onlooker's."""
    seat = _seat(room, viewer)
    if seat is None:
        return None
    if _own_clover(room, seat) is not None:
        return seat
    res = room.resolution
    if (
        res is not None
        and not res.checked
        and seat == room.spectator()
        and not room.hides_own_clover(seat)
    ):
        return seat
    return SEATED


def own(room: Room, viewer: Viewer, bot_languages: Collection[str] = ()) -> Own:
    """What is ``viewer``'s own in a view: who reads it and what they may do, bots
    offered only in a room of one of ``bot_languages`` (the service's to say: the
    rules know no bots' brain; ``allowed.why_no_bots``)."""
    watching = viewer == WATCHER
    seat = _seat(room, viewer)
    can = allowed(room, seat, watching=watching, bot_languages=bot_languages)
    return {"you": _you(room, seat, watching), "can": can}


def common(
    room: Room,
    audience: Audience,
    *,
    chat_after: int | None = None,
    languages: Sequence[str] = LANGUAGES,
    bot_languages: Collection[str] = (),
) -> Common:
    """All of a view but ``own``: the same for every viewer of ``audience``. What one
    seat may know and others not is cut here, by the audience (see ``audience``).
    ``languages`` and ``bot_languages`` go to its ``limits``: the service says which."""
    seat = audience if isinstance(audience, int) else None
    seated = audience is not None
    chat = room.chat if chat_after is None else _lines_after(room.chat, chat_after)
    clover = None if seat is None else _own_clover(room, seat)
    host = room.acting_host()
    return {
        "code": room.code,
        "phase": room.phase,
        "seq": room.seq,
        "decoys": room.decoys,
        "limits": limits(languages, bot_languages),
        "players": [
            {
                "seat": s,
                "id": p.pid,
                "name": p.name,
                "host": s == host,
                "present": p.present,
                "out": p.out,
                "bot": p.bot,
                "stand_in": p.stand_in,
                "done": room.phase == "clues" and room.clovers[s].done,
                "not_played": s < len(room.clovers) and room.clovers[s].dropped,
            }
            for s, p in enumerate(room.players)
        ],
        # Watchers who came while the clover is rebuilt are named at its check, to all:
        # their names could carry a hint from the Spectator (``watchers.py``).
        "watchers": [
            {"id": w.pid, "name": w.name, "present": w.present} for w in room.watchers if not w.held
        ],
        "watchers_chat": room.watchers_chat,
        "watchers_held": room.holds_watchers(),
        # What waits is read by nobody; how much, by the watchers, whose lines they are.
        # Not the players: the count itself could be a sign from the Spectator.
        "held_lines": None if seated else len(room.held_chat),
        "claims": _claims(room) if seated else [],
        "claims_by": room.claims_by,
        "language": room.language,
        "clover": None if clover is None else _clover_view(clover),
        "warnings": [] if clover is None else _warnings(clover, room.language),
        "resolution": _resolution(room, seat),
        "results": [
            {"spectator": r.spectator, "attempts": r.attempts, "score": r.score}
            for r in room.results
        ],
        "total": room.total(),
        "max": max_score(room.clovers_played()),
        "chat": [
            {
                "id": c.id,
                "player": c.pid,
                "seat": room.seat_of(c.pid),
                "name": c.name,
                "text": c.text,
                "at": c.at,
                "watcher": c.watcher,
                "held": c.held,
            }
            for c in chat
        ],
        "chat_after": chat_after,
        "timers": cast(
            Timers,
            {
                phase: {"mode": room.timer(phase).mode, "minutes": room.timer(phase).minutes}
                for phase in TIMER_PHASES
            },
        ),
        "paused": room.paused,
        "clock": _clock(room),
        "practice": room.practice,
    }


def _lines_after(chat: Sequence[ChatLine], after: int) -> Sequence[ChatLine]:
    """The lines of ``chat`` after the line ``after``: ids grow line by line, so they are
    read from the end, where a change adds its few (a room keeps up to 200)."""
    start = len(chat)
    while start and chat[start - 1].id > after:
        start -= 1
    return chat[start:]


def _seat(room: Room, viewer: Viewer) -> int | None:
    return viewer if isinstance(viewer, int) and 0 <= viewer < len(room.players) else None


def _own_clover(room: Room, seat: int) -> Clover | None:
    """The clover ``seat`` is writing clues for, which only that seat sees, and only from
    the device it was dealt to (``Room.hides_own_clover``)."""
    clover = room.clovers[seat] if room.phase == "clues" else None
    if clover is None or clover.dropped or room.hides_own_clover(seat):
        return None
    return clover


def _clock(room: Room) -> Clock | None:
    """The table's countdown: the same absolute deadline on every screen, and the seats
    still writing during the last grace (a clover's being done is public already)."""
    clock = room.countdown
    if clock is None:
        return None
    late = (
        [s for s, c in enumerate(room.clovers) if not (c.done or c.dropped)]
        if clock.kind == "grace"
        else []
    )
    return {
        "kind": clock.kind,
        "mode": clock.mode,
        "length_ms": clock.length,
        "ends_ms": clock.ends,
        "deadline": None if clock.ends is None else _iso(clock.ends),
        "left_ms": clock.left,
        "late": late,
    }


def _iso(epoch_ms: int) -> str:
    """``2026-12-01T09:30:00.250Z``: a deadline as the API writes times, to the ms."""
    moment = datetime.fromtimestamp(epoch_ms / 1000, UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _you(room: Room, seat: int | None, watching: bool) -> SeatedYou | WatcherYou | None:
    """Who reads the view: a seat, or a watcher (which one is not said: see ``WATCHER``)."""
    if watching:
        return {"seat": None, "host": False, "watcher": True}
    if seat is None:
        return None
    you: SeatedYou = {"seat": seat, "host": seat == room.acting_host()}
    if room.hides_own_clover(seat):
        you["clover_hidden"] = True
    return you


def _claims(room: Room) -> list[ClaimShown]:
    """The seat requests waiting, for the seated players to answer: which seat, its role
    at the table, the kind of device asking, whether it asks a seat back and whether it
    must wait for the Spectator's check. Never who asks, their token or their address:
    a device without a seat has no name."""
    shown: list[ClaimShown] = []
    for claim in room.claims:
        seat = room.seat_of(claim.pid)
        if seat is not None:
            shown.append(
                {
                    "id": claim.id,
                    "seat": seat,
                    "name": room.players[seat].name,
                    "at": claim.at,
                    "expires": _iso(claim.asked + CLAIM_MS) if claim.asked else None,
                    "device": claim.kind or None,
                    "host": seat == room.host,
                    "spectator": seat == room.spectator(),
                    "back": claim.back,
                    "waits": room.seat_waits(seat),
                    "allowed_by": sorted(
                        s for s, p in enumerate(room.players) if p.pid in claim.allowed_by
                    ),
                    "waiting_for": still_to_allow(room, claim),
                }
            )
    return shown


def _clover_view(clover: Clover) -> OwnClover:
    laid = clover.laid()
    return {
        "cards": [
            {"spot": s, "rotation": clover.rotations[s], "words": list(clover.cards[s].words)}
            for s in SPOTS
        ],
        "leaves": [
            {"leaf": leaf, "pair": list(pair(laid, leaf)), "clue": clover.clues[leaf]}
            for leaf in LEAVES
        ],
        "done": clover.done,
    }


def _warnings(clover: Clover, language: str) -> list[ClueWarning]:
    return [
        {"leaf": leaf, "keyword": keyword, "message": str(warning_text(language, keyword))}
        for leaf, keyword in enumerate(clover.warnings)
        if keyword is not None
    ]


def _resolution(room: Room, seat: int | None) -> ResolutionOut | None:
    res = room.resolution
    clover = room.current_clover()
    spectator = room.spectator()
    if res is None or clover is None or spectator is None:
        return None
    on_board = res.on_board()
    # The Spectator knows their clover's truth, unless their seat moved to a device it
    # was not dealt to: that device learns it with the table, at the check.
    may_know = res.checked or (seat == spectator and not room.hides_own_clover(seat))
    return {
        "spectator": spectator,
        "lock_holder": room.lock_holder(),
        "attempt": res.attempt,
        "checked": res.checked,
        "clues": _clues(clover),
        "pool": [
            {"card": card_id, "words": clover.words_of(card_id)}
            for card_id in clover.pool_order
            if card_id not in on_board
        ],
        "board": [
            {
                "spot": s,
                "card": None if slot is None else slot.card,
                "words": None if slot is None else clover.words_of(slot.card),
                "rotation": 0 if slot is None else slot.rotation,
                "locked": slot is not None and slot.locked,
            }
            for s, slot in enumerate(res.board)
        ],
        "agreed": sorted(res.agreed),
        "rejected": [
            {"spot": r.spot, "card": r.card, "rotation": r.rotation} for r in res.rejected
        ],
        "full": res.is_full(),
        "last": res.turn + 1 == len(room.turns()),
        "solution": _solution(clover, res) if may_know else None,
        "decoys": [card.id for card in clover.decoys] if may_know else None,
        "score": _score(room, res),
        "perfect": _score(room, res) == PERFECT_SCORE,
    }


def _clues(clover: Clover) -> list[str]:
    """The clues of a clover played: all four written (a clover with a leaf left empty
    when its clock ran out is not played)."""
    return cast(list[str], list(clover.clues))


def _solution(clover: Clover, res: Resolution) -> list[SolutionSpot]:
    """Where each true card lies; ``found``: whether the board holds it there, rightly turned."""
    return [
        {
            "spot": s,
            "card": clover.cards[s].id,
            "rotation": clover.rotations[s],
            "found": is_right(clover, s, res.board[s]),
        }
        for s in SPOTS
    ]


def _score(room: Room, res: Resolution) -> int | None:
    """The checked clover's score, for the reveal."""
    return room.results[-1].score if res.checked and room.results else None


def history_view(record: GameRecord) -> HistoryOut:
    """The game's history as anyone may see it: every checked clover, with its tries.

    A clover enters the history at its check, when its solution becomes public
    to the room, and not before: until then the record's tries at it would tell
    which cards a check kept and which it sent back. So the history is the same
    for every seat, onlookers included (they see a checked clover's reveal too),
    and the Spectator, who knows their own clover's truth in ``view``, finds
    nothing of it here before the check either: the history tells what the table
    found out, never what one seat knows. Having nothing of one seat's to cut, it
    is built for no seat in particular; what one seat alone may see is ``view``'s.
    """
    return {
        "code": record.code,
        "seq": record.seq,
        "clovers": [_checked_clover(c) for c in record.clovers if c.checked],
    }


def _checked_clover(played: CloverRecord) -> HistoryClover:
    clover = played.clover
    return {
        "turn": played.turn,
        "spectator": played.spectator,
        "player": played.player,
        "name": played.name,
        "clues": _clues(clover),
        "tries": [
            {
                "attempt": t.attempt,
                "placements": [
                    {
                        "card": p.card,
                        "words": clover.words_of(p.card),
                        "spot": p.spot,
                        "rotation": p.rotation,
                        "right": p.right,
                    }
                    for p in t.placements
                ],
            }
            for t in played.tries
        ],
        "score": cast(int, played.score),  # a checked clover has its score
        "solution": [
            {
                "card": clover.cards[s].id,
                "words": list(clover.cards[s].words),
                "spot": s,
                "rotation": clover.rotations[s],
            }
            for s in SPOTS
        ],
        "decoys": [{"card": card.id, "words": list(card.words)} for card in clover.decoys],
    }
