"""The bots' second sense of words: what people say together, and what a word is.

The sentence model (``model``) reads a clue and a keyword as two short sentences
and says how alike they are; people's clues lean on more than that: on what
comes up together in the world (a pony's mane, a cod and a mast at sea) and on
what a thing is (Stilton is a cheese, a sherlock a detective). Two published
resources carry some of it, and an extract of each lies beside this module
(``associations/``, made by ``bench/data/make_associations.py``, which says how):

- GloVe's 50-dimension word vectors (Stanford NLP, PDDL-1.0), learned from how
  often words appear near one another in Wikipedia and newswire: the 100,000 most
  frequent plain words, as int8 (5.9 MB);
- WordNet 3.1 (Princeton University; its licence, which allows redistribution
  with its notice, is ``associations/WORDNET-LICENSE.txt``): for each of those
  words, the words of its first three senses' synonyms and definitions, and of
  the senses one link away (2.2 MB, gzip); and the phrases it is said in: the
  other word of each WordNet lemma of two words it is one of (``brown_sugar``,
  ``times_square``: 0.26 MB, gzip).

A clue and a keyword's association is then the GloVe cosine, taken relative to
the table as the sentence model's is, plus a fixed share when WordNet links them
(one is among the other's words) and another when they make a phrase (Times for
Square, Caesar for Salad). ``WEIGHT``, ``LINKED`` and ``PHRASE`` were chosen on
the bots' benchmark; their figures are in docs/performance.md ("A second sense
of words", "Phrases people say"). English only: a French or Chinese room reads
words through the bridge.

Read with the bots' brain, the first time a bot is needed (``associations()``,
about half a second, some 37 MB), never by a server whose rooms have no bots.
"""

from __future__ import annotations

import functools
import gzip
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FOLDER = Path(__file__).parent / "associations"
WEIGHT = 0.25
"""How much the co-occurrence cosine counts beside the sentence model's."""
LINKED = 0.2
"""How much a WordNet link between a clue and a keyword counts."""
PHRASE = 0.2
"""How much it counts that a clue and a keyword make a phrase WordNet lists (brown sugar)."""
WRITING = 0.3
"""How much the co-occurrence cosine counts when a bot chooses its own clue."""
PHRASE_WRITING = 0.2
"""How much making a phrase with a keyword counts when a bot chooses its own clue."""


class Associations:
    """GloVe vectors and WordNet neighbours of the most frequent English words."""

    def __init__(self, folder: Path = FOLDER) -> None:
        import numpy as np

        with np.load(folder / "vectors.npz") as data:
            words = data["words"].tolist()
            # Kept as int8 with each row's scale (5 MB, not 20): a row is made a float
            # vector only when a word is asked for.
            self._int8 = np.vstack([data["vectors"], np.zeros((1, 50), np.int8)])
            self._scale = np.append(data["scale"], np.float32(0.0))
        self._np = np
        self._row = {w: i for i, w in enumerate(words)}
        self._kept: tuple[tuple[str, ...], Any] | None = None
        """The vectors of the last long tuple of words asked for: a bot's clue words,
        the same tuple at every clue it writes."""
        self._near: dict[str, str] = {}
        """Each word's neighbours, space-separated: split when asked (a tenth of them
        ever are), which halves the time to load."""
        self._lemma: dict[str, str] = {}
        with gzip.open(folder / "wordnet.tsv.gz", "rt", encoding="utf-8") as lines:
            for line in lines:
                word, _, near = line.rstrip("\n").partition("\t")
                if near.startswith("="):
                    self._lemma[word] = near[1:]
                else:
                    self._near[word] = near
        self._index: tuple[Sequence[str], dict[str, int]] | None = None
        """The clue words' places, for ``phrase_matrix`` (the same tuple every time)."""
        self._phrases: dict[str, str] = {}
        """Each word's phrase partners, space-separated, split when asked."""
        with gzip.open(folder / "phrases.tsv.gz", "rt", encoding="utf-8") as lines:
            for line in lines:
                word, _, partners = line.rstrip("\n").partition("\t")
                self._phrases[word] = partners

    def vectors(self, words: Sequence[str]) -> Any:
        """``len(words) x 50`` unit vectors; a word not among the kept ones is zeros."""
        if self._kept is not None and words is self._kept[0]:
            return self._kept[1]
        missing = len(self._scale) - 1
        rows = [self._row.get(w.lower(), missing) for w in words]
        found = self._int8[rows].astype(self._np.float32) * self._scale[rows, None]
        if isinstance(words, tuple) and len(words) > 1000:
            self._kept = (words, found)
        return found

    def linked(self, a: str, b: str) -> bool:
        """Whether WordNet puts ``a`` among ``b``'s words or ``b`` among ``a``'s."""
        a, b = a.lower(), b.lower()
        base_a, base_b = self._lemma.get(a, a), self._lemma.get(b, b)
        near_a, near_b = self._near.get(base_a, "").split(), self._near.get(base_b, "").split()
        return b in near_a or base_b in near_a or a in near_b or base_a in near_b

    def partners(self, word: str) -> frozenset[str]:
        """The words that make a phrase with ``word`` (``brown`` and ``cane`` for Sugar),
        its lemma's when it is a form of one (Sugars)."""
        return self._partners(word.lower())

    @functools.lru_cache(maxsize=4096)  # noqa: B019 - one instance a process, kept for good
    def _partners(self, word: str) -> frozenset[str]:
        base = self._lemma.get(word, word)
        return frozenset(self._phrases.get(word, "").split() + self._phrases.get(base, "").split())

    def phrase(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b``, or their lemmas, make a phrase WordNet lists."""
        a, b = a.lower(), b.lower()
        with_b = self._partners(b)
        return a in with_b or self._lemma.get(a, a) in with_b

    def phrase_matrix(self, candidates: Sequence[str], words: Sequence[str]) -> Any:
        """``len(candidates) x len(words)``, 1.0 where a candidate makes a phrase with a
        word: the partners of the few words looked up, not every candidate's."""
        np = self._np
        if self._index is None or self._index[0] is not candidates:
            self._index = (candidates, {w: i for i, w in enumerate(candidates)})
        index = self._index[1]
        found = np.zeros((len(candidates), len(words)), np.float32)
        for column, word in enumerate(words):
            rows = [index[w] for w in self.partners(word) if w in index]
            found[rows, column] = 1.0
        return found

    def fit(self, clues: Sequence[str], keywords: Sequence[str]) -> Any:
        """``len(clues) x len(keywords)``: what this sense adds to the sentence model's
        relatedness, relative to these keywords (their mean taken off, as there).
        Kept for the clover's later decisions, which ask the same (read-only)."""
        return self._fit(tuple(clues), tuple(keywords))

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one instance a process, kept for good
    def _fit(self, clues: tuple[str, ...], keywords: tuple[str, ...]) -> Any:
        np = self._np
        said = np.asarray(self.vectors([*clues, *keywords]), dtype=np.float64)
        known = np.any(said != 0, axis=1)
        relative = said - said[len(clues) :].mean(axis=0)
        relative /= np.maximum(np.linalg.norm(relative, axis=1, keepdims=True), 1e-12)
        cosine = relative[: len(clues)] @ relative[len(clues) :].T
        cosine[~known[: len(clues)]] = 0.0  # a clue it does not know: no opinion
        links = np.array([[self.linked(c, k) for k in keywords] for c in clues], dtype=float)
        links -= links.mean(axis=1, keepdims=True) if len(keywords) else 0.0
        said_with = np.array([[self.phrase(c, k) for k in keywords] for c in clues], dtype=float)
        said_with -= said_with.mean(axis=1, keepdims=True) if len(keywords) else 0.0
        found = WEIGHT * cosine + LINKED * links + PHRASE * said_with
        found.setflags(write=False)
        return found


_loaded: list[Associations] = []
_lock = threading.Lock()


def associations() -> Associations:
    """The one ``Associations`` of the process, read from disk the first time."""
    with _lock:
        if not _loaded:
            _loaded.append(Associations())
        return _loaded[0]
