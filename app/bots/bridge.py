"""A bot in a French or Chinese room thinks in English: a bridge of words.

The bots' model knows English words only. In a room of another language, a word a
bot reads (a keyword, a person's clue) is taken to its English glosses from a
bilingual word list shipped here (``lexicon/fr.tsv``, ``lexicon/zh.tsv``: extracts
of FreeDict and CC-CEDICT, see ``lexicon/README.md``), and its meaning is theirs,
the first counting most. A clue a bot writes is a common word of the room's
language whose glosses it knows (``clue_words``), chosen by what its glosses mean:
the bot never writes a word it could not read back.

A word missing from the list is read as well as can be: French through its lemma
(``chevaux`` is ``cheval``), then as it is written, accents off (many French words
are English ones: ``cocktail``, ``iceberg``); Chinese in Simplified characters, then
cut into the longest listed words (``夏夜`` is "summer night").

Each list is read the first time a room of its language needs it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import cache
from pathlib import Path

LEXICONS = Path(__file__).parent / "lexicon"
GLOSSES = 3
"""How many of a word's glosses its meaning is made of."""
WEIGHTS = (1.0, 0.5, 0.35)
"""How much each gloss counts, in the list's order: a word's usual sense first."""
FRENCH_WORD = re.compile(r"[a-zàâäçéèêëîïôöùûüÿœæ]{3,13}")
CHINESE_WORD = re.compile(r"[\u4e00-\u9fff]{1,4}")


class Lexicon:
    """One language's words with their English glosses."""

    def __init__(
        self,
        language: str,
        entries: dict[str, tuple[str, ...]],
        names: frozenset[str],
        keywords: frozenset[str] = frozenset(),
        verbs: frozenset[str] = frozenset(),
    ) -> None:
        self.language = language
        self.entries = entries
        self.keywords = keywords
        """The built-in deck's keywords: their meanings are made when the list is loaded."""
        self.names = names
        """Words that are names only (a place, a person): a bot reads them, never writes them."""
        self.verbs = verbs
        self._plain: dict[str, str] | None = None
        """Words that are verbs only: read, never written (players' clues are nearly all
        nouns and adjectives, and a verb's English gloss is often a noun of another sense:
        "to drill" is not a drill)."""

    def english(self, word: str) -> tuple[str, ...]:
        """The English glosses ``word`` is read as, usual sense first (never empty)."""
        if self.language == "zh":
            return self._chinese(word)
        return self._french(word)

    def _french(self, word: str) -> tuple[str, ...]:
        text = unicodedata.normalize("NFC", word).strip().lower().replace("’", "'")
        text = re.sub(r"^(l|d|qu)'", "", text)
        found = self.entries.get(text)
        if found:
            return found
        plain = _unaccented(text)
        listed = self._unaccented().get(plain)
        if listed:  # written without its accents, as on many phones ("foret", "ete")
            return self.entries[listed]
        for form in _french_forms(text):
            found = self.entries.get(form)
            if found:
                return found
        for form in _french_forms(plain):
            listed = self._unaccented().get(form)
            if listed:
                return self.entries[listed]
        return (plain.replace("œ", "oe"),)

    def _unaccented(self) -> dict[str, str]:
        """Each listed word by its letters without accents (the most common when two
        words differ by their accents alone: "peche" is "pêche")."""
        if self._plain is None:
            from wordfreq import zipf_frequency

            ranked = sorted(self.entries, key=lambda w: -zipf_frequency(w, self.language))
            plain: dict[str, str] = {}
            for word in ranked:
                plain.setdefault(_unaccented(word), word)
            self._plain = plain
        return self._plain

    def _chinese(self, word: str) -> tuple[str, ...]:
        text = _simplified(unicodedata.normalize("NFC", word).strip())
        found = self.entries.get(text)
        if found:
            return found
        pieces: list[str] = []
        start = 0
        while start < len(text):
            for end in range(len(text), start, -1):
                piece = self.entries.get(text[start:end])
                if piece:
                    pieces.append(piece[0])
                    start = end
                    break
            else:
                start += 1  # a character the list does not know: left out
        return (" ".join(pieces),) if pieces else (text,)


FEMININE = (
    ("euse", "eur"),
    ("euse", "eux"),
    ("trice", "teur"),
    ("ière", "ier"),
    ("ère", "er"),
    ("ienne", "ien"),
    ("enne", "en"),
    ("onne", "on"),
    ("elle", "el"),
    ("ette", "et"),
    ("ive", "if"),
)
"""Feminine endings and their masculine, the form a dictionary lists (``danseuse`` is
``danseur``, ``sportive`` is ``sportif``)."""


def _french_forms(text: str) -> list[str]:
    """Dictionary forms ``text`` may be an inflection of: its lemma, its singular, its
    masculine."""
    import simplemma

    forms = [simplemma.lemmatize(text, lang="fr")]
    if text.endswith(("s", "x")):
        forms.append(text[:-1])
    if text.endswith("aux"):
        forms.append(text[:-3] + "al")
    singular = text[:-1] if text.endswith("s") else text
    forms.extend(singular[: -len(end)] + male for end, male in FEMININE if singular.endswith(end))
    if text.endswith("e"):
        forms.append(text[:-1])  # a feminine adjective
    return forms


def _unaccented(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


@cache
def _converter() -> object:
    import opencc

    return opencc.OpenCC("t2s")


def _simplified(text: str) -> str:
    return str(_converter().convert(text))  # type: ignore[attr-defined]


@cache
def lexicon(language: str) -> Lexicon:
    """The word list of ``language`` (``fr``, ``zh``), read once."""
    entries: dict[str, tuple[str, ...]] = {}
    names: set[str] = set()
    keywords: set[str] = set()
    verbs: set[str] = set()
    path = LEXICONS / f"{language}.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        word, glosses, *kind = line.split("\t")
        entries[word] = tuple(g for g in glosses.split("; ") if g)[:GLOSSES]
        if kind == ["name"]:
            names.add(word)
        elif kind == ["keyword"]:
            keywords.add(word)
        elif kind == ["verb"]:
            verbs.add(word)
    return Lexicon(language, entries, frozenset(names), frozenset(keywords), frozenset(verbs))


def english(words: Sequence[str], language: str) -> list[tuple[str, ...]]:
    """Each word's English glosses in a room of ``language`` (English words stand for
    themselves)."""
    if language not in ("fr", "zh"):
        return [(w,) for w in words]
    read = lexicon(language)
    return [read.english(w) for w in words]


def is_plain_word(word: str, language: str) -> bool:
    """Whether ``word`` is one word a person would write as a clue in ``language``."""
    pattern = CHINESE_WORD if language == "zh" else FRENCH_WORD
    return pattern.fullmatch(word) is not None


def meanings(
    brain: object, words: Sequence[str], language: str, templates: Sequence[str]
) -> object:
    """``len(words) x dim`` unit vectors: each word's glosses said every way of
    ``templates``, weighted by ``WEIGHTS`` and added up. In English (one gloss, the word)
    it is the sum of the word's ways, as the bots have always read a word."""
    import numpy as np

    said: list[str] = []
    owner: list[int] = []
    weight: list[float] = []
    for index, glosses in enumerate(english(words, language)):
        for rank, gloss in enumerate(glosses):
            for template in templates:
                said.append(template.format(gloss.lower()))
                owner.append(index)
                weight.append(WEIGHTS[min(rank, len(WEIGHTS) - 1)])
    vectors = np.asarray(brain.vectors(said), dtype=np.float64)  # type: ignore[attr-defined]
    summed = np.zeros((len(words), vectors.shape[1] if len(said) else 384))
    np.add.at(summed, np.asarray(owner, dtype=np.intp), vectors * np.asarray(weight)[:, None])
    return summed / np.maximum(np.linalg.norm(summed, axis=1, keepdims=True), 1e-12)
