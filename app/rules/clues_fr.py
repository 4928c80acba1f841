"""The clue checker of a French room: the same shape rules, French word forms.

Refused, as in English: a keyword itself, or one of its forms: plural
(``chevaux`` for ``cheval``, ``yeux`` for ``œil``), feminine or masculine
(``chanteuse`` for ``chanteur``, ``chienne`` for ``chien``, ``louve`` for
``loup``), with or without an elided article (``l'arbre`` is ``arbre``), with
its ligature spelled out (``oeil`` is ``œil``). The forms come from
simplemma's French lemmas, with the regular plurals spelled out in case a word
is missing from them, and the feminines simplemma does not know from the rules
and the list of :func:`app.rules.french.feminines`. Words are read as in English
(:func:`app.rules.lookalikes.plain`, :func:`app.rules.lookalikes.passes_for`):
``Cor'beau``, ``Biblio-thèque`` and ``Camıon`` are the keywords they spell, and
``ΑΜΙ`` in Greek capitals looks like ``ami``.

Warned, and accepted: a word of the keyword's family, which the players judge
better than any rule (:mod:`app.rules.relatives_fr`): a compound, the keyword
with a French ending or behind a prefix.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from app.rules import french
from app.rules.clues import (
    IS_FORM,
    IS_KEYWORD,
    LOOKS_LIKE,
    LOOKS_LIKE_FORM,
    RELATIVE,
    ClueVerdict,
    _shape_problem,
    problem,
)
from app.rules.lookalikes import passes_for, squash
from app.rules.relatives_fr import related


def check_clue_fr(text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue in a French room, for the player's outward ``keywords``."""
    clue = unicodedata.normalize("NFC", text).strip()
    error = _shape_problem(clue)
    if error is not None:
        return ClueVerdict(clue, error=error)
    written = french.written(clue)
    readings = french.readings(clue)
    known = [(keyword, squash(french.key(french.written(keyword)))) for keyword in keywords]
    known = [(keyword, key) for keyword, key in known if key]
    for keyword, key in known:
        if key in readings:
            return ClueVerdict(clue, error=problem("keyword", IS_KEYWORD, keyword))
        if any(french.is_form(reading, key) for reading in readings):
            return ClueVerdict(clue, error=problem("keyword_form", IS_FORM, keyword, clue=clue))
    for keyword, key in known:
        if passes_for(clue, keyword):
            return ClueVerdict(clue, error=problem("keyword", LOOKS_LIKE, keyword))
        if any(passes_for(clue, form) for form in french.forms(key) | french.feminines(key)):
            message = LOOKS_LIKE_FORM
            return ClueVerdict(clue, error=problem("keyword_form", message, keyword, clue=clue))
    for keyword, _ in known:
        if related(written, french.written(keyword)):
            return ClueVerdict(clue, warning=problem("word_family", RELATIVE, keyword))
    return ClueVerdict(clue)
