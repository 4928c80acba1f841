"""Characters that pass for others: confusable skeletons, invisible characters, mixed scripts.

A player can only read what the screen shows. Two names or words that look
the same are the same to the table, however their code points differ, and a
character that shows nothing is no part of a name or a word. Three tools, all
built on Unicode's own data as shipped by ``confusable-homoglyphs`` (which
reads nothing from the network at run time):

* :func:`skeleton` is the confusable skeleton of UTS #39: two strings look
  alike when their skeletons are equal. :func:`lookalike_keys` compares
  words the way this table does (width, case and accents do not count) and
  :func:`look_alike` answers for two strings.
* :func:`is_invisible` tells the characters that show nothing: format
  characters, the other default-ignorable code points, and the fillers that
  render blank. :func:`is_visible_name` applies it to a player's name, where
  emoji keep their joiners.
* :func:`disguised_mix` tells a word whose letters come from several scripts
  where one could pass for another's (``Frоzen`` with a Cyrillic ``о``).
* :func:`plain` and :func:`passes_for` are how every language's clue checker
  reads a word before comparing it with the keywords, so that a keyword in
  disguise is still the keyword: :func:`plain` undoes what changes no letter a
  reader reads (width, small capitals, the dotless i, a dash, apostrophe or dot
  of any kind, a Chinese word in Japanese or Traditional characters), and
  :func:`passes_for` compares what is left by confusable skeletons (Greek and
  Cyrillic letters that look Latin), Chinese, Japanese and Korean letters aside,
  and reads digits that stand for letters as those letters (``B4nk``, ``M4g1c``:
  :func:`spelled_with_digits`).

Everything a lookup needs is built once at import from the library's bundled
data (with the library, about a tenth of a second), or at the first clue for
what only clues need; the lookups are cached, as the clue check runs on every
keystroke.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import lru_cache

import opencc
from confusable_homoglyphs import categories, confusables

__all__ = [
    "disguised_mix",
    "is_invisible",
    "is_visible_name",
    "look_alike",
    "lookalike_keys",
    "passes_for",
    "plain",
    "script",
    "skeleton",
    "spelled_with_digits",
    "squash",
]

# --- the skeleton ---------------------------------------------------------------------


def _prototypes(pairs: dict[str, list[dict[str, str]]]) -> dict[str, str]:
    """Each confusable code point and the prototype it maps to in Unicode's confusables.txt.

    The library keeps confusables.txt as an undirected table: each line "source
    -> prototype" is stored under both of its ends, and no skeleton function is
    offered. The direction comes back from what UTS #39 guarantees about the
    file: a source is one code point and maps to exactly one prototype, and a
    prototype (or any character inside one) is never itself a source. So an
    entry with several partners, a string of several characters, or a
    character inside such a string is a prototype. What is left are pairs
    that only know each other; the library writes a line's source before its
    prototype, so the first of the pair in the table is the source. Either
    way round the pair would compare the same, since neither end occurs in
    any other mapping.

    The table also carries left-to-right marks around right-to-left
    characters, an artifact of how confusables.txt prints them; they are
    dropped.
    """
    partners = {
        key.replace("\u200e", ""): [entry["c"].replace("\u200e", "") for entry in entries]
        for key, entries in pairs.items()
    }
    order = {key: index for index, key in enumerate(partners)}
    inside = {ch for key in partners if len(key) > 1 for ch in key}

    def is_prototype(key: str) -> bool:
        return len(key) > 1 or len(partners[key]) > 1 or key in inside

    mapping = {}
    for key, entries in partners.items():
        if is_prototype(key):
            continue
        (prototype,) = entries
        if is_prototype(prototype) or order[key] < order[prototype]:
            mapping[key] = prototype
    return mapping


_PROTOTYPE = _prototypes(confusables.confusables_data)
_SOURCES: dict[str, list[str]] = {}
for _source, _prototype in _PROTOTYPE.items():
    _SOURCES.setdefault(_prototype, []).append(_source)
del _source, _prototype


@lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: equal skeletons look the same.

    NFD, then default-ignorable code points dropped (they show nothing), then
    each code point replaced by its prototype from confusables.txt, then NFD
    again. ``skeleton("Ρ1") == skeleton("Pl")``: Greek Rho looks like P and
    the digit 1 like l. Case counts here as it does on screen: a capital
    Cyrillic Н is an H, a small н is not an h.

    A few prototypes are precomposed (``Ǆ`` maps to ``DŽ``), and the second
    NFD brings out a mark that has a prototype of its own, so the steps are
    repeated until the text is stable: a skeleton is its own skeleton.
    """
    for _ in range(4):
        decomposed = unicodedata.normalize("NFD", text)
        mapped = "".join(_PROTOTYPE.get(ch, ch) for ch in decomposed if not _is_ignorable(ch))
        mapped = unicodedata.normalize("NFD", mapped)
        if mapped == text:
            break
        text = mapped
    return text


@lru_cache(maxsize=4096)
def lookalike_keys(text: str) -> frozenset[str]:
    """The skeletons under which this table compares ``text`` with another string.

    Accents are dropped, as :func:`app.rules.clues.fold` drops them, and the
    skeleton is taken of the text as written, and after NFKC (width and
    compatibility forms do not count) as written, in small letters (case
    folded) and in capitals: letters that look alike in one case may not in
    the other (Cyrillic ``Р`` and ``р`` both pass for Latin, ``Н`` only as a
    capital), and NFKC itself turns some look-alikes into letters that look
    different (the lunate sigma ``ϲ``, a c on screen, becomes ``σ``). Two
    strings look alike when they share a key.
    """
    compatible = unicodedata.normalize("NFKC", text)
    forms = (text, compatible, compatible.casefold(), compatible.upper())
    return frozenset(_stable_skeleton(form) for form in forms)


def look_alike(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` would pass for each other on screen."""
    return not lookalike_keys(a).isdisjoint(lookalike_keys(b))


def _stable_skeleton(text: str) -> str:
    """Skeleton without accents, repeated until stable so that a key is its own key."""
    for _ in range(4):
        key = _without_marks(skeleton(text))
        if key == text:
            break
        text = key
    return text


def _without_marks(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if unicodedata.category(ch) not in ("Mn", "Me"))


# --- invisible characters -----------------------------------------------------------------

# Default-ignorable code points (Unicode's DerivedCoreProperties.txt) that are no
# format characters, which unicodedata tells by category: the standard library has
# no such property and the library ships none. Unassigned ones are given as ranges.
_IGNORABLE_BEYOND_FORMAT = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160"  # Hangul choseong and jungseong fillers
    "\u17b4\u17b5"  # Khmer inherent vowels, not to be written
    "\u180b\u180c\u180d\u180f"  # Mongolian free variation selectors
    "\u3164\uffa0"  # Hangul filler, halfwidth Hangul filler
)
_IGNORABLE_RANGES = (
    (0x2065, 0x2065),
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),  # tags, variation selectors supplement, and reserved
)
# Not default-ignorable, but a blank on screen all the same.
_BLANK = frozenset("\u2800")  # Braille pattern blank

_ZWJ = "\u200d"
_VS16 = "\ufe0f"  # emoji presentation selector


@lru_cache(maxsize=8192)
def _is_ignorable(ch: str) -> bool:
    """Default-ignorable, or another format character (which no word or name needs either)."""
    if unicodedata.category(ch) == "Cf" or ch in _IGNORABLE_BEYOND_FORMAT:
        return True
    code = ord(ch)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def is_invisible(ch: str) -> bool:
    """Whether ``ch`` shows nothing of its own, so nobody could tell it is there.

    Format characters (zero-width space, joiners, word joiner, soft hyphen,
    byte order mark, bidi controls), the other default-ignorable code points
    (variation selectors, the combining grapheme joiner, the Hangul fillers)
    and the Braille blank.
    """
    return _is_ignorable(ch) or ch in _BLANK


def is_visible_name(name: str) -> bool:
    """Whether every character of ``name`` shows on screen.

    Spaces are fine (the caller has trimmed them and folded inner runs).
    Control, format, unassigned and blank characters are not, with one
    exception that emoji need: a presentation selector (VS-16) right after a
    symbol (``❤️``), and a zero-width joiner between two emoji, after a
    symbol or its VS-16 and before a symbol (``👩‍🚀``, ``❤️‍🔥``).
    """
    for index, ch in enumerate(name):
        if ch == _VS16 and _is_symbol(name, index - 1):
            continue
        if ch == _ZWJ and _is_symbol(name, index + 1):
            before = index - 2 if index >= 1 and name[index - 1] == _VS16 else index - 1
            if _is_symbol(name, before):
                continue
        if is_invisible(ch) or not ch.isprintable():
            return False
    return True


def _is_symbol(text: str, index: int) -> bool:
    return 0 <= index < len(text) and unicodedata.category(text[index])[0] == "S"


# --- scripts ------------------------------------------------------------------------------

_ANY_SCRIPT = frozenset({"COMMON", "INHERITED", "Unknown"})
"""Digits, punctuation and combining marks belong to no script and mix with any."""

# UTS #39's augmented script sets: a Japanese word mixes Han, Hiragana and
# Katakana, a Korean one Hangul and Han, a Chinese one Han and Bopomofo.
_AUGMENTED = {
    "HAN": frozenset({"HAN", "CHINESE", "JAPANESE", "KOREAN"}),
    "HIRAGANA": frozenset({"HIRAGANA", "JAPANESE"}),
    "KATAKANA": frozenset({"KATAKANA", "JAPANESE"}),
    "HANGUL": frozenset({"HANGUL", "KOREAN"}),
    "BOPOMOFO": frozenset({"BOPOMOFO", "CHINESE"}),
}


@lru_cache(maxsize=8192)
def script(ch: str) -> str:
    """The Unicode script of ``ch``, spelled as the library does: ``LATIN``, ``COMMON``."""
    alias: str = categories.alias(ch)
    return alias


def _family(ch: str) -> frozenset[str]:
    name = script(ch)
    return _AUGMENTED.get(name, frozenset({name}))


@lru_cache(maxsize=8192)
def _passes_for(ch: str) -> frozenset[str]:
    """The scripts (augmented) of the characters that ``ch`` could pass for, its own aside."""
    prototype = _PROTOTYPE.get(ch, ch)
    alike = [*prototype, *_SOURCES.get(prototype, ())]
    families = frozenset().union(*(_family(other) for other in alike if other != ch))
    return families - _family(ch)


@lru_cache(maxsize=4096)
def disguised_mix(word: str) -> bool:
    """Whether ``word`` mixes scripts in a way that could disguise it.

    Characters of the Common and Inherited scripts (digits, hyphens,
    apostrophes, combining marks, joiners) mix with anything, and a Japanese,
    Korean or Chinese word may mix the scripts those languages are written
    in. Otherwise the word's main script is the one most of its letters are
    written in (on a tie, each of the tied ones), and the word is refused
    when a letter from elsewhere looks like a letter of a main script: the
    Cyrillic ``о`` of ``Frоzen``, a Latin ``o`` in a Cyrillic word. A letter
    that passes for nothing in the main script is borrowed in plain sight,
    as the Ω of ``Ωmega``, and is allowed.
    """
    letters = [ch for ch in unicodedata.normalize("NFC", word) if script(ch) not in _ANY_SCRIPT]
    if not letters:
        return False
    families = [_family(ch) for ch in letters]
    if frozenset.intersection(*families):
        return False
    counts = Counter(name for family in families for name in family)
    most = max(counts.values())
    main = {name for name, count in counts.items() if count == most}
    return any(
        name not in family and name in _passes_for(ch)
        for ch, family in zip(letters, families, strict=True)
        for name in main
    )


# --- a word as its reader reads it ----------------------------------------------------------

_CJK = frozenset({"HAN", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"})
"""Scripts whose letters no Latin, Greek or Cyrillic look-alike folding may touch: the
Han 一 (one) looks like a dash, and a Chinese keyword is written in them."""
_PROLONGED = frozenset("\u30fc\uff70")
"""The kana's prolonged sound mark (and its half-width form): a letter of Japanese
words of the Common script that looks like a dash, and stays a letter."""
JOINERS = "-'."
"""What every dash, apostrophe and dot look-alike reads as (see :func:`plain`)."""
_JOINER_PROTOTYPES = {"-": "-", "\u30fc": "-", "'": "'", ".": ".", "\u00b7": "."}
"""The confusable prototypes of dashes (the hyphen-minus, and the prolonged sound mark
that the em dash and the horizontal bar map to), apostrophes, and dots."""

# The blocks that hold Latin small capitals and dotless letters; NFKC has already made
# the modifier (superscript) letters the letters they raise, small capitals included.
_VARIANT_BLOCKS = (
    (0x0100, 0x02FF),  # Latin Extended-A and -B, IPA extensions, spacing modifiers
    (0x1D00, 0x1DBF),  # phonetic extensions
    (0xA720, 0xA7FF),  # Latin Extended-D
    (0xAB30, 0xAB6F),  # Latin Extended-E
    (0x10780, 0x107BF),  # Latin Extended-F
    (0x1DF00, 0x1DFFF),  # Latin Extended-G
)
_VARIANT_NAME = re.compile(
    r"LATIN (?:LETTER SMALL CAPITAL|CAPITAL LETTER SMALL CAPITAL|SMALL LETTER DOTLESS)"
    r" ([A-Z]{1,2})"
)


def _letter_variants() -> dict[str, str]:
    """Latin small capitals and dotless letters, each to the small letter a reader reads.

    Unicode gives them no decomposition, so NFKC leaves ``ᴅᴜᴄᴋ`` and ``Camıon``
    as they are, and its confusables know a few only (``ᴄ``, ``ᴜ``, ``ı``, not
    ``ᴅ`` or ``ᴋ``). Their names say which letter they are, from Unicode's own
    data (``LATIN LETTER SMALL CAPITAL D``): a letter with a stroke, a hook or
    a turn is no plain letter and is left out.
    """
    found = {}
    for low, high in _VARIANT_BLOCKS:
        for code in range(low, high + 1):
            named = _VARIANT_NAME.fullmatch(unicodedata.name(chr(code), ""))
            if named:
                found[chr(code)] = named.group(1).lower()
    return found


_LETTER_VARIANTS = _letter_variants()


@lru_cache(maxsize=1)
def _joiner_marks() -> dict[str, str]:
    """Each character that looks like a dash, an apostrophe or a dot, and which it reads as.

    From the confusables: every character whose skeleton is one of their
    prototypes (``–``, ``—``, ``−``, ``’``, ``ʼ``, `````, ``·``, ``ꞏ``...), save
    the letters of Chinese, Japanese and Korean (see ``_CJK``, ``_PROLONGED``).
    Built at the first clue, not at import.
    """
    marks = {
        ch: _JOINER_PROTOTYPES[skeleton(ch)]
        for ch in _PROTOTYPE
        if skeleton(ch) in _JOINER_PROTOTYPES and script(ch) not in _CJK
    }
    marks.update(_JOINER_PROTOTYPES)
    for ch in _PROLONGED:
        marks.pop(ch, None)
    return marks


@lru_cache(maxsize=1)
def _chinese() -> tuple[opencc.OpenCC, opencc.OpenCC, dict[str, str]]:
    """OpenCC's Japanese-to-Traditional and Traditional-to-Simplified converters, and
    the Japanese variants its Japanese-to-Traditional table leaves as they are.

    OpenCC's Traditional-to-Japanese table knows more than its way back: ``冰``
    is ``氷`` in Japanese, ``戶`` is ``戸``, ``鄰`` is ``隣``, and ``jp2t`` keeps
    ``氷``. So the table is also read backwards, over the CJK blocks (a few
    hundredths of a second, at the first clue), where one Simplified character
    answers, or one of the commonest (``郷`` is ``鄉`` or ``鄕``, so ``乡``):
    ``弁`` stands for three (``瓣``, ``辨``, ``辩``) and is left to ``jp2t``,
    which reads it in its word (``花弁`` is ``花瓣``).
    """
    japanese, to_japanese, simplified = (opencc.OpenCC(name) for name in ("jp2t", "t2jp", "t2s"))
    han = "".join(chr(code) for low, high in _HAN_BLOCKS for code in range(low, high + 1))
    candidates: dict[str, set[str]] = {}
    for written, shinjitai in zip(han, str(to_japanese.convert(han)), strict=True):
        if written != shinjitai:
            candidates.setdefault(shinjitai, set()).add(str(simplified.convert(written)))
    variants = {}
    for ch, found in candidates.items():
        common = {candidate for candidate in found if _common_chinese(candidate)} or found
        if len(common) == 1:
            variants[ch] = common.pop()
    return japanese, simplified, variants


_HAN_BLOCKS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF))  # CJK Unified Ideographs, Extension A


def _common_chinese(ch: str) -> bool:
    """Whether ``ch`` is one of the 3755 characters of GB 2312's first level, the commonest
    of Simplified Chinese (their two bytes begin with 0xB0 to 0xD7)."""
    try:
        encoded = ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return len(encoded) == 2 and 0xB0 <= encoded[0] <= 0xD7


def _variants(text: str) -> str:
    """Japanese variants (see :func:`_chinese`) in Simplified characters, where one answers."""
    variants = _chinese()[2]
    return "".join(ch if _common_chinese(ch) else variants.get(ch, ch) for ch in text)


def _simplified(text: str) -> str:
    """Han characters in Simplified Chinese, from Traditional or Japanese ones.

    OpenCC's tables (``劍`` and ``剣`` are ``剑``, ``鹽`` and ``塩`` are ``盐``,
    ``糸帯`` is ``丝带``, ``氷`` is ``冰``; see :func:`_chinese`). A word is
    read as Japanese only when, in Simplified characters, it still holds one
    that is none of the commonest of Chinese: Japanese writes ``欠`` for
    ``缺``, but ``欠`` (to owe) is a Chinese word of its own, and ``欠款`` is no
    ``缺款``.
    """
    japanese, simplified, _ = _chinese()
    text = str(simplified.convert(text))
    if any(script(ch) == "HAN" and not _common_chinese(ch) for ch in text):
        read = str(simplified.convert(japanese.convert(text)))  # 手錬: 手鍊, a word: 手链
        if any(script(ch) == "HAN" and not _common_chinese(ch) for ch in read):
            for convert in (_variants, japanese.convert, _variants, simplified.convert):
                text = str(convert(text))  # 郷村: 乡村, not 鄕村
            read = text
        text = read
    return text


@lru_cache(maxsize=8192)
def plain(text: str) -> str:
    """``text`` as its reader reads it, in the letters of its own script.

    What changes no letter on screen is undone: width and compatibility forms
    (NFKC: ``ＣＡＴ``, ``𝐂𝐚𝐭``, superscripts), Latin small capitals and dotless
    letters (``ᴅᴜᴄᴋ``, ``Camıon``), every kind of dash, apostrophe and dot,
    which become ``-``, ``'`` and ``.`` (see :data:`JOINERS`), and Han
    characters in their Japanese or Traditional forms, which become Simplified.
    Case and accents are kept, for the checker to fold its own way; letters of
    other scripts that merely look Latin are :func:`passes_for`'s to compare.
    """
    compatible = unicodedata.normalize("NFKC", text)
    marks = _joiner_marks()
    read = "".join(_LETTER_VARIANTS.get(ch) or marks.get(ch) or ch for ch in compatible)
    if any(script(ch) == "HAN" for ch in read):
        read = _simplified(read)
    return unicodedata.normalize("NFC", read)


def squash(text: str) -> str:
    """``text`` without its hyphens, apostrophes and dots (after :func:`plain`)."""
    return text.translate(_NO_JOINERS)


_NO_JOINERS = str.maketrans("", "", JOINERS)


@lru_cache(maxsize=8192)
def word_keys(text: str) -> frozenset[str]:
    """The keys under which a word looks like another: skeletons of its plain letters.

    Like :func:`lookalike_keys` (as written, in small letters and in capitals,
    accents aside), after :func:`plain` and without hyphens, apostrophes and
    dots; small capitals count as their letters here too (a Cyrillic ``в`` is
    a small capital B), and the letters of Chinese, Japanese and Korean are
    kept as they are, so no dash-like Han ``一`` is dropped.
    """
    read = squash(plain(text))
    forms = (squash(text), read, read.casefold(), read.upper())
    return frozenset(_word_skeleton(form) for form in forms)


def _word_skeleton(text: str) -> str:
    runs = re.split("([\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff]+)", text)
    return "".join(run if index % 2 else _letter_skeleton(run) for index, run in enumerate(runs))


def _letter_skeleton(text: str) -> str:
    for _ in range(4):
        key = _without_marks(skeleton(text))
        key = squash(
            "".join(_LETTER_VARIANTS.get(ch) or _joiner_marks().get(ch) or ch for ch in key)
        )
        if key == text:
            break
        text = key
    return text


def passes_for(clue: str, word: str) -> bool:
    """Whether ``clue`` would pass for ``word`` on screen, letter for letter.

    The clue checkers' look-alike test, beyond :func:`plain`: a Greek ``ΑΜΙ`` or
    a Cyrillic ``Ваtеаu`` is the word ``ami`` or ``bateau``, and ``B4nk`` is
    ``bank`` (:func:`spelled_with_digits`). Skeletons are never compared between two
    words of plain Latin letters once their accents are dropped: their readers
    tell the letters apart, and a skeleton would make ``Bum`` the word "Burn"
    (rn looks like m) or ``côme`` the word "corne".
    """
    if spelled_with_digits(clue, word):
        return True
    if _plain_latin(clue) and _plain_latin(word):
        return False
    if _japanese(clue) and _japanese(clue) == _japanese(word, evident=False):
        return True
    return not word_keys(clue).isdisjoint(word_keys(word))


@lru_cache(maxsize=8192)
def _japanese(text: str, evident: bool = True) -> str:
    """``text`` in Japanese (Shinjitai) characters, through OpenCC's tables, or "" when
    ``evident`` and it holds no character that only Japanese would write (see
    :func:`_simplified`): where Traditional spellings differ, the Simplified one
    may not come back (``項錬`` is ``項鍊`` in Traditional, which OpenCC reads
    ``项炼``), but ``项链`` in Japanese is ``項錬`` all the same.
    """
    if not any(script(ch) == "HAN" for ch in text):
        return ""
    simplified = str(_chinese()[1].convert(unicodedata.normalize("NFKC", text)))
    if evident and all(_common_chinese(ch) for ch in simplified if script(ch) == "HAN"):
        return ""
    to_traditional, to_japanese = _to_japanese()
    return str(to_japanese.convert(to_traditional.convert(simplified)))


@lru_cache(maxsize=1)
def _to_japanese() -> tuple[opencc.OpenCC, opencc.OpenCC]:
    return opencc.OpenCC("s2t"), opencc.OpenCC("t2jp")


@lru_cache(maxsize=8192)
def _plain_latin(text: str) -> bool:
    return _without_marks(squash(plain(text))).isascii()


# --- digits that stand for letters ------------------------------------------------------------

STAND_INS = {
    "0": "o",
    "1": "il",
    "2": "z",
    "3": "e",
    "4": "a",
    "5": "s",
    "6": "bg",
    "7": "t",
    "8": "b",
    "9": "g",
    "@": "a",
    "$": "s",
    "€": "e",
    "!": "il",
    "|": "il",
    "+": "t",
}
"""The digits and signs that stand for letters when a word is written to be read past a
filter ("leet"), and the small letters each may stand for."""


def spelled_with_digits(clue: str, word: str) -> bool:
    """Whether ``clue`` is ``word`` with digits or signs standing for some of its letters.

    ``B4nk`` is ``bank``, ``M4g1c`` is ``magic``, ``373`` is ``été``: each stand-in of
    :data:`STAND_INS` counts as any letter it may stand for, letter for letter, after
    :func:`plain`, case, accents, hyphens, apostrophes and dots aside. Only a clue
    that is the word this way is one: ``007``, ``R2D2`` and ``4x4`` stand for no
    keyword of a deck of words, and a number that is no word in disguise stays a
    number. A clue with no stand-in in it is none of this function's business.
    """
    read, target = _stand_in_key(clue), _stand_in_key(word)
    if len(read) != len(target) or read == target:
        return False
    if not any(ch in STAND_INS for ch in read):
        return False
    return all(
        ch == letter or letter in STAND_INS.get(ch, "")
        for ch, letter in zip(read, target, strict=True)
    )


@lru_cache(maxsize=8192)
def _stand_in_key(text: str) -> str:
    """``text`` read plain, in small letters, without accents, hyphens, apostrophes or dots."""
    return squash(_without_marks(plain(text).casefold()))
