"""The clue checker of a Chinese room: the same shape rules, Chinese words.

Refused: the keyword itself, written in Simplified, Traditional or Japanese
characters (``蘋果`` is ``苹果``, ``剣`` and ``劍`` are ``剑``; the conversions
are OpenCC's, see :func:`app.rules.lookalikes.plain`), or with a hyphen or
apostrophe between its characters. Warned, and accepted: a clue
that holds a keyword (``苹果树`` for ``苹果``) or shares a character with one
(``火车`` for ``火山``): in Chinese a shared character is most often a shared
meaning, and the table may think the clue too easy.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from app.rules.clues import IS_KEYWORD, LOOKS_LIKE, ClueVerdict, _shape_problem, fold, problem
from app.rules.lookalikes import passes_for, plain, squash
from app.rules.text import N_

SHARES = N_('Shares a character with "{keyword}". Keep it if the table will not mind.')


@lru_cache(maxsize=4096)
def simplified(word: str) -> str:
    """The comparison key: read plain (Simplified characters), folded, no hyphens or apostrophes."""
    return squash(fold(plain(word)))


def check_clue_zh(text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue in a Chinese room, for the player's outward ``keywords``."""
    clue = unicodedata.normalize("NFC", text).strip()
    error = _shape_problem(clue)
    if error is not None:
        return ClueVerdict(clue, error=error)
    key = simplified(clue)
    for keyword in keywords:
        if key == simplified(keyword):
            return ClueVerdict(clue, error=problem("keyword", IS_KEYWORD, keyword))
    for keyword in keywords:
        if passes_for(clue, keyword):
            return ClueVerdict(clue, error=problem("keyword", LOOKS_LIKE, keyword))
    for keyword in keywords:
        word = simplified(keyword)
        if word and (word in key or key in word or set(word) & set(key)):
            return ClueVerdict(clue, warning=problem("word_family", SHARES, keyword))
    return ClueVerdict(clue)
