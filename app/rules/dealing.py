"""Dealing a game: every clover's cards, rotations, decoys and pool order.

The whole deal is drawn when the game starts, from one seeded generator, so a
game replays exactly from its seed. Drawing the decoys now rather than after
the clue phase changes nothing anyone can see: they come from the rest of the
deck, unseen, either way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.rules.geometry import ROTATIONS, SPOTS, Words
from app.rules.state import Card, Clover


def deal(
    deck: Sequence[Words], players: int, decoys: int, rng: random.Random
) -> tuple[tuple[Clover, ...], int]:
    """Deal ``players`` clovers with ``decoys`` decoys each; also draw the first Spectator.

    Raises ``ValueError`` when the deck is too small; the engine checks that
    first and refuses the start with a named error.
    """
    per_clover = 4 + decoys
    if len(deck) < players * per_clover:
        raise ValueError("deck too small for this game")
    drawn = rng.sample(range(len(deck)), players * per_clover)
    clovers = []
    for owner in range(players):
        mine = drawn[owner * per_clover : (owner + 1) * per_clover]
        ids = _fresh_ids(rng, per_clover)
        cards = [Card(id=ids[i], words=deck[index]) for i, index in enumerate(mine)]
        pool_order = [card.id for card in cards]
        rng.shuffle(pool_order)
        clovers.append(
            Clover(
                owner=owner,
                cards=tuple(cards[:4]),
                rotations=tuple(rng.choice(ROTATIONS) for _ in SPOTS),
                decoys=tuple(cards[4:]),
                pool_order=tuple(pool_order),
            )
        )
    first_spectator = rng.randrange(players)
    return tuple(clovers), first_spectator


def _fresh_ids(rng: random.Random, count: int) -> list[str]:
    """Random card ids, distinct within a clover, that encode nothing about the deal."""
    ids: list[str] = []
    while len(ids) < count:
        candidate = f"{rng.getrandbits(48):012x}"
        if candidate not in ids:
            ids.append(candidate)
    return ids
