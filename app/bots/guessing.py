"""A bot rebuilding a clover: the arrangement of the cards that best fits the clues.

Each spot touches two leaves, so where a card lies and how it is turned adds
its own share to the fit: how related the clue of each of those two leaves is
to the keyword the card turns towards it. The best board is the one whose
shares add up to most, found by trying every way of laying the free cards on
the free spots (at most 8 cards on 4 spots: 1,680 ways).

Cards already on the board stay where they are: a bot fills the gaps around
what the table laid, and never undoes a person's move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Protocol

from app.rules.geometry import LEAVES, ROTATIONS, SPOTS


class Relatedness(Protocol):
    """What a guess needs of a brain (``app.bots.brain.Brain`` has it)."""

    def relatedness(self, left: Sequence[str], right: Sequence[str]) -> Any: ...


@dataclass(frozen=True)
class Laid:
    card: str
    rotation: int


def best_board(
    clues: Sequence[str],
    cards: Mapping[str, Sequence[str]],
    board: Mapping[int, Laid],
    rejected: frozenset[tuple[int, str, int]],
    brain: Relatedness,
) -> dict[int, Laid]:
    """The whole board: ``board`` as it is, its free spots filled as the clues say best.

    ``cards``: every card the guessers can see (pool and board), by id, with its
    keywords; ``rejected``: ``(spot, card, rotation)`` placements a check refused.
    """
    ids = sorted(cards)
    words = [w for card in ids for w in cards[card]]
    fit = brain.relatedness(list(clues), words)  # leaf x (card, edge)
    share = {
        (card, spot, rotation): _share(fit, 4 * i, spot, rotation)
        for i, card in enumerate(ids)
        for spot in SPOTS
        for rotation in ROTATIONS
    }
    placed = {slot.card for slot in board.values()}
    free_spots = [s for s in SPOTS if s not in board]
    free_cards = [c for c in ids if c not in placed]
    best: tuple[float, tuple[tuple[int, str, int], ...]] | None = None
    for chosen in permutations(free_cards, len(free_spots)):
        total = 0.0
        laid = []
        for spot, card in zip(free_spots, chosen, strict=True):
            options = [
                (share[card, spot, r], -r) for r in ROTATIONS if (spot, card, r) not in rejected
            ]
            if not options:
                break
            value, minus_r = max(options)
            total += value
            laid.append((spot, card, -minus_r))
        else:
            if best is None or total > best[0] + 1e-9:
                best = (total, tuple(laid))
    result = dict(board)
    for spot, card, rotation in best[1] if best else ():
        result[spot] = Laid(card, rotation)
    return result


def _share(fit: Any, first: int, spot: int, rotation: int) -> float:
    """What a card lying on ``spot`` at ``rotation`` adds: the fit of its keyword on edge
    ``spot`` to leaf ``spot``'s clue, and of its keyword on edge ``spot - 1`` to that leaf's."""
    total = 0.0
    for leaf in (spot, (spot - 1) % len(LEAVES)):
        edge = leaf  # leaf i faces edge i of both its spots
        total += float(fit[leaf, first + (edge - rotation) % 4])
    return total
