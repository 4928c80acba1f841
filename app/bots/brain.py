"""What a bot knows of words: how related two are, and which words it may write.

One ``Brain`` serves every bot of a server. It is slow to make (the model and
the clue words' vectors: a second from the cache, several the first time) and
then answers from memory; it keeps no state of any room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.bots.model import Embedder
from app.bots.vocabulary import (
    candidate_vectors,
    candidate_words,
    foreign_candidate_vectors,
    foreign_candidate_words,
    learn_keywords,
)


class Brain:
    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder or Embedder()
        self.words = candidate_words()
        """The words a bot may write as clues, most frequent first."""
        self.word_vectors = candidate_vectors(self.embedder)
        self._foreign: dict[str, tuple[tuple[str, ...], Any]] = {}

    def clue_vocabulary(self, language: str) -> tuple[tuple[str, ...], Any]:
        """The words a bot may write in a room of ``language`` and their meanings (unit
        vectors, one a row). Another language's are made the first time a room of it
        needs them, with the meanings of its deck's keywords (some 40 s on one core the
        first time, then read from the disk cache in well under a second)."""
        if language not in ("fr", "zh"):
            return self.words, self.word_vectors
        if language not in self._foreign:
            from app.bots.guessing import TEMPLATES

            learn_keywords(language, self.embedder, ("{}", *TEMPLATES))
            words, _ = foreign_candidate_words(language)
            self._foreign[language] = (words, foreign_candidate_vectors(language, self.embedder))
        return self._foreign[language]

    def vectors(self, words: Sequence[str]) -> Any:
        """Unit vectors of ``words``, lowercase (the model knows no case)."""
        return self.embedder.vectors([w.lower() for w in words])
