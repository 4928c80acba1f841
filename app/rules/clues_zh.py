"""The clue checker of a Chinese room: the same shape rules, Chinese words.

Refused: the keyword itself, written in Simplified or in Traditional characters
(``蘋果`` is ``苹果``; the conversion is OpenCC's). Warned, and accepted: a clue
that holds a keyword (``苹果树`` for ``苹果``) or shares a character with one
(``火车`` for ``火山``): in Chinese a shared character is most often a shared
meaning, and the table may think the clue too easy.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import opencc

from app.rules.clues import IS_KEYWORD, ClueVerdict, _shape_problem, fold, problem
from app.rules.text import N_

SHARES = N_('Shares a character with "{keyword}". Keep it if the table will not mind.')

_TO_SIMPLIFIED = opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def simplified(word: str) -> str:
    return str(_TO_SIMPLIFIED.convert(fold(word)))


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
        word = simplified(keyword)
        if word and (word in key or key in word or set(word) & set(key)):
            return ClueVerdict(clue, warning=problem("word_family", SHARES, keyword))
    return ClueVerdict(clue)
