"""The shape of what one seat may see of a room, declared once: the views are typed with
it (``views.py``, ``allowed.py``) and the API's document is derived from it
(``app/web/state_schema.py``), so a field added here is described in ``/openapi.json``
with no second edit.

Each field is ``Annotated[type, "what it means"]``: the string is its description in
the document. A string field whose values are one of the rules' closed sets says which
with ``OneOf``; a key that is there only at times is ``NotRequired``. The names are the
document's: what leaves the rules is a room's state (``RoomState`` adds to the view
what the service knows: ``app.service.rooms``), its history (``HistoryOut``) and, in a
stream, who did what (``app.service.hub.EventAction``).

No ``from __future__ import annotations`` here: Python 3.11's ``TypedDict`` reads
``NotRequired`` only from annotations that are not strings.
"""

from dataclasses import dataclass
from typing import Annotated, Final, Literal, NotRequired, TypedDict

from app.rules.state import CLAIMS_BY, DEVICE_KINDS, LANGUAGES, TIMER_MODES, Phase


@dataclass(frozen=True)
class OneOf:
    """A field's values: one of ``values``, a closed set of the rules."""

    values: tuple[str | int, ...]


ISO_TIME: Final = "an ISO 8601 time, UTC, to the millisecond (`2026-12-02T09:30:00.000Z`)"
WORDS: Final = "Its four keywords clockwise from its top edge at rotation 0"

CLOCK_KINDS: Final = ("clues", "grace", "rebuild")
"""What a countdown times: writing clues, the last grace for empty leaves, a try."""
CLOCK_MODES: Final = TIMER_MODES[1:]
"""A running countdown's modes: every one but off."""

Language = Annotated[str, OneOf(LANGUAGES)]
Device = Annotated[str, OneOf(DEVICE_KINDS)]
Words = list[str]


# --- who reads the view, and what they may do -------------------------------------------


class SeatedYou(TypedDict):
    seat: Annotated[int, "The caller's seat"]
    host: Annotated[bool, "Whether the caller holds the host's controls now"]
    clover_hidden: NotRequired[
        Annotated[
            Literal[True],
            "There only while the caller's own clover is kept from this device: the seat "
            "moved here after the clover was dealt, and the table has not rebuilt it yet",
        ]
    ]


class WatcherYou(TypedDict):
    seat: Annotated[None, "A watcher has no seat"]
    host: Annotated[Literal[False], "A watcher is never the host"]
    watcher: Annotated[
        Literal[True],
        "The caller watches; which watcher is not said (every watcher reads the same state)",
    ]


class Can(TypedDict):
    """What the caller may do now: the actions the server would accept from them."""

    join: Annotated[bool, "No seat: whether a seat is free to `join`"]
    watch: Annotated[bool, "No seat: whether the room takes one more watcher"]
    sit: Annotated[bool, "A watcher: whether a seat is free to `sit` in"]
    watchers_chat: Annotated[bool, "`watchers_chat`: let the watchers chat or not"]
    send_away: Annotated[list[int], "The watchers (ids) this caller may `send_away`"]
    settings: Annotated[bool, "`settings`: the decoys"]
    start: Annotated[bool, "`start` the game"]
    leave: Annotated[bool, "`leave` the table (or the game)"]
    drop: Annotated[list[int], "The seats this caller may `drop` from the game"]
    kick: Annotated[list[int], "The seats this caller may `kick` from the lobby"]
    add_bot: Annotated[bool, "`add_bot`"]
    stand_in: Annotated[list[int], "The seats a bot may `stand_in` for"]
    allow: Annotated[list[str], "The seat requests (claim ids) this caller may `allow`"]
    refuse: Annotated[list[str], "The seat requests this caller may `refuse`"]
    claim: Annotated[bool, "No seat: whether a seat may be asked for (`claims`)"]
    claims_by: Annotated[bool, "`claims_by`"]
    language: Annotated[bool, "`language`"]
    timer: Annotated[bool, "`timer`"]
    pause: Annotated[bool, "`pause` the clock"]
    resume: Annotated[bool, "`resume` the clock"]
    write: Annotated[bool, "Write clues (`clues`): the caller's clover is not done"]
    done: Annotated[bool, "`done`: four clues are saved"]
    undone: Annotated[bool, "`undone`"]
    move: Annotated[bool, "Move cards on the board (`place`, `remove`, `rotate`)"]
    agree: Annotated[bool, "`agree` with the full board"]
    unagree: Annotated[bool, "`unagree`"]
    lock: Annotated[bool, "`lock` the board in: the lock holder, board full"]
    next: Annotated[bool, "`next`: the clover is checked"]
    say: Annotated[bool, "`say`: chat"]
    again: Annotated[bool, "`again`: the game is over"]
    invite: Annotated[bool, "`invite`: the host of a practice table may open it to friends"]


class Own(TypedDict):
    """What is the reader's own in a view (``views.own``)."""

    you: Annotated[
        SeatedYou | WatcherYou | None, "Who reads it: a seat, a watcher, or null without either"
    ]
    can: Annotated[Can, "What the caller may do now"]


# --- the table ----------------------------------------------------------------------------


class MinMax(TypedDict):
    min: Annotated[int, "The least"]
    max: Annotated[int, "The most"]


class DecoyLimits(MinMax):
    standard: Annotated[int, "The rules' own game"]


class Limits(TypedDict):
    """The bounds the rules keep a table to, for a client to offer (never restate)."""

    players: Annotated[MinMax, "Players at a table"]
    decoys: Annotated[DecoyLimits, "Decoys per clover"]
    timer_minutes: Annotated[MinMax, "A clock's length, in minutes"]
    languages: Annotated[list[Language], "The languages this table has a deck in"]
    bot_languages: Annotated[
        list[Language], "The room languages the bots speak; empty where there are no bots"
    ]


class PlayerOut(TypedDict):
    seat: Annotated[int, "The player's place at the table now"]
    id: Annotated[int, "The player's id, which never changes"]
    name: Annotated[str, "The player's name"]
    host: Annotated[bool, "Holds the host's controls now"]
    present: Annotated[bool, "At the table now (an open stream, a recent request)"]
    out: Annotated[bool, "Out of the game: left it or dropped, keeps the seat"]
    bot: Annotated[bool, "A player the server plays"]
    stand_in: Annotated[bool, "Away, and a bot plays the seat until they are back"]
    done: Annotated[bool, "Clue phase: their clues are done"]
    not_played: Annotated[bool, "Their clover is not played (dropped, or timed out)"]


class WatcherOut(TypedDict):
    id: Annotated[int, "The watcher's id"]
    name: Annotated[str, "The watcher's name"]
    present: Annotated[bool, "Watching now"]


class ClaimShown(TypedDict):
    """A seat request waiting, as the seated players see it (never who asks)."""

    id: Annotated[str, "The request's id, for `allow` and `refuse`"]
    seat: Annotated[int, "The seat asked for"]
    name: Annotated[str, "That seat's player"]
    at: Annotated[str, f"When it was asked: {ISO_TIME}"]
    expires: Annotated[
        str | None, f"When it runs out: {ISO_TIME}; null when its asking time is unknown"
    ]
    device: Annotated[Device | None, "The kind of device asking, if its browser says"]
    host: Annotated[bool, "The seat is the host's"]
    spectator: Annotated[bool, "The seat is the Spectator's"]
    back: Annotated[bool, "The seat's own token asks it back, from a device it left"]
    waits: Annotated[bool, "The Spectator's seat before their check: it waits"]
    allowed_by: Annotated[list[int], "The seats that allowed it so far"]
    waiting_for: Annotated[
        list[int],
        "The seats whose allow it still needs before the seat moves: its player's while "
        "they are at the table, else every other player's at the table (and the host's, "
        "if the host chose so); empty for a seat asked back, which any one seated player "
        "but its holder lets back",
    ]


# --- the clue phase -----------------------------------------------------------------------


class CloverCard(TypedDict):
    spot: Annotated[int, "0..3: top-left, top-right, bottom-right, bottom-left"]
    rotation: Annotated[int, "Quarter turns clockwise, 0..3"]
    words: Annotated[Words, WORDS]


class Leaf(TypedDict):
    leaf: Annotated[int, "0..3: top, right, bottom, left"]
    pair: Annotated[list[str], "The two keywords the leaf's clue links"]
    clue: Annotated[str | None, "The clue saved for it; null while not written"]


class OwnClover(TypedDict):
    """The caller's own clover, in the clue phase."""

    cards: Annotated[list[CloverCard], "Its four cards, spot by spot"]
    leaves: Annotated[list[Leaf], "Its four leaves, in leaf order"]
    done: Annotated[bool, "Its clues are done"]


class ClueWarning(TypedDict):
    leaf: Annotated[int, "The leaf whose clue looks like a keyword's relative"]
    keyword: Annotated[str, "The keyword it resembles"]
    message: Annotated[str, "What to tell the player (in English)"]


# --- the resolution -----------------------------------------------------------------------


class PoolCard(TypedDict):
    card: Annotated[str, "An opaque id, drawn at random per clover"]
    words: Annotated[Words, WORDS]


class BoardSpot(TypedDict):
    spot: Annotated[int, "0..3"]
    card: Annotated[str | None, "The card on it; null when empty"]
    words: Annotated[Words | None, "The card's keywords; null when empty"]
    rotation: Annotated[int, "Quarter turns clockwise, 0..3 (0 when empty)"]
    locked: Annotated[bool, "Kept right by the first try: it stays"]


class Rejected(TypedDict):
    spot: Annotated[int, "Where a card was tried"]
    card: Annotated[str, "The card tried"]
    rotation: Annotated[int, "At this rotation, wrongly"]


class SolutionSpot(TypedDict):
    spot: Annotated[int, "0..3"]
    card: Annotated[str, "The true card of this spot"]
    rotation: Annotated[int, "Its true rotation"]
    found: Annotated[bool, "The board holds it here, rightly turned"]


class ResolutionOut(TypedDict):
    """The clover being rebuilt: the Spectator's clues, the pool and the board."""

    spectator: Annotated[int, "The Spectator's seat"]
    lock_holder: Annotated[int | None, "The seat that may `lock` the board in"]
    attempt: Annotated[int, OneOf((1, 2)), "The try: 1, or 2 for the last"]
    checked: Annotated[bool, "The clover is checked: its reveal"]
    clues: Annotated[list[str], "The Spectator's four clues, in leaf order"]
    pool: Annotated[list[PoolCard], "The cards not on the board, in a shuffled order"]
    board: Annotated[list[BoardSpot], "The four spots"]
    agreed: Annotated[list[int], "The seats that agree with the board"]
    rejected: Annotated[list[Rejected], "Placements a check found wrong"]
    full: Annotated[bool, "Every spot holds a card"]
    last: Annotated[bool, "The game's last clover"]
    solution: Annotated[
        list[SolutionSpot] | None,
        "The truth: the Spectator's, and everyone's once checked; else null",
    ]
    decoys: Annotated[
        list[str] | None, "The decoys' card ids: the Spectator's, and everyone's once checked"
    ]
    score: Annotated[int | None, "The checked clover's score; null before"]
    perfect: Annotated[bool, "The checked clover's score is a perfect one"]


class ResultOut(TypedDict):
    spectator: Annotated[int, "The clover's Spectator, by seat"]
    attempts: Annotated[int, "Tries it took: 1 or 2"]
    score: Annotated[int, "Its score"]


# --- chat and clock -----------------------------------------------------------------------


class ChatLine(TypedDict):
    id: Annotated[int, "The line's id, rising"]
    player: Annotated[int, "Its author's player (or watcher) id"]
    seat: Annotated[int | None, "Its author's seat now; null without one"]
    name: Annotated[str, "Its author's name, kept after they leave"]
    text: Annotated[str, "Plain text"]
    at: Annotated[str, f"When it was said: {ISO_TIME}"]
    watcher: Annotated[bool, "Said by a watcher"]
    held: Annotated[
        bool, "Said by a watcher while a clover was rebuilt, and shown only after its check"
    ]


class TimerOut(TypedDict):
    mode: Annotated[str, OneOf(TIMER_MODES), "Off, a clock everyone sees, or one that acts at zero"]
    minutes: Annotated[int, "The clock's length"]


class Timers(TypedDict):  # one per phase a table can time (state.TIMER_PHASES)
    clues: Annotated[TimerOut, "Writing the clues"]
    rebuild: Annotated[TimerOut, "Each try at a clover"]


class Clock(TypedDict):
    """The table's countdown: the same absolute deadline on every screen."""

    kind: Annotated[
        str,
        OneOf(CLOCK_KINDS),
        "Writing clues, the last grace for empty leaves, or a try at a clover",
    ]
    mode: Annotated[str, OneOf(CLOCK_MODES), "Whether zero acts"]
    length_ms: Annotated[int, "The countdown's length"]
    ends_ms: Annotated[int | None, "When it ends, in ms since 1970 UTC; null if paused"]
    deadline: Annotated[str | None, f"The same, as {ISO_TIME}; null if paused"]
    left_ms: Annotated[int | None, "What was left when paused; else null"]
    late: Annotated[list[int], "During the grace: the seats still writing; else empty"]


# --- the view -----------------------------------------------------------------------------


class Common(TypedDict):
    """All of a view but ``Own``: the same for every reader of one audience
    (``views.common``)."""

    code: Annotated[str, "The room's code"]
    phase: Annotated[Phase, "The room's phase"]
    seq: Annotated[int, "The number of the room's last change"]
    decoys: Annotated[int, "Decoys per clover, 1..4"]
    limits: Annotated[Limits, "The bounds the rules keep a table to"]
    players: Annotated[list[PlayerOut], "The players, in seat order"]
    watchers: Annotated[list[WatcherOut], "Who watches the room without a seat"]
    watchers_chat: Annotated[bool, "The watchers may chat"]
    watchers_held: Annotated[
        bool,
        "A clover is being rebuilt: what the watchers say, and who comes to watch, "
        "reach the table after its check",
    ]
    held_lines: Annotated[
        int | None,
        "How many watchers' lines wait for the check; told to watchers and onlookers, "
        "null for the players",
    ]
    claims: Annotated[list[ClaimShown], "Seat requests waiting: for seated players only"]
    claims_by: Annotated[
        str, OneOf(CLAIMS_BY), "Who may allow a request for an absent player's seat"
    ]
    language: Annotated[Language, "The room's deck and clue rules"]
    clover: Annotated[OwnClover | None, "Clue phase: the caller's own clover only"]
    warnings: Annotated[
        list[ClueWarning], "Clue phase: the caller's clues that look like a keyword's relative"
    ]
    resolution: Annotated[ResolutionOut | None, "Resolution: the clover being rebuilt"]
    results: Annotated[list[ResultOut], "The checked clovers' scores, in order"]
    total: Annotated[int, "The game's score so far"]
    max: Annotated[int, "The best score the clovers played could make"]
    chat: Annotated[
        list[ChatLine],
        "The whole recent chat when `chat_after` is null, else the lines after it",
    ]
    chat_after: Annotated[
        int | None,
        "Null: `chat` is the whole recent chat (replace); a line id: `chat` holds the "
        "lines after it, the ones a change added (append)",
    ]
    timers: Annotated[Timers, "The clock's settings"]
    paused: Annotated[bool, "The clock is paused"]
    clock: Annotated[Clock | None, "The running countdown; null without one"]
    practice: Annotated[
        bool,
        "A practice table: one person, two bots, the practice deal and its lesson; never "
        "in the Record of Legends, and its code opens it to nobody else",
    ]


class View(Own, Common):
    """The room as one reader may see it (``views.view``)."""


# --- the history --------------------------------------------------------------------------


class HistoryCard(TypedDict):
    card: Annotated[str, "The card's id in its clover, as its pool gave it"]
    words: Annotated[Words, WORDS]


class HistoryPlacement(HistoryCard):
    spot: Annotated[int, "0..3: top-left, top-right, bottom-right, bottom-left"]
    rotation: Annotated[int, "Quarter turns clockwise, 0..3"]
    right: Annotated[bool, "On its own spot at its own rotation"]


class HistoryTry(TypedDict):
    attempt: Annotated[int, OneOf((1, 2)), "1, or 2 for the last try"]
    placements: Annotated[list[HistoryPlacement], "The board as it was checked"]


class HistorySpot(HistoryCard):
    spot: Annotated[int, "0..3"]
    rotation: Annotated[int, "Quarter turns clockwise, 0..3"]


class HistoryClover(TypedDict):
    turn: Annotated[int, "0 for the game's first clover, then 1, 2, ..."]
    spectator: Annotated[int, "The Spectator's seat"]
    player: Annotated[int, "The Spectator's player id"]
    name: Annotated[str, "The Spectator's name"]
    clues: Annotated[list[str], "The four clues in leaf order"]
    tries: Annotated[list[HistoryTry], "One or two boards, as they were checked"]
    score: Annotated[int, "The clover's score"]
    solution: Annotated[list[HistorySpot], "Where each true card lay, spot by spot"]
    decoys: Annotated[list[HistoryCard], "The cards that were not the clover's"]


class HistoryOut(TypedDict):
    code: Annotated[str, "The room's code"]
    seq: Annotated[int, "The room's seq this history is as of"]
    clovers: Annotated[
        list[HistoryClover], "Every checked clover of the current game, in the order played"
    ]
