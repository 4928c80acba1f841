"""The resolution: one clover at a time, its guessers place and turn the cards, all
agree or the lock holder locks it in, it is checked (``scoring.check``), and the
table goes on to the next clover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.rules import actions as act
from app.rules import errors
from app.rules.checks import refuse, why_not_phase
from app.rules.errors import Refusal
from app.rules.geometry import ROTATIONS, SPOTS, Words, turn
from app.rules.scoring import check
from app.rules.state import Clover, Resolution, Room, Slot


def on_place(action: act.Place, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, clover = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    if action.rotation not in ROTATIONS:
        raise errors.BadRotation()
    if clover.card(action.card) is None:
        raise errors.UnknownCard()
    target = res.board[spot]
    if target is not None:
        raise errors.SpotLocked() if target.locked else errors.SpotTaken()
    board = list(res.board)
    origin = res.spot_of(action.card)
    if origin is not None:
        moved = board[origin]
        if moved is not None and moved.locked:
            raise errors.CardLocked()
        board[origin] = None
    board[spot] = Slot(card=action.card, rotation=action.rotation)
    return _with_board(room, res, board)


def on_remove(action: act.Remove, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    _movable(res.board[spot])
    board = list(res.board)
    board[spot] = None
    return _with_board(room, res, board)


def on_rotate(action: act.Rotate, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    spot = _check_spot(action.spot)
    if action.turns not in (1, -1):
        raise errors.BadTurns()
    slot = _movable(res.board[spot])
    board = list(res.board)
    board[spot] = replace(slot, rotation=turn(slot.rotation, action.turns))
    return _with_board(room, res, board)


def _movable(slot: Slot | None) -> Slot:
    if slot is None:
        raise errors.SpotEmpty()
    if slot.locked:
        raise errors.SpotLocked()
    return slot


def _with_board(room: Room, res: Resolution, board: list[Slot | None]) -> Room:
    """Any change to the board clears every Agree."""
    return replace(room, resolution=replace(res, board=tuple(board), agreed=frozenset()))


def _check_spot(spot: int) -> int:
    if spot not in SPOTS:
        raise errors.BadSpot()
    return spot


def why_not_move(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not move the cards of the clover being rebuilt, or ``None``: a
    guesser, until the clover is checked."""
    refusal = why_not_phase(room, "resolution")
    if refusal is not None:
        return refusal
    if seat == room.spectator():
        return errors.SpectatorCannotMove
    if room.resolution is not None and room.resolution.checked:
        return errors.AlreadyChecked
    return None


def _need_guesser_move(room: Room, seat: int) -> tuple[Resolution, Clover]:
    """The resolution and clover a guesser may act on now, or the reason they may not."""
    refuse(why_not_move(room, seat))
    res = room.resolution
    clover = room.current_clover()
    assert res is not None and clover is not None
    return res, clover


def on_agree(action: act.Agree, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_agree(room, seat))
    res, _ = _need_guesser_move(room, seat)
    room = replace(room, resolution=replace(res, agreed=res.agreed | {seat}))
    return check_if_agreed(room)


def on_unagree(action: act.Unagree, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    res, _ = _need_guesser_move(room, seat)
    return replace(room, resolution=replace(res, agreed=res.agreed - {seat}))


def on_lock(action: act.Lock, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_lock(room, seat))
    return check_clover(room)


def why_not_agree(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not agree to the board, or ``None``: a guesser, the board full."""
    refusal = why_not_move(room, seat)
    if refusal is None and not _board_full(room):
        return errors.BoardNotFull
    return refusal


def why_not_lock(room: Room, seat: int) -> Refusal | None:
    """Why ``seat`` may not lock the clover in, or ``None``: the lock holder, the board full."""
    refusal = why_not_move(room, seat)
    if refusal is not None:
        return refusal
    if seat != room.lock_holder():
        return errors.NotLockHolder
    if not _board_full(room):
        return errors.BoardNotFull
    return None


def _board_full(room: Room) -> bool:
    return room.resolution is not None and room.resolution.is_full()


def check_if_agreed(room: Room) -> Room:
    """Check the clover once every present guesser has agreed (and someone has)."""
    res = room.resolution
    if (
        res is not None
        and not res.checked
        and res.agreed
        and res.is_full()
        and room.present_guessers() <= res.agreed
    ):
        return check_clover(room)
    return room


def check_clover(room: Room) -> Room:
    """The room with the board of the clover being rebuilt checked as it stands
    (``scoring.check``): a second try begun, or the clover's result kept."""
    assert room.resolution is not None
    spectator = room.spectator()
    assert spectator is not None
    res, result = check(room.clovers[spectator], room.resolution, spectator)
    results = room.results if result is None else (*room.results, result)
    return replace(room, resolution=res, results=results)


def on_next(action: act.Next, room: Room, seat: int, deck: Sequence[Words]) -> Room:
    refuse(why_not_next(room))
    res = room.resolution
    assert res is not None
    if res.turn + 1 < len(room.turns()):
        return replace(room, resolution=Resolution(turn=res.turn + 1))
    return replace(room, phase="finished", resolution=None)


def why_not_next(room: Room) -> Refusal | None:
    """Why nobody may go on to the next clover, or ``None``: once this one is checked."""
    refusal = why_not_phase(room, "resolution")
    if refusal is None and room.resolution is not None and not room.resolution.checked:
        return errors.NotChecked
    return refusal
