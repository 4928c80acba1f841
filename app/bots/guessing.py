"""A bot rebuilding a clover: the arrangement of the cards that best fits the clues.

Each spot touches two leaves, so where a card lies and how it is turned adds
its own share to the fit: how related the clue of each of those two leaves is
to the keyword the card turns towards it. The best board is the one whose
shares add up to most, found by trying every way of laying the free cards on
the free spots (at most 8 cards on 4 spots: 1,680 ways).

How related a clue and a keyword are is the cosine of two vectors of the
bots' model, each word said two ways and the two vectors added up
(``TEMPLATES``: "words about pepper", "pepper things"), then taken relative
to the table: the mean vector of the visible keywords is taken off both
sides. Why: a bare word is a poor sentence for a sentence model, and each way
of wrapping it moves its vector its own way; the sum keeps what the ways
agree on, the word's sense. The wrapped words also share much of their
vectors with one another, the wrapping's part, which the mean of the table's
keywords (said the same ways) carries: taking it off leaves what sets one
keyword apart from the others on the table, which is what a guesser has to
tell apart. The sum of the two shares of a leaf stays the measure: people's
clues often lean on one keyword of the pair more than the other. In English, a
second sense of words is added to the model's (``associations``: how often the
two words come up together, and whether WordNet links them), which reads
people's clues better than the model alone.

This way, and the ways that did not help, were chosen by the bots' benchmark
(``python -m bench.bots``, clues written by hand as people write them): its
scores, and what the model's time costs a decision, are in
docs/performance.md ("The bots' guessing"). The model runs once per way for a
word it has not met and keeps every vector it made, so every later decision on
a clover costs next to nothing.

Cards already on the board stay where they are: a bot fills the gaps around
what the table laid, and never undoes a person's move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Protocol

from app.bots.associations import associations
from app.bots.bridge import meanings
from app.rules.geometry import LEAVES, ROTATIONS, SPOTS

TEMPLATES: tuple[str, ...] = ("words about {}", "{} things")
"""The ways each clue and keyword is said to the model, its vector the sum of theirs."""


class Vectors(Protocol):
    """What a guess needs of a brain (``app.bots.brain.Brain`` has it)."""

    def vectors(self, words: Sequence[str]) -> Any: ...


@dataclass(frozen=True)
class Laid:
    card: str
    rotation: int


def best_board(
    clues: Sequence[str],
    cards: Mapping[str, Sequence[str]],
    board: Mapping[int, Laid],
    rejected: frozenset[tuple[int, str, int]],
    brain: Vectors,
    language: str = "en",
) -> dict[int, Laid]:
    """The whole board: ``board`` as it is, its free spots filled as the clues say best.

    ``cards``: every card the guessers can see (pool and board), by id, with its
    keywords; ``rejected``: ``(spot, card, rotation)`` placements a check refused.
    The ways are weighed all at once with numpy (a bot's turn holds the
    interpreter for well under a millisecond once the model knows the words), the
    first best in a fixed order.
    """
    import numpy as np

    placed = {slot.card for slot in board.values()}
    free_spots = [s for s in SPOTS if s not in board]
    free_cards = sorted(c for c in cards if c not in placed)
    result = dict(board)
    if not free_spots or len(free_cards) < len(free_spots):
        return result
    seen = sorted(cards)  # the table's keywords, free or laid: the same mean all clover long
    fit = relatedness(clues, [w for card in seen for w in cards[card]], brain, language)
    first = {card: 4 * seen.index(card) for card in free_cards}
    # share[card, spot, rotation]: what that card adds lying there, so turned
    share = np.full((len(free_cards), len(SPOTS), len(ROTATIONS)), -np.inf)
    for i, card in enumerate(free_cards):
        for spot in free_spots:
            for rotation in ROTATIONS:
                if (spot, card, rotation) not in rejected:
                    share[i, spot, rotation] = _share(fit, first[card], spot, rotation)
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


def relatedness(
    clues: Sequence[str], keywords: Sequence[str], brain: Vectors, language: str = "en"
) -> Any:
    """``len(clues) x len(keywords)``: how related each clue is to each keyword, relative
    to these keywords (the table's, all of them: their mean is what they share). In a
    French or Chinese room, words are read through their English glosses (``bridge``)."""
    import numpy as np

    words = [*clues, *keywords]
    summed: Any = meanings(brain, words, language, TEMPLATES)
    relative = summed - summed[len(clues) :].mean(axis=0)
    relative /= np.maximum(np.linalg.norm(relative, axis=1, keepdims=True), 1e-12)
    fit = relative[: len(clues)] @ relative[len(clues) :].T
    if language == "en":
        fit = fit + associations().fit(clues, keywords)
    return fit


def _share(fit: Any, first: int, spot: int, rotation: int) -> float:
    """What a card lying on ``spot`` at ``rotation`` adds: the fit of its keyword on edge
    ``spot`` to leaf ``spot``'s clue, and of its keyword on edge ``spot - 1`` to that leaf's."""
    total = 0.0
    for leaf in (spot, (spot - 1) % len(LEAVES)):
        edge = leaf  # leaf i faces edge i of both its spots
        total += float(fit[leaf, first + (edge - rotation) % 4])
    return total
