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

Everything a lookup needs is built once at import from the library's bundled
data (with the library, about a tenth of a second); the lookups are cached, as the
clue check runs on every keystroke.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

__all__ = [
    "disguised_mix",
    "is_invisible",
    "is_visible_name",
    "look_alike",
    "lookalike_keys",
    "script",
    "skeleton",
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
