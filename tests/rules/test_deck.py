"""The deck rules (docs/rules.md, "The deck") proved on keywords.txt, and the deck loader.

wordfreq gives each keyword's frequency (the clue checker reads it too, for compounds).
"""

from __future__ import annotations

import itertools
import statistics
from functools import cache
from pathlib import Path

import inflect
import pytest
import snowballstemmer
from wordfreq import zipf_frequency

from app.rules.deck import (
    MAX_KEYWORD_LENGTH,
    Deck,
    DeckError,
    builtin_deck_path,
    cards_needed,
    load_deck,
    parse_deck,
)

MIN_ZIPF = 3.0
MAX_OWN_LENGTH = 12

# Endings that turn a word into a relative of it (Bake/Baker, Sail/Sailor, Gold/Golden,
# Sun/Sunny once the final consonant is doubled). "r" is "er" after a final e.
DERIVATIONAL_SUFFIXES = frozenset(
    [
        *("s", "r", "es", "ed", "en", "an", "ee", "er", "or", "ry", "ly", "y", "ie"),
        *("ess", "ing", "ish", "ist", "let", "ful", "ian", "ade", "ery", "eer", "dom"),
        *("ling", "ette", "ness", "hood", "ship", "ment", "ster"),
    ]
)


@cache
def zipf(word: str) -> float:
    return zipf_frequency(word, "en")


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck(builtin_deck_path())


@pytest.fixture(scope="module")
def words(deck: Deck) -> list[str]:
    return [word.lower() for card in deck.cards for word in card]


# --- the built-in deck -------------------------------------------------------------


def test_deck_has_212_cards_of_4_keywords(deck: Deck, words: list[str]) -> None:
    assert len(deck) == 212
    assert all(len(card) == 4 for card in deck.cards)
    assert len(words) == 848


def test_keywords_are_unique(words: list[str]) -> None:
    assert len(set(words)) == len(words)


def test_keywords_are_short_capitalized_letters(deck: Deck) -> None:
    for card in deck.cards:
        for word in card:
            assert word.isascii() and word.isalpha(), word
            assert len(word) <= MAX_OWN_LENGTH, word
            assert word == word.capitalize(), word


def test_keywords_are_common_words(words: list[str]) -> None:
    rare = {word: zipf(word) for word in words if zipf(word) < MIN_ZIPF}
    assert not rare
    median = statistics.median(zipf(word) for word in words)
    print(
        f"\nkeywords.txt: median Zipf frequency {median:.2f}, minimum {min(map(zipf, words)):.2f}"
    )
    assert median >= 4.0


def test_no_keyword_is_a_plural(words: list[str]) -> None:
    """A keyword is a plural if inflect singularizes it to a common word that pluralizes back to it.

    Guarded: inflect chops the s off singulars such as Bus ("bu"), Cactus ("cactu") or
    Tennis ("tenni"); those stems are not common words of three letters or more. A word
    ending in "ss" (Moss, Dress) is never an English plural, whatever inflect says.
    """
    engine = inflect.engine()
    for word in words:
        if word.endswith("ss"):
            continue
        singular = engine.singular_noun(word)
        if not singular or singular == word:
            continue
        is_plural = (
            len(singular) >= 3
            and zipf(singular) >= MIN_ZIPF
            and engine.plural_noun(singular) == word
        )
        assert not is_plural, f"{word} is the plural of {singular}"


def test_no_singular_plural_pair(words: list[str]) -> None:
    engine = inflect.engine()
    present = set(words)
    for word in words:
        plural = engine.plural_noun(word)
        if plural and plural != word:
            assert plural not in present, (word, plural)
        singular = engine.singular_noun(word)
        if singular and singular != word:
            assert singular not in present, (word, singular)


def test_no_shared_stem(words: list[str]) -> None:
    stemmer = snowballstemmer.stemmer("english")
    by_stem: dict[str, list[str]] = {}
    for word in words:
        by_stem.setdefault(stemmer.stemWord(word), []).append(word)
    shared = {stem: group for stem, group in by_stem.items() if len(group) > 1}
    assert not shared


def _related_by_affix(short: str, long: str, stem_of_short: str) -> str | None:
    """Why ``long`` is a compound or derivative of ``short`` under the rule below, or None."""
    if len(short) >= 3:
        for remainder, at_start in (
            (long[len(short) :] if long.startswith(short) else None, True),
            (long[: -len(short)] if long.endswith(short) else None, False),
        ):
            if remainder is None:
                continue
            if len(remainder) >= 3 and zipf(remainder) >= MIN_ZIPF:
                return f"is it plus the common word {remainder!r}"
            undoubled = remainder[1:] if remainder[:1] == short[-1] else remainder
            if at_start and {remainder, undoubled} & DERIVATIONAL_SUFFIXES:
                return f"is it plus the suffix {remainder!r}"
    stem_suffix = long[len(stem_of_short) :]
    if (
        len(stem_of_short) >= 4
        and long.startswith(stem_of_short)
        and stem_suffix in DERIVATIONAL_SUFFIXES
    ):
        return f"is its stem {stem_of_short!r} plus a suffix"
    return None


def test_no_compound_or_derivative_of_another_keyword(words: list[str]) -> None:
    """No keyword is built from another keyword (Sun/Sunflower, Bake/Baker, Fire/Firefighter).

    The mechanical rule, for every pair with the shorter word A (3 letters or more) and
    the longer word B:

    1. when B begins or ends with A, what is left is not a common English word of 3
       letters or more (Zipf >= 3: Fire+fighter, Star+fish, Cow+boy, Sky+scraper);
    2. when B begins with A, what is left is not a derivational suffix, the last letter
       of A possibly doubled (Bake+r, Sail+or, Sun+ny, Gold+en);
    3. B is not A's snowball stem (4 letters or more) plus such a suffix
       (Painting -> "paint" + "er" = Painter, Prince -> "princ" + "ess" = Princess).

    Mere spelling overlaps stay allowed: Pear/Pearl, Hair/Chair, Night/Knight. Two-letter
    keywords (Ox) are too short to be the part of a compound a player hears.
    """
    stemmer = snowballstemmer.stemmer("english")
    stems = {word: stemmer.stemWord(word) for word in words}
    problems = []
    for first, second in itertools.combinations(words, 2):
        for short, long in ((first, second), (second, first)):
            if len(short) > len(long):
                continue
            why = _related_by_affix(short, long, stems[short])
            if why:
                problems.append(f"{long.capitalize()} {why} ({short.capitalize()})")
    assert not problems, "\n".join(problems)


def test_affix_rule_catches_the_classic_pairs() -> None:
    stemmer = snowballstemmer.stemmer("english")
    for short, long in [
        ("fire", "firefighter"),
        ("star", "starfish"),
        ("rain", "rainbow"),
        ("sun", "sunflower"),
        ("sun", "sunny"),
        ("bake", "baker"),
        ("sail", "sailor"),
        ("prince", "princess"),
        ("painting", "painter"),
    ]:
        assert _related_by_affix(short, long, stemmer.stemWord(short)), (short, long)
    assert _related_by_affix("sea", "seal", "sea") is None


def test_some_obviously_related_words_never_share_a_card(deck: Deck) -> None:
    """A spot check of the hand review: the cards were shuffled, then reviewed for links."""
    related = [
        ("cat", "mouse"),
        ("bee", "honey"),
        ("cow", "milk"),
        ("bread", "butter"),
        ("rain", "umbrella"),
        ("pilot", "plane"),
        ("doctor", "hospital"),
        ("teacher", "school"),
        ("snow", "winter"),
        ("moon", "star"),
        ("king", "queen"),
        ("shark", "sea"),
    ]
    for card in deck.cards:
        lowered = {word.lower() for word in card}
        for pair in related:
            assert not set(pair) <= lowered, (card, pair)


def test_builtin_deck_is_the_repository_file() -> None:
    path = builtin_deck_path()
    assert path.name == "keywords.txt"
    assert path.parent == Path(__file__).resolve().parents[2]
    assert path.is_file()


# --- the loader --------------------------------------------------------------------

GOOD = """\
# a custom deck
  # indented comment

Apple, Bridge, Cloud, Drum
  Eagle ,Forest,  Guitar,Harbor

Ίρις, 橋, Zürich, Nuage
"""


def test_good_custom_deck_loads() -> None:
    deck = parse_deck(GOOD, "custom.txt")
    assert len(deck) == 3
    assert deck.source == "custom.txt"
    assert deck.cards[0] == ("Apple", "Bridge", "Cloud", "Drum")
    assert deck.cards[1] == ("Eagle", "Forest", "Guitar", "Harbor")
    assert deck.cards[2] == ("Ίρις", "橋", "Zürich", "Nuage")


def test_default_source_name() -> None:
    assert parse_deck("a,b,c,d").source == "<deck>"


def test_keywords_are_normalized_to_nfc() -> None:
    decomposed = "Zu\u0308rich"
    deck = parse_deck(f"{decomposed},b,c,d")
    assert deck.cards[0][0] == "Z\u00fcrich"


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a,b,c\n", 1, "expected 4 keywords separated by commas, found 3"),
        ("# c\n\na,b,c,d,e\n", 3, "found 5"),
        ("a,b,c,d\ne,f,,h\n", 2, "empty keyword"),
        ("a,b,c,d\ne,f,g,h,\n", 2, "found 5"),
        ("a,b,c,d\ne,f g,h,i\n", 2, "whitespace"),
        ("a,b,c,d\ne,f\x07,h,i\n", 2, "control character"),
        ("a,b,c,d\ne,f\u200bx,h,i\n", 2, "control character"),
        (f"a,b,c,d\ne,{'x' * (MAX_KEYWORD_LENGTH + 1)},h,i\n", 2, "longer than 32"),
        ("Apple,b,c,d\ne,f,APPLE,h\n", 2, "line 1 and line 2"),
        ("a,b,c,a\n", 1, "appears twice"),
    ],
)
def test_malformed_deck_is_refused_naming_the_line(text: str, line: int, fragment: str) -> None:
    with pytest.raises(DeckError) as caught:
        parse_deck(text, "keywords.txt")
    assert caught.value.line == line
    assert caught.value.source == "keywords.txt"
    assert str(caught.value).startswith(f"keywords.txt line {line}: ")
    assert fragment in str(caught.value)


def test_error_message_format() -> None:
    text = "\n".join([f"w{i}a,w{i}b,w{i}c,w{i}d" for i in range(11)] + ["x,y,z"])
    with pytest.raises(DeckError) as caught:
        parse_deck(text, "keywords.txt")
    assert str(caught.value) == (
        "keywords.txt line 12: expected 4 keywords separated by commas, found 3"
    )


def test_keyword_of_max_length_is_accepted() -> None:
    long = "x" * MAX_KEYWORD_LENGTH
    assert parse_deck(f"{long},b,c,d").cards[0][0] == long


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n   \n"])
def test_deck_without_cards_is_refused(text: str) -> None:
    with pytest.raises(DeckError, match="no cards"):
        parse_deck(text, "empty.txt")


def test_deck_error_is_a_value_error() -> None:
    assert issubclass(DeckError, ValueError)


def test_bom_is_tolerated(tmp_path: Path) -> None:
    path = tmp_path / "bom.txt"
    path.write_bytes("\ufeffApple,Bridge,Cloud,Drum\n".encode())
    deck = load_deck(path)
    assert deck.cards == (("Apple", "Bridge", "Cloud", "Drum"),)
    assert deck.source == "bom.txt"
    assert parse_deck("\ufeffa,b,c,d").cards[0][0] == "a"


def test_crlf_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes(b"# deck\r\nA,B,C,D\r\n\r\nE,F,G,H\r\n")
    assert load_deck(path).cards == (("A", "B", "C", "D"), ("E", "F", "G", "H"))


def test_undecodable_bytes_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes(b"A,B,C,D\nE,F,G,Z\xfcrich\n")
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert caught.value.line == 2
    assert "latin1.txt line 2" in str(caught.value)
    assert "UTF-8" in str(caught.value)


def test_missing_file_gives_deck_error(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="not found") as caught:
        load_deck(tmp_path / "nowhere.txt")
    assert caught.value.line is None
    assert "nowhere.txt" in str(caught.value)


def test_directory_gives_deck_error(tmp_path: Path) -> None:
    with pytest.raises(DeckError):
        load_deck(tmp_path)


def test_load_accepts_str_path(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text("A,B,C,D\n", encoding="utf-8")
    assert len(load_deck(str(path))) == 1


def test_deck_is_immutable() -> None:
    deck = parse_deck("a,b,c,d")
    with pytest.raises(AttributeError):
        deck.cards = ()  # type: ignore[misc]


def test_cards_needed() -> None:
    assert cards_needed(4, 1) == 20
    assert cards_needed(3, 0) == 12
    assert cards_needed(6, 2) == 36


def test_builtin_deck_serves_the_largest_game(deck: Deck) -> None:
    assert len(deck) >= cards_needed(6, 4)
