"""The state of a room, as plain frozen dataclasses.

A room's state holds everything, secrets included (each clover's true spots,
rotations and decoys). It never leaves the server as it is: ``views.view`` is
the one road from a state to anything a client receives.

Seats are indexes into ``players``. A player's ``pid`` never changes, so the
service can tie a seat token to it even when someone leaves the lobby and the
seats after theirs move down by one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from app.rules.geometry import SPOTS, Words

Phase = Literal["lobby", "clues", "resolution", "finished"]

MIN_PLAYERS = 3
MAX_PLAYERS = 6
MIN_DECOYS = 1
MAX_DECOYS = 4
STANDARD_DECOYS = 1
"""The rules' own game: one decoy a clover; more make it harder."""
MAX_NAME_LENGTH = 24
MAX_CHAT_LENGTH = 300
MAX_CLAIMS = 6
"""Claims a room holds at once: enough for every seat, few enough that nobody floods it."""
MAX_CLAIMS_PER_ADDRESS = 2
"""Claims waiting from one client address: whoever has the code cannot fill the room's
slots alone, and a household that lost two phones still gets both seats back."""
CLAIM_MS = 5 * 60_000
"""How long a claim waits for an answer: a request nobody answers is junk by then, and
its claimant, still waiting, asks again with a tap."""
CLAIM_BAR_MS = 10 * 60_000
"""How long an address whose request the table refused may not ask that room again: a
stranger turned down does not come straight back, and a real claimant behind the same
address asks again within the hour."""
BARS_KEPT = 50
"""Refused addresses a room remembers at once (the oldest go first): a bound on what a
crowd of addresses can make a room hold, far above what the claim rates let in."""
MOVES_KEPT = 4
"""Devices a seat remembers it moved away from: enough for a phone, a laptop and back."""
DEVICE_KINDS = ("phone", "tablet", "computer")
"""What the table is told of the device a claim comes from, read coarsely from its browser."""
LANGUAGES = ("en", "fr", "zh")
"""A room's language: the deck it deals from and how its clues are checked."""
CLAIMS_BY = ("anyone", "host")
"""Who may let another device take a seat whose player is away."""
BOT_NAMES = ("Basil", "Fern", "Juniper", "Hazel", "Sorrel", "Rowan", "Linden", "Yarrow")
"""The bots' own names, the first one free taken: plants, like the clover itself."""
CHAT_KEPT = 200
"""How many of the players' chat lines a room keeps: enough to scroll back through a game."""
WATCHERS_CHAT_KEPT = 100
"""How many of the watchers' lines a room keeps, apart from the players': however much a
crowd says, it never pushes a player's line out of the history."""
WATCHERS_CHAT_BURST = 10
WATCHERS_CHAT_WINDOW_MS = 10_000
"""The watchers' budget, the room's and not each one's: together they say at most
``WATCHERS_CHAT_BURST`` lines in any ``WATCHERS_CHAT_WINDOW_MS``, so fifty of them cannot
scroll the table's chat away, and a table hears a crowd, not a flood."""
MAX_WATCHERS = 50
"""Watchers a room takes: a crowd round a table, and a bound on what one room holds."""
SENT_AWAY_MS = 15 * 60_000
"""How long a watcher the host sent away may not come back to watch from the same device."""
SENT_AWAY_KEPT = 100
"""How many sent-away watchers a room remembers (the oldest forgotten first)."""
TIMER_MODES = ("off", "advisory", "enforced")
"""A timer is off, a clock the table sees (nothing happens at zero), or a clock that acts."""
TIMER_PHASES = ("clues", "rebuild")
"""The two things a table can be timed on: writing its clues, and each try at a clover."""
MIN_TIMER_MINUTES = 1
MAX_TIMER_MINUTES = 15
GRACE_MS = 30_000
"""When the clue clock runs out, what a player with an empty leaf still has to finish."""
UNOPENED = -1
"""The ``seq`` of a room before it opens: nothing yet. Its opening (``actions.Create``)
makes its first state, at ``seq`` 0."""


@dataclass(frozen=True)
class Player:
    pid: int
    name: str
    present: bool = False
    out: bool = False
    """Out of this game (they left it, or the host took them out while they were away):
    they keep their seat until the game ends, so seats and turns do not move, and
    may watch; nobody waits for them."""
    device: str = ""
    """Which device plays this seat: the claim that last moved it ("" for the device
    that took it). A seat token stands for the seat only while it names this device."""
    moved_from: tuple[str, ...] = ()
    """The devices this seat was played from before, the latest last (a few): a token
    naming one of them may ask for the seat back."""
    bot: bool = False
    """Played by the server's bot for good: always present, never the host."""
    stand_in: bool = False
    """While its player is away, the bot plays this seat; it hands it back on their return."""

    @property
    def played(self) -> bool:
        """Whether someone plays this seat now: its player, or a bot for them."""
        return self.present or self.bot or self.stand_in


@dataclass(frozen=True)
class Watcher:
    """Someone who follows the room without a seat: they see what a guesser sees.

    Their ``pid`` comes from the same counter as the players', so a chat line's
    author is one person whether they sit or watch, and a player out of a game
    who becomes a watcher keeps theirs (and with it their token).
    """

    pid: int
    name: str
    present: bool = False
    device: str = ""
    """The device their token names, as a player's ``device``: kept from their seat."""
    held: bool = False
    """Came while a clover was being rebuilt: the table learns their name only after its
    check (``watchers.holds_watchers``), so that no name carries a hint to the guessers."""


@dataclass(frozen=True)
class SentAway:
    """A watcher the host sent away: their token may not watch again until ``until``."""

    pid: int
    until: int
    """The server's epoch ms (the action's ``now``) from when they may watch again."""


@dataclass(frozen=True)
class Claim:
    """Someone on a device without a seat asks to play the seat of player ``pid``."""

    id: str
    pid: int
    at: str
    asked: int = 0
    """When, in the server's epoch ms (the action's ``now``): it runs out ``CLAIM_MS``
    later. 0 for claims saved before claims ran out: they go at the next action."""
    kind: str = ""
    """The kind of device asking, one of ``DEVICE_KINDS`` ("" when its browser did not
    say), so the table knows what it lets in."""
    address: str = ""
    """An opaque tag of the client address asking (a hash, never shown to anyone): no
    one address may hold more than ``MAX_CLAIMS_PER_ADDRESS`` of the room's claims."""
    back: bool = False
    """Asked from a device the seat moved away from: its player asks for it back. The
    device playing the seat now may not answer it; anyone else seated may."""
    was: str = ""
    """Asked back: the device it is asked back from (a ``Player.device`` the seat moved
    away from). Back on the device its clover was dealt to, the seat reads it again."""
    allowed_by: frozenset[int] = frozenset()
    """The pids of the players who allowed it so far: a seat whose player is away moves
    once every other player at the table has (``claims.still_to_allow``)."""

    def expired(self, now: int) -> bool:
        """Whether the claim has run out at ``now`` (0: a time nobody stamped, never)."""
        return now > 0 and now >= self.asked + CLAIM_MS


@dataclass(frozen=True)
class Barred:
    """A client address (its opaque tag, as a claim keeps it) whose request the table
    refused: it may not ask this room for a seat again before ``until`` (epoch ms)."""

    address: str
    until: int


@dataclass(frozen=True)
class Card:
    """A keyword card as one clover knows it.

    ``id`` is drawn at random for each clover, so it says nothing about where
    the card lay, how it was turned or whether it is a decoy.
    """

    id: str
    words: Words


@dataclass(frozen=True)
class Clover:
    """One player's clover for one game: the secret truth and its clues."""

    owner: int
    cards: tuple[Card, ...]
    """The four true cards, indexed by their true spot."""
    rotations: tuple[int, ...]
    """The true rotation of the card on each spot."""
    decoys: tuple[Card, ...]
    pool_order: tuple[str, ...]
    """Card ids of the 4 + k pool cards in the shuffled order the table sees."""
    clues: tuple[str | None, ...] = (None, None, None, None)
    warnings: tuple[str | None, ...] = (None, None, None, None)
    """Per leaf, the keyword its saved clue resembles (the checker's warning), or None."""
    done: bool = False
    dropped: bool = False
    """Not played: its owner went out of the game while still writing its clues, or
    their seat moved to another device before they were done."""
    device: str | None = None
    """The device its seat was played from when it was dealt (a ``Player.device``): the
    only one that reads its cards before the table has rebuilt it. ``None`` for clovers
    dealt before this was kept: whatever device plays the seat."""

    def all_cards(self) -> tuple[Card, ...]:
        return self.cards + self.decoys

    def card(self, card_id: str) -> Card | None:
        return self._cards_by_id.get(card_id)

    @cached_property
    def _cards_by_id(self) -> dict[str, Card]:
        # Kept with the clover (which never changes): every view of the board looks up
        # each card of the pool and the board by its id.
        return {c.id: c for c in self.all_cards()}

    def words_of(self, card_id: str) -> list[str]:
        """The keywords of one of this clover's cards (``KeyError`` for a card it lacks)."""
        card = self.card(card_id)
        if card is None:
            raise KeyError(card_id)
        return list(card.words)

    def laid(self) -> tuple[tuple[Words, int], ...]:
        """``(words, rotation)`` per spot, as the geometry functions take them."""
        return tuple((self.cards[s].words, self.rotations[s]) for s in SPOTS)


@dataclass(frozen=True)
class Slot:
    """A card the guessers put on a spot."""

    card: str
    rotation: int
    locked: bool = False


@dataclass(frozen=True)
class Rejected:
    """A placement the first check refused, shown so nobody tries it again."""

    spot: int
    card: str
    rotation: int


EMPTY_BOARD: tuple[Slot | None, ...] = (None, None, None, None)


@dataclass(frozen=True)
class Resolution:
    """The clover being put back together: the ``turn``-th Spectator's."""

    turn: int
    attempt: int = 1
    board: tuple[Slot | None, ...] = EMPTY_BOARD
    agreed: frozenset[int] = frozenset()
    checked: bool = False
    rejected: tuple[Rejected, ...] = ()

    def is_full(self) -> bool:
        return None not in self.board

    def on_board(self) -> frozenset[str]:
        return frozenset(slot.card for slot in self.board if slot is not None)

    def spot_of(self, card_id: str) -> int | None:
        return next(
            (s for s, slot in enumerate(self.board) if slot is not None and slot.card == card_id),
            None,
        )


@dataclass(frozen=True)
class Result:
    spectator: int
    attempts: int
    score: int


@dataclass(frozen=True)
class Timer:
    """A table's choice for one phase: ``mode`` is one of ``TIMER_MODES``."""

    mode: str = "off"
    minutes: int = 5


@dataclass(frozen=True)
class Countdown:
    """The table's clock for the phase or try at hand, in the server's epoch milliseconds.

    Absolute, so that a restart or a reconnect finds the same deadline and every
    phone counts down to it. While the table is paused the clock holds ``left``
    instead of ``ends``.
    """

    kind: str
    """``clues``, ``grace`` (the last 30 s for empty leaves) or ``rebuild``."""
    mode: str
    """``advisory`` or ``enforced``, as the timer was when this countdown began."""
    length: int
    """Its whole length in ms, for a clock that shows how much is gone."""
    ends: int | None = None
    left: int | None = None


@dataclass(frozen=True)
class ChatLine:
    """One line of the table's chat.

    Its author is named by ``pid``, which never changes: seats move down when
    someone leaves the lobby, so a seat number would soon point at someone
    else. ``id`` numbers the room's lines from 1, so a client that has seen
    line 41 can be sent only the lines after it.
    """

    id: int
    pid: int
    text: str
    at: str
    name: str = ""
    """The author's name when they spoke, kept after they leave."""
    watcher: bool = False
    """Said by someone watching, not playing: the table sees it marked so."""
    held: bool = False
    """Said by a watcher while a clover was being rebuilt, and read by the table only
    after its check (``watchers.holds_watchers``): it is shown marked so."""
    ms: int = 0
    """When it was said, in the server's epoch ms (the action's ``now``; 0 for lines
    saved before lines kept it): the watchers' budget counts the lines of the last
    seconds."""


@dataclass(frozen=True)
class Room:
    """Everything about one room at one ``seq``."""

    code: str
    players: tuple[Player, ...] = ()
    host: int = 0
    decoys: int = MIN_DECOYS
    phase: Phase = "lobby"
    seq: int = 0
    next_pid: int = 0
    first_spectator: int = 0
    clovers: tuple[Clover, ...] = ()
    resolution: Resolution | None = None
    results: tuple[Result, ...] = ()
    chat: tuple[ChatLine, ...] = field(default=())
    watchers: tuple[Watcher, ...] = ()
    watchers_chat: bool = True
    """Whether watchers may chat; the host turns it off for a quiet table."""
    held_chat: tuple[ChatLine, ...] = ()
    """Watchers' lines said while a clover is being rebuilt, waiting for its check: shown
    to nobody until then, then added to the chat (``watchers.released``)."""
    sent_away: tuple[SentAway, ...] = ()
    """Watchers the host sent away lately, who may not watch again from the same device
    for a while."""
    claims: tuple[Claim, ...] = ()
    barred: tuple[Barred, ...] = ()
    """Addresses whose request the table refused lately: never shown to anyone."""
    claims_by: str = "anyone"
    language: str = "en"
    clue_timer: Timer = Timer(minutes=5)
    rebuild_timer: Timer = Timer(minutes=3)
    countdown: Countdown | None = None
    paused: bool = False
    """The host stopped the clock for everyone; it stays stopped until they resume."""
    practice: bool = False
    """A practice table: one person and two bots play the practice deal of the room's
    language (``practice.py``), a lesson on the way; its code lets nobody else in, and
    its game never enters the Record of Legends. ``Invite`` makes it a real room."""
    _known: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )
    """What the room works out about itself once asked (where each player sits, its
    turns, Spectator, acting host and lock holder), kept with it, since it never
    changes: every view of every seat asks them dozens of times a change. Not the
    state: never stored, compared or copied (a room made from this one starts
    empty). A field set with the others, not a ``cached_property``: a name on the
    class makes every read of the attribute a slow look-up (5 % of an action's
    instructions, docs/performance.md), and one dictionary keeps the layout every
    room's attributes share (more attributes, added in the order questions come,
    would copy each room's dict whole: 1.3 KB for each room a stream still holds)."""

    # Questions about the state, asked by the engine and the views alike.

    def seat_of(self, pid: int) -> int | None:
        try:
            seats: dict[int, int] = self._known["seats"]
        except KeyError:
            seats = self._known["seats"] = {p.pid: s for s, p in enumerate(self.players)}
        return seats.get(pid)

    def watcher(self, pid: int) -> Watcher | None:
        """The watcher ``pid``, if they watch this room."""
        return next((w for w in self.watchers if w.pid == pid), None)

    def turns(self) -> tuple[int, ...]:
        """The seats whose clovers are played, in the order they come: from the first
        Spectator on, round the table, leaving out the clovers that were dropped."""
        try:
            turns: tuple[int, ...] = self._known["turns"]
        except KeyError:
            n = len(self.clovers)
            order = ((self.first_spectator + step) % n for step in range(n))
            turns = self._known["turns"] = tuple(s for s in order if not self.clovers[s].dropped)
        return turns

    def spectator(self) -> int | None:
        """The seat whose clover is being resolved, during resolution."""
        try:
            spectator: int | None = self._known["spectator"]
        except KeyError:
            res = self.resolution
            spectator = self._known["spectator"] = None if res is None else self.turns()[res.turn]
        return spectator

    def in_game(self, seat: int) -> bool:
        return not self.players[seat].out

    def clovers_played(self) -> int:
        """How many clovers this game scores: one per player, less those dropped."""
        if self.phase == "lobby":
            return len(self.players)
        return len(self.turns())

    def current_clover(self) -> Clover | None:
        spectator = self.spectator()
        return None if spectator is None else self.clovers[spectator]

    def is_guesser(self, seat: int) -> bool:
        return self.resolution is not None and seat != self.spectator() and self.in_game(seat)

    def present_guessers(self) -> frozenset[int]:
        """The guessers the table waits for: those playing now, bots and stand-ins included."""
        return frozenset(s for s, p in enumerate(self.players) if p.played and self.is_guesser(s))

    def has_bots(self) -> bool:
        """Whether a bot plays a seat, for good or standing in."""
        return any(p.bot or p.stand_in for p in self.players)

    def lock_holder(self) -> int | None:
        """The player to the Spectator's left, or the next present guesser when absent.

        With nobody present the seat to the Spectator's left keeps it: someone
        must be able to settle the board.
        """
        try:
            holder: int | None = self._known["lock_holder"]
        except KeyError:
            spectator = self.spectator()
            holder = self._known["lock_holder"] = (
                None if spectator is None else self._left_of(spectator)
            )
        return holder

    def _left_of(self, spectator: int) -> int:
        n = len(self.players)
        left = [(spectator + step) % n for step in range(1, n)]
        left = [s for s in left if self.in_game(s)] or left
        return next((s for s in left if self.players[s].played), left[0])

    def acting_host(self) -> int:
        """Who may use the host's controls now: the host, or while the host is away,
        the next present player to their left.

        The host keeps the title and gets the controls back on return; meanwhile
        one phone left in a pocket does not keep the table from starting.
        """
        try:
            host: int = self._known["acting_host"]
        except KeyError:
            host = self._known["acting_host"] = self._next_host()
        return host

    def _next_host(self) -> int:
        n = len(self.players)
        if n == 0 or (self.players[self.host].present and self.in_game(self.host)):
            return self.host
        left = ((self.host + step) % n for step in range(1, n))
        return next(
            (s for s in left if self.is_person_here(s) and self.in_game(s)),
            self.host,
        )

    def is_person_here(self, seat: int) -> bool:
        """A person plays this seat and is here: not a bot, not away."""
        player = self.players[seat]
        return player.present and not player.bot

    def total(self) -> int:
        return sum(r.score for r in self.results)

    def claim(self, claim_id: str) -> Claim | None:
        return next((c for c in self.claims if c.id == claim_id), None)

    def seat_waits(self, seat: int) -> bool:
        """Whether ``seat`` may not move to another device now: the Spectator's, from the
        start of their clover to its check. Whoever took it would read the solution."""
        res = self.resolution
        return res is not None and not res.checked and seat == self.spectator()

    def hides_own_clover(self, seat: int) -> bool:
        """Whether ``seat``'s own clover is kept from it now: it moved to a device that was
        not dealt that clover, which has not been checked yet. Whoever asked for the seat
        (a stranger, or a second browser of someone at the table) reads the clover then
        as the guessers do; only the device it was dealt to (asked back) sees it again."""
        if self.phase not in ("clues", "resolution") or not 0 <= seat < len(self.clovers):
            return False
        dealt = self.clovers[seat].device
        if dealt is None or dealt == self.players[seat].device:
            return False
        return not self.clover_checked(seat)

    def clover_checked(self, seat: int) -> bool:
        """Whether ``seat``'s clover has been checked this game: its truth is the room's."""
        res = self.resolution
        if res is None or seat not in self.turns():
            return False
        turn = self.turns().index(seat)
        return turn < res.turn or (turn == res.turn and res.checked)

    def barred_here(self, address: str, now: int) -> bool:
        """Whether ``address`` (a claim's tag) may not ask for a seat at ``now``."""
        return bool(address) and any(b.address == address and now < b.until for b in self.barred)

    def timer(self, phase: str) -> Timer:
        """The timer of ``clues`` or ``rebuild``."""
        return self.clue_timer if phase == "clues" else self.rebuild_timer

    def timed(self) -> bool:
        """Whether this table plays with a clock at all."""
        return self.clue_timer.mode != "off" or self.rebuild_timer.mode != "off"

    def holds_watchers(self) -> bool:
        """Whether a clover is being rebuilt and not checked yet: its Spectator must keep
        silent, so whatever a watcher says, and the names of watchers who come, reach
        the table only after its check. The Spectator could be any watcher (a second
        browser is a stranger to the table), so every watcher is held alike."""
        res = self.resolution
        return res is not None and not res.checked

    def last_chat_id(self) -> int:
        """The id of the newest chat line, 0 before the first."""
        return self.chat[-1].id if self.chat else 0
