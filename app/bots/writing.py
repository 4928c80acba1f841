"""A bot writing its clues: for each leaf, a common word close to both its keywords.

A candidate's fit to a pair is its relatedness to the weaker of the two
keywords (a clue must reach both) plus a little of the stronger, less how much
it also fits the clover's other keywords, which would lead the guessers astray.
In English, how often the words come up together (``associations``) counts
beside the model's relatedness, as it does when the bots guess, and so does a
phrase a candidate makes with a keyword (corn sugar and the corn belt: ``corn``
for Sugar and Belt).
The best few are then put to the room's clue checker, and the first it takes
without a warning is written: never a keyword, a form of one or a relative,
never a word written for another leaf, never a blocklisted word (those are not
candidates at all).

In a French or Chinese room a candidate is a word of that language, and it must
reach the pair in each of its senses (its English glosses), not only on the
average of them: a person reads a word in its own sense, not the bridge's, so
朝廷 (the emperor's court) is never a clue for a basketball court.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from app.bots.associations import PHRASE_WRITING, WRITING, associations
from app.bots.bridge import meanings
from app.bots.vocabulary import ClueWords
from app.rules.languages import check_clue_in

TRIED = 60
"""How many of the best candidates a leaf puts to the clue checker, at most."""
STRONGER = 0.35
"""How much the keyword a candidate is closer to counts, beside the farther one."""
ASTRAY = 0.8
"""How much a candidate's pull towards the clover's other keywords counts against it."""
SLACK = 0.05
"""In another language, how much less a word's second and third glosses need fit a pair
than its first: every sense must reach the pair, the usual one most."""
FREQUENT = 0.02
"""In another language, how much a word's commonness counts (a point of Zipf frequency,
ten times as frequent, is worth 0.02 of cosine): of two near words, a person writes
the everyday one."""


class Vocabulary(Protocol):
    """What writing needs of a brain (``app.bots.brain.Brain`` has it)."""

    words: tuple[str, ...]
    word_vectors: Any

    def vectors(self, words: Sequence[str]) -> Any: ...

    def clue_words(self, language: str) -> ClueWords: ...


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
    vocabulary = brain.clue_words(language)
    candidates, vectors = vocabulary.words, vocabulary.vectors
    # In the candidates' own float32: a float64 side would copy all 6,000 of them into
    # float64 first, which was most of a writing decision's time.
    said = np.asarray(meanings(brain, [*words, *keywords], language, ("{}",)), vectors.dtype)
    pair_meanings = said[: len(words)]
    products = vectors @ said.T  # candidate x word, the pairs' then every keyword's
    fit, everything = products[:, : len(words)], products[:, len(words) :]
    if language == "en":
        # What people say together counts too: the guessers read clues with it.
        sense = associations()
        candidate_vectors = sense.vectors(candidates)
        fit = fit + WRITING * (candidate_vectors @ sense.vectors(words).T)
        everything = everything + WRITING * (candidate_vectors @ sense.vectors(keywords).T)
        # And the phrases people say (brown sugar, a brown belt): a word said with a
        # keyword is nearer it, for the pair's keywords as for the clover's others.
        fit = fit + PHRASE_WRITING * sense.phrase_matrix(candidates, words)
        everything = everything + PHRASE_WRITING * sense.phrase_matrix(candidates, keywords)
    senses = None
    if vocabulary.senses is not None:
        senses = np.einsum("ngd,kd->ngk", vocabulary.senses, pair_meanings)
        missing = ~np.any(vocabulary.senses != 0, axis=2)  # candidate x gloss
        common = FREQUENT * (vocabulary.frequency - 4.0)
    for leaf, (a, b) in enumerate(pairs):
        if clues[leaf]:
            continue
        near, far = fit[:, 2 * leaf], fit[:, 2 * leaf + 1]
        weaker, stronger = np.minimum(near, far), np.maximum(near, far)
        others = [i for i, k in enumerate(keywords) if k not in (a, b)]
        astray = everything[:, others].max(axis=1) if others else 0.0
        score = weaker + STRONGER * stronger
        if senses is not None:
            # Another language: every sense of the word must reach the pair (a word of
            # several unrelated senses is read by a person in its own, not the bridge's),
            # its first most, and the common word wins over the rare.
            own = np.minimum(senses[:, :, 2 * leaf], senses[:, :, 2 * leaf + 1])
            own = own + STRONGER * np.maximum(senses[:, :, 2 * leaf], senses[:, :, 2 * leaf + 1])
            own = np.where(missing, np.inf, own + SLACK * (np.arange(own.shape[1]) > 0))
            score = np.minimum(score, own.min(axis=1)) + common
        score = score - ASTRAY * np.maximum(0.0, astray - weaker)
        clue = _first_accepted(score, candidates, keywords, taken, language)
        clues[leaf] = clue
        taken.add(clue.lower())
    return tuple(c or "" for c in clues)


def _first_accepted(
    score: Any, words: Sequence[str], keywords: Sequence[str], taken: set[str], language: str
) -> str:
    import numpy as np

    # The best TRIED first, in the order a stable sort of them all would give (the
    # whole sort, a third of a leaf's time, only if every one of them is refused).
    best = np.argpartition(-score, TRIED)[:TRIED] if len(score) > TRIED else np.arange(len(score))
    best = best[np.lexsort((best, -score[best]))]
    for index in best:
        word = words[int(index)]
        if word in taken:
            continue
        verdict = check_clue_in(language, word, keywords)
        if verdict.error is None and verdict.warning is None:
            return word
    # Sixty near words all refused: take the best word the checker has nothing against.
    order = np.argsort(-score, kind="stable")
    for index in order[TRIED:]:
        word = words[int(index)]
        verdict = check_clue_in(language, word, keywords)
        if word not in taken and verdict.error is None and verdict.warning is None:
            return word
    raise LookupError("no candidate word passes the clue checker")
