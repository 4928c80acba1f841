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
    The ways are weighed all at once with numpy (a bot's turn holds the
    interpreter for well under a millisecond), the first best in a fixed order.
    """
    import numpy as np

    placed = {slot.card for slot in board.values()}
    free_spots = [s for s in SPOTS if s not in board]
    free_cards = sorted(c for c in cards if c not in placed)
    result = dict(board)
    if not free_spots or len(free_cards) < len(free_spots):
        return result
    words = [w for card in free_cards for w in cards[card]]
    fit = np.asarray(brain.relatedness(list(clues), words), dtype=np.float64)
    # share[card, spot, rotation]: what that card adds lying there, so turned
    share = np.full((len(free_cards), len(SPOTS), len(ROTATIONS)), -np.inf)
    for i, card in enumerate(free_cards):
        for spot in free_spots:
            for rotation in ROTATIONS:
                if (spot, card, rotation) not in rejected:
                    share[i, spot, rotation] = _share(fit, 4 * i, spot, rotation)
    best_turn = share.argmax(axis=2)  # the first best rotation of each card on each spot
    best_share = share.max(axis=2)
    ways = np.array(list(permutations(range(len(free_cards)), len(free_spots))), dtype=np.intp)
    totals = best_share[ways, np.array(free_spots)].sum(axis=1)
    if not np.isfinite(totals.max()):
        return result  # every way lays a refused placement: nothing to propose
    chosen = ways[int(totals.argmax())]
    for spot, i in zip(free_spots, chosen, strict=True):
        result[spot] = Laid(free_cards[int(i)], int(best_turn[int(i), spot]))
    return result


def _share(fit: Any, first: int, spot: int, rotation: int) -> float:
    """What a card lying on ``spot`` at ``rotation`` adds: the fit of its keyword on edge
    ``spot`` to leaf ``spot``'s clue, and of its keyword on edge ``spot - 1`` to that leaf's."""
    total = 0.0
    for leaf in (spot, (spot - 1) % len(LEAVES)):
        edge = leaf  # leaf i faces edge i of both its spots
        total += float(fit[leaf, first + (edge - rotation) % 4])
    return total
