"""The clue checker of a French room: the same shape rules, French word forms.

Refused, as in English: a keyword itself, or one of its forms: plural
(``chevaux`` for ``cheval``, ``yeux`` for ``œil``), feminine or masculine
(``chanteuse`` for ``chanteur``, ``chienne`` for ``chien``, ``louve`` for
``loup``), with or without an elided article (``l'arbre`` is ``arbre``), with
its ligature spelled out (``oeil`` is ``œil``). The forms come from
simplemma's French lemmas, with the regular plurals spelled out in case a word
is missing from them, and the feminines simplemma does not know from the rules
and the list of :func:`_feminines`. Words are read as in English
(:func:`app.rules.lookalikes.plain`, :func:`app.rules.lookalikes.passes_for`):
``Cor'beau``, ``Biblio-thèque`` and ``Camıon`` are the keywords they spell, and
``ΑΜΙ`` in Greek capitals looks like ``ami``.

Warned, and accepted: a word of the keyword's family, which the players judge
better than any rule (see :func:`_related`):

- a hyphenated compound with the keyword as one of its parts (``porte-clés``,
  ``arc-en-ciel``, ``sous-marin``);
- the keyword with a French derivational ending (``chaton``, ``fleuriste``,
  ``boulangerie``, ``jardiner``, ``peinture``), or a word sharing its root
  (``cycliste`` and ``cyclisme``);
- the keyword behind a prefix (``refaire``, ``impossible``, ``préhistoire``);
- a compound written as one word (``tournevis``, ``parapluie``, ``autoroute``).

A chance overlap must stay unwarned (``château`` is no ``chat`` + -eau,
``maison`` no ``maïs`` + -on), and letters alone cannot tell one from a
relative: ``baguette`` is spelled as ``fillette`` is. So each rule asks for more
than the letters, and each limit below answers named overlaps. What the rules
know: how common a word is (wordfreq's small French list, on the Zipf scale,
where 3 is once per million words: a word made from another is seldom the
commoner of the two), whether a word is a verb (simplemma's French
dictionary), and which endings a short word takes. They miss some relatives
and warn some innocent words; the tables of both, and the look-alikes no rule
here tells apart (``bouchon`` for ``bouche``), are in
tests/rules/test_relatives_fr.py.

The word data is read once, at the first French clue: simplemma's dictionary,
the verbs in it, and for clues typed without accents a table of wordfreq's
words by their unaccented spelling.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import simplemma
import wordfreq
from simplemma.strategies import DefaultDictionaryFactory, DefaultStrategy

from app.rules.clues import (
    IS_FORM,
    IS_KEYWORD,
    LOOKS_LIKE,
    LOOKS_LIKE_FORM,
    RELATIVE,
    ClueVerdict,
    _shape_problem,
    fold,
    problem,
)
from app.rules.lookalikes import passes_for, plain, squash

_ELISION = re.compile(r"^(?:l|d|j|m|t|s|n|c|qu|jusqu|lorsqu|puisqu)'")
_JOINS = re.compile(r"[-']")
_SPELLING = str.maketrans({"œ": "oe", "æ": "ae", "’": "'", "\u2010": "-", "\u2011": "-"})
_VOWELS = frozenset("aeiouy")

# One dictionary serves the lemmas and the verbs (simplemma's own lemmatize() would
# load the same French data a second time).
_DICTIONARIES = DefaultDictionaryFactory()
_LEMMATIZER = simplemma.Lemmatizer(
    lemmatization_strategy=DefaultStrategy(dictionary_factory=_DICTIONARIES)
)

# --- endings (folded: -ité is "ite", -ée is "ee") --------------------------------------

DIMINUTIVES = frozenset({"ette", "et", "on", "ot", "otte", "eau", "ceau"})
"""Little ones: ``fillette``, ``œillet``, ``chaton``, ``chevreau``, ``lionceau``."""
NOUN_ENDINGS = DIMINUTIVES | frozenset(
    {
        "erie", "ier", "iere", "iste", "isme", "eur", "euse", "ateur", "atrice", "eron",
        "issier", "isserie", "age", "ment", "ement", "ation", "ition", "ure", "ture",
        "ade", "ee", "oir", "oire", "ite", "esse", "eux", "al", "ial", "ique", "able",
        "ible", "if", "aire", "ard", "ien", "u",
    }
)  # fmt: skip
"""Endings that make a noun or an adjective."""
VERB_ENDINGS = frozenset({"er", "ir", "iser", "ifier"})
"""Endings that make a verb, so the word must be one: ``jardiner``, not ``papier``."""
FROM_VERBS = frozenset({"oir", "oire", "ture"})
"""Endings only a verb takes: ``arrosoir``, ``peinture``; ``mouchoir`` is no
``mouche`` + -oir, ``voiture`` no ``voie`` + -ture."""
FROM_NOUNS = frozenset({"u", "eau", "ceau"})
"""Endings a verb does not take: ``clou`` is no ``clore`` + -u, ``tombeau`` no
``tomber`` + -eau."""
FIVE_LETTERS = frozenset({"ite", "ique", "ir", "u", "r", "eau"})
"""Endings a word of four letters or fewer does not take: ``charité`` (char),
``vérité`` (ver), ``boutique`` (bout), ``courir`` (cour), ``vertu`` (vert),
``revue`` (rêve), ``château`` (chat), ``râteau`` (rat), ``roseau`` (rose). The
price is ``têtu``; ``lion`` takes -ceau."""
SHORT_ENDINGS = frozenset({"ier", "iere", "eur", "euse", "eux", "iste", "on", "age", "er"})
"""All a word of three letters takes (``théière``, ``skieur``, ``raton``,
``potage``): beside so short a word, any ending is likelier chance (``potion``,
``gazette``, ``capable``, ``vanité``)."""
SIBLING_ENDINGS = {
    **dict.fromkeys(
        ("isme", "iste", "ateur", "atrice", "ation", "ade", "eur", "euse", "ier", "iere"), 4
    ),
    **dict.fromkeys(("erie", "age", "ment", "able", "eux"), 4),
    **dict.fromkeys(("ite", "ien"), 5),
}
"""Endings long enough that two words ending in them share a root by design
(``cycliste`` and ``cyclisme``, ``exploration`` and ``explorateur``,
``électricité`` and ``électricien``), with the shortest root read on each."""

# --- frequencies, in Zipf steps (one step: ten times as common) -------------------------

COMMONER = 1.0
"""A word ten times as common as another is not made from it: ``papier``
(papi), ``vérité`` (ver), ``pierre`` (pie), ``maison`` (maïs)."""
COMMONER_THAN_VERB = 1.5
"""Words made from a verb are often its equals (``chanson``, ``peinture``)."""
RARER = {
    **dict.fromkeys(DIMINUTIVES, 0.5),
    "et": 1.0,
    "eux": 0.5,
    "ier": 0.5,
    "iere": 0.5,
    "ard": 2.0,
}
"""How much rarer a word with this ending must be than its base. A diminutive
is rarer than its noun (``chaton``, ``fillette``); a word that looks like one and
is as common is a word of its own (``poison`` and ``pois``, ``baguette`` and
``bague``, ``chouette`` and ``chou``; for -et, ``ballet`` and ``briquet``). The
same for -eux (``heureux``, ``sérieux``) and -ier (``chantier``). The -ard words
of the common list are nearly all of other origins (``placard``, ``épinard``)."""
RARER_FROM_NOUN = {"age": 1.0, "able": 1.0, "ible": 1.0, "ade": 1.0}
"""From a verb, these make words as common as the verb (``bricolage``,
``aimable``, ``promenade``); from a noun, far rarer ones (``feuillage``,
``comptable``, ``orangeade``): ``courage`` is no ``cour`` + -age, ``coupable``
no ``coupe`` + -able, ``salade`` no ``sale`` + -ade."""
LONG_BASE = 6
WAIVED_ON_LONG = frozenset({"eux", "ier", "iere", "age", "able", "ible"})
"""From a base of LONG_BASE letters or more, chance overlaps are few, and these
endings need not be rarer: ``dangereux``, ``merveilleux``, ``confortable``."""
RARER_THAN_SHORT = 1.0
"""A word made from one of three letters is ten times rarer: ``skieur`` from
``ski``, not ``baron`` from ``bar`` or ``visage`` from ``vis``."""

FUNCTION_WORDS = frozenset(
    {
        "mais", "sur", "sous", "par", "pour", "donc", "pas", "plus", "les", "des", "une",
        "est", "sans", "avec", "dans", "chez", "comme", "tout", "bien", "tres", "elle",
        "nous", "vous", "leur", "cette", "ces", "que", "qui", "quoi",
    }
)  # fmt: skip
"""Grammatical words take no ending: ``maison`` is no ``mais`` + -on."""

# --- prefixes and compounds --------------------------------------------------------------

VERB_PREFIXES = ("re", "r", "de", "des", "pre", "sous", "sou", "sur", "entre", "contre")
"""Prefixes that make a verb of a verb: ``refaire``, ``défaire``, ``sourire``."""
NOUN_PREFIXES = ("pre", "sous", "sou", "sur", "anti", "para", "contre", "entre", "mi", "super")
"""Prefixes that make a noun of a noun, far rarer than it: ``surnom``,
``antivol``, ``préhistoire``; not ``parade`` (rade) or ``souris`` (ris). Before a
vowel they take a hyphen (``anti-âge``): ``sureau`` is no ``sur`` + ``eau``."""
NEGATIVE_PREFIXES = ("in", "im", "il", "ir")
"""The contrary of an adjective: ``impossible``, ``inconnu``, ``incassable``."""
ADJECTIVE_ENDINGS = (
    "ble", "ent", "ant", "u", "ile", "ste", "al", "el", "if", "ain", "ide", "eux", "ier",
)  # fmt: skip
"""How the adjectives in- takes end, and ``secte`` (of ``insecte``) does not."""
COMBINING_FORMS = frozenset({"auto", "aero", "tele", "micro", "mini", "photo", "radio", "moto"})
"""Words that only begin compounds: ``autoroute``, ``aéroport``."""
PREPOSITION_FRONTS = frozenset(
    {"para", "pare", "sous", "sou", "sur", "contre", "entre", "pour", "mi"}
)
"""Words that begin compounds of a noun (``parapluie``, ``paratonnerre``, ``minuit``);
the compound is ten times rarer than the noun: ``mirage`` is no ``mi`` + ``rage``."""
ADJECTIVE_FRONTS = frozenset({"demi", "bon", "bonne", "grand", "grande", "mille", "haut", "petit"})
"""Adjectives and numbers that begin compounds (``bonhomme``, ``bonjour``,
``millefeuille``), which are three times rarer than their other half."""
ADJECTIVE_FRONT_RARER = 0.5
COMMON_PART = 3.5
"""How common the other word of a compound must be (``vis``, ``homme``): ``carre``
(of ``carrefour``) is not."""


def check_clue_fr(text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue in a French room, for the player's outward ``keywords``."""
    clue = unicodedata.normalize("NFC", text).strip()
    error = _shape_problem(clue)
    if error is not None:
        return ClueVerdict(clue, error=error)
    written = _written(clue)
    readings = _readings(clue)
    known = [(keyword, squash(_key(_written(keyword)))) for keyword in keywords]
    known = [(keyword, key) for keyword, key in known if key]
    for keyword, key in known:
        if key in readings:
            return ClueVerdict(clue, error=problem("keyword", IS_KEYWORD, keyword))
        if any(_is_form(reading, key) for reading in readings):
            return ClueVerdict(clue, error=problem("keyword_form", IS_FORM, keyword, clue=clue))
    for keyword, key in known:
        if passes_for(clue, keyword):
            return ClueVerdict(clue, error=problem("keyword", LOOKS_LIKE, keyword))
        if any(passes_for(clue, form) for form in _forms(key) | _feminines(key)):
            message = LOOKS_LIKE_FORM
            return ClueVerdict(clue, error=problem("keyword_form", message, keyword, clue=clue))
    for keyword, _ in known:
        if _related(written, _written(keyword)):
            return ClueVerdict(clue, warning=problem("word_family", RELATIVE, keyword))
    return ClueVerdict(clue)


@lru_cache(maxsize=4096)
def _readings(clue: str) -> frozenset[str]:
    """The keys a clue is read as: without its elided article, and whole.

    Hyphens, apostrophes and dots do not count (``Cor'beau`` is ``corbeau``),
    so the apostrophe of an article counts either way: ``l'arbre`` is
    ``arbre``, and ``L'ion`` is also ``lion``.
    """
    whole = unicodedata.normalize("NFC", plain(clue).casefold().strip()).translate(_SPELLING)
    return frozenset({squash(_key(_written(clue))), squash(_key(whole))} - {""})


def _is_form(a: str, b: str) -> bool:
    """Whether two keys are forms of one word: number, gender, or both."""
    return a in _forms(b) or b in _forms(a) or a in _feminines(b) or b in _feminines(a)


# --- spellings, forms and the word data --------------------------------------------------


@lru_cache(maxsize=8192)
def _written(text: str) -> str:
    """Lower case with its accents, the ligatures spelled out, no elided article."""
    lowered = unicodedata.normalize("NFC", plain(text).casefold())
    return _ELISION.sub("", lowered.strip().translate(_SPELLING), count=1)


@lru_cache(maxsize=16384)
def _key(word: str) -> str:
    """The comparison key: no case, no accents (see :func:`app.rules.clues.fold`).
    Kept: a check asks it of the same few words some twenty times."""
    return fold(word).translate(_SPELLING)


@lru_cache(maxsize=8192)
def _lemma(word: str) -> str:
    """simplemma's French lemma of ``word``, spelled as :func:`_written` spells."""
    return _LEMMATIZER.lemmatize(word, "fr").casefold().translate(_SPELLING)


@lru_cache(maxsize=4096)
def _forms(word: str) -> frozenset[str]:
    """The word, its lemma, and its regular plurals (and their lemma), folded.

    A plural read as a verb form brings no verb in: ``voyages`` is also "tu
    voyages", yet ``voyager`` is a relative of the noun ``voyage``, not a form.
    """
    lemma = _key(_lemma(word))
    forms = {word, lemma}
    for base in (word, lemma):
        forms.add(base + "s")
        forms.add(base + "x")
        if base.endswith("al") or base.endswith("ail"):
            forms.add(base[: -2 if base.endswith("al") else -3] + "aux")
        if base.endswith("e"):
            forms.add(base[:-1] + "es")
    lemmas = {_key(_lemma(form)) for form in forms}
    if not _is_verb(word):
        lemmas = {found for found in lemmas if found == lemma or not _is_verb(found)}
    return frozenset(form for form in forms | lemmas if form)


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
def _feminines(key: str) -> frozenset[str]:
    """The feminine of a masculine key (folded), singular and plural, where French has one.

    From FEMININES, or from FEMININE_ENDINGS when the word so made is neither a
    form of a verb (``bouton`` makes ``boutonne``, which is ``boutonner``) nor
    commoner than the masculine: a feminine is rarer than its masculine, and a
    commoner word so spelled is a word of its own (``mer`` and ``mère``,
    ``navet`` and ``navette``).
    """
    found = set()
    if key in _FEMININE_KEYS:
        found.add(_FEMININE_KEYS[key])
    for male, female in FEMININE_ENDINGS:
        if key.endswith(male) and len(key) > len(male):
            feminine = key[: -len(male)] + female
            lemma = _key(_lemma(feminine))
            if lemma != key and _is_verb(lemma):
                continue
            if _zipf_of_key(feminine) > _zipf_of_key(key):
                continue
            found.add(feminine)
    return frozenset(found | {feminine + "s" for feminine in found})


def _zipf_of_key(key: str) -> float:
    """How common the commonest word spelled ``key`` (without accents) is."""
    return max(_zipf_by_key().get(key, 0.0), _zipf(key))


@lru_cache(maxsize=1)
def _verbs() -> frozenset[str]:
    """Every French verb in simplemma's dictionary, folded: the lemmas of its forms in -ait."""
    dictionary = _DICTIONARIES.get_dictionary("fr")
    return frozenset(_key(dictionary[form]) for form in dictionary if form.endswith("ait"))


def _is_verb(word: str) -> bool:
    return _key(word) in _verbs()


def _is_known(word: str) -> bool:
    """Whether simplemma's French dictionary holds ``word``, as written."""
    return word in _DICTIONARIES.get_dictionary("fr")


@lru_cache(maxsize=1)
def _zipf_by_key() -> dict[str, float]:
    """The commonest French word of each unaccented spelling (``chateau``: château)."""
    table: dict[str, float] = {}
    for word, frequency in wordfreq.get_frequency_dict("fr", "small").items():
        key = _key(word)
        table[key] = max(table.get(key, 0.0), math.log10(frequency * 1e9))
    return table


@lru_cache(maxsize=16384)
def _zipf_as_written(word: str) -> float:
    if not word.isalpha():
        return 0.0
    return float(wordfreq.zipf_frequency(word, "fr", wordlist="small"))


@lru_cache(maxsize=16384)
def _zipf(word: str) -> float:
    """How common a word is: singular or plural, a verb by its commonest simple form.

    A word written without accents counts as the commonest word so spelled
    (``chateau`` as ``château``), one written with accents as itself only
    (``maïs`` is not ``mais``).
    """
    forms = [word, word + "s"]
    if word.endswith("er") and _is_verb(word):
        forms += [word[:-1], word[:-2] + "é"]
    found = max(_zipf_as_written(form) for form in forms)
    if found == 0.0 and word == _key(word):
        found = _zipf_by_key().get(word, 0.0)
    return found


def _accents_clash(a: str, b: str) -> bool:
    """Whether one letter of the shared start bears two different accents (guêpe, guépard).

    A word made from another keeps an accent or drops it, but does not trade it
    for another, save the open and closed e (``chèvre``, ``chevreau``; ``poète``,
    ``poétique``).
    """
    for x, y in zip(a, b, strict=False):
        if _key(x) != _key(y):
            return False
        if x != y and x != _key(x) and y != _key(y) and {x, y} != {"é", "è"}:
            return True
    return False


# --- relatives ---------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _related(clue: str, keyword: str) -> bool:
    """Whether two written words look like one word family (see the module docstring)."""
    if _shares_part(clue, keyword) or _shares_part(keyword, clue):
        return True
    a, b = _JOINS.sub("", clue), _JOINS.sub("", keyword)
    if _key(a) == _key(b) or _accents_clash(a, b):
        return False
    return _made_from(a, b) or _made_from(b, a)


def _made_from(word: str, base: str) -> bool:
    return _suffixed(word, base) or _prefixed(word, base) or _compound(word, base)


def _shares_part(compound: str, word: str) -> bool:
    """``porte-clés`` and ``clé``: a part of a hyphenated word is the word, or a form of it."""
    parts = [part for part in _JOINS.split(compound) if len(part) >= 2]
    if len(parts) < 2:
        return False
    key = _key(word)
    return any(
        _key(part) == key
        or _key(part) in _forms(key)
        or key in _forms(_key(part))
        or _key(_lemma(part)) == _key(_lemma(word))
        for part in parts
    )


def _suffixed(word: str, base: str) -> bool:
    """Whether ``word`` is ``base`` with a derivational ending, or shares its root.

    Both are read in their dictionary forms: ``fleuristes`` as ``fleuriste``,
    ``affichait`` as ``afficher``, ``bonnes`` as ``bonne``.
    """
    word, base = _lemma(word), _lemma(base)
    derived, source = _key(word), _key(base)
    if source in FUNCTION_WORDS or derived == source or len(derived) < len(source) - 1:
        return False
    for stem in _stems(source):
        if derived.startswith(stem) and derived != stem:
            for ending in _endings_after(stem, derived[len(stem) :], source):
                if _ending_fits(word, base, stem, ending):
                    return True
    trade = source[: -3 if source.endswith("ier") else -2]
    if source.endswith("er") and len(source) >= 6 and derived == trade + "erie":
        return True  # the trade and its shop: boulanger, boulangerie; pâtissier, pâtisserie
    if _is_verb(base) and source.endswith("nter") and derived == source[:-3] + "son":
        return True  # chant-er, chan-son: the t gives way to -son
    for root in _roots(source):
        ending = derived[len(root) :]
        if derived.startswith(root) and len(root) >= SIBLING_ENDINGS.get(ending, len(derived)):
            return True
    return False


def _stems(word: str) -> set[str]:
    """Where an ending goes on ``word`` (folded): on the word, or on what is left
    once French has dropped or changed its end (``pomm``-ier, ``chant``-eur,
    ``mange``-able, ``histor``-ique, ``électric``-ité, ``mag``-ique, ``pian``-iste)."""
    stems = {word}
    if word.endswith("e"):
        stems.add(word[:-1])
    if _is_verb(word):
        if word.endswith(("er", "ir", "re")):
            stems.add(word[:-2])  # chant-er, nourr-ir, vend-re
        if word.endswith("er") or (word.endswith("ir") and not word.endswith("oir")):
            stems.add(word[:-1])  # mange-able, nourri-ture (not voi-ture)
        if word.endswith("dre"):
            stems.add(word[:-3])  # pein-dre: pein-ture
    for ending, replacement in (("ique", "ic"), ("oire", "or"), ("ie", ""), ("ie", "ic")):
        if word.endswith(ending):
            stems.add(word[: -len(ending)] + replacement)
    if word.endswith("ille") and len(word) >= 7:
        stems.add(word[:-2])  # famille: famil-ial (fille: no fil-et)
    if word.endswith("o"):
        stems.add(word[:-1])
    return {stem for stem in stems if len(stem) >= 3}


def _roots(word: str) -> set[str]:
    """``word`` less one of its long endings (``cycl``-isme, ``électric``-ité)."""
    return {
        word[: -len(ending)]
        for ending, shortest in SIBLING_ENDINGS.items()
        if word.endswith(ending) and len(word) - len(ending) >= shortest
    }


def _endings_after(stem: str, rest: str, word: str) -> list[str]:
    """The endings ``rest`` may be: itself, or itself after a doubled consonant
    (``maisonnette``, ``métallique``; never before an a: ``vassal`` is no ``vase``
    + -al), or after a linking t when the word itself ends in a vowel
    (``bijou``-t-erie; ``voiture`` is no ``voie`` + -ure)."""
    found = [rest]
    if len(rest) > 2 and rest[0] == stem[-1] and stem[-1] in "lnts" and rest[1] in "eio":
        found.append(rest[1:])
    if len(rest) > 2 and rest[0] == "t" and stem == word and stem[-1] in "aiou":
        found.append(rest[1:])
    return found


def _ending_fits(word: str, base: str, stem: str, ending: str) -> bool:
    """Whether ``word`` may be ``base``, cut to ``stem``, + ``ending`` (see the tables above)."""
    derived, source = _key(word), _key(base)
    from_verb = _is_verb(base)
    # What the ending makes, and of what.
    if ending in VERB_ENDINGS:
        if not _is_verb(word):
            return False
    elif ending == "r":
        if derived != source + "r":
            return False  # horloge, horloger; bouche, bouchée (read as boucher)
    elif ending not in NOUN_ENDINGS:
        return False
    if (ending in FROM_VERBS and not from_verb) or (ending in FROM_NOUNS and from_verb):
        return False
    if ending == "ade" and from_verb and not source.endswith("er"):
        return False  # glisser, glissade; not salir, salade
    if ending == "ture" and source.endswith("er") and stem == source[:-2]:
        return False  # ferme-ture, écri-ture; not confier, confiture
    if ending == "ment" and derived[-5:-4] not in ("e", "i", "u"):
        return False  # change-ment, lente-ment, after a vowel: not tourment
    if ending in FIVE_LETTERS and len(source) < 5:
        return False
    if len(source) <= 3 and ending not in SHORT_ENDINGS:
        return False
    # How common the two words are.
    made, made_from = _zipf(word), _zipf(base)
    if made > made_from + (COMMONER_THAN_VERB if from_verb else COMMONER):
        return False
    rarer = RARER.get(ending, 0.0)
    if not from_verb:
        rarer = max(rarer, RARER_FROM_NOUN.get(ending, 0.0))
    if len(source) >= LONG_BASE and ending in WAIVED_ON_LONG:
        rarer = 0.0
    if len(source) <= 3:
        rarer = max(rarer, RARER_THAN_SHORT)
    return made <= made_from - rarer if rarer else True


_PREFIXES = frozenset({*VERB_PREFIXES, *NOUN_PREFIXES, *NEGATIVE_PREFIXES})


def _prefixed(word: str, base: str) -> bool:
    """Whether ``word`` is ``base``, or a word made from it, behind a prefix.

    A verb takes the verb prefixes and stays a verb (``refaire``, ``sourire``; not
    ``soulier``, which simplemma knows as no verb, nor ``surfer`` from ``fer``).
    An adjective takes in- (``impossible``). A noun takes the noun prefixes and
    becomes far rarer (``surnom``, ``préhistoire``; not ``repas``, ``parade``).
    """
    key, base_key = _key(word), _key(base)
    for prefix in _PREFIXES:
        if not key.startswith(prefix) or len(word) - len(prefix) < 3:
            continue
        rest = word[len(prefix) :]
        rest_key = _key(rest)
        same = rest_key == base_key or _key(_lemma(rest)) == _key(_lemma(base))
        if not same and not _suffixed(rest, base):
            continue
        if _is_verb(rest):
            if prefix in VERB_PREFIXES and (_is_verb(word) or not _is_known(word)):
                return True
        elif _is_verb(word):
            continue
        elif prefix in NEGATIVE_PREFIXES:
            if rest_key.endswith(ADJECTIVE_ENDINGS):
                return True
        elif (
            prefix in NOUN_PREFIXES
            and rest_key[0] not in _VOWELS
            and _zipf(word) <= _zipf(base) - COMMONER
        ):
            return True
    return False


def _compound(word: str, part: str) -> bool:
    """Whether ``word`` is ``part`` and another word, written as one.

    ``part`` last: after a combining form (``autoroute``), after a preposition
    or an adjective that begins compounds, in a compound rarer than ``part``
    (``parapluie``, ``bonjour``), or after a common form of a verb
    (``tournevis``: tourne, of ``tourner``). ``part`` first: an adjective that
    begins compounds (``bonhomme``), or a verb (``tournevis`` for ``tourner``).
    A compound is no verb form: ``ramenez`` is no ``rame`` + ``nez``.
    """
    key, part_key = _key(word), _key(part)
    if len(part_key) < 3 or len(key) < len(part_key) + 2:
        return False
    if _is_verb(word) or _is_verb(_lemma(word)):
        return False
    made, made_from = _zipf(word), _zipf(part)
    if key.endswith(part_key) and not _is_verb(part):
        front = word[: -len(part_key)]
        front_key = _key(front)
        if front_key in COMBINING_FORMS:
            return True
        if part_key[0] not in _VOWELS:
            if front_key in PREPOSITION_FRONTS and made <= made_from - COMMONER:
                return True
            if front_key in ADJECTIVE_FRONTS and made <= made_from - ADJECTIVE_FRONT_RARER:
                return True
        verb_form = _is_verb(front + "r") and _zipf_as_written(front) >= COMMON_PART
        if verb_form and made <= made_from:
            return True
    if key.startswith(part_key) and part_key in ADJECTIVE_FRONTS:
        rest = word[len(part_key) :]
        if len(rest) >= 4 and _zipf_as_written(rest) >= COMMON_PART:
            return made <= made_from - ADJECTIVE_FRONT_RARER
    if _is_verb(part) and part_key.endswith("er"):
        front = part_key[:-1]
        rest = word[len(front) :]
        if key.startswith(front) and len(rest) >= 3 and _zipf_as_written(rest) >= COMMON_PART:
            return True
    return False
