"""A bot writing its clues: for each leaf, a common word close to both its keywords.

A candidate's fit to a pair is its relatedness to the weaker of the two
keywords (a clue must reach both) plus a little of the stronger, less how much
it also fits the clover's other keywords, which would lead the guessers astray.
The best few are then put to the room's clue checker, and the first it takes
without a warning is written: never a keyword, a form of one or a relative,
never a word written for another leaf, never a blocklisted word (those are not
candidates at all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from app.bots.bridge import meanings
from app.rules.languages import check_clue_in

TRIED = 60
"""How many of the best candidates a leaf puts to the clue checker, at most."""
STRONGER = 0.35
"""How much the keyword a candidate is closer to counts, beside the farther one."""
ASTRAY = 0.8
"""How much a candidate's pull towards the clover's other keywords counts against it."""


class Vocabulary(Protocol):
    """What writing needs of a brain (``app.bots.brain.Brain`` has it)."""

    words: tuple[str, ...]
    word_vectors: Any

    def vectors(self, words: Sequence[str]) -> Any: ...

    def clue_vocabulary(self, language: str) -> tuple[tuple[str, ...], Any]: ...


def write_clues(
    pairs: Sequence[tuple[str, str]],
    keywords: Sequence[str],
    written: Sequence[str | None],
    brain: Vocabulary,
    language: str = "en",
) -> tuple[str, ...]:
    """Four clues, leaf by leaf: those ``written`` already kept, the others found.

    ``keywords``: every keyword on the clover's four cards (the checker judges
    against all of them, inward ones included). In a French or Chinese room the
    candidates are that language's common words, each meaning what its English
    glosses mean, and keywords are read through theirs (``bridge``).
    """
    import numpy as np

    clues: list[str | None] = list(written)
    taken = {c.lower() for c in clues if c}
    words = [w for pair in pairs for w in pair]
    candidates, vectors = brain.clue_vocabulary(language)
    fit = vectors @ np.asarray(meanings(brain, words, language, ("{}",))).T  # candidate x word
    everything = vectors @ np.asarray(meanings(brain, list(keywords), language, ("{}",))).T
    for leaf, (a, b) in enumerate(pairs):
        if clues[leaf]:
            continue
        near, far = fit[:, 2 * leaf], fit[:, 2 * leaf + 1]
        weaker, stronger = np.minimum(near, far), np.maximum(near, far)
        others = [i for i, k in enumerate(keywords) if k not in (a, b)]
        astray = everything[:, others].max(axis=1) if others else 0.0
        score = weaker + STRONGER * stronger - ASTRAY * np.maximum(0.0, astray - weaker)
        clue = _first_accepted(score, candidates, keywords, taken, language)
        clues[leaf] = clue
        taken.add(clue.lower())
    return tuple(c or "" for c in clues)


def _first_accepted(
    score: Any, words: Sequence[str], keywords: Sequence[str], taken: set[str], language: str
) -> str:
    import numpy as np

    order = np.argsort(-score, kind="stable")
    for index in order[:TRIED]:
        word = words[int(index)]
        if word in taken:
            continue
        verdict = check_clue_in(language, word, keywords)
        if verdict.error is None and verdict.warning is None:
            return word
    # Sixty near words all refused: take the best word the checker has nothing against.
    for index in order[TRIED:]:
        word = words[int(index)]
        verdict = check_clue_in(language, word, keywords)
        if word not in taken and verdict.error is None and verdict.warning is None:
            return word
    raise LookupError("no candidate word passes the clue checker")
