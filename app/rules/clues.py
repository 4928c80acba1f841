"""Checking a Clue against the player's own eight outward Keywords.

Two kinds of verdict, held to different standards:

* **Rejections are exact.** A Clue is refused only for facts the program can
  establish: it is empty, longer than 32 characters, more than one word, holds
  a character no word holds (letters and digits of any script are fine, and a
  hyphen or apostrophe between them; a zero-width joiner or non-joiner only
  between two letters of a script that needs one, as Persian and the Indic
  scripts do), holds a character that shows nothing (zero-width space,
  variation selector, Hangul filler), mixes alphabets so that a letter passes
  for one of another script (``Frоzen`` with a Cyrillic ``о``; see
  :func:`app.rules.lookalikes.disguised_mix`), or it *is* one of the
  Keywords, or its plural or singular. Words are compared through
  :func:`fold` (case, accents and width do not count), and also without
  their inner hyphens and apostrophes, so ``Ice-cream`` and ``Icecream`` are
  the Keyword "Ice cream". Number comes from ``inflect``, asked in both
  directions (modern and classical plurals: ``Cactuses`` and ``Cacti``), with
  its slips filtered out. A Clue that only *looks like* a Keyword or its
  plural or singular, letter for letter, is that Keyword too: ``НОРЕ``
  written in Cyrillic is "Hope" to anyone who reads it. Looks are Unicode's
  confusable skeletons (UTS #39, see :mod:`app.rules.lookalikes`), except
  between two words written in plain ASCII, where every reader tells
  ``Bum`` from ``Burn`` and a skeleton would refuse a different word.

* **Warnings are a heuristic.** The rulebook also bars "a word of the same
  family", which no program can decide, so a Clue that *looks like* a relative
  of a Keyword is saved with a warning the player may ignore. It is tuned to
  catch obvious relatives without crying wolf at chance overlaps, and uses no
  word list. Two English words (after folding, and after ``inflect`` has made
  them singular) look related when:

  1. one's hyphen- or apostrophe-separated part is the other (``Ice-cream``/``Ice``);
  2. their Snowball stems agree (``Painting``/``Paint``, ``Kindness``/``Kind``);
  3. the longer is the shorter, or its stem, plus a derivational suffix
     (-y, -ie, -er, -ess, -ish, -ist, -ful, -less, -ly, -ness, -man, -ship,
     -hood, -dom, ...), spelled the English way: silent *e* dropped
     (``Bake``/``Baker``), final consonant doubled (``Sun``/``Sunny``), *y*
     made *i* (``Happy``/``Happiness``). A one-syllable word ending
     consonant-vowel-consonant *must* double before a vowel, which spares
     ``Bus``/``Busy`` and ``Van``/``Vanish``. Keywords of three letters or
     fewer take no suffix that often occurs by chance: no -er (``Summer``),
     -ly (``Early``), -ment (``Pigment``), -dom (``Random``), nor a bare -y
     (``Army``);
  4. the longer is a compound that starts or ends with the shorter, which has
     four letters or more. Starts: what follows (less any inflection) is three
     letters or more and opens as an English word can, with a consonant
     (``Firefighter``, ``Rainbow``, ``Snowman``), but is no mere consonant
     plus weak ending like ``-pet`` or ``-ner`` (``Carpet``, ``Partner``).
     Ends: the front has four letters or more and the seam is
     consonant-to-consonant (``Campfire``), unless the Keyword doubles as a
     suffix (``Friendship`` is no ``Ship``). A vowel at the seam is how chance
     overlaps usually look (``Catalog``, ``Carpenter``), so ``Pineapple`` does
     not warn for ``Pine``. Keywords of three letters or fewer make no
     compounds: ``Cartoon``, ``Carpet`` and ``Season`` are chance, and by the
     same rule ``Sunshine`` goes unwarned for ``Sun``.

  Only the first rule applies outside the Latin alphabet: Snowball here is
  English. Without a word list some chance overlaps still warn
  (``Mother``/``Moth``, ``Pumpkin``/``Pump``); a warning costs one glance.

Everything is cached and no word list is loaded: the check runs on every
keystroke.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import inflect
import snowballstemmer

from app.rules.lookalikes import disguised_mix, is_invisible, look_alike, script

MAX_CLUE_LENGTH = 32

_HYPHENS = "-\u2010\u2011"  # hyphen-minus, hyphen, non-breaking hyphen
_APOSTROPHES = "'\u2019"  # typewriter and typographic apostrophe
_ZERO_WIDTH_JOINERS = "\u200c\u200d"  # needed inside words in Persian and Indic scripts
# Scripts whose words need a zero-width (non-)joiner between two letters: cursive
# scripts, where it keeps two letters from joining (Persian "می‌خواهم"), and Brahmic
# scripts, where it chooses how a consonant cluster is drawn. Elsewhere it only hides.
_JOINING_SCRIPTS = frozenset(
    {
        *("ARABIC", "SYRIAC", "NKO", "MONGOLIAN", "MANDAIC", "ADLAM", "HANIFI_ROHINGYA"),
        *("DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU"),
        *("KANNADA", "MALAYALAM", "SINHALA", "TIBETAN", "MYANMAR", "KHMER", "TAI_THAM"),
        *("BALINESE", "JAVANESE", "SUNDANESE", "NEWA", "SHARADA", "GRANTHA", "TIRHUTA"),
    }
)

_MODERN = inflect.engine()
_CLASSICAL = inflect.engine()
_CLASSICAL.classical(all=True)  # "cacti", "indices": both plurals are at the table
_STEMMER = snowballstemmer.stemmer("english")

_ENGLISH = re.compile(r"[a-z]+(?:[-'][a-z]+)*")
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
_RISKY_ON_SHORT = frozenset({"er", "ism", "ous", "able", "ly", "ment", "dom"})
_SHORT = 3  # letters; a base this short overlaps other words by chance too easily
_MIN_COMPOUND_REST = 3
_WEAK_ENDINGS = frozenset({"er", "en", "et", "el", "le", "ey"})
# How English words begin; "tl" (startling) or "gn" (designed) at a split means no new word.
_ONSET = re.compile(
    r"[bcdfghjklmnpqrstvwyz]|[bcfgps]l|[bcdfgptw]r|[dst]w|[cpstw]h|s[ckmnpqt]|kn"
    r"|sch|scr|shr|sph|spl|spr|str|chr|thr"
)


@dataclass(frozen=True)
class ClueProblem:
    """Why a clue is refused (an error) or worth a second look (a warning)."""

    code: str
    message: str
    keyword: str | None = None


@dataclass(frozen=True)
class ClueVerdict:
    """The clue as it would be saved, and what the checker thinks of it."""

    clue: str
    error: ClueProblem | None = None
    warning: ClueProblem | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def fold(word: str) -> str:
    """The key under which two spellings count as the same word.

    Case, accents and width do not count: ``fold("ＣＡＴ") == fold("cat")`` and
    ``fold("Café") == fold("cafe")``. Invisible format characters (soft hyphen,
    zero-width joiners) are dropped too, so they cannot smuggle a Keyword past
    the check. Repeated until stable, as a guard: a key must satisfy
    ``fold(fold(w)) == fold(w)`` even where case folding and normalization
    might disagree.
    """
    for _ in range(4):
        folded = _fold_once(word)
        if folded == word:
            break
        word = folded
    return word


@lru_cache(maxsize=4096)
def _fold_once(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", word).casefold())
    kept = (ch for ch in decomposed if unicodedata.category(ch) not in ("Mn", "Me", "Cf"))
    return unicodedata.normalize("NFC", "".join(kept))


def check_clue(text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a Clue for a player whose outward Keywords are ``keywords``.

    Never raises. An error means the Clue is not saved; a warning (only when
    there is no error) means it is saved but may be a Keyword's relative.
    """
    clue = unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).strip())
    error = _shape_problem(clue)
    if error is not None:
        return ClueVerdict(clue, error=error)

    clue_spelling = _spelling(clue)
    clue_key = _squash(clue_spelling)
    known = [(kw, _spelling(kw)) for kw in keywords]
    known = [(kw, spelling) for kw, spelling in known if _squash(spelling)]

    for keyword, spelling in known:
        if _squash(spelling) == clue_key:
            message = f'That is one of your keywords: "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword", message, keyword))
    for keyword, spelling in known:
        if _passes_for(clue_key, _squash(spelling)):
            message = f'That looks like one of your keywords: "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword", message, keyword))
    for keyword, spelling in known:
        if clue_key in _forms(spelling) or _squash(spelling) in _forms(clue_spelling):
            message = f'"{clue}" is a form of your keyword "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword_form", message, keyword))
    for keyword, spelling in known:
        if any(_passes_for(clue_key, form) for form in _forms(spelling)):
            message = f'"{clue}" looks like a form of your keyword "{keyword}".'
            return ClueVerdict(clue, error=ClueProblem("keyword_form", message, keyword))
    for keyword, spelling in known:
        if _looks_related(clue_spelling, spelling):
            message = f'Looks like a relative of "{keyword}". Keep it if it is not.'
            return ClueVerdict(clue, warning=ClueProblem("word_family", message, keyword))
    return ClueVerdict(clue)


# --- the shape of a word ---------------------------------------------------------


def _shape_problem(clue: str) -> ClueProblem | None:
    if not clue:
        return ClueProblem("empty", "Write a clue: one word.")
    if len(clue) > MAX_CLUE_LENGTH:
        return ClueProblem("too_long", f"A clue is at most {MAX_CLUE_LENGTH} characters.")
    if any(ch.isspace() for ch in clue):
        return ClueProblem("not_one_word", "A clue is one word: no spaces.")
    problem = _character_problem(clue)
    if problem is None and disguised_mix(clue):
        problem = ClueProblem(
            "mixed_scripts", "Mixed alphabets in one word: write it in one script."
        )
    return problem


def _character_problem(clue: str) -> ClueProblem | None:
    """Letters and digits of any script; joiners only between them, one at a time.

    Nothing invisible, except a zero-width (non-)joiner between two letters of
    a script that needs one.
    """
    previous = ""  # "letter", "digit", "joiner" or "" at the start
    letter = ""  # the last letter seen
    for index, ch in enumerate(clue):
        category = unicodedata.category(ch)
        following = clue[index + 1] if index + 1 < len(clue) else ""
        if (
            ch in _ZERO_WIDTH_JOINERS
            and previous == "letter"
            and _is_letter(following)
            and _needs_joiners(letter)
            and _needs_joiners(following)
        ):
            previous = "joiner"
        elif is_invisible(ch):
            return ClueProblem(
                "bad_character",
                f"{_show(ch)} is an invisible character: a clue holds only what shows.",
            )
        elif category[0] == "L":
            previous = "letter"
            letter = ch
        elif category[0] == "N":
            previous = "digit"
        elif category[0] == "M" and previous == "letter":
            continue  # an accent or vowel sign belongs to the letter before it
        elif ch in _HYPHENS or ch in _APOSTROPHES:
            if previous not in ("letter", "digit") or not _is_word_char(following):
                return ClueProblem(
                    "bad_character",
                    "A hyphen or apostrophe goes inside the word, between letters or digits.",
                )
            previous = "joiner"
        else:
            return ClueProblem(
                "bad_character",
                f"A clue holds letters, digits, and a hyphen or apostrophe inside: "
                f"{_show(ch)} is not allowed.",
            )
    return None


def _is_word_char(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch)[0] in "LN"


def _is_letter(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch)[0] == "L"


def _needs_joiners(letter: str) -> bool:
    return script(letter) in _JOINING_SCRIPTS


def _show(ch: str) -> str:
    """A refused character as a person can see it, even if it is invisible."""
    if unicodedata.category(ch)[0] in "CZM" or is_invisible(ch):
        return f"U+{ord(ch):04X}"
    return f'"{ch}"'


def _passes_for(clue_key: str, word_key: str) -> bool:
    """Whether two squashed spellings look the same, letter for letter.

    Never between two plain ASCII words: their readers tell the letters apart,
    and a skeleton would make ``Bum`` the Keyword "Burn" (rn looks like m).
    """
    if clue_key.isascii() and word_key.isascii():
        return False
    return look_alike(clue_key, word_key)


# --- keys, forms and stems ---------------------------------------------------------


@lru_cache(maxsize=4096)
def _spelling(word: str) -> str:
    """Folded, with one hyphen and one apostrophe: what ``inflect`` gets to read.

    A Keyword written in two words ("Ice cream") is spelled with a hyphen, so
    that ``Ice-cream`` and ``Icecream`` are that Keyword too.
    """
    folded = fold(word).strip()
    folded = re.sub(f"[{_HYPHENS}]", "-", folded)
    folded = re.sub(f"[{_APOSTROPHES}]", "'", folded)
    return re.sub(r"\s+", "-", folded)


def _squash(spelling: str) -> str:
    """The exact comparison key: the spelling without its inner hyphens and apostrophes."""
    return spelling.replace("-", "").replace("'", "")


@lru_cache(maxsize=4096)
def _forms(spelling: str) -> frozenset[str]:
    """Squashed plurals and singular of an English word (empty for any other).

    ``inflect`` is asked both ways, modern and classical ("cactuses", "cacti").
    Its slips are filtered out: it treats some words as pronouns ("it" ->
    "they", "us" -> "me"), so a form must keep the first letter.
    """
    forms = {_singular(spelling)}
    if forms == {None}:
        forms = {_plural(spelling, engine) for engine in (_MODERN, _CLASSICAL)}
    return frozenset(
        _squash(form) for form in forms if form and form[0] == spelling[0] and form != spelling
    )


@lru_cache(maxsize=4096)
def _singular(spelling: str) -> str | None:
    """The singular of a plural English word, else None.

    ``singular_noun`` cuts the *s* off singular words that end in one
    ("cactus" -> "cactu", "bus" -> "bu"); such a cut is not trusted. The pair
    is still found from the other side: ``plural_noun("cactus")`` is right.
    """
    if not _ENGLISH.fullmatch(spelling):
        return None
    for engine in (_MODERN, _CLASSICAL):
        try:
            singular = engine.singular_noun(spelling)
        except Exception:  # inflect is a large heuristic; a slip there must not cost a clue
            continue
        cut_s = singular == spelling[:-1] and spelling.endswith(("us", "is", "ss", "os", "as"))
        if isinstance(singular, str) and singular and singular != spelling and not cut_s:
            return singular
    return None


def _plural(spelling: str, engine: inflect.engine) -> str | None:
    if not _ENGLISH.fullmatch(spelling):
        return None
    try:
        return engine.plural_noun(spelling)
    except Exception:  # as above
        return None


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    stem: str = _STEMMER.stemWord(word)
    return stem


# --- relatives ---------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _looks_related(clue: str, keyword: str) -> bool:
    """Whether two folded spellings look like one word family (see the module docstring)."""
    if _shares_part(clue, keyword) or _shares_part(keyword, clue):
        return True
    clue_key, keyword_key = _squash(clue), _squash(keyword)
    if not (clue_key.isascii() and clue_key.isalpha()):
        return False
    if not (keyword_key.isascii() and keyword_key.isalpha()):
        return False
    clue_variants = {clue_key, _squash(_singular(clue) or clue)}
    keyword_variants = {keyword_key, _squash(_singular(keyword) or keyword)}
    return any(_derived(a, b) for a in clue_variants for b in keyword_variants)


def _shares_part(compound: str, word: str) -> bool:
    """``ice-cream`` and ``Ice``: one of the parts is the word or a form of it."""
    parts = [part for part in re.split("[-']", compound) if len(part) >= 2]
    if len(parts) < 2:
        return False
    key = _squash(word)
    return any(part == key or part in _forms(word) for part in parts)


@lru_cache(maxsize=4096)
def _derived(a: str, b: str) -> bool:
    if a == b:
        return False
    stem = _stem(a)
    if len(stem) >= _SHORT and stem == _stem(b):
        return True
    # Each way round, as "ice" and "icy" are the same length; and from the stem too, which
    # makes "Painter" a relative of "Painting" (paint + er).
    for source, word in ((a, b), (b, a)):
        if any(_with_suffix(base, word) for base in {source, _stem(source)}):
            return True
        if len(source) < len(word) and _is_compound(source, word):
            return True
    return False


def _with_suffix(base: str, word: str) -> bool:
    """Whether ``word`` is ``base`` plus a derivational suffix, spelled the English way."""
    if len(base) < _SHORT or len(word) <= len(base) - 1 or not word.startswith(base[:-1]):
        return False
    short = len(base) <= _SHORT
    must_double = _ends_short_syllable(base)
    for suffix in (*_VOWEL_SUFFIXES, *_CONSONANT_SUFFIXES):
        if short and suffix in _RISKY_ON_SHORT:
            continue
        if suffix[0] in _VOWELS or suffix == "y":
            candidates = []
            if not must_double and not (short and suffix == "y"):
                candidates.append(base + suffix)
            if base.endswith("e") and suffix != "ie":  # no "movie" from "move"
                candidates.append(base[:-1] + suffix)
            if must_double:
                candidates.append(base + base[-1] + suffix)
            if base[-1] == "y" and base[-2] not in _VOWELS and suffix[0] != "i":
                candidates.append(base[:-1] + "i" + suffix)
        else:
            candidates = [base + suffix]
            if base[-1] == "y" and base[-2] not in _VOWELS:
                candidates.append(base[:-1] + "i" + suffix)
        if word in candidates:
            return True
    return False


def _ends_short_syllable(word: str) -> bool:
    """One syllable ending consonant-vowel-consonant (sun, swim): doubles before a vowel."""
    if len(word) < 3 or word[-1] in _VOWELS or word[-1] in "wxy":
        return False
    if word[-2] not in _VOWELS or word[-3] in _VOWELS:
        return False
    vowel_groups = re.findall("[aeiouy]+", word)
    return len(vowel_groups) == 1


def _is_compound(short: str, long: str) -> bool:
    """Whether ``long`` is ``short`` joined to another word, split where a word could start."""
    if len(short) <= _SHORT:
        return False
    stem = _stem(long)
    if long.startswith(short):
        # An inflection is no word: read the rest off the stem, and "designed" leaves "gn".
        rest = stem[len(short) :]
        if (
            len(rest) >= _MIN_COMPOUND_REST
            and _could_start_word(rest)
            and not _is_tail(long[len(short) :])
        ):
            return True
    if long.endswith(short) and short not in _SUFFIXES:
        front = long[: -len(short)]
        # When stemming cuts deeper into the word than into the keyword alone, the keyword
        # was only an inflection's tail: "flanking" is no "king".
        cut, own_cut = len(long) - len(stem), len(short) - len(_stem(short))
        if (
            len(front) > _SHORT
            and front[-1] not in _VOWELS
            and short[0] not in _VOWELS
            and re.search("[aeiouy]", front)
            and cut <= own_cut + 1
        ):
            return True
    return False


def _could_start_word(rest: str) -> bool:
    """Whether ``rest`` opens with consonants an English word can open with, then a vowel."""
    found = re.match("y?[^aeiouy]*", rest)  # a y after consonants is a vowel: "fly"
    onset = found.group() if found else ""
    return bool(_ONSET.fullmatch(onset)) and len(onset) < len(rest)


def _is_tail(rest: str) -> bool:
    """A consonant and a weak ending is how a longer word ends, not a second word.

    So "Carpet", "Partner" and "Chapter" are no compounds; the price is that
    "Headset" goes unwarned.
    """
    return len(rest) == _MIN_COMPOUND_REST and rest[1:] in _WEAK_ENDINGS
