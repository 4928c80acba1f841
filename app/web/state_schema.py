"""What the API tells of a room, as typed models: the state, the history, the legends,
an action's answer and the live stream's events (docs/api.md).

The state is built by ``app.rules.views`` (and ``RoomService.common_view``) as plain
JSON data and served as it is: these models describe it for ``/openapi.json`` and the
tests, which read every state of whole games through them; the room state is never
validated while serving. The history and the legends are served through their models
(their key order is the models'). Every model forbids keys it does not know, so a
field added to a view without its description here fails the tests.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic.json_schema import SkipJsonSchema

# The closed sets, each the rules' own (tests/web/test_state_schema.py holds them to it).
Language = Literal["en", "fr", "zh"]
"""A room's language: its deck and its clue rules (``app.rules.state.LANGUAGES``)."""
Phase = Literal["lobby", "clues", "resolution", "finished"]
TimerMode = Literal["off", "advisory", "enforced"]
Device = Literal["phone", "tablet", "computer"]
ActionType = Literal[
    "add_bot",
    "again",
    "agree",
    "allow",
    "claim",
    "claims_by",
    "clues",
    "done",
    "drop",
    "expire",
    "join",
    "kick",
    "language",
    "leave",
    "lock",
    "next",
    "pause",
    "place",
    "presence",
    "refuse",
    "remove",
    "resume",
    "rotate",
    "say",
    "settings",
    "sit",
    "stand_in",
    "start",
    "timeout",
    "timer",
    "unagree",
    "undone",
    "watch",
    "watchers_chat",
    "withdraw",
]
"""Every action the log holds: the players' and the server's own (``app.rules.actions``)."""

ISO_TIME = "an ISO 8601 time, UTC, to the millisecond (`2026-12-02T09:30:00.000Z`)"


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def sometimes(description: str) -> Any:
    """A key that is there only at times, and never null when it is (declare it
    ``X | SkipJsonSchema[None]``: the schema says ``X``, not required)."""
    return Field(default=None, description=description, json_schema_extra=_no_default)


class Closed(BaseModel):
    """A part of an answer: every key it may hold is declared, and no other is read."""

    model_config = ConfigDict(extra="forbid")


Words = list[str]
WORDS = "Its four keywords clockwise from its top edge at rotation 0"


# --- the Record of Legends -------------------------------------------------------------


class Legend(Closed):
    id: int = Field(description="The legend's id")
    room: str | SkipJsonSchema[None] = sometimes(
        "The room's code: only in a room's own legends (and its `best`), asked for by one "
        "of its players; public legends carry no code"
    )
    finished_at: str = Field(description=f"When the game finished: {ISO_TIME}")
    players: list[str] = Field(description="The names of the players who finished the game")
    player_count: int = Field(description="How many finished it")
    decoys: int = Field(description="Decoys per clover, 1..4")
    score: int = Field(description="The game's score")
    max: int = Field(description="The best score its clovers could make")
    language: Language = Field(default="en", description="The room's language")


class LegendsOut(Closed):
    legends: list[Legend] = Field(
        description="Finished games, best score first, the earliest first among equals"
    )


# --- the game's history (checked clovers) ----------------------------------------------


# The history is served through these models: their fields' order is the answer's (a
# placement's card and words come first), kept as it was when they were first served.


class HistoryCard(Closed):
    card: str = Field(description="The card's id in its clover, as its pool gave it")
    words: Words = Field(description=WORDS)


class HistoryPlacement(HistoryCard):
    spot: int = Field(description="0..3: top-left, top-right, bottom-right, bottom-left")
    rotation: int = Field(description="Quarter turns clockwise, 0..3")
    right: bool = Field(description="On its own spot at its own rotation")


class HistoryTry(Closed):
    attempt: Literal[1, 2] = Field(description="1, or 2 for the last try")
    placements: list[HistoryPlacement] = Field(description="The board as it was checked")


class HistorySpot(HistoryCard):
    spot: int = Field(description="0..3")
    rotation: int = Field(description="Quarter turns clockwise, 0..3")


class HistoryClover(Closed):
    turn: int = Field(description="0 for the game's first clover, then 1, 2, ...")
    spectator: int = Field(description="The Spectator's seat")
    player: int = Field(description="The Spectator's player id")
    name: str = Field(description="The Spectator's name")
    clues: list[str] = Field(description="The four clues in leaf order")
    tries: list[HistoryTry] = Field(description="One or two boards, as they were checked")
    score: int = Field(description="The clover's score")
    solution: list[HistorySpot] = Field(description="Where each true card lay, spot by spot")
    decoys: list[HistoryCard] = Field(description="The cards that were not the clover's")


class HistoryOut(Closed):
    code: str = Field(description="The room's code")
    seq: int = Field(description="The room's seq this history is as of")
    clovers: list[HistoryClover] = Field(
        description="Every checked clover of the current game, in the order played"
    )


# --- the room state --------------------------------------------------------------------


class SeatedYou(Closed):
    seat: int = Field(description="The caller's seat")
    host: bool = Field(description="Whether the caller holds the host's controls now")


class WatcherYou(Closed):
    seat: None = Field(description="A watcher has no seat")
    host: Literal[False] = Field(description="A watcher is never the host")
    watcher: Literal[True] = Field(
        description="The caller watches; which watcher is not said (every watcher reads "
        "the same state)"
    )


class Can(Closed):
    """What the caller may do now: the actions the server would accept from them."""

    join: bool = Field(description="No seat: whether a seat is free to `join`")
    watch: bool = Field(description="No seat: whether the room takes one more watcher")
    sit: bool = Field(description="A watcher: whether a seat is free to `sit` in")
    watchers_chat: bool = Field(description="`watchers_chat`: let the watchers chat or not")
    settings: bool = Field(description="`settings`: the decoys")
    start: bool = Field(description="`start` the game")
    leave: bool = Field(description="`leave` the table (or the game)")
    drop: list[int] = Field(description="The seats this caller may `drop` from the game")
    kick: list[int] = Field(description="The seats this caller may `kick` from the lobby")
    add_bot: bool = Field(description="`add_bot`")
    stand_in: list[int] = Field(description="The seats a bot may `stand_in` for")
    allow: list[str] = Field(description="The seat requests (claim ids) this caller may `allow`")
    refuse: list[str] = Field(description="The seat requests this caller may `refuse`")
    claim: bool = Field(description="No seat: whether a seat may be asked for (`claims`)")
    claims_by: bool = Field(description="`claims_by`")
    language: bool = Field(description="`language`")
    timer: bool = Field(description="`timer`")
    pause: bool = Field(description="`pause` the clock")
    resume: bool = Field(description="`resume` the clock")
    write: bool = Field(description="Write clues (`clues`): the caller's clover is not done")
    done: bool = Field(description="`done`: four clues are saved")
    undone: bool = Field(description="`undone`")
    move: bool = Field(description="Move cards on the board (`place`, `remove`, `rotate`)")
    agree: bool = Field(description="`agree` with the full board")
    unagree: bool = Field(description="`unagree`")
    lock: bool = Field(description="`lock` the board in: the lock holder, board full")
    next: bool = Field(description="`next`: the clover is checked")
    say: bool = Field(description="`say`: chat")
    again: bool = Field(description="`again`: the game is over")


class MinMax(Closed):
    min: int = Field(description="The least")
    max: int = Field(description="The most")


class DecoyLimits(MinMax):
    standard: int = Field(description="The rules' own game")


class Limits(Closed):
    """The bounds the rules keep a table to, for a client to offer (never restate)."""

    players: MinMax = Field(description="Players at a table")
    decoys: DecoyLimits = Field(description="Decoys per clover")
    timer_minutes: MinMax = Field(description="A clock's length, in minutes")
    languages: list[Language] = Field(description="The languages this table has a deck in")
    bot_languages: list[Language] = Field(
        description="The room languages the bots speak; empty where there are no bots"
    )


class PlayerOut(Closed):
    seat: int = Field(description="The player's place at the table now")
    id: int = Field(description="The player's id, which never changes")
    name: str = Field(description="The player's name")
    host: bool = Field(description="Holds the host's controls now")
    present: bool = Field(description="At the table now (an open stream, a recent request)")
    out: bool = Field(description="Out of the game: left it or dropped, keeps the seat")
    bot: bool = Field(description="A player the server plays")
    stand_in: bool = Field(description="Away, and a bot plays the seat until they are back")
    done: bool = Field(description="Clue phase: their clues are done")
    not_played: bool = Field(description="Their clover is not played (dropped, or timed out)")


class WatcherOut(Closed):
    id: int = Field(description="The watcher's id")
    name: str = Field(description="The watcher's name")
    present: bool = Field(description="Watching now")


class ClaimShown(Closed):
    """A seat request waiting, as the seated players see it (never who asks)."""

    id: str = Field(description="The request's id, for `allow` and `refuse`")
    seat: int = Field(description="The seat asked for")
    name: str = Field(description="That seat's player")
    at: str = Field(description=f"When it was asked: {ISO_TIME}")
    expires: str | None = Field(
        description=f"When it runs out: {ISO_TIME}; null when its asking time is unknown"
    )
    device: Device | None = Field(description="The kind of device asking, if its browser says")
    host: bool = Field(description="The seat is the host's")
    spectator: bool = Field(description="The seat is the Spectator's")
    back: bool = Field(description="The seat's own token asks it back, from a device it left")
    waits: bool = Field(description="The Spectator's seat before their check: it waits")


class CloverCard(Closed):
    spot: int = Field(description="0..3: top-left, top-right, bottom-right, bottom-left")
    rotation: int = Field(description="Quarter turns clockwise, 0..3")
    words: Words = Field(description=WORDS)


class Leaf(Closed):
    leaf: int = Field(description="0..3: top, right, bottom, left")
    pair: list[str] = Field(description="The two keywords the leaf's clue links")
    clue: str | None = Field(description="The clue saved for it; null while not written")


class OwnClover(Closed):
    """The caller's own clover, in the clue phase."""

    cards: list[CloverCard] = Field(description="Its four cards, spot by spot")
    leaves: list[Leaf] = Field(description="Its four leaves, in leaf order")
    done: bool = Field(description="Its clues are done")


class ClueWarning(Closed):
    leaf: int = Field(description="The leaf whose clue looks like a keyword's relative")
    keyword: str = Field(description="The keyword it resembles")
    message: str = Field(description="What to tell the player (in English)")


class PoolCard(Closed):
    card: str = Field(description="An opaque id, drawn at random per clover")
    words: Words = Field(description=WORDS)


class BoardSpot(Closed):
    spot: int = Field(description="0..3")
    card: str | None = Field(description="The card on it; null when empty")
    words: Words | None = Field(description="The card's keywords; null when empty")
    rotation: int = Field(description="Quarter turns clockwise, 0..3 (0 when empty)")
    locked: bool = Field(description="Kept right by the first try: it stays")


class Rejected(Closed):
    spot: int = Field(description="Where a card was tried")
    card: str = Field(description="The card tried")
    rotation: int = Field(description="At this rotation, wrongly")


class SolutionSpot(Closed):
    spot: int = Field(description="0..3")
    card: str = Field(description="The true card of this spot")
    rotation: int = Field(description="Its true rotation")
    found: bool = Field(description="The board holds it here, rightly turned")


class ResolutionOut(Closed):
    """The clover being rebuilt: the Spectator's clues, the pool and the board."""

    spectator: int = Field(description="The Spectator's seat")
    lock_holder: int | None = Field(description="The seat that may `lock` the board in")
    attempt: Literal[1, 2] = Field(description="The try: 1, or 2 for the last")
    checked: bool = Field(description="The clover is checked: its reveal")
    clues: list[str] = Field(description="The Spectator's four clues, in leaf order")
    pool: list[PoolCard] = Field(description="The cards not on the board, in a shuffled order")
    board: list[BoardSpot] = Field(description="The four spots")
    agreed: list[int] = Field(description="The seats that agree with the board")
    rejected: list[Rejected] = Field(description="Placements a check found wrong")
    full: bool = Field(description="Every spot holds a card")
    last: bool = Field(description="The game's last clover")
    solution: list[SolutionSpot] | None = Field(
        description="The truth: the Spectator's, and everyone's once checked; else null"
    )
    decoys: list[str] | None = Field(
        description="The decoys' card ids: the Spectator's, and everyone's once checked"
    )
    score: int | None = Field(description="The checked clover's score; null before")
    perfect: bool = Field(description="The checked clover's score is a perfect one")


class ResultOut(Closed):
    spectator: int = Field(description="The clover's Spectator, by seat")
    attempts: int = Field(description="Tries it took: 1 or 2")
    score: int = Field(description="Its score")


class ChatLine(Closed):
    id: int = Field(description="The line's id, rising")
    player: int = Field(description="Its author's player (or watcher) id")
    seat: int | None = Field(description="Its author's seat now; null without one")
    name: str = Field(description="Its author's name, kept after they leave")
    text: str = Field(description="Plain text")
    at: str = Field(description=f"When it was said: {ISO_TIME}")
    watcher: bool = Field(description="Said by a watcher")


class TimerOut(Closed):
    mode: TimerMode = Field(description="Off, a clock everyone sees, or one that acts at zero")
    minutes: int = Field(description="The clock's length")


class Timers(Closed):
    clues: TimerOut = Field(description="Writing the clues")
    rebuild: TimerOut = Field(description="Each try at a clover")


class Clock(Closed):
    """The table's countdown: the same absolute deadline on every screen."""

    kind: Literal["clues", "grace", "rebuild"] = Field(
        description="Writing clues, the last grace for empty leaves, or a try at a clover"
    )
    mode: Literal["advisory", "enforced"] = Field(description="Whether zero acts")
    length_ms: int = Field(description="The countdown's length")
    ends_ms: int | None = Field(description="When it ends, in ms since 1970 UTC; null if paused")
    deadline: str | None = Field(description=f"The same, as {ISO_TIME}; null if paused")
    left_ms: int | None = Field(description="What was left when paused; else null")
    late: list[int] = Field(description="During the grace: the seats still writing; else empty")


class RoomState(Closed):
    """The room as the caller's seat may see it (`rules/views.py`): a seated player,
    the Spectator, a watcher, or anyone without a seat (what a guesser sees). Outside
    the phase it belongs to, a block is null."""

    you: SeatedYou | WatcherYou | None = Field(
        description="Who reads it: a seat, a watcher, or null without either"
    )
    can: Can = Field(description="What the caller may do now")
    code: str = Field(description="The room's code")
    phase: Phase = Field(description="The room's phase")
    seq: int = Field(description="The number of the room's last change")
    decoys: int = Field(description="Decoys per clover, 1..4")
    limits: Limits = Field(description="The bounds the rules keep a table to")
    players: list[PlayerOut] = Field(description="The players, in seat order")
    watchers: list[WatcherOut] = Field(description="Who watches the room without a seat")
    watchers_chat: bool = Field(description="The watchers may chat")
    claims: list[ClaimShown] = Field(description="Seat requests waiting: for seated players only")
    claims_by: Literal["anyone", "host"] = Field(
        description="Who may allow a request for an absent player's seat"
    )
    language: Language = Field(description="The room's deck and clue rules")
    clover: OwnClover | None = Field(description="Clue phase: the caller's own clover only")
    warnings: list[ClueWarning] = Field(
        description="Clue phase: the caller's clues that look like a keyword's relative"
    )
    resolution: ResolutionOut | None = Field(description="Resolution: the clover being rebuilt")
    results: list[ResultOut] = Field(description="The checked clovers' scores, in order")
    total: int = Field(description="The game's score so far")
    max: int = Field(description="The best score the clovers played could make")
    chat: list[ChatLine] = Field(
        description="The whole recent chat when `chat_after` is null, else the lines after it"
    )
    chat_after: int | None = Field(
        description="Null: `chat` is the whole recent chat (replace); a line id: `chat` holds "
        "the lines after it, the ones a change added (append)"
    )
    timers: Timers = Field(description="The clock's settings")
    paused: bool = Field(description="The clock is paused")
    clock: Clock | None = Field(description="The running countdown; null without one")
    best: Legend | None = Field(description="This room's best finished game, with its `room`")
    record: bool = Field(description="The game just finished beat every earlier one of the room")
    legends: list[Legend] | None = Field(
        description="Finished: the best public legends of tables of this size; else null"
    )
    history: list[HistoryClover] | None = Field(
        description="Finished: the game's checked clovers, as `GET .../history` gives them; "
        "else null"
    )


class ActionOut(Closed):
    seq: int = Field(description="The room's seq after the action, already on disk")
    state: RoomState = Field(
        description="The new state for the caller; its `chat` holds the lines the action added"
    )


# --- the event stream ------------------------------------------------------------------


class EventAction(Closed):
    """Who did what, never its content (no clue, no card)."""

    type: ActionType = Field(description="The action's type")
    seat: int | None = Field(description="The seat that acted; null for a watcher or the server")
    player: int | SkipJsonSchema[None] = sometimes("The acting player's (or watcher's) id")
    name: str | SkipJsonSchema[None] = sometimes("The acting player's (or watcher's) name")
    watcher: Literal[True] | SkipJsonSchema[None] = sometimes("A watcher acted")
    removed: str | SkipJsonSchema[None] = sometimes("`kick`, `drop`: who was removed")
    bot: str | SkipJsonSchema[None] = sometimes("`add_bot`: the bot's name")
    stood_in: str | SkipJsonSchema[None] = sometimes("`stand_in`: whose seat a bot plays")
    draft: Literal[True] | SkipJsonSchema[None] = sometimes("`clues`: a draft, as typed")
    claimed: str | SkipJsonSchema[None] = sometimes("A seat request: the seat's player")
    claimed_seat: int | SkipJsonSchema[None] = sometimes("A seat request: the seat")
    device: Device | None = Field(
        default=None,
        description="A seat request: the kind of device asking (null when its browser "
        "does not say); absent for any other action",
    )
    back: bool | SkipJsonSchema[None] = sometimes("A seat request: a seat asked back")
    host: bool | SkipJsonSchema[None] = sometimes("A seat request: the seat is the host's")
    spectator: bool | SkipJsonSchema[None] = sometimes(
        "A seat request: the seat is the Spectator's"
    )
    ran_out: Literal["clues", "grace", "rebuild"] | SkipJsonSchema[None] = sometimes(
        "`timeout`: which clock ran out"
    )
    not_played: list[str] | SkipJsonSchema[None] = sometimes(
        "`timeout`: the players whose clover is not played now"
    )
    late: list[str] | SkipJsonSchema[None] = sometimes(
        "`timeout`: the players who get the grace to finish"
    )
    quiet: Literal[True] | SkipJsonSchema[None] = sometimes(
        "`lock`: a bot locked in after a long quiet, over people who had not agreed"
    )
    cleared: list[int] | SkipJsonSchema[None] = sometimes(
        "A move that cleared Agrees: whose they were, by seat"
    )


class StateEvent(Closed):
    """The data of a `state` event (its SSE `id` is its `seq`)."""

    seq: int = Field(description="The room's seq after the change")
    action: EventAction | None = Field(
        description="Who did what; null for a stream's first event (the current state)"
    )
    state: RoomState = Field(
        description="The state for the receiving seat, as `GET` would answer; its `chat` "
        "is the whole recent chat in the first event, then the lines each change added"
    )


class MovedEvent(Closed):
    """The data of a `moved` event, `{}`: the stream's last, its seat moved to another
    device and its token no longer works."""


def _stream_schema() -> dict[str, Any]:
    """Each event's data, as JSON Schema for the API's document: the room state by
    reference to its components (``GET /api/rooms/{code}`` puts it there), the rest
    written out in place, so the stream's route needs no component of its own."""
    ref = "#/components/schemas/{model}"
    schema = TypeAdapter(StateEvent | MovedEvent).json_schema(
        mode="serialization", ref_template=ref
    )
    defs: dict[str, Any] = schema.pop("$defs")
    listed = {"RoomState", *RoomState.model_json_schema(mode="serialization")["$defs"]}

    def inlined(node: Any) -> Any:
        if isinstance(node, list):
            return [inlined(item) for item in node]
        if not isinstance(node, dict):
            return node
        name = node.get("$ref", "").removeprefix(ref.format(model=""))
        if name and name not in listed:
            return inlined(defs[name])
        # No null default: FastAPI leaves nulls out of the document it writes.
        return {
            key: inlined(value)
            for key, value in node.items()
            if not (key == "default" and value is None)
        }

    return {
        "description": "The data of each event, as JSON: a `state` event's is a "
        "`StateEvent`, a `moved` event's a `MovedEvent` (`{}`)",
        "type": "object",
        **inlined(schema),
    }


STREAM_SCHEMA = _stream_schema()
"""``GET /api/rooms/{code}/events``: its events' data (``text/event-stream``)."""
