"""Whether a French clue looks like a word of a keyword's family: a warning, never a
refusal.

Warned, and accepted: a word of the keyword's family, which the players judge
better than any rule (see :func:`related`):

- a hyphenated compound with the keyword as one of its parts (``porte-clés``,
  ``arc-en-ciel``, ``sous-marin``);
- the keyword with a French derivational ending (``chaton``, ``tartelette``,
  ``fleuriste``, ``boulangerie``, ``jardiner``, ``peinture``, ``gourmandise``,
  ``enfantin``), or a word sharing its root (``cycliste`` and ``cyclisme``);
- a quality made from an adjective (``beauté``, ``propreté``, ``royauté``,
  ``enfance``), or from its feminine (``blancheur``, ``douceur``,
  ``vieillesse``), and an adjective from a noun (``argenté``, ``boisé``);
- the keyword behind a prefix (``refaire``, ``impossible``, ``malheureux``,
  ``désordre``, ``préhistoire``);
- a compound written as one word (``tournevis``, ``parapluie``, ``autoroute``,
  ``longtemps``);
- a word simplemma reads as the keyword itself where the checker refuses no
  form (``infirmière`` for ``infirmier``).

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
tests/rules/test_relatives_fr.py, and larger ones, measured (nine relatives in
ten caught), in tests/rules/words/ and tests/rules/test_relatives_measured.py.

The words' lemmas, verbs and frequencies come from :mod:`app.rules.french`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.rules import french

_JOINS = re.compile(r"[-']")
_VOWELS = frozenset("aeiouy")

# --- endings (folded: -ité is "ite", -ée is "ee") --------------------------------------

DIMINUTIVES = frozenset({"ette", "lette", "et", "on", "ot", "otte", "eau", "ceau"})
"""Little ones: ``fillette``, ``tartelette``, ``œillet``, ``chaton``, ``chevreau``,
``lionceau``."""
NOUN_ENDINGS = DIMINUTIVES | frozenset(
    {
        "erie", "ier", "iere", "iste", "isme", "eur", "euse", "ateur", "atrice", "eron",
        "issier", "isserie", "age", "ment", "ement", "ation", "ition", "ure", "ture",
        "ade", "ee", "oir", "oire", "ite", "esse", "eux", "al", "ial", "ique", "able",
        "ible", "if", "aire", "ard", "ien", "u", "ise", "in",
    }
)  # fmt: skip
"""Endings that make a noun or an adjective."""
FROM_FEMININES = frozenset({"eur", "ise", "esse", "ment"})
"""Endings of qualities that go on an adjective's feminine: ``blancheur``,
``franchise``, ``vieillesse``, ``doucement``."""
VERB_ENDINGS = frozenset({"er", "ir", "iser", "ifier"})
"""Endings that make a verb, so the word must be one: ``jardiner``, not ``papier``."""
FROM_VERBS = frozenset({"oir", "oire", "ture"})
"""Endings only a verb takes: ``arrosoir``, ``peinture``; ``mouchoir`` is no
``mouche`` + -oir, ``voiture`` no ``voie`` + -ture."""
FROM_NOUNS = frozenset({"u", "eau", "ceau", "in"})
"""Endings a verb does not take: ``clou`` is no ``clore`` + -u, ``tombeau`` no
``tomber`` + -eau, ``poussin`` no ``pousser`` + -in."""
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
ANCE_COMMONER = 0.8
"""See :func:`_quality`."""
COMMONER_THAN_VERB = 1.5
"""Words made from a verb are often its equals (``chanson``, ``peinture``)."""
RARER = {
    **dict.fromkeys(DIMINUTIVES, 0.5),
    "et": 1.0,
    "eux": 0.5,
    "ier": 0.5,
    "iere": 0.5,
    "ard": 2.0,
    "in": 1.0,
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
NEGATIVE_PREFIXES = ("in", "im", "il", "ir", "mal")
"""The contrary of an adjective: ``impossible``, ``inconnu``, ``incassable``,
``malheureux``, ``malhonnête``."""
ADJECTIVE_ENDINGS = (
    "ble", "ent", "ant", "u", "ile", "ste", "al", "el", "if", "ain", "ide", "eux", "ier",
    "ect", "act", "ur", "ete", "li",
)  # fmt: skip
CONTRARY_PREFIX = "des"
"""``dés-`` before a vowel makes the contrary of a noun or an adjective
(``désordre``, ``désagréable``, ``déshonneur``), a word rarer than it by half a step;
``désert`` and ``désir`` have no word after it."""
CONTRARY_RARER = 0.5
"""How the adjectives in- takes end, and ``secte`` (of ``insecte``) does not."""
COMBINING_FORMS = frozenset({"auto", "aero", "tele", "micro", "mini", "photo", "radio", "moto"})
"""Words that only begin compounds: ``autoroute``, ``aéroport``."""
PREPOSITION_FRONTS = frozenset(
    {"para", "pare", "sous", "sou", "sur", "contre", "entre", "pour", "mi"}
)
"""Words that begin compounds of a noun (``parapluie``, ``paratonnerre``, ``minuit``);
the compound is ten times rarer than the noun: ``mirage`` is no ``mi`` + ``rage``."""
ADJECTIVE_FRONTS = frozenset(
    {"demi", "bon", "bonne", "grand", "grande", "mille", "haut", "petit", "long", "autre"}
    | {"quelque"}
)
"""Adjectives and numbers that begin compounds (``bonhomme``, ``bonjour``,
``millefeuille``, ``longtemps``, ``autrefois``), which are three times rarer than
their other half."""
ADJECTIVE_FRONT_RARER = 0.5
COMMON_PART = 3.5
"""How common the other word of a compound must be (``vis``, ``homme``): ``carre``
(of ``carrefour``) is not."""


def _accents_clash(a: str, b: str) -> bool:
    """Whether one letter of the shared start bears two different accents (guêpe, guépard).

    A word made from another keeps an accent or drops it, but does not trade it
    for another, save the open and closed e (``chèvre``, ``chevreau``; ``poète``,
    ``poétique``).
    """
    for x, y in zip(a, b, strict=False):
        if french.key(x) != french.key(y):
            return False
        if x != y and x != french.key(x) and y != french.key(y) and {x, y} != {"é", "è"}:
            return True
    return False


@lru_cache(maxsize=8192)
def related(clue: str, keyword: str) -> bool:
    """Whether two written words look like one word family (see the module docstring)."""
    if _shares_part(clue, keyword) or _shares_part(keyword, clue):
        return True
    a, b = _JOINS.sub("", clue), _JOINS.sub("", keyword)
    if french.key(a) == french.key(b) or _accents_clash(a, b):
        return False
    if french.key(french.lemma(a)) == french.key(french.lemma(b)):
        return True  # one word to the dictionary, and no form the checker refuses: infirmière
    return _made_from(a, b) or _made_from(b, a)


def _made_from(word: str, base: str) -> bool:
    return _suffixed(word, base) or _prefixed(word, base) or _compound(word, base)


def _shares_part(compound: str, word: str) -> bool:
    """``porte-clés`` and ``clé``: a part of a hyphenated word is the word, or a form of it."""
    parts = [part for part in _JOINS.split(compound) if len(part) >= 2]
    if len(parts) < 2:
        return False
    key = french.key(word)
    return any(
        french.key(part) == key
        or french.key(part) in french.forms(key)
        or key in french.forms(french.key(part))
        or french.key(french.lemma(part)) == french.key(french.lemma(word))
        for part in parts
    )


def _suffixed(word: str, base: str) -> bool:
    """Whether ``word`` is ``base`` with a derivational ending, or shares its root.

    Both are read in their dictionary forms: ``fleuristes`` as ``fleuriste``,
    ``affichait`` as ``afficher``, ``bonnes`` as ``bonne``.
    """
    word, base = french.lemma(word), french.lemma(base)
    derived, source = french.key(word), french.key(base)
    if source in FUNCTION_WORDS or derived == source or len(derived) < len(source) - 1:
        return False
    for stem in _feminine_stems(base, source):
        ending = derived[len(stem) :]
        fits = derived.startswith(stem) and ending in FROM_FEMININES
        if fits and _ending_fits(word, base, stem, ending):
            return True
    for stem in _stems(source):
        if derived.startswith(stem) and derived != stem:
            for ending in _endings_after(stem, derived[len(stem) :], source):
                if _ending_fits(word, base, stem, ending):
                    return True
    if _quality(word, base, derived, source):
        return True
    trade = source[: -3 if source.endswith("ier") else -2]
    if source.endswith("er") and len(source) >= 6 and derived == trade + "erie":
        return True  # the trade and its shop: boulanger, boulangerie; pâtissier, pâtisserie
    if french.is_verb(base) and source.endswith("nter") and derived == source[:-3] + "son":
        return True  # chant-er, chan-son: the t gives way to -son
    for root in _roots(source):
        ending = derived[len(root) :]
        if derived.startswith(root) and len(root) >= SIBLING_ENDINGS.get(ending, len(derived)):
            return True
    return False


def _quality(word: str, base: str, derived: str, source: str) -> bool:
    """Abstract nouns and adjectives whose endings are only told by their accent.

    - -té on an adjective, masculine or feminine (``beauté``, ``bonté``,
      ``fierté``, ``propreté``, ``pureté``; -al as -au: ``royauté``), a noun
      and not a past participle (``planté`` is no ``plan`` + -té);
    - -é on a noun, ten times rarer than it (``argenté``, ``boisé``): no verb's
      participle is read so, for the noun is no verb;
    - -ance and -ence for -ant and -ent (``enfance``, ``patience``), no more
      than six times as common as the adjective (``absence`` is 0.7 steps
      commoner than ``absent``; ``chance``, 0.9 steps commoner, is no ``chant``).
    """
    written, made, made_from = french.written(word), french.zipf(word), french.zipf(base)
    if made > made_from + COMMONER:
        return False
    royal = source[:-2] + "aute" if source.endswith("al") else None  # royal: royauté
    if written.endswith("té") and derived in (source + "te", source + "ete", royal):
        return not french.is_verb(derived[:-1] + "er")  # planté is planter's
    if source.endswith(("ant", "ent")) and derived == source[:-1] + "ce":
        return made <= made_from + ANCE_COMMONER
    if written.endswith("é") and not written.endswith("ée") and derived == source + "e":
        return len(source) >= 4 and not french.is_verb(base) and made <= made_from - COMMONER
    return source.endswith(("ant", "ent")) and derived == source[:-1] + "ce"


def _feminine_stems(base: str, source: str) -> set[str]:
    """Where the endings of qualities go on an adjective: on its feminine
    (``blanche``: ``blancheur``; ``douce``: ``douceur``; ``vieille``: ``vieillesse``)."""
    if french.is_verb(base):
        return set()
    return {
        feminine[:-1]
        for feminine in french.feminines(source)
        if feminine.endswith("e") and feminine[:-1] != source and len(feminine) >= 4
    }


def _stems(word: str) -> set[str]:
    """Where an ending goes on ``word`` (folded): on the word, or on what is left
    once French has dropped or changed its end (``pomm``-ier, ``chant``-eur,
    ``mange``-able, ``histor``-ique, ``électric``-ité, ``mag``-ique, ``pian``-iste)."""
    stems = {word}
    if word.endswith("e"):
        stems.add(word[:-1])
    if french.is_verb(word):
        if word.endswith(("er", "ir", "re")):
            stems.add(word[:-2])  # chant-er, nourr-ir, vend-re
        if word.endswith("er") or (word.endswith("ir") and not word.endswith("oir")):
            stems.add(word[:-1])  # mange-able, nourri-ture (not voi-ture)
        if word.endswith("dre"):
            stems.add(word[:-3])  # pein-dre: pein-ture
    if word.endswith("os") and len(word) >= 5:
        stems.add(word[:-1])  # héros: héro-ïque, héro-ïsme
    if word.endswith("oie"):
        stems.add(word[:-2] + "y")  # joie: joy-eux, soie: soy-eux
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
    derived, source = french.key(word), french.key(base)
    from_verb = french.is_verb(base)
    # What the ending makes, and of what.
    if ending in VERB_ENDINGS:
        if not french.is_verb(word):
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
    made, made_from = french.zipf(word), french.zipf(base)
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
    key, base_key = french.key(word), french.key(base)
    for prefix in _PREFIXES:
        if not key.startswith(prefix) or len(word) - len(prefix) < 3:
            continue
        rest = word[len(prefix) :]
        rest_key = french.key(rest)
        same = rest_key == base_key or (
            french.key(french.lemma(rest)) == french.key(french.lemma(base))
        )
        if not same and not _suffixed(rest, base):
            continue
        if french.is_verb(rest):
            if prefix in VERB_PREFIXES and (french.is_verb(word) or not french.is_known(word)):
                return True
        elif french.is_verb(word):
            continue
        elif prefix in NEGATIVE_PREFIXES:
            if rest_key.endswith(ADJECTIVE_ENDINGS):
                return True
        elif prefix == CONTRARY_PREFIX and (rest_key[0] in _VOWELS or rest_key[0] == "h"):
            if same and french.zipf(word) <= french.zipf(base) - CONTRARY_RARER:
                return True
        elif (
            prefix in NOUN_PREFIXES
            and rest_key[0] not in _VOWELS
            and french.zipf(word) <= french.zipf(base) - COMMONER
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
    key, part_key = french.key(word), french.key(part)
    if len(part_key) < 3 or len(key) < len(part_key) + 2:
        return False
    if french.is_verb(word) or french.is_verb(french.lemma(word)):
        return False
    made, made_from = french.zipf(word), french.zipf(part)
    if key.endswith(part_key) and not french.is_verb(part):
        front = word[: -len(part_key)]
        front_key = french.key(front)
        if front_key in COMBINING_FORMS:
            return True
        if part_key[0] not in _VOWELS:
            if front_key in PREPOSITION_FRONTS and made <= made_from - COMMONER:
                return True
            if front_key in ADJECTIVE_FRONTS and made <= made_from - ADJECTIVE_FRONT_RARER:
                return True
        verb_form = french.is_verb(front + "r") and french.zipf_as_written(front) >= COMMON_PART
        if verb_form and made <= made_from:
            return True
    if key.startswith(part_key) and part_key in ADJECTIVE_FRONTS:
        rest = word[len(part_key) :]
        if len(rest) >= 4 and french.zipf_as_written(rest) >= COMMON_PART:
            return made <= made_from - ADJECTIVE_FRONT_RARER
    if french.is_verb(part) and part_key.endswith("er"):
        front = part_key[:-1]
        rest = word[len(front) :]
        if key.startswith(front) and len(rest) >= 3 and french.zipf_as_written(rest) >= COMMON_PART:
            return True
    return False
