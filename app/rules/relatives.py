"""Whether an English Clue looks like a relative of a Keyword: a warning, never a refusal.

The rulebook also bars "a word of the same family", which no program can
decide, so a Clue that *looks like* a relative of a Keyword is saved with a
warning the player may ignore. It is tuned to catch obvious relatives without
crying wolf at chance overlaps: a warning on an innocent Clue teaches players
to ignore warnings. Spelling alone cannot tell ``Sunflower`` (sun + flower)
from ``Season`` (sea + son) or ``Mother`` from ``Teacher``, so the checker also
asks how common a word is (``wordfreq``'s English frequencies, on the Zipf
scale). Two English words (after folding, and after ``inflect`` has made them
singular) look related when:

1. one's hyphen- or apostrophe-separated part is the other (``Ice-cream``/``Ice``);
2. their Snowball stems agree (``Painting``/``Paint``, ``Kindness``/``Kind``);
3. the longer is the shorter, or its stem, plus a derivational suffix
   (-y, -ie, -er, -ess, -ish, -ist, -ful, -less, -ly, -ness, -man, -ship,
   -hood, -dom, ...), spelled the English way: silent *e* dropped
   (``Bake``/``Baker``), final consonant doubled (``Sun``/``Sunny``), *y*
   made *i* (``Happy``/``Happiness``). A one-syllable word ending
   consonant-vowel-consonant *must* double before a vowel, which spares
   ``Bus``/``Busy`` and ``Van``/``Vanish``; -y after *ll* makes a word
   ten times rarer (``Hilly``; ``Belly`` and ``Bully`` are words of their
   own). Keywords of three letters or fewer take no suffix that often
   occurs by chance: no -er (``Summer``),
   -ly (``Early``), -ment (``Pigment``), -dom (``Random``), nor a bare -y
   (``Army``). An -er word ten times commoner than its base is no agent of
   it (``Mother``, ``Number``, ``Cover``). On a base that is a common word,
   learned suffixes too, each held to the bases it is safe on (see
   :func:`_learned_suffixed`): -en (``Golden``), -ian (``Magician``,
   ``Comedian``), -cy (``Piracy``, ``Infancy``), -ic, -al, -ion, -ation,
   -ity; and two suffixes through a common word (``Fisherman`` through
   ``fisher``, ``Bakery`` through ``baker``). Diminutives, feminines and
   abstract nouns whose endings overlap many words by chance, each held to
   its spellings (see :func:`_small_female_or_abstract`): -let ten times
   rarer than its base (``Piglet``, ``Booklet``; not ``Hamlet``,
   ``Wallet``), -ette (``Kitchenette``), -ress (``Actress``, ``Tigress``),
   -ine (``Heroine``), -ty (``Royalty``, ``Safety``), -ry (``Bravery``;
   not ``Surgery``);
4. the longer is a compound: the shorter joined to another word that is a
   common word in its own right (``Firefighter``, ``Goldfish``,
   ``Campfire``, ``Peacoat``). That is what tells ``Sunshine`` from
   ``Catalog`` or ``Mustard``. Starts: the rest (read off the stem after
   -ing or -ed, so ``Starling`` is no ``Star``) opens as an English word
   can, with a consonant, and is no mere consonant plus weak ending like
   ``-pet`` or ``-her`` (``Carpet``, ``Feather``); after a Keyword of four
   letters or more it may be a rarer word (``Snowflake``). Ends: the front
   is a common word of three letters or more, no Latin prefix (``Dismiss``,
   ``Present``), and no vowel meets a vowel at the seam: that is how chance
   overlaps look (``Pineapple`` is neither a pine nor an apple). The Keyword
   is no weak tail (``Hamlet``) nor a suffix (``Friendship`` is no
   ``Ship``; a ``Snowman`` is a man), and the whole is not ten times
   commoner than it (``Knowledge`` is no ``Ledge``; ``Headache`` and
   ``Weekend`` are an ache and an end). A Keyword of three letters sits by
   chance at the edge of many words, so its other part needs four letters
   and must be a very common word: ``Sunflower`` and ``Seashell`` warn,
   ``Season``, ``Carpet``, ``Carton`` and ``Cartoon`` do not;
5. the longer is the shorter, or a relative of it, after a prefix (un-,
   dis-, mis-, re-, pre-, non-, over-, under-, out-: ``Unchain``,
   ``Rebuild``, ``Unfriendly``) and is at least ten times rarer than that
   rest, or half as rare after a prefix that says "not" (``Unknown``,
   ``Nonsense``, ``Misfortune``); or an adjective after Latin's "not",
   il-, ir-, im- and in- (``Illegal``, ``Irregular``, ``Impossible``,
   ``Incorrect``), no commoner than it; see :func:`_with_prefix`.

Only the first rule applies outside the Latin alphabet: Snowball here is
English. Measured on hand-written tables of hundreds of relatives and chance
overlaps (tests/rules/words/, tests/rules/test_relatives_measured.py), nine
relatives in ten warn and more than nine chance overlaps in ten do not. Some
chance overlaps still warn (``Pumpkin``/``Pump``, ``Corner``/``Corn``,
``Bargain``/``Gain``, ``Warlock``/``Lock``, ``Mattress``/``Matter``); a
warning costs one glance, and the player keeps the clue. Some relatives go
unwarned: two words of three letters (``Teapot``, ``Cowboy``), a short base
(``Payment``, ``Runner``), spelling changes (``Empress``, ``Florist``).

The words' stems, plurals and frequencies come from :mod:`app.rules.english`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.rules import english
from app.rules.lookalikes import squash

_VOWELS = frozenset("aeiou")

# Derivational suffixes starting with a vowel: they trigger English spelling
# changes (bake -> baker, sun -> sunny). Those not safe on a short base are in
# _RISKY_ON_SHORT.
_VOWEL_SUFFIXES = ("y", "ie", "er", "ess", "ish", "ist", "ism", "ous", "able")
_CONSONANT_SUFFIXES = (
    "ful",
    "less",
    "ly",
    "ness",
    "ment",
    "man",
    "men",
    "woman",
    "women",
    "ship",
    "hood",
    "dom",
    "like",
    "ward",
    "wards",
    "wise",
)
_SUFFIXES = frozenset(_VOWEL_SUFFIXES + _CONSONANT_SUFFIXES)
# Keywords that end compounds as words, though English also has them as suffixes: a
# "Snowman" is a man; a "Friendship" is no ship, and "Handsome" no "some".
_SUFFIX_KEYWORDS = (_SUFFIXES - {"man", "men", "woman", "women"}) | {"some"}
_RISKY_ON_SHORT = frozenset({"er", "ism", "ous", "able", "ly", "ment", "dom"})
_SHORT = 3  # letters; a base this short overlaps other words by chance too easily
_MIN_COMPOUND_REST = 3
# Zipf frequencies (3 is once per million words, 4 once per hundred thousand): a common
# word; one common enough to be the other half of a compound ("dal" is 3.25, "melon"
# 3.32); and beside a Keyword of three letters, where chance is everywhere ("cass" 3.5,
# "toon" 3.0, "shine" 4.2, "flower" 4.4).
_COMMON = 3.0
_COMMON_PART = 3.3
_COMMON_BESIDE_SHORT = 4.0
_PREFIXES = ("un", "dis", "mis", "re", "pre", "non", "over", "under", "out")
_LATIN_PREFIXES = frozenset({"dis", "mis", "re"})
# Prefixes that say "not": such a word is made in English every day and is rarely ten
# times rarer than the word it denies ("unusual", "unknown", "misfortune"), so half a
# step of Zipf frequency will do, on a rest of five letters or more.
_NEGATIONS = frozenset({"un", "non", "dis", "mis"})
_NEGATION_RARITY = 0.5
# The Latin "not" before adjectives, spelled after the sound that follows: il-legal,
# ir-regular, im-possible (before b, m, p), in-correct. il- and ir- double a letter no
# chance word does (illness is no ill + ness), so the word need only be no commoner.
_LATIN_NEGATIONS = {"il": "l", "ir": "r", "im": "bmp", "in": "acdefghjknoqstuvw"}
_ADJECTIVE_ENDINGS = (
    "ible", "able", "al", "ar", "ent", "ant", "ect", "ive", "ic", "ous", "ure", "ite",
    "ete", "ane", "ate", "ful",
)  # fmt: skip
_WEAK_ENDINGS = frozenset({"er", "en", "et", "el", "le", "ey"})
_PREFIX_RARITY = 1.0
# A compound is seldom ten times commoner than its last word: "knowledge" (5.0) is no
# "ledge" (3.3); "weekend" (5.3) is an "end" (5.9), "headache" (3.9) an "ache" (3.4).
_COMPOUND_COMMONER = 1.0
# A diminutive in -let is ten times rarer than a common base ("piglet" 3.2, "pig" 4.1;
# "hamlet" 3.7, "ham" 3.9; "wallet" 4.0, "wall" 4.9), and -ery words no commoner than
# their base but by a little ("slavery" 4.4, "slave" 4.2; "surgery" 4.6, "surge" 4.0).
_LLY_RARITY = 1.0
_SMALL_BASE = 3.5
_SMALL_RARITY = 1.0
_RY_COMMONER = 0.3
# Latin prefixes and syllables that wordfreq lists as words ("dis", "pre", "trans",
# "tor", "uni"): before a keyword they make "Dismiss", "Present", "Transparent", "Torrent",
# "Unicorn".
_PREFIX_FRONTS = frozenset(
    {
        "dis",
        "mis",
        "pre",
        "pro",
        "con",
        "com",
        "per",
        "sub",
        "sup",
        "sur",
        "tor",
        "ter",
        "trans",
        "uni",
    }
)
# An -er word is rarely ten times as common as its base ("teacher" 4.9, "teach" 4.6);
# "mother" (5.4) and "moth" (3.3) are no agent and its deed.
_ER_COMMONER = 1.0
# How English words begin; "tl" (startling) or "gn" (designed) at a split means no new word.
_ONSET = re.compile(
    r"[bcdfghjklmnpqrstvwyz]|[bcfgps]l|[bcdfgptw]r|[dst]w|[cpstw]h|s[ckmnpqt]|kn"
    r"|sch|scr|shr|sph|spl|spr|str|chr|thr"
)


# --- relatives ---------------------------------------------------------------------


@lru_cache(maxsize=4096)
def looks_related(clue: str, keyword: str) -> bool:
    """Whether two folded spellings look like one word family (see the module docstring)."""
    if _shares_part(clue, keyword) or _shares_part(keyword, clue):
        return True
    clue_key, keyword_key = squash(clue), squash(keyword)
    if not (clue_key.isascii() and clue_key.isalpha()):
        return False
    if not (keyword_key.isascii() and keyword_key.isalpha()):
        return False
    clue_variants = {clue_key, squash(english.singular(clue) or clue)}
    keyword_variants = {keyword_key, squash(english.singular(keyword) or keyword)}
    return any(_derived(a, b) for a in clue_variants for b in keyword_variants)


def _shares_part(compound: str, word: str) -> bool:
    """``ice-cream`` and ``Ice``: one of the parts is the word or a form of it."""
    parts = [part for part in re.split("[-']", compound) if len(part) >= 2]
    if len(parts) < 2:
        return False
    key = squash(word)
    return any(part == key or part in english.forms(word) for part in parts)


@lru_cache(maxsize=4096)
def _derived(a: str, b: str) -> bool:
    if a == b:
        return False
    stem = english.stem(a)
    if len(stem) >= _SHORT and stem == english.stem(b):
        return True
    # Each way round, as "ice" and "icy" are the same length; and from the stem too, which
    # makes "Painter" a relative of "Painting" (paint + er).
    for source, word in ((a, b), (b, a)):
        if any(_with_suffix(base, word) for base in {source, english.stem(source)}):
            return True
        if _small_female_or_abstract(source, word):
            return True
        if len(source) < len(word) and (
            _is_compound(source, word)
            or _with_two_suffixes(source, word)
            or _with_prefix(source, word)
        ):
            return True
    return False


def _with_prefix(base: str, word: str) -> bool:
    """``Unchain`` for ``Chain``: a prefix before the word or a relative of it.

    Prefixes make chance overlaps by the dozen (``Relate``, ``Remember``,
    ``Disease``, ``Dismiss``): most such words came into English whole, and
    are common words in their own right. A word made in English with a prefix
    is rarer than the word it is made from, so the rest must be at least ten
    times as common as the whole (one step of Zipf frequency). The base has
    four letters or more, and *re-* and *pre-* take no *s* after them, where
    Latin's words sit (``Reside``, ``Resent``, ``Present``, ``Reserve``).
    """
    if len(base) < 4:
        return False
    if _negated(base, word):
        return True
    for prefix in _PREFIXES:
        rest = word[len(prefix) :]
        if not word.startswith(prefix) or len(rest) < len(base):
            continue
        if prefix in ("re", "pre") and rest[0] == "s":
            continue
        if prefix in _LATIN_PREFIXES and len(rest) <= 4:
            continue
        if rest != base and not any(
            _with_suffix(stem, rest) for stem in {base, english.stem(base)}
        ):
            continue
        rarity = english.zipf(rest) - english.zipf(word)
        if rarity >= _PREFIX_RARITY:
            return True
        shortest = 4 if prefix == "un" else 5  # "unfair", not "dismay"
        negation = prefix in _NEGATIONS and len(rest) >= shortest and rest != "less"  # unless
        if negation and rarity >= _NEGATION_RARITY:
            return True
    return False


def _negated(base: str, word: str) -> bool:
    """``Impossible`` for ``Possible``, ``Illegal`` for ``Legal``: Latin's "not" on an adjective.

    The rest must be the base, five letters or more, ending as adjectives end
    (``Insect`` is no ``in-`` + ``sect``, ``Intense`` no ``in-`` + ``tense``) and
    be no rarer than the whole (``Invent``, ``Intent`` and ``Indeed`` are
    commoner than their rest).
    """
    for prefix, before in _LATIN_NEGATIONS.items():
        rest = word[len(prefix) :]
        if not word.startswith(prefix) or rest != base or rest[0] not in before:
            continue
        if len(rest) < 5 or not rest.endswith(_ADJECTIVE_ENDINGS):
            return False
        return english.zipf(rest) >= english.zipf(word)
    return False


def _with_suffix(base: str, word: str) -> bool:
    """Whether ``word`` is ``base`` plus a derivational suffix, spelled the English way."""
    if len(base) < _SHORT or len(word) <= len(base) - 2 or not word.startswith(base[:-2]):
        return False
    if word.endswith("er") and english.zipf(word) > english.zipf(base) + _ER_COMMONER:
        return False  # "Mother", "Number", "Cover": far commoner than "moth", "numb", "cove"
    if word == base + "y" and base.endswith("ll"):
        # Words in -lly are mostly words of their own ("belly", "bully", "jelly", "silly"):
        # an adjective made so is ten times rarer than its base ("hilly" 3.1, "hill" 4.7).
        return english.zipf(base) - english.zipf(word) >= _LLY_RARITY
    return word in _suffixed(base)


@lru_cache(maxsize=4096)
def _suffixed(base: str) -> frozenset[str]:
    """Every spelling of ``base`` plus one suffix that the rules above allow."""
    if len(base) < _SHORT:
        return frozenset()
    short = len(base) <= _SHORT
    must_double = _ends_short_syllable(base)
    words: set[str] = set()
    for suffix in (*_VOWEL_SUFFIXES, *_CONSONANT_SUFFIXES):
        if short and suffix in _RISKY_ON_SHORT:
            continue
        if suffix[0] in _VOWELS or suffix == "y":
            if not must_double and not (short and suffix == "y"):
                words.add(base + suffix)
            if base.endswith("e") and suffix != "ie":  # no "movie" from "move"
                words.add(base[:-1] + suffix)
            if must_double:
                words.add(base + base[-1] + suffix)
            if base[-1] == "y" and base[-2] not in _VOWELS and suffix[0] != "i":
                words.add(base[:-1] + "i" + suffix)
            if suffix in ("ist", "ism") and base[-1] in "aoy" and len(base) >= 4:
                words.add(base[:-1] + suffix)  # piano -> pianist, economy -> economist
        else:
            words.add(base + suffix)
            if base[-1] == "y" and base[-2] not in _VOWELS:
                words.add(base[:-1] + "i" + suffix)
    if _is_word(base):  # not on a stem: "parti" + -al is no "partial"
        words.update(_learned_suffixed(base))
    return frozenset(words)


def _learned_suffixed(base: str) -> set[str]:
    """Latinate and Old English suffixes, each held to the bases it is safe on.

    Each limit answers a chance overlap: -en takes neither a dropped *e* nor a
    doubled consonant (``Linen``, ``Raven``, ``Kitten``); -ic and -al want a
    base of four and five letters (``Topic``, ``Sandal``, ``Dental``); -ion
    follows a consonant and *t* only (``Election``, not ``Mission`` or
    ``Million``); -ity after a dropped *e* or on five letters (``Purity``, not
    ``Charity``).
    """
    words: set[str] = set()
    if len(base) >= 4 and base[-1] not in _VOWELS and base[-1] not in "wy":
        words.add(base + "en")  # gold -> golden
        words.add(base + "ic")  # atom -> atomic
    if len(base) >= 4 and base[-1] == "o":
        words.add(base + "ic")  # hero -> heroic
    if base.endswith("ic"):
        words.add(base + "ian")  # magic -> magician
    if base[-1] == "y" and base[-2] not in _VOWELS:
        words.add(base[:-1] + "ian")  # comedy -> comedian
        if len(base) >= 6:
            words.add(base[:-1] + "ic")  # history -> historic
    if len(base) >= 5:
        if base.endswith("te"):
            words.add(base[:-2] + "cy")  # pirate -> piracy
            if len(base) >= 6:
                words.add(base[:-1] + "ion")  # create -> creation, not state -> station
        if base.endswith("t"):
            words.add(base[:-1] + "cy")  # infant -> infancy, diplomat -> diplomacy
            if base[-2] not in _VOWELS:
                words.add(base + "ion")  # elect -> election
        words.add(base + "al")  # music -> musical
        words.add(base + "ity")  # human -> humanity
    if len(base) >= 4:
        stem = base[:-1] if base.endswith("e") else base
        words.add(stem + "ation")  # imagine -> imagination
        if base.endswith("e"):
            words.add(stem + "ity")  # pure -> purity
            if len(base) >= 5:
                words.add(stem + "al")  # nature -> natural
    return words


def _small_female_or_abstract(base: str, word: str) -> bool:
    """``Kitchenette``, ``Piglet``, ``Actress``, ``Heroine``, ``Safety``, ``Bravery``.

    Diminutives, feminines and abstract nouns whose endings overlap many words
    by chance, each held to a common base and to the spellings they take:

    - -let (-et after a single *l*, -t after *-le*) makes a word ten times rarer
      than its base (``Piglet``, ``Owlet``, ``Eaglet``; not ``Hamlet``, ``Wallet``,
      ``Bullet`` or ``Scarlet``), and the only one of these on three letters;
    - -ette after four letters (``Statuette``, ``Cigarette``, ``Majorette``);
    - -ress for -er and -or (``Waitress``, ``Actress``, ``Tigress``), no commoner
      than the base (``Address`` is no adder's);
    - -ine after *o* (``Heroine``);
    - -ty after *l* or *e* (``Royalty``, ``Cruelty``, ``Safety``);
    - -ry after *e*, no commoner than the base (``Bravery``, ``Scenery``;
      ``Surgery`` is no ``Surge``).
    """
    if len(base) < _SHORT or len(word) <= len(base) or not _is_word(base):
        return False
    stem = base[:-1] if base.endswith("e") else base
    rarer = english.zipf(base) - english.zipf(word)
    if base.endswith("le"):
        small = base + "t"
    elif base.endswith("l") and not base.endswith("ll"):
        small = base + "et"
    else:
        small = base + "let"
    if word == small and english.zipf(base) >= _SMALL_BASE and rarer >= _SMALL_RARITY:
        return True
    if len(base) <= _SHORT:
        return False
    if word == stem + "ette":
        return True
    if base.endswith(("er", "or")) and len(base) >= 5 and word == base[:-2] + "ress":
        return rarer >= 0
    if base.endswith("o") and word == base + "ine":
        return True
    if base.endswith(("l", "e")) and word == base + "ty":
        return True
    return base.endswith("e") and word == base + "ry" and rarer >= -_RY_COMMONER


def _with_two_suffixes(base: str, word: str) -> bool:
    """``Fisherman`` is ``fish`` + -er + -man: two suffixes, through a word in its own right.

    The word in between must be a common word, so that no chain is made up.
    """
    if len(base) <= _SHORT or len(word) < len(base) + 2:
        return False  # from three letters, chains run wild: car, carry, carrier
    return any(
        len(middle) < len(word)
        and word.startswith(middle[:-1])
        and _is_word(middle)
        and _with_suffix(base, middle)
        and _with_suffix(middle, word)
        for middle in _suffixed(base)
    )


def _ends_short_syllable(word: str) -> bool:
    """One syllable ending consonant-vowel-consonant (sun, swim): doubles before a vowel."""
    if len(word) < 3 or word[-1] in _VOWELS or word[-1] in "wxy":
        return False
    if word[-2] not in _VOWELS or word[-3] in _VOWELS:
        return False
    vowel_groups = re.findall("[aeiouy]+", word)
    return len(vowel_groups) == 1


def _is_compound(short: str, long: str) -> bool:
    """Whether ``long`` is ``short`` joined to another common word, split where a word could start.

    The other part must be a word in its own right, and a common one: that is
    what tells ``Sunflower`` (sun + flower) from ``Catalog`` or ``Mustard``. A
    Keyword of three letters or fewer sits by chance at the edge of many words
    whose other part is a short or rare word too (``Season``, ``Carpet``,
    ``Carton``, ``Cartoon``), so its other part needs four letters or more
    and must be more common.
    """
    if len(short) < _SHORT or not _is_word(short):
        return False  # a compound joins two words: "Mushroom" is no "mush"
    is_short = len(short) <= _SHORT
    stem = english.stem(long)
    cut = len(long) - len(stem)
    if long.startswith(short):
        # An inflection is no word: read the rest off the stem ("firefight-er"), and read it
        # whole only when stemming cut no deeper than into the rest alone ("starl-ing"),
        # or when the whole rest is a very common word ("sea-weed").
        rest = long[len(short) :]
        rests = {stem[len(short) :]}
        if not long.endswith(("ing", "ed")) or english.zipf(rest) >= _COMMON_BESIDE_SHORT:
            rests.add(rest)
        if not _is_tail(english.singular(rest) or rest) and any(
            _compound_part(part, is_short, long_short=len(short) > _SHORT)
            and _could_start_word(part)
            for part in rests
        ):
            return True
    if long.endswith(short) and short not in _SUFFIX_KEYWORDS:
        return _ends_compound(long[: -len(short)], short, long, cut)
    return False


def _ends_compound(front: str, short: str, long: str, cut: int) -> bool:
    """``Peacoat`` for ``Coat``: a common word before the Keyword, which is a word too.

    The front has three letters or more (four before a Keyword of three, and no
    plural *s*: ``Carton`` is no car + ton); no vowel meets a vowel at the seam,
    which is how chance overlaps look (``Pineapple``: the fruit is neither a
    pine nor an apple); the Keyword is no weak tail (``Carpet``, ``Hamlet``); and
    the whole is not much commoner than the Keyword (``Knowledge`` is no
    ``ledge``).
    """
    is_short = len(short) <= _SHORT
    if len(front) < (_SHORT + 1 if is_short else _SHORT):
        return False
    if front[-1] in _VOWELS and short[0] in _VOWELS:
        return False
    if _is_tail(short) or (is_short and front.endswith("s")) or front in _PREFIX_FRONTS:
        return False
    # When stemming cuts an -ing or -ed deeper into the word than into the keyword alone,
    # and leaves a word, the keyword was only an inflection's tail: "flanking" is no
    # "king"; "seaweed" (stem "seawe") is a "weed".
    own_cut = len(short) - len(english.stem(short))
    if long.endswith(("ing", "ed")) and cut > own_cut + 1 and _is_word(english.stem(long)):
        return False
    if english.zipf(long) > english.zipf(short) + _COMPOUND_COMMONER:
        return False
    return _compound_part(front, is_short)


def _compound_part(part: str, beside_short: bool, long_short: bool = False) -> bool:
    """Whether ``part`` can be the other word of a compound (see :func:`_is_compound`).

    After a Keyword of four letters or more, a rest of four or more may be a
    rarer word (``Snowflake``), still one of the list of words read (Zipf 3).
    """
    if beside_short:
        return len(part) > _SHORT and english.zipf(part) >= _COMMON_BESIDE_SHORT
    if long_short and len(part) > _SHORT:
        return _is_word(part)
    return len(part) >= _MIN_COMPOUND_REST and english.zipf(part) >= _COMMON_PART


def _is_word(word: str) -> bool:
    return english.zipf(word) >= _COMMON


def _could_start_word(rest: str) -> bool:
    """Whether ``rest`` opens with consonants an English word can open with, then a vowel."""
    found = re.match("y?[^aeiouy]*", rest)  # a y after consonants is a vowel: "fly"
    onset = found.group() if found else ""
    return bool(_ONSET.fullmatch(onset)) and len(onset) < len(rest)


def _is_tail(rest: str) -> bool:
    """A consonant and a weak ending is how a longer word ends, not a second word.

    So "Carpet", "Partner" and "Feather" are no compounds, though "pet" and
    "her" are words; the price is that "Headset" goes unwarned.
    """
    return len(rest) == _MIN_COMPOUND_REST and rest[1:] in _WEAK_ENDINGS
