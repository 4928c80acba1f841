"""Checking a clover and scoring it: the heart of So Clover!'s scoring rule.

A card is right only on its own spot at its own rotation. A perfect first try
scores 6 (4 cards + 2 bonus); otherwise the wrong cards go back to the pool,
the right ones stay locked, and a second and final try scores 1 per right
card, locked ones included (0 to 4).
"""

from __future__ import annotations

from dataclasses import replace

from app.rules.state import Clover, Rejected, Resolution, Result, Slot

PERFECT_SCORE = 6
CARD_POINTS = 1
FIRST_TRY_BONUS = 2


def max_score(players: int) -> int:
    """The best a table of ``players`` can score: a perfect clover each."""
    return PERFECT_SCORE * players


def is_right(clover: Clover, spot: int, slot: Slot | None) -> bool:
    """Whether ``slot`` holds the true card of ``spot`` at its true rotation."""
    return (
        slot is not None
        and slot.card == clover.cards[spot].id
        and slot.rotation == clover.rotations[spot]
    )


def right_spots(clover: Clover, resolution: Resolution) -> tuple[int, ...]:
    return tuple(s for s, slot in enumerate(resolution.board) if is_right(clover, s, slot))


def points(attempt: int, right: int) -> int:
    """Points for ``right`` right cards at the end of ``attempt``.

    >>> points(1, 4), points(2, 4), points(2, 3)
    (6, 4, 3)
    """
    if attempt == 1 and right == 4:
        return CARD_POINTS * 4 + FIRST_TRY_BONUS
    return CARD_POINTS * right


def check(
    clover: Clover, resolution: Resolution, spectator: int
) -> tuple[Resolution, Result | None]:
    """Check a full board; return the new resolution and, when the clover is done, its result.

    After a first try that is not perfect there is no result yet: the right
    cards are locked, the wrong ones go back to the pool and are remembered as
    rejected placements, and the second try begins.
    """
    right = right_spots(clover, resolution)
    if resolution.attempt == 1 and len(right) < 4:
        board = tuple(
            replace(slot, locked=True) if s in right and slot is not None else None
            for s, slot in enumerate(resolution.board)
        )
        rejected = tuple(
            Rejected(spot=s, card=slot.card, rotation=slot.rotation)
            for s, slot in enumerate(resolution.board)
            if slot is not None and s not in right
        )
        return replace(
            resolution, attempt=2, board=board, agreed=frozenset(), rejected=rejected
        ), None
    result = Result(
        spectator=spectator,
        attempts=resolution.attempt,
        score=points(resolution.attempt, len(right)),
    )
    return replace(resolution, checked=True, agreed=frozenset()), result
