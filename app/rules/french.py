"""French words as the clue checker reads them: spellings, lemmas, plurals, feminines,
verbs, and how common a word is.

A word is read lower case with its accents, its ligature spelled out and its
elided article dropped (``written``), and compared without case or accents
(``key``). Its forms come from simplemma's French lemmas, with the regular
plurals spelled out in case a word is missing from them (``forms``), and the
feminines simplemma does not know from the rules and the list below
(``feminines``).

The word data is read once, at the first French clue: simplemma's dictionary,
the verbs in it, and for clues typed without accents a table of wordfreq's
words by their unaccented spelling.
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

import simplemma
import wordfreq
from simplemma.strategies import DefaultDictionaryFactory, DefaultStrategy

from app.rules.clues import fold
from app.rules.lookalikes import plain, squash

_ELISION = re.compile(r"^(?:l|d|j|m|t|s|n|c|qu|jusqu|lorsqu|puisqu)'")
_SPELLING = str.maketrans({"œ": "oe", "æ": "ae", "’": "'", "\u2010": "-", "\u2011": "-"})

# One dictionary serves the lemmas and the verbs (simplemma's own lemmatize() would
# load the same French data a second time).
_DICTIONARIES = DefaultDictionaryFactory()
_LEMMATIZER = simplemma.Lemmatizer(
    lemmatization_strategy=DefaultStrategy(dictionary_factory=_DICTIONARIES)
)


@lru_cache(maxsize=4096)
def readings(clue: str) -> frozenset[str]:
    """The keys a clue is read as: without its elided article, and whole.

    Hyphens, apostrophes and dots do not count (``Cor'beau`` is ``corbeau``),
    so the apostrophe of an article counts either way: ``l'arbre`` is
    ``arbre``, and ``L'ion`` is also ``lion``.
    """
    whole = unicodedata.normalize("NFC", plain(clue).casefold().strip()).translate(_SPELLING)
    return frozenset({squash(key(written(clue))), squash(key(whole))} - {""})


def is_form(a: str, b: str) -> bool:
    """Whether two keys are forms of one word: number, gender, or both."""
    return a in forms(b) or b in forms(a) or a in feminines(b) or b in feminines(a)


@lru_cache(maxsize=8192)
def written(text: str) -> str:
    """Lower case with its accents, the ligatures spelled out, no elided article."""
    lowered = unicodedata.normalize("NFC", plain(text).casefold())
    return _ELISION.sub("", lowered.strip().translate(_SPELLING), count=1)


@lru_cache(maxsize=16384)
def key(word: str) -> str:
    """The comparison key: no case, no accents (see :func:`app.rules.clues.fold`).
    Kept: a check asks it of the same few words some twenty times."""
    return fold(word).translate(_SPELLING)


@lru_cache(maxsize=8192)
def lemma(word: str) -> str:
    """simplemma's French lemma of ``word``, spelled as :func:`written` spells."""
    return _LEMMATIZER.lemmatize(word, "fr").casefold().translate(_SPELLING)


@lru_cache(maxsize=4096)
def forms(word: str) -> frozenset[str]:
    """The word, its lemma, and its regular plurals (and their lemma), folded.

    A plural read as a verb form brings no verb in: ``voyages`` is also "tu
    voyages", yet ``voyager`` is a relative of the noun ``voyage``, not a form.
    """
    its_lemma = key(lemma(word))
    spellings = {word, its_lemma}
    for base in (word, its_lemma):
        spellings.add(base + "s")
        spellings.add(base + "x")
        if base.endswith("al") or base.endswith("ail"):
            spellings.add(base[: -2 if base.endswith("al") else -3] + "aux")
        if base.endswith("e"):
            spellings.add(base[:-1] + "es")
    lemmas = {key(lemma(form)) for form in spellings}
    if not is_verb(word):
        lemmas = {found for found in lemmas if found == its_lemma or not is_verb(found)}
    return frozenset(form for form in spellings | lemmas if form)


FEMININE_ENDINGS = (
    ("ien", "ienne"),  # chien, chienne; gardien, pharmacien
    ("on", "onne"),  # lion, lionne; patron, champion
    ("et", "ette"),  # cadet, cadette; muet
    ("teur", "trice"),  # acteur, actrice; explorateur
    ("eur", "euse"),  # chanteur, chanteuse; coiffeur
    ("er", "ere"),  # boulanger, boulangère; berger (folded: no accents)
    ("f", "ve"),  # veuf, veuve; sportif
    ("eux", "euse"),  # heureux, heureuse
    ("oux", "ouse"),  # époux, épouse; jaloux
)
"""Endings whose feminine French makes the same way each time (masculine, feminine).

Not among them, though French makes feminines so too, because the rule would
refuse other words: the bare -e (``fil`` and ``file``, ``médecin`` and
``médecine``, ``loup`` and ``loupe``, ``golf`` and ``golfe``), -eau to -elle
(``chapeau`` and ``chapelle``, ``vaisseau`` and ``vaisselle``, ``peau`` and
``pelle``) and -esse (``jeune`` and ``jeunesse``, ``riche`` and ``richesse``).
Their feminines are in FEMININES when simplemma does not know them."""
FEMININES = {
    **{"loup": "louve", "chameau": "chamelle", "jumeau": "jumelle", "agneau": "agnelle"},
    **{"beau": "belle", "nouveau": "nouvelle", "vieux": "vieille", "fou": "folle"},
    **{"tourtereau": "tourterelle", "oiseau": "oiselle", "mou": "molle", "dieu": "déesse"},
    **{"héros": "héroïne", "duc": "duchesse", "empereur": "impératrice", "canard": "cane"},
    **{"compagnon": "compagne", "copain": "copine", "serviteur": "servante", "dindon": "dinde"},
    **{"roux": "rousse", "doux": "douce", "faux": "fausse", "blanc": "blanche", "sec": "sèche"},
    **{"frais": "fraîche", "long": "longue", "gentil": "gentille", "gros": "grosse"},
    **{"ami": "amie", "cousin": "cousine", "voisin": "voisine", "lapin": "lapine"},
    **{"ours": "ourse", "chat": "chatte", "marchand": "marchande", "étudiant": "étudiante"},
    **{"prince": "princesse", "tigre": "tigresse", "comte": "comtesse", "hôte": "hôtesse"},
    **{"âne": "ânesse", "maître": "maîtresse", "poète": "poétesse", "prêtre": "prêtresse"},
    **{"ogre": "ogresse", "diable": "diablesse", "traître": "traîtresse", "pape": "papesse"},
    **{"prophète": "prophétesse", "abbé": "abbesse", "vicomte": "vicomtesse"},
    **{"veuf": "veuve", "époux": "épouse"},
}
"""Feminines no rule above makes and simplemma does not know (masculine: feminine):
irregular ones, -eau to -elle, -esse, some common ones in a bare -e, and two the
rules make but find commoner than their masculine (``veuve``, ``épouse``)."""
_FEMININE_KEYS = {fold(male): fold(female) for male, female in FEMININES.items()}


@lru_cache(maxsize=4096)
def feminines(masculine: str) -> frozenset[str]:
    """The feminine of a masculine key (folded), singular and plural, where French has one.

    From FEMININES, or from FEMININE_ENDINGS when the word so made is neither a
    form of a verb (``bouton`` makes ``boutonne``, which is ``boutonner``) nor
    commoner than the masculine: a feminine is rarer than its masculine, and a
    commoner word so spelled is a word of its own (``mer`` and ``mère``,
    ``navet`` and ``navette``).
    """
    found = set()
    if masculine in _FEMININE_KEYS:
        found.add(_FEMININE_KEYS[masculine])
    for male, female in FEMININE_ENDINGS:
        if masculine.endswith(male) and len(masculine) > len(male):
            feminine = masculine[: -len(male)] + female
            its_lemma = key(lemma(feminine))
            if its_lemma != masculine and is_verb(its_lemma):
                continue
            if _zipf_of_key(feminine) > _zipf_of_key(masculine):
                continue
            found.add(feminine)
    return frozenset(found | {feminine + "s" for feminine in found})


def _zipf_of_key(key: str) -> float:
    """How common the commonest word spelled ``key`` (without accents) is."""
    return max(_zipf_by_key().get(key, 0.0), zipf(key))


@lru_cache(maxsize=1)
def _verbs() -> frozenset[str]:
    """Every French verb in simplemma's dictionary, folded: the lemmas of its forms in -ait."""
    dictionary = _DICTIONARIES.get_dictionary("fr")
    return frozenset(key(dictionary[form]) for form in dictionary if form.endswith("ait"))


def is_verb(word: str) -> bool:
    return key(word) in _verbs()


def is_known(word: str) -> bool:
    """Whether simplemma's French dictionary holds ``word``, as written."""
    return word in _DICTIONARIES.get_dictionary("fr")


@lru_cache(maxsize=1)
def _zipf_by_key() -> dict[str, float]:
    """The commonest French word of each unaccented spelling (``chateau``: château)."""
    table: dict[str, float] = {}
    for word, frequency in wordfreq.get_frequency_dict("fr", "small").items():
        spelling = key(word)
        table[spelling] = max(table.get(spelling, 0.0), math.log10(frequency * 1e9))
    return table


@lru_cache(maxsize=16384)
def zipf_as_written(word: str) -> float:
    if not word.isalpha():
        return 0.0
    return float(wordfreq.zipf_frequency(word, "fr", wordlist="small"))


@lru_cache(maxsize=16384)
def zipf(word: str) -> float:
    """How common a word is: singular or plural, a verb by its commonest simple form.

    A word written without accents counts as the commonest word so spelled
    (``chateau`` as ``château``), one written with accents as itself only
    (``maïs`` is not ``mais``).
    """
    spellings = [word, word + "s"]
    if word.endswith("er") and is_verb(word):
        spellings += [word[:-1], word[:-2] + "é"]
    found = max(zipf_as_written(form) for form in spellings)
    if found == 0.0 and word == key(word):
        found = _zipf_by_key().get(word, 0.0)
    return found
