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
  of a Keyword is saved with a warning the player may ignore. How an English
  one is told is :mod:`app.rules.relatives`'s; a Keyword's plural and singular
  come from :mod:`app.rules.english`.

Everything is cached: the check runs on every keystroke.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from app.rules import english
from app.rules.lookalikes import disguised_mix, is_invisible, passes_for, plain, script, squash
from app.rules.relatives import looks_related
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
        if clue_key in english.forms(spelling) or _squash(spelling) in english.forms(clue_spelling):
            return ClueVerdict(clue, error=problem("keyword_form", IS_FORM, keyword, clue=clue))
    for keyword, spelling in known:
        if any(passes_for(clue, form) for form in english.forms(spelling)):
            return ClueVerdict(
                clue, error=problem("keyword_form", LOOKS_LIKE_FORM, keyword, clue=clue)
            )
    for keyword, spelling in known:
        if looks_related(clue_spelling, spelling):
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
