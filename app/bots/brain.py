"""What a bot knows of words: how related two are, and which words it may write.

One ``Brain`` serves every bot of a server. It is slow to make (the model and
the clue words' vectors: a second from the cache, several the first time) and
then answers from memory; it keeps no state of any room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.bots.associations import associations
from app.bots.model import Embedder
from app.bots.vocabulary import (
    ClueWords,
    candidate_vectors,
    candidate_words,
    foreign_clue_words,
    learn_keywords,
)


def one_thread_sums() -> None:
    """Hold numpy's BLAS to one thread, as the model's session is held (``model``).

    The bots' sums are small (6,000 clue words by eight keywords): one thread does
    one in a millisecond or two, where the BLAS's own threads, on a host whose cores
    are busy with the rooms and everything else, wait on each other and made the same
    product take 4 to 280 ms. Process-wide, and only when a bot is first needed: the
    server does no other BLAS sums, and one without bots never loads numpy at all."""
    import numpy  # noqa: F401 - its BLAS must be loaded to be found and held
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


class Brain:
    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        foreign_words: int | None = None,
        ready_keywords: bool = True,
    ) -> None:
        """``foreign_words``: how many clue words of another language (by default
        ``vocabulary.FOREIGN_SIZE``); ``ready_keywords``: whether the deck's keywords of
        another language are embedded ahead of its first game. A test's brain takes a
        few hundred words and no keywords, which it makes in seconds on a clean machine."""
        one_thread_sums()
        self.embedder = embedder or Embedder()
        associations()  # read now, not in a bot's first decision
        self.words = candidate_words()
        """The words a bot may write as clues, most frequent first."""
        self.word_vectors = candidate_vectors(self.embedder)
        self._foreign_words = foreign_words
        self._ready_keywords = ready_keywords
        self._clue_words: dict[str, ClueWords] = {}

    def clue_words(self, language: str) -> ClueWords:
        """The words a bot may write in a room of ``language`` and what they mean.
        Another language's are made the first time a room of it needs them, with the
        meanings of its deck's keywords (some 40 s on one core the first time, then read
        from the disk cache in well under a second)."""
        if language not in ("fr", "zh"):
            return ClueWords(self.words, self.word_vectors)
        if language not in self._clue_words:
            from app.bots.guessing import TEMPLATES

            if self._ready_keywords:
                learn_keywords(language, self.embedder, ("{}", *TEMPLATES))
            self._clue_words[language] = foreign_clue_words(
                language, self.embedder, self._foreign_words
            )
        return self._clue_words[language]

    def vectors(self, words: Sequence[str]) -> Any:
        """Unit vectors of ``words``, lowercase (the model knows no case)."""
        return self.embedder.vectors([w.lower() for w in words])
