"""The closed set of actions a room accepts, each declared once.

Actions are plain data. Each class names its ``type`` (the word the API,
the forms and the action log use) and who sends it: a player, a newcomer
taking a seat, or the server itself. The codec, the API's request schemas
and the pages' forms are all derived from these classes, so an action is
added in one place. Field metadata bounds raw input at the edge
(``max_length`` of a string, ``items`` of a list); the engine then checks
who may do it and when.

``Start`` carries the seed of the deal and every action the time (``now``),
both stamped by the service, so applying an action needs no clock and no
randomness, and a game can be replayed from its action log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar, Literal

Sender = Literal["player", "newcomer", "server"]


@dataclass(frozen=True)
class Action:
    """What every action is: a named, immutable request to change one room."""

    type: ClassVar[str]
    sent_by: ClassVar[Sender] = "player"
    now: int = field(default=0, kw_only=True, metadata={"stamped": True})
    """The server's time when it took the action, in epoch ms: the rules start and stop
    the table's clock with it, and a replay of the log meets the very same times."""


@dataclass(frozen=True)
class Create(Action):
    """A room opens, its creator in seat 0 as its host: the action that gives a room its
    first state, from none (``engine.unopened``).

    Not among ``ACTIONS``: it is sent to no room but makes one (``POST /api/rooms``),
    and its line in the log is never replayed (a room is read from its state)."""

    type: ClassVar[str] = "create"
    sent_by: ClassVar[Sender] = "newcomer"
    name: str = field(metadata={"max_length": 100})
    decoys: int
    language: str = field(default="en", metadata={"max_length": 8})
    practice: bool = False
    """A practice table: its creator and two bots, the practice deal, the lesson."""


@dataclass(frozen=True)
class Join(Action):
    type: ClassVar[str] = "join"
    sent_by: ClassVar[Sender] = "newcomer"
    name: str = field(metadata={"max_length": 100})


@dataclass(frozen=True)
class Watch(Action):
    """Someone with the room's link follows it without a seat, under a name."""

    type: ClassVar[str] = "watch"
    sent_by: ClassVar[Sender] = "newcomer"
    name: str = field(metadata={"max_length": 100})
    former: int = field(default=-1, kw_only=True, metadata={"stamped": True})
    """The player id the asking device's token stood for in this room before, if it
    stands for nobody there now (-1: none): a watcher the host sent away may not come
    back from the same device for a while. Stamped by the service, never sent."""


@dataclass(frozen=True)
class Sit(Action):
    """A watcher takes a free seat in the lobby, as who they are (same id, same token)."""

    type: ClassVar[str] = "sit"


@dataclass(frozen=True)
class WatchersChat(Action):
    """The host lets the watchers chat, or not."""

    type: ClassVar[str] = "watchers_chat"
    on: bool


@dataclass(frozen=True)
class SendAway(Action):
    """The host sends one watcher away: they stop watching, and may not come back from
    the same device for a while (``state.SENT_AWAY_MS``)."""

    type: ClassVar[str] = "send_away"
    watcher: int
    """The watcher's id, as the room's state lists it."""


@dataclass(frozen=True)
class Leave(Action):
    """In the lobby a player gives up their seat; during a game they go out of it.
    A watcher who leaves stops watching."""

    type: ClassVar[str] = "leave"


@dataclass(frozen=True)
class Kick(Action):
    """The host removes an absent player from the lobby."""

    type: ClassVar[str] = "kick"
    seat: int


@dataclass(frozen=True)
class AddBot(Action):
    """The host seats a bot in the lobby."""

    type: ClassVar[str] = "add_bot"


@dataclass(frozen=True)
class StandIn(Action):
    """The host lets a bot play the seat of a player who is away, until they return."""

    type: ClassVar[str] = "stand_in"
    seat: int


@dataclass(frozen=True)
class Drop(Action):
    """The host takes an absent player out of the game, so the table never waits on them."""

    type: ClassVar[str] = "drop"
    seat: int


@dataclass(frozen=True)
class Claim(Action):
    """A device without a seat asks to play ``seat``: the table allows it or not."""

    type: ClassVar[str] = "claim"
    sent_by: ClassVar[Sender] = "newcomer"
    seat: int
    id: str = field(default="", metadata={"stamped": True, "max_length": 32})
    at: str = field(default="", metadata={"stamped": True, "max_length": 40})
    kind: str = field(default="", metadata={"stamped": True, "max_length": 16})
    """The kind of device asking (``state.DEVICE_KINDS``), read from its browser at the edge."""
    address: str = field(default="", metadata={"stamped": True, "max_length": 64})
    """An opaque tag of the client address asking, for the per-address bound."""
    replaces: str = field(default="", metadata={"stamped": True, "max_length": 32})
    """The claim this same device made before, if it is still waiting: it goes."""
    back: bool = field(default=False, metadata={"stamped": True})
    """The asking device holds a token of this very seat, naming the device ``was``: its
    player asks for it back, if the seat moved away from that device."""
    was: str = field(default="", metadata={"stamped": True, "max_length": 32})


@dataclass(frozen=True)
class Withdraw(Action):
    """The claimant takes their claim back (the service checks it is theirs)."""

    type: ClassVar[str] = "withdraw"
    sent_by: ClassVar[Sender] = "newcomer"
    claim: str = field(metadata={"max_length": 32})


@dataclass(frozen=True)
class Allow(Action):
    """A seated player lets the claiming device take the seat: the old one loses it."""

    type: ClassVar[str] = "allow"
    claim: str = field(metadata={"max_length": 32})
    mine: str = field(default="", metadata={"stamped": True, "max_length": 32})
    """The claim the answering browser made itself, if it holds one in this room (its
    claim cookie): nobody answers a request from their own browser."""


@dataclass(frozen=True)
class Refuse(Action):
    """Any seated player turns a claim down (but the seat's holder, when it is asked back)."""

    type: ClassVar[str] = "refuse"
    claim: str = field(metadata={"max_length": 32})
    mine: str = field(default="", metadata={"stamped": True, "max_length": 32})


@dataclass(frozen=True)
class ClaimsBy(Action):
    """The host chooses whether their own allow is needed, besides everyone else's at the
    table, for an away player's seat to move (``"host"``), or not (``"anyone"``)."""

    type: ClassVar[str] = "claims_by"
    who: str = field(metadata={"max_length": 8})


@dataclass(frozen=True)
class Language(Action):
    """The host chooses the room's language: its deck and its clue rules."""

    type: ClassVar[str] = "language"
    language: str = field(metadata={"max_length": 8})


@dataclass(frozen=True)
class Settings(Action):
    type: ClassVar[str] = "settings"
    decoys: int


@dataclass(frozen=True)
class Timer(Action):
    """The host sets the clock of ``phase`` (``clues`` or ``rebuild``): its mode and length."""

    type: ClassVar[str] = "timer"
    phase: str = field(metadata={"max_length": 8})
    mode: str = field(metadata={"max_length": 10})
    minutes: int = 5


@dataclass(frozen=True)
class Pause(Action):
    """The host stops the table's clock for everyone."""

    type: ClassVar[str] = "pause"


@dataclass(frozen=True)
class Resume(Action):
    type: ClassVar[str] = "resume"


@dataclass(frozen=True)
class Timeout(Action):
    """The server's word that an enforced clock ran out; the rules check it did."""

    type: ClassVar[str] = "timeout"
    sent_by: ClassVar[Sender] = "server"


@dataclass(frozen=True)
class Expire(Action):
    """The server's word that seat requests may have run out; the rules judge which by
    ``now`` (any action drops those that have: this one does nothing else)."""

    type: ClassVar[str] = "expire"
    sent_by: ClassVar[Sender] = "server"


@dataclass(frozen=True)
class Start(Action):
    type: ClassVar[str] = "start"
    seed: int = field(default=0, metadata={"stamped": True})


@dataclass(frozen=True)
class Clues(Action):
    """The four clues in leaf order; ``None`` leaves a leaf unwritten for now.

    A ``draft`` is what the player has typed so far, saved as they type so that a
    reload, a crash or another device finds it: each clue the checker accepts is
    kept, and one it refuses leaves its leaf as it was saved before, since a keyword
    half typed must not cost the other leaves. Without it (Save, Done) the four are
    judged together and one refusal saves nothing: the player asked to keep them and
    must hear why they cannot.
    """

    type: ClassVar[str] = "clues"
    clues: tuple[str | None, ...] = field(
        metadata={"items": 4, "item_length": 200, "form": "clue{}"}
    )
    draft: bool = False


@dataclass(frozen=True)
class Done(Action):
    type: ClassVar[str] = "done"


@dataclass(frozen=True)
class Undone(Action):
    type: ClassVar[str] = "undone"


@dataclass(frozen=True)
class Place(Action):
    type: ClassVar[str] = "place"
    card: str = field(metadata={"max_length": 64})
    spot: int
    rotation: int = 0


@dataclass(frozen=True)
class Remove(Action):
    type: ClassVar[str] = "remove"
    spot: int


@dataclass(frozen=True)
class Rotate(Action):
    type: ClassVar[str] = "rotate"
    spot: int
    turns: int


@dataclass(frozen=True)
class Agree(Action):
    type: ClassVar[str] = "agree"


@dataclass(frozen=True)
class Unagree(Action):
    type: ClassVar[str] = "unagree"


@dataclass(frozen=True)
class Lock(Action):
    type: ClassVar[str] = "lock"


@dataclass(frozen=True)
class Next(Action):
    type: ClassVar[str] = "next"


@dataclass(frozen=True)
class Say(Action):
    type: ClassVar[str] = "say"
    text: str = field(metadata={"max_length": 2000})
    at: str = field(default="", metadata={"stamped": True})


@dataclass(frozen=True)
class Invite(Action):
    """The host turns a practice table into a real room: the bots go, the table is back
    in its lobby, and its code lets friends in."""

    type: ClassVar[str] = "invite"


@dataclass(frozen=True)
class Again(Action):
    """Play again in the same room with the same seats: back to the lobby."""

    type: ClassVar[str] = "again"


@dataclass(frozen=True)
class Presence(Action):
    """The server's word on which seats are present; only the system sends it."""

    type: ClassVar[str] = "presence"
    sent_by: ClassVar[Sender] = "server"
    present: frozenset[int] = frozenset()
    watchers: frozenset[int] = frozenset()
    """The watchers present, by pid (a watcher has no seat)."""


ACTIONS: tuple[type[Action], ...] = (
    Join,
    Watch,
    Sit,
    Leave,
    Kick,
    AddBot,
    StandIn,
    Drop,
    Claim,
    Withdraw,
    Allow,
    Refuse,
    ClaimsBy,
    WatchersChat,
    SendAway,
    Language,
    Settings,
    Timer,
    Start,
    Clues,
    Done,
    Undone,
    Place,
    Remove,
    Rotate,
    Agree,
    Unagree,
    Lock,
    Next,
    Say,
    Again,
    Invite,
    Pause,
    Resume,
    Presence,
    Timeout,
    Expire,
)
"""Every action, in the order the API documents them."""

BY_TYPE: dict[str, type[Action]] = {cls.type: cls for cls in ACTIONS}

PLAYER_ACTIONS: tuple[type[Action], ...] = tuple(c for c in ACTIONS if c.sent_by == "player")
"""What a seated player may send (``POST /api/rooms/{code}/actions``, the room's forms)."""

BOARD_ACTIONS = (Place, Remove, Rotate)
"""Actions that change the board, and so clear every Agree."""
