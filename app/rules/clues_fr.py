"""The clue checker of a French room: the same shape rules, French word forms.

Refused, as in English: a keyword itself, or one of its forms: plural
(``chevaux`` for ``cheval``, ``yeux`` for ``œil``), feminine or masculine
(``chanteuse`` for ``chanteur``), with or without an elided article
(``l'arbre`` is ``arbre``). The forms come from simplemma's French lemmas, with
the regular plurals spelled out in case a word is missing from them.

Warned, and accepted: a word of the keyword's family, made from it with a
French derivational ending (``chaton`` from ``chat``, ``fleuriste`` from
``fleur``, ``boulangerie`` from ``boulanger``, ``chanson`` from ``chanter``).
Only those endings count, so that a chance overlap stays unwarned: ``château``
is no ``chat`` + ending, ``marché`` no ``mare`` + ending.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import simplemma
import snowballstemmer

from app.rules.clues import ClueProblem, ClueVerdict, _shape_problem, fold

_ELISION = re.compile(r"^(?:l|d|j|m|t|s|n|c|qu|jusqu|lorsqu|puisqu)['’]")

SUFFIXES = (
    "on", "onne", "ette", "et", "ot", "ier", "iere", "iste", "erie", "eur", "euse",
    "age", "ure", "ment", "ee", "ade", "oir", "oire", "aire", "ard", "elle", "eau",
    "son", "ine", "ette", "ise", "ois", "oise", "ais", "aise", "ien", "ienne", "esse",
    "iste", "isme", "able", "ible", "eux", "euse", "if", "ive", "al", "ale", "el",
    "ique", "ite", "ite", "ation", "ateur", "atrice", "ant", "ante",
)  # fmt: skip
"""French derivational endings. ``eau`` is among them for ``chevreau`` (from
``chèvre``), yet ``château`` is no ``chat`` + ``eau``: a keyword of four letters or
fewer needs an ending of its own kind (``chat`` + ``on``), see ``_derived``."""
_SHORT_SAFE = ("on", "ette", "et", "ot", "ier", "iere", "iste", "erie")
"""Endings a short keyword (four letters or fewer) takes: the diminutives and the
trades (``chaton``, ``fleuriste``)."""

_STEMMER = snowballstemmer.stemmer("french")


def check_clue_fr(text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue in a French room, for the player's outward ``keywords``."""
    clue = unicodedata.normalize("NFC", text).strip()
    error = _shape_problem(clue)
    if error is not None:
        return ClueVerdict(clue, error=error)
    core = _without_article(fold(clue))
    for keyword in keywords:
        key = fold(keyword)
        if not key:
            continue
        if core == key:
            message = f'That is one of your keywords: "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword", message, keyword))
        if core in _forms(key) or key in _forms(core):
            message = f'"{clue}" is a form of your keyword "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword_form", message, keyword))
    for keyword in keywords:
        key = fold(keyword)
        if key and (_derived(core, key) or _derived(key, core)):
            message = (
                f"Ressemble à un mot de la famille de « {keyword} ». Gardez-le s'il n'en est pas."
            )
            return ClueVerdict(clue, warning=ClueProblem("word_family", message, keyword))
    return ClueVerdict(clue)


def _without_article(word: str) -> str:
    return _ELISION.sub("", word.replace("'", "'"), count=1)


@lru_cache(maxsize=4096)
def _lemma(word: str) -> str:
    return fold(simplemma.lemmatize(word, lang="fr"))


@lru_cache(maxsize=4096)
def _forms(word: str) -> frozenset[str]:
    """The word, its lemma, and its regular plurals (and their lemma), folded."""
    forms = {word, _lemma(word)}
    for base in (word, _lemma(word)):
        forms.add(base + "s")
        forms.add(base + "x")
        if base.endswith("al") or base.endswith("ail"):
            forms.add(base[: -2 if base.endswith("al") else -3] + "aux")
        if base.endswith("e"):
            forms.add(base[:-1] + "es")
    return frozenset(f for f in forms if f) | {_lemma(f) for f in forms if f}


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    return fold(_STEMMER.stemWord(_lemma(word)))


def _derived(long: str, short: str) -> bool:
    """Whether ``long`` is ``short`` (or its stem) with a French derivational ending."""
    if len(long) <= len(short) - 1 or long == short:
        return False
    endings = _SHORT_SAFE if len(short) <= 4 else SUFFIXES
    for base in {
        short,
        _stem(short),
        short.rstrip("e"),
        short[:-2] if short.endswith("er") else short,
    }:
        if len(base) < 3 or not long.startswith(base):
            continue
        rest = long[len(base) :]
        if rest in endings or (rest[:1] == base[-1:] and rest[1:] in endings):
            return True
    # A stem's last consonant may give way to the ending's: chant-er, chan-son.
    stem = _stem(short)
    return len(stem) >= 5 and long.startswith(stem[:-1]) and long[len(stem) - 1 :] == "son"
