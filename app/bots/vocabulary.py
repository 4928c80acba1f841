"""The words a bot may write as clues: common English words, none offensive.

Candidates are the most frequent English words in ``wordfreq``'s list, kept
when they are plain lowercase words of 3 to 12 letters that say something
(no function words like "which" or "about"), are not a plural of another
candidate, and are on no blocklist: ``better-profanity``'s list of offensive
words and ours (``blocklist.txt``: words a friendly table would not want a
bot to write, such as violence and slurs the first list lacks).

Their vectors take a few seconds to compute, so they are kept on disk
(``SOCLOVER_BOT_CACHE``, by default the user's cache directory) under a name
that changes with the model, the vocabulary and this list.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from app.bots.model import MODEL_SHA256, Embedder

log = logging.getLogger(__name__)

SIZE = 6000
"""How many candidate words: enough for a clue for most pairs, a few seconds to embed."""
LISTED = 12000
"""How far down wordfreq's frequency list to look for them."""
WORD = re.compile(r"[a-z]{3,12}")
BLOCKLIST = Path(__file__).parent / "blocklist.txt"

FUNCTION_WORDS = Path(__file__).parent / "function_words.txt"
"""Words that name nothing ("which", "about"): a clue must say something."""


def blocked_words() -> frozenset[str]:
    """Every word a bot never writes (lowercase)."""
    return _blocked()


@cache
def _blocked() -> frozenset[str]:
    theirs = (files("better_profanity") / "profanity_wordlist.txt").read_text(encoding="utf-8")
    return frozenset(_lines(theirs)) | frozenset(_lines(BLOCKLIST))


def _lines(source: Path | str) -> list[str]:
    """The words of a list, one a line, lowercase; ``#`` starts a comment line."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    words = (line.strip().lower() for line in text.splitlines())
    return [w for w in words if w and not w.startswith("#")]


@cache
def candidate_words() -> tuple[str, ...]:
    """The clue words, most frequent first."""
    from wordfreq import top_n_list

    blocked = blocked_words()
    function_words = set(_lines(FUNCTION_WORDS))
    listed = top_n_list("en", LISTED)
    known = set(listed)
    kept: list[str] = []
    for word in listed:
        if not WORD.fullmatch(word) or word in function_words or word in blocked:
            continue
        if any(part in blocked for part in _parts(word)):
            continue
        if word.endswith("s") and (word[:-1] in known or word[:-2] in known):
            continue  # a plural of a word that is a candidate itself
        kept.append(word)
        if len(kept) == SIZE:
            break
    return tuple(kept)


def _parts(word: str) -> list[str]:
    """The blocklisted words a candidate may hide (a compound's halves)."""
    return [word[:i] for i in range(4, len(word) - 2)] + [word[i:] for i in range(3, len(word) - 3)]


def candidate_vectors(embedder: Embedder) -> Any:
    """The candidates' vectors, read from the cache or computed (and cached)."""
    import numpy as np

    words = candidate_words()
    path = _cache_dir() / f"clue-words-{_fingerprint(words)}.npy"
    try:
        vectors = np.load(path)
        if vectors.shape == (len(words), 384):
            embedder.learn(words, vectors)
            return vectors
    except (OSError, ValueError):
        pass
    vectors = embedder.vectors(words)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(partial, vectors)
        partial.replace(path)
    except OSError as error:  # a read-only home: compute them again next time
        log.warning("could not keep the bots' word vectors in %s: %s", path.parent, error)
    return vectors


def _cache_dir() -> Path:
    configured = os.environ.get("SOCLOVER_BOT_CACHE")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "soclover-table"


def _fingerprint(words: tuple[str, ...]) -> str:
    digest = hashlib.sha256(MODEL_SHA256.encode())
    digest.update("\n".join(words).encode())
    return digest.hexdigest()[:16]


FOREIGN_SIZE = {"fr": 5000, "zh": 6000}
"""How many clue words a bot may write in each other language, most frequent first."""
FOREIGN_LISTED = 30_000
"""How far down wordfreq's list of the language a clue word may be: words people know."""
SKIPPED = 150
"""wordfreq's most frequent words of a language, never written: nearly all function words
("dans", "的"), which name nothing."""
ALONE = Path(__file__).parent / "alone.zh.txt"
"""The Chinese single characters a bot may write (others are parts of words: 名, 顶)."""


def foreign_blocklist(language: str) -> frozenset[str]:
    """The words of ``language`` a bot never writes (``blocklist.fr.txt``, ``blocklist.zh.txt``)."""
    return _foreign_blocked(language)


@cache
def _foreign_blocked(language: str) -> frozenset[str]:
    return frozenset(_lines(Path(__file__).parent / f"blocklist.{language}.txt"))


@cache
def single_characters() -> frozenset[str]:
    """The Chinese characters people write alone as a word (``alone.zh.txt``)."""
    return frozenset(w for line in _lines(ALONE) for w in line.split())


@dataclass(frozen=True)
class ClueWords:
    """The words a bot may write in a room's language, and what each means to it."""

    words: tuple[str, ...]
    """Most frequent first."""
    vectors: Any
    """Each word's meaning, one unit vector a row: in another language, its glosses'
    vectors weighted as a guesser reads it (``bridge.meanings``)."""
    senses: Any = None
    """In another language, ``len(words) x GLOSSES x 384``: each gloss's own unit vector
    (zero where a word has fewer glosses). A clue is written only where its senses agree."""
    frequency: Any = None
    """In another language, each word's Zipf frequency (wordfreq): common words first."""


@cache
def foreign_candidate_words(
    language: str, size: int | None = None
) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The clue words of ``language`` and their English glosses, most frequent first.

    Kept: a plain common word (``COMMON``) of the word list, in its dictionary form
    (French: its own lemma), not a verb only, in Chinese of two characters or more
    (or one people write alone, ``alone.zh.txt``), on no blocklist of the language, none
    of whose glosses holds a blocked English word, and whose usual sense says something
    (not a function word such as "which"). ``size``: how many (``FOREIGN_SIZE``).
    """
    import simplemma
    from wordfreq import top_n_list

    from app.bots.bridge import is_plain_word, lexicon

    blocked = blocked_words()
    theirs = foreign_blocklist(language)
    alone = single_characters() if language == "zh" else frozenset()
    function_words = set(_lines(FUNCTION_WORDS))
    rank = {w: i for i, w in enumerate(top_n_list(language, FOREIGN_LISTED))}
    words = lexicon(language)
    ranked = []
    for word, glosses in words.entries.items():
        if not glosses or not is_plain_word(word, language) or word in theirs:
            continue
        if word in words.names or word in words.verbs or rank.get(word, 0) < SKIPPED:
            continue
        if language == "zh" and len(word) == 1 and word not in alone:
            continue
        if language == "fr" and simplemma.lemmatize(word, lang="fr") != word:
            continue
        if glosses[0] in function_words:
            continue
        said = {part for gloss in glosses for part in re.split(r"[ '-]", gloss)}
        if said & blocked or any(gloss in blocked for gloss in glosses):
            continue
        ranked.append((rank[word], word, glosses))
    ranked.sort()
    kept = ranked[: size or FOREIGN_SIZE[language]]
    return tuple(w for _, w, _ in kept), tuple(g for _, _, g in kept)


def foreign_clue_words(language: str, embedder: Embedder, size: int | None = None) -> ClueWords:
    """The clue words of ``language`` with their meanings and their glosses' vectors,
    cached on disk (the glosses' vectors as float16: 14 MB for 6,000 words)."""
    import numpy as np
    from wordfreq import zipf_frequency

    from app.bots.bridge import GLOSSES, WEIGHTS

    words, glosses = foreign_candidate_words(language, size)
    digest = _fingerprint(tuple(f"{w}={'|'.join(g)}" for w, g in zip(words, glosses, strict=True)))
    path = _cache_dir() / f"clue-senses-{language}-{digest}.npy"
    senses = None
    try:
        senses = np.load(path).astype(np.float32)
        if senses.shape != (len(words), GLOSSES, 384):
            senses = None
    except (OSError, ValueError):
        pass
    if senses is None:
        said = sorted({g.lower() for gs in glosses for g in gs})
        found = dict(zip(said, embedder.vectors(said), strict=True))
        senses = np.zeros((len(words), GLOSSES, 384), dtype=np.float32)
        for row, gs in enumerate(glosses):
            for rank, gloss in enumerate(gs[:GLOSSES]):
                senses[row, rank] = found[gloss.lower()]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(partial, senses.astype(np.float16))
            partial.replace(path)
        except OSError as error:
            log.warning("could not keep the bots' word vectors in %s: %s", path.parent, error)
    # A word's meaning is its glosses weighted as ``bridge.meanings`` weighs them.
    weights = np.asarray(WEIGHTS[:GLOSSES] + (WEIGHTS[-1],) * (GLOSSES - len(WEIGHTS)))
    summed = np.einsum("wgd,g->wd", senses, weights[:GLOSSES])
    vectors = summed / np.maximum(np.linalg.norm(summed, axis=1, keepdims=True), 1e-12)
    frequency = np.asarray([zipf_frequency(w, language) for w in words])
    return ClueWords(words, vectors.astype(np.float32), senses, frequency)


def learn_keywords(language: str, embedder: Embedder, templates: tuple[str, ...]) -> None:
    """Make the meanings of the built-in deck's keywords ahead of any game of ``language``
    (every way of saying each gloss), from the disk cache or computed (and cached): a
    bot's first decision on a clover then embeds its clues only, as in English."""
    import numpy as np

    from app.bots.bridge import lexicon

    words = lexicon(language)
    said = sorted(
        {
            template.format(gloss.lower())
            for word in words.keywords
            for gloss in words.entries[word]
            for template in templates
        }
    )
    path = _cache_dir() / f"keywords-{language}-{_fingerprint(tuple(said))}.npy"
    try:
        vectors = np.load(path)
        if vectors.shape == (len(said), 384):
            embedder.learn(said, vectors)
            return
    except (OSError, ValueError):
        pass
    vectors = embedder.vectors(said)
    embedder.learn(said, vectors)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(partial, vectors)
        partial.replace(path)
    except OSError as error:
        log.warning("could not keep the bots' word vectors in %s: %s", path.parent, error)
