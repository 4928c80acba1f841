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
  Keywords, or its plural or singular. Words are compared as their reader
  reads them (:func:`app.rules.lookalikes.plain`: small capitals, the
  dotless i, any dash, apostrophe or dot count as the letter or the hyphen
  they look like), through :func:`fold` (case, accents and width do not
  count), and without their inner hyphens, apostrophes and dots, so
  ``Ice-cream``, ``Ice–cream`` and ``Icecream`` are the Keyword "Ice cream"
  and ``ᴅᴜᴄᴋ`` is "Duck". Number comes from ``inflect``, asked in both
  directions (modern and classical plurals: ``Cactuses`` and ``Cacti``), with
  its slips filtered out. A Clue that only *looks like* a Keyword or its
  plural or singular, letter for letter, is that Keyword too: ``НОРЕ``
  written in Cyrillic is "Hope" to anyone who reads it. Looks are Unicode's
  confusable skeletons (UTS #39, see :func:`app.rules.lookalikes.passes_for`),
  except between two words written in plain Latin letters, where every
  reader tells ``Bum`` from ``Burn`` and a skeleton would refuse a different
  word. The French and Chinese checkers read and compare words the same way.

* **Warnings are a heuristic.** The rulebook also bars "a word of the same
  family", which no program can decide, so a Clue that *looks like* a relative
  of a Keyword is saved with a warning the player may ignore. It is tuned to
  catch obvious relatives without crying wolf at chance overlaps: a warning on
  an innocent Clue teaches players to ignore warnings. Spelling alone cannot
  tell ``Sunflower`` (sun + flower) from ``Season`` (sea + son) or
  ``Mother`` from ``Teacher``, so the checker also asks how common a word is
  (``wordfreq``'s English frequencies, on the Zipf scale). Two English words
  (after folding, and after ``inflect`` has made them singular) look related
  when:

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
     (``Army``). An -er word ten times commoner than its base is no agent of
     it (``Mother``, ``Number``, ``Cover``). On a base that is a common word,
     learned suffixes too, each held to the bases it is safe on (see
     :func:`_learned_suffixed`): -en (``Golden``), -ian (``Magician``,
     ``Comedian``), -cy (``Piracy``, ``Infancy``), -ic, -al, -ion, -ation,
     -ity; and two suffixes through a common word (``Fisherman`` through
     ``fisher``, ``Bakery`` through ``baker``);
  4. the longer is a compound: the shorter joined to another word that is a
     common word in its own right (``Firefighter``, ``Goldfish``,
     ``Campfire``). That is what tells ``Sunshine`` from ``Catalog`` or
     ``Mustard``. Starts: the rest (read off the stem after -ing or -ed, so
     ``Starling`` is no ``Star``) opens as an English word can, with a
     consonant, and is no mere consonant plus weak ending like ``-pet`` or
     ``-her`` (``Carpet``, ``Feather``). Ends: the front has four letters
     or more and the seam is consonant-to-consonant, unless the Keyword
     doubles as a suffix (``Friendship`` is no ``Ship``); a vowel at the seam
     is how chance overlaps usually look (``Pineapple`` for ``Pine``). A
     Keyword of three letters sits by chance at the edge of many words, so
     its other part needs four letters and must be a very common word:
     ``Sunflower`` and ``Seashell`` warn, ``Season``, ``Carpet``,
     ``Carton`` and ``Cartoon`` do not;
  5. the longer is the shorter, or a relative of it, after a prefix (un-,
     dis-, mis-, re-, pre-, non-, over-, under-, out-: ``Unchain``,
     ``Rebuild``, ``Unfriendly``) and is at least ten times rarer than that
     rest; see :func:`_with_prefix`.

  Only the first rule applies outside the Latin alphabet: Snowball here is
  English. Some chance overlaps still warn (``Pumpkin``/``Pump``,
  ``Listen``/``List``, ``Corner``/``Corn``, ``Earnest``/``Ear``); a warning
  costs one glance. Some relatives go unwarned: a three-letter front
  (``Cupcake`` for ``Cake``), a vowel at the seam (``Headache``), a short
  base (``Payment``).

Everything is cached: the check runs on every keystroke. The frequencies are
read from ``wordfreq``'s own data, once.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import inflect
import snowballstemmer
import wordfreq

from app.rules.lookalikes import disguised_mix, is_invisible, passes_for, plain, script, squash
from app.rules.text import N_, Text, Value

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
# Zipf frequencies (3 is once per million words, 4 once per hundred thousand): a common
# word; one common enough to be the other half of a compound ("dal" is 3.25, "melon"
# 3.32); and beside a Keyword of three letters, where chance is everywhere ("cass" 3.5,
# "toon" 3.0, "shine" 4.2, "flower" 4.4).
_COMMON = 3.0
_COMMON_PART = 3.3
_COMMON_BESIDE_SHORT = 4.0
_PREFIXES = ("un", "dis", "mis", "re", "pre", "non", "over", "under", "out")
_LATIN_PREFIXES = frozenset({"dis", "mis", "re"})
_WEAK_ENDINGS = frozenset({"er", "en", "et", "el", "le", "ey"})
_PREFIX_RARITY = 1.0
# An -er word is rarely ten times as common as its base ("teacher" 4.9, "teach" 4.6);
# "mother" (5.4) and "moth" (3.3) are no agent and its deed.
_ER_COMMONER = 1.0
# How English words begin; "tl" (startling) or "gn" (designed) at a split means no new word.
_ONSET = re.compile(
    r"[bcdfghjklmnpqrstvwyz]|[bcfgps]l|[bcdfgptw]r|[dst]w|[cpstw]h|s[ckmnpqt]|kn"
    r"|sch|scr|shr|sph|spl|spr|str|chr|thr"
)


IS_KEYWORD = N_('That is one of your keywords: "{keyword}".')
IS_FORM = N_('"{clue}" is a form of your keyword "{keyword}".')
RELATIVE = N_('Looks like a relative of "{keyword}". Keep it if it is not.')
LOOKS_LIKE = N_('That looks like one of your keywords: "{keyword}".')
LOOKS_LIKE_FORM = N_('"{clue}" looks like a form of your keyword "{keyword}".')
"""The messages every language's checker gives (the Chinese one warns its own way)."""


@dataclass(frozen=True)
class ClueProblem:
    """Why a clue is refused (an error) or worth a second look (a warning)."""

    code: str
    text: Text
    keyword: str | None = None

    @property
    def message(self) -> str:
        return str(self.text)


def problem(code: str, template: str, keyword: str | None = None, **values: Value) -> ClueProblem:
    """A problem whose message names ``keyword`` (as ``{keyword}``) and any other values."""
    if keyword is not None:
        values["keyword"] = keyword
    return ClueProblem(code, Text(template, values), keyword)


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
            return ClueVerdict(clue, error=problem("keyword", IS_KEYWORD, keyword))
    for keyword, spelling in known:
        if passes_for(clue, spelling):
            return ClueVerdict(clue, error=problem("keyword", LOOKS_LIKE, keyword))
    for keyword, spelling in known:
        if clue_key in _forms(spelling) or _squash(spelling) in _forms(clue_spelling):
            return ClueVerdict(clue, error=problem("keyword_form", IS_FORM, keyword, clue=clue))
    for keyword, spelling in known:
        if any(passes_for(clue, form) for form in _forms(spelling)):
            return ClueVerdict(
                clue, error=problem("keyword_form", LOOKS_LIKE_FORM, keyword, clue=clue)
            )
    for keyword, spelling in known:
        if _looks_related(clue_spelling, spelling):
            return ClueVerdict(clue, warning=problem("word_family", RELATIVE, keyword))
    return ClueVerdict(clue)


# --- the shape of a word ---------------------------------------------------------


def _shape_problem(clue: str) -> ClueProblem | None:
    if not clue:
        return problem("empty", N_("Write a clue: one word."))
    if len(clue) > MAX_CLUE_LENGTH:
        return problem("too_long", N_("A clue is at most {most} characters."), most=MAX_CLUE_LENGTH)
    if any(ch.isspace() for ch in clue):
        return problem("not_one_word", N_("A clue is one word: no spaces."))
    found = _character_problem(clue)
    if found is None and disguised_mix(clue):
        found = problem("mixed_scripts", N_("Mixed alphabets in one word: write it in one script."))
    return found


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
            return problem(
                "bad_character",
                N_("{character} is an invisible character: a clue holds only what shows."),
                character=_show(ch),
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
                return problem(
                    "bad_character",
                    N_("A hyphen or apostrophe goes inside the word, between letters or digits."),
                )
            previous = "joiner"
        else:
            return problem(
                "bad_character",
                N_(
                    "A clue holds letters, digits, and a hyphen or apostrophe inside: "
                    "{character} is not allowed."
                ),
                character=_show(ch),
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


# --- keys, forms and stems ---------------------------------------------------------


@lru_cache(maxsize=4096)
def _spelling(word: str) -> str:
    """Read plain and folded, with one hyphen and one apostrophe: what ``inflect`` reads.

    A Keyword written in two words ("Ice cream") is spelled with a hyphen, so
    that ``Ice-cream`` and ``Icecream`` are that Keyword too.
    """
    folded = fold(plain(word)).strip()
    folded = re.sub(f"[{_HYPHENS}]", "-", folded)
    folded = re.sub(f"[{_APOSTROPHES}]", "'", folded)
    return re.sub(r"\s+", "-", folded)


def _squash(spelling: str) -> str:
    """The exact comparison key: the spelling without its inner hyphens, apostrophes and dots."""
    return squash(spelling)


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
    for prefix in _PREFIXES:
        rest = word[len(prefix) :]
        if not word.startswith(prefix) or len(rest) < len(base):
            continue
        if prefix in ("re", "pre") and rest[0] == "s":
            continue
        if prefix in _LATIN_PREFIXES and len(rest) <= 4:
            continue
        if rest != base and not any(_with_suffix(stem, rest) for stem in {base, _stem(base)}):
            continue
        if _zipf(rest) - _zipf(word) >= _PREFIX_RARITY:
            return True
    return False


def _with_suffix(base: str, word: str) -> bool:
    """Whether ``word`` is ``base`` plus a derivational suffix, spelled the English way."""
    if len(base) < _SHORT or len(word) <= len(base) - 2 or not word.startswith(base[:-2]):
        return False
    if word.endswith("er") and _zipf(word) > _zipf(base) + _ER_COMMONER:
        return False  # "Mother", "Number", "Cover": far commoner than "moth", "numb", "cove"
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
    if len(short) < _SHORT:
        return False
    is_short = len(short) <= _SHORT
    stem = _stem(long)
    cut = len(long) - len(stem)
    if long.startswith(short):
        # An inflection is no word: read the rest off the stem ("firefight-er"), and read it
        # whole only when stemming cut no deeper than into the rest alone ("starl-ing").
        rest = long[len(short) :]
        rests = {stem[len(short) :]}
        if not long.endswith(("ing", "ed")):
            rests.add(rest)
        if not _is_tail(_singular(rest) or rest) and any(
            _compound_part(part, is_short) and _could_start_word(part) for part in rests
        ):
            return True
    if long.endswith(short) and short not in _SUFFIXES:
        front = long[: -len(short)]
        # When stemming cuts deeper into the word than into the keyword alone, the keyword
        # was only an inflection's tail: "flanking" is no "king".
        own_cut = len(short) - len(_stem(short))
        if (
            len(front) > _SHORT
            and front[-1] not in _VOWELS
            and short[0] not in _VOWELS
            and _compound_part(front, is_short)
            and cut <= own_cut + 1
            and not _is_tail(short)
            and not (is_short and front.endswith("s"))
        ):
            return True
    return False


def _compound_part(part: str, beside_short: bool) -> bool:
    """Whether ``part`` can be the other word of a compound (see :func:`_is_compound`)."""
    if beside_short:
        return len(part) > _SHORT and _zipf(part) >= _COMMON_BESIDE_SHORT
    return len(part) >= _MIN_COMPOUND_REST and _zipf(part) >= _COMMON_PART


@lru_cache(maxsize=16384)
def _zipf(word: str) -> float:
    """How common an English word is, on the Zipf scale (3 is once per million words)."""
    if not word.isalpha():
        return 0.0
    return float(wordfreq.zipf_frequency(word, "en", wordlist="small"))


def _is_word(word: str) -> bool:
    return _zipf(word) >= _COMMON


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
