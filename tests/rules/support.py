"""Small builders for engine tests: rooms at each phase, played with plain actions."""

from __future__ import annotations

from app.rules import actions as act
from app.rules.engine import apply, new_room
from app.rules.state import Room

# A deck of made-up keywords that no test clue resembles.
DECK = tuple((f"Nq{i}", f"Eq{i}", f"Sq{i}", f"Wq{i}") for i in range(80))
CLUES = ("Alpha", "Bravo", "Charlie", "Delta")
NAMES = ("Ada", "Bea", "Cy", "Dot", "Eve", "Flo")


def lobby(players: int, decoys: int = 1, bots: int = 0) -> Room:
    """``players`` seats: people, the last ``bots`` of them bots."""
    room = new_room("ABCDE", NAMES[0], decoys)
    for name in NAMES[1 : players - bots]:
        room = apply(room, None, act.Join(name))
    for _ in range(bots):
        room = apply(room, 0, act.AddBot())
    return room


def everyone_present(room: Room) -> Room:
    return apply(room, None, act.Presence(frozenset(range(len(room.players)))))


def started(
    players: int, seed: int = 7, decoys: int = 1, present: bool = True, bots: int = 0
) -> Room:
    room = lobby(players, decoys, bots)
    if present:
        room = everyone_present(room)
    return apply(room, 0, act.Start(seed), deck=DECK)


def resolving(
    players: int, seed: int = 7, decoys: int = 1, present: bool = True, bots: int = 0
) -> Room:
    room = started(players, seed, decoys, present, bots)
    for seat in range(players):
        room = apply(room, seat, act.Clues(CLUES))
        room = apply(room, seat, act.Done())
    assert room.phase == "resolution"
    return room


def guessers(room: Room) -> list[int]:
    return [s for s in range(len(room.players)) if room.is_guesser(s)]


def truth(room: Room) -> list[tuple[int, str, int]]:
    """(spot, card id, rotation) of the current clover's solution."""
    clover = room.current_clover()
    assert clover is not None
    return [(s, clover.cards[s].id, clover.rotations[s]) for s in range(4)]


def lay(room: Room, seat: int, placements: list[tuple[int, str, int]]) -> Room:
    for spot, card, rotation in placements:
        room = apply(room, seat, act.Place(card=card, spot=spot, rotation=rotation))
    return room


def wrong_rotation(rotation: int) -> int:
    return (rotation + 1) % 4


def play_clover(room: Room, first: int, second: int | None = None) -> Room:
    """Lay the board so ``first`` cards are right on the first try, then ``second``.

    The wrong cards sit on their right spot at a wrong rotation. The lock
    holder locks each try in.
    """
    seat = room.lock_holder()
    assert seat is not None
    placements = [(s, c, r if s < first else wrong_rotation(r)) for s, c, r in truth(room)]
    room = lay(room, seat, placements)
    room = apply(room, seat, act.Lock())
    if first == 4:
        return room
    assert second is not None and second >= first
    res = room.resolution
    assert res is not None and res.attempt == 2
    retry = [
        (s, c, r if s < second else wrong_rotation(r))
        for s, c, r in truth(room)
        if res.board[s] is None
    ]
    room = lay(room, seat, retry)
    return apply(room, seat, act.Lock())
