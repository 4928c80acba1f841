"""The game remembered: every clover of a game and every try at it, rebuilt from its log.

A room's state forgets a clover's tries as soon as the table moves on (each
clover starts from an empty board), so the record of a game is rebuilt by
replaying its logged actions from the state its ``Start`` logged whole. The
engine is deterministic, so the replay passes through the very states the
table went through, and every check shows in them: the resolution's attempt
went up (a first try that was not perfect) or it became checked.

The record holds everything, the clover being rebuilt included, the way a
room's state does; ``views.history_view`` is what a client may see of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.rules import actions as act
from app.rules.engine import apply
from app.rules.scoring import is_right
from app.rules.state import Clover, Resolution, Room


@dataclass(frozen=True)
class Step:
    """One logged action: its ``seq``, the seat that sent it as the log has it, the action,
    and the id of who sent it (a watcher's action has no seat: it is replayed by that id)."""

    seq: int
    seat: int | None
    action: act.Action
    player: int | None = None


@dataclass(frozen=True)
class Placement:
    """A card on a spot at the moment of a check, and whether it was right there."""

    spot: int
    card: str
    rotation: int
    right: bool


@dataclass(frozen=True)
class Try:
    """A full board as it was checked: the first try, or the second and last."""

    attempt: int
    placements: tuple[Placement, ...]


@dataclass(frozen=True)
class CloverRecord:
    """One clover of the game: whose it was, its truth, each try at it, its score.

    The Spectator is kept by seat, player id and name as they were: seats do
    not move during a game, but a name read later from another room state
    could belong to someone else.
    """

    turn: int
    spectator: int
    player: int
    name: str
    clover: Clover
    tries: tuple[Try, ...] = ()
    score: int | None = None
    """``None`` until the clover is checked (its last try, or a perfect first)."""

    @property
    def checked(self) -> bool:
        return self.score is not None


@dataclass(frozen=True)
class GameRecord:
    """A game's clovers in the order they were played, as of ``seq``."""

    code: str
    seq: int
    clovers: tuple[CloverRecord, ...] = ()

    def settled(self) -> GameRecord:
        """Only the checked clovers: the part of the record that no later action changes."""
        return replace(self, clovers=tuple(c for c in self.clovers if c.checked))


class LogMismatch(ValueError):
    """The log does not replay into the states it numbers: a step's ``seq`` is not the
    one the replay reached."""


def record_game(start: Room, steps: Iterable[Step]) -> GameRecord:
    """The record of the game that begins at ``start``, after ``steps`` (in log order).

    ``start`` is the room as its ``Start`` left it. Raises ``LogMismatch`` when a
    step's ``seq`` is not the next one, or the engine's refusal when the log holds
    an action the rules refuse: either way the log is not this game's.
    """
    room = start
    record = follow(GameRecord(start.code, start.seq), start, start)
    for step in steps:
        if step.seq != room.seq + 1:
            raise LogMismatch(f"step {step.seq} after seq {room.seq}")
        # The log keeps the seat a newcomer took; the engine takes a newcomer, and the
        # server's own actions, as sent by nobody.
        actor = step.seat if step.action.sent_by == "player" else None
        watcher = step.player if actor is None and step.action.sent_by == "player" else None
        after = apply(room, actor, step.action, watcher=watcher)
        record = follow(record, room, after)
        room = after
    return record


def follow(record: GameRecord, before: Room, after: Room) -> GameRecord:
    """``record`` brought along by the action that turned ``before`` into ``after``.

    A new turn of resolution adds its clover; a check adds the board as it was
    checked (an Agree, a Lock or a presence report changes nothing on it) and,
    when the clover is done, its score. Back in the lobby, the game is over and
    forgotten: the next one has a record of its own.
    """
    if after.phase == "lobby":
        return GameRecord(after.code, after.seq)
    res = after.resolution
    clovers = list(record.clovers)
    if res is not None and (not clovers or clovers[-1].turn != res.turn):
        clovers.append(_begun(after, res.turn))
    old = before.resolution
    if res is not None and old is not None and old.turn == res.turn and _was_checked(old, res):
        last = clovers[-1]
        tried = (*last.tries, _try(last.clover, old))
        score = after.results[-1].score if res.checked and after.results else None
        clovers[-1] = replace(last, tries=tried, score=score)
    return replace(record, seq=after.seq, clovers=tuple(clovers))


def _begun(room: Room, turn: int) -> CloverRecord:
    spectator = room.spectator()
    assert spectator is not None
    player = room.players[spectator]
    return CloverRecord(
        turn=turn,
        spectator=spectator,
        player=player.pid,
        name=player.name,
        clover=room.clovers[spectator],
    )


def _was_checked(before: Resolution, after: Resolution) -> bool:
    return after.attempt > before.attempt or (after.checked and not before.checked)


def _try(clover: Clover, checked: Resolution) -> Try:
    """The board of ``checked``, the resolution just before its check."""
    placements = tuple(
        Placement(spot=s, card=slot.card, rotation=slot.rotation, right=is_right(clover, s, slot))
        for s, slot in enumerate(checked.board)
        if slot is not None
    )
    return Try(attempt=checked.attempt, placements=placements)
