"""English words as the clue checker reads them: plural and singular, stem, how common.

Number comes from ``inflect``, asked in both directions (modern and classical
plurals: ``Cactuses`` and ``Cacti``), with its slips filtered out; stems from
Snowball's English stemmer; how common a word is from ``wordfreq``'s English
frequencies, on the Zipf scale, read from its own data once. Everything is
cached: the check runs on every keystroke.
"""

from __future__ import annotations

import re
from functools import lru_cache

import inflect
import snowballstemmer
import wordfreq

from app.rules.lookalikes import squash

_MODERN = inflect.engine()
_CLASSICAL = inflect.engine()
_CLASSICAL.classical(all=True)  # "cacti", "indices": both plurals are at the table
_STEMMER = snowballstemmer.stemmer("english")

_ENGLISH = re.compile(r"[a-z]+(?:[-'][a-z]+)*")


@lru_cache(maxsize=4096)
def forms(spelling: str) -> frozenset[str]:
    """Squashed plurals and singular of an English word (empty for any other).

    ``inflect`` is asked both ways, modern and classical ("cactuses", "cacti").
    Its slips are filtered out: it treats some words as pronouns ("it" ->
    "they", "us" -> "me"), so a form must keep the first letter.
    """
    found = {singular(spelling)}
    if found == {None}:
        found = {_plural(spelling, engine) for engine in (_MODERN, _CLASSICAL)}
    return frozenset(
        squash(form) for form in found if form and form[0] == spelling[0] and form != spelling
    )


@lru_cache(maxsize=4096)
def singular(spelling: str) -> str | None:
    """The singular of a plural English word, else None.

    ``singular_noun`` cuts the *s* off singular words that end in one
    ("cactus" -> "cactu", "bus" -> "bu"); such a cut is not trusted. The pair
    is still found from the other side: ``plural_noun("cactus")`` is right.
    """
    if not _ENGLISH.fullmatch(spelling):
        return None
    for engine in (_MODERN, _CLASSICAL):
        try:
            answer = engine.singular_noun(spelling)
        except Exception:  # inflect is a large heuristic; a slip there must not cost a clue
            continue
        cut_s = answer == spelling[:-1] and spelling.endswith(("us", "is", "ss", "os", "as"))
        if isinstance(answer, str) and answer and answer != spelling and not cut_s:
            return answer
    return None


def _plural(spelling: str, engine: inflect.engine) -> str | None:
    if not _ENGLISH.fullmatch(spelling):
        return None
    try:
        return engine.plural_noun(spelling)
    except Exception:  # as above
        return None


@lru_cache(maxsize=4096)
def stem(word: str) -> str:
    found: str = _STEMMER.stemWord(word)
    return found


@lru_cache(maxsize=16384)
def zipf(word: str) -> float:
    """How common an English word is, on the Zipf scale (3 is once per million words)."""
    if not word.isalpha():
        return 0.0
    return float(wordfreq.zipf_frequency(word, "en", wordlist="small"))
