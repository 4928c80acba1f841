"""The exact geometry of a clover: spots, leaves, edges and rotations.

Everything here follows the rules to the letter, because clues only make sense
when every screen agrees on which two keywords face which leaf::

            leaf 0 (top)
        +--------+--------+
        | spot 0 | spot 1 |
 leaf 3 +--------+--------+ leaf 1
        | spot 3 | spot 2 |
        +--------+--------+
           leaf 2 (bottom)

Edges are numbered like leaves: 0 top, 1 right, 2 bottom, 3 left. A card's
``words`` run clockwise from the top edge at rotation 0, and rotation ``r`` is
``r`` quarter turns clockwise, so edge ``e`` shows ``words[(e - r) % 4]``.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.text import N_

SPOTS: tuple[int, ...] = (0, 1, 2, 3)
LEAVES: tuple[int, ...] = (0, 1, 2, 3)
ROTATIONS: tuple[int, ...] = (0, 1, 2, 3)

# Translators: the spots of the clover, where cards lie; lower case, also inside sentences
SPOT_NAMES: tuple[str, ...] = (
    N_("top left"),
    N_("top right"),
    N_("bottom right"),
    N_("bottom left"),
)
# Translators: the leaves of the clover, by where they are ("right" is not "correct")
LEAF_NAMES: tuple[str, ...] = (N_("top"), N_("right"), N_("bottom"), N_("left"))

Words = tuple[str, str, str, str]
"""A card's keywords, clockwise from the top edge at rotation 0."""


def words_of(words: Sequence[str]) -> Words:
    """Four keywords, clockwise from the top edge; ``ValueError`` if they are not four."""
    top, right, bottom, left = words
    return (top, right, bottom, left)


def shown_word(words: Sequence[str], rotation: int, edge: int) -> str:
    """The keyword a card at ``rotation`` shows on ``edge``.

    >>> shown_word(("N", "E", "S", "W"), 1, 0)  # a quarter turn brings W to the top
    'W'
    """
    return words[(edge - rotation) % 4]


def leaf_spots(leaf: int) -> tuple[int, int]:
    """The two spots whose cards face ``leaf``: spot ``leaf`` and the next one clockwise."""
    return leaf, (leaf + 1) % 4


def spot_leaves(spot: int) -> tuple[int, int]:
    """The two leaves a card on ``spot`` faces; its outward edges have the same numbers."""
    return spot, (spot - 1) % 4


def turn(rotation: int, turns: int) -> int:
    """The rotation after ``turns`` quarter turns clockwise (negative: anticlockwise)."""
    return (rotation + turns) % 4


def pair(cards: Sequence[tuple[Sequence[str], int]], leaf: int) -> tuple[str, str]:
    """The Pair of ``leaf``, given ``(words, rotation)`` for each spot in spot order.

    Leaf ``i`` reads edge ``i`` of spot ``i`` and edge ``i`` of spot ``i + 1``:
    leaf 0 is TL top + TR top, leaf 1 TR right + BR right, leaf 2 BR bottom +
    BL bottom, leaf 3 BL left + TL left.
    """
    first, second = leaf_spots(leaf)
    return (
        shown_word(cards[first][0], cards[first][1], leaf),
        shown_word(cards[second][0], cards[second][1], leaf),
    )


def pairs(cards: Sequence[tuple[Sequence[str], int]]) -> tuple[tuple[str, str], ...]:
    """The four Pairs of a clover, in leaf order."""
    return tuple(pair(cards, leaf) for leaf in LEAVES)


def outward_keywords(cards: Sequence[tuple[Sequence[str], int]]) -> tuple[str, ...]:
    """The eight keywords that face outward: the ones a clue may not repeat."""
    return tuple(word for leaf_pair in pairs(cards) for word in leaf_pair)
