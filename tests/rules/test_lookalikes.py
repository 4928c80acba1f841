"""Look-alike characters: names and clues that pass for others, and characters that show nothing."""

from __future__ import annotations

import string
import subprocess
import sys
import unicodedata

import pytest
from confusable_homoglyphs.confusables import confusables_data
from hypothesis import given
from hypothesis import strategies as st

from app.rules import actions as act
from app.rules import errors
from app.rules.clues import check_clue
from app.rules.deck import builtin_deck_path, load_deck
from app.rules.engine import apply, new_room
from app.rules.lookalikes import (
    disguised_mix,
    is_invisible,
    is_visible_name,
    look_alike,
    lookalike_keys,
    skeleton,
)
from app.rules.names import has_letter, is_reserved_name
from app.rules.seating import clean_name
from app.rules.state import MAX_NAME_LENGTH, Room

EIGHT = ["Dog", "Cat", "Moon", "Piano", "River", "Gold", "Winter", "Bridge"]


def table_with(name: str) -> Room:
    return new_room("ABCDE", name)


def join(room: Room, name: str) -> Room:
    return apply(room, None, act.Join(name))


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "twin",
    [
        "Р1",  # Cyrillic capital Er
        "Ρ1",  # Greek capital Rho
        "Ｐ１",  # full width: NFKC
        "p1",  # case
        "Pl",  # a small L for the digit one
        "р1",  # Cyrillic small er
    ],
)
def test_a_name_that_looks_like_a_seated_one_is_taken(twin: str) -> None:
    with pytest.raises(errors.NameTaken):
        join(table_with("P1"), twin)
    with pytest.raises(errors.NameTaken):  # and the other way round
        join(table_with(twin), "P1")


@pytest.mark.parametrize(
    "name",
    [
        "P1\u3164",  # Hangul filler
        "P1\u2800",  # Braille pattern blank
        "P1\u115f",  # Hangul choseong filler
        "P1\u1160",  # Hangul jungseong filler
        "P1\uffa0",  # halfwidth Hangul filler
        "P\u200b1",  # zero-width space
        "P1\u2060",  # word joiner
        "P1\u00ad",  # soft hyphen
        "\ufeffP1",  # byte order mark
        "P\ufe0f1",  # a presentation selector after a letter
        "P\u034f1",  # combining grapheme joiner
        "P\U000e0101",  # a variation selector of the supplement
        "Ad\u200da",  # a joiner between letters
    ],
)
def test_a_name_with_an_invisible_character_is_refused(name: str) -> None:
    assert not is_visible_name(name)
    with pytest.raises(errors.BadName):
        join(table_with("P1"), name)
    with pytest.raises(errors.BadName):
        new_room("ABCDE", name)


@pytest.mark.parametrize(
    "name", ["\u3164", "\u2800\u2800", "\u115f\u1160", "\uffa0", "\u200b\u2060", "\u3164 \u3164"]
)
def test_a_name_of_only_invisible_characters_is_refused(name: str) -> None:
    with pytest.raises(errors.BadName) as refused:
        clean_name(name)
    assert refused.value.message == "A name is 1 to 24 visible characters."


@pytest.mark.parametrize(
    "name",
    [
        "👩\u200d🚀 Ada",  # a ZWJ sequence
        "❤\ufe0f Lu",  # VS-16
        "❤\ufe0f\u200d🔥 Flo",  # a joiner after VS-16
        "🧑🏽\u200d💻 Kim",  # a skin tone, then a joiner
        "🏳\ufe0f\u200d🌈 Bea",
        "👨\u200d👩\u200d👧 Ng",
        "Zoë",
        "Ana María",
        "עדה",
        "Βαγγέλης",
        "Wàng 王",  # a name may mix scripts
    ],
)
def test_names_keep_their_emoji_and_any_script(name: str) -> None:
    room = join(table_with("P1"), name)
    assert room.players[-1].name == name


def test_emoji_names_that_look_the_same_are_taken() -> None:
    room = table_with("❤\ufe0f Ada")
    with pytest.raises(errors.NameTaken):
        join(room, "❤ Ada")  # the same heart without its presentation selector


def test_a_name_may_not_end_on_a_dangling_joiner() -> None:
    with pytest.raises(errors.BadName):
        join(table_with("P1"), "👩\u200d")


def _twins(ch: str) -> list[str]:
    """Letters and digits that Unicode's confusables list as looking like ``ch``."""
    found = []
    for entry in confusables_data.get(ch, ()):
        other = entry["c"].replace("\u200e", "")
        if len(other) == 1 and unicodedata.category(other)[0] in "LN":
            found.append(other)
    return found


@st.composite
def name_and_twin(draw: st.DrawFn) -> tuple[str, str]:
    alphabet = st.sampled_from(string.ascii_letters + string.digits)
    # a name the table reserves (a confusable "administratrice") never sits at all
    names = st.text(alphabet, min_size=1, max_size=MAX_NAME_LENGTH)
    # and a name holds a letter
    name = draw(names.filter(lambda name: not is_reserved_name(name) and has_letter(name)))
    twin = "".join(draw(st.sampled_from([ch, *_twins(ch)])) for ch in name)
    return name, twin


@given(name_and_twin())
def test_a_name_never_sits_beside_its_confusable_twin(pair: tuple[str, str]) -> None:
    name, twin = pair
    # a twin of digits alone (Warang Citi's digit for C) is no name at all
    with pytest.raises(errors.NameTaken if has_letter(twin) else errors.BadName):
        join(table_with(name), twin)


# --- skeletons --------------------------------------------------------------------------------


def test_skeletons_follow_unicode_confusables() -> None:
    assert skeleton("Р1") == skeleton("P1") == "Pl"  # Cyrillic Р, and the digit one
    assert skeleton("Frоzen") == "Frozen"
    assert skeleton("Ωmega") != "Omega"
    assert skeleton("\u200bP\u2060") == "P"  # default ignorables are dropped


@given(st.text(max_size=12))
def test_a_skeleton_is_its_own_skeleton(text: str) -> None:
    assert skeleton(skeleton(text)) == skeleton(text)


@given(st.text(max_size=12))
def test_lookalike_keys_are_stable_and_the_relation_symmetric(text: str) -> None:
    for key in lookalike_keys(text):
        assert key in lookalike_keys(key)
    assert look_alike(text, text)
    assert look_alike(text, "x") == look_alike("x", text)


@pytest.mark.parametrize(
    ("a", "b"),
    [("НОРЕ", "Hope"), ("Норе", "Hope"), ("ＣＡＴ", "cat"), ("Ice", "ICE"), ("Αthlete", "athlete")],
)
def test_words_that_look_alike(a: str, b: str) -> None:
    assert look_alike(a, b)


@pytest.mark.parametrize(("a", "b"), [("Ada", "Bea"), ("Мороз", "Frozen"), ("Ali", "All")])
def test_words_that_do_not(a: str, b: str) -> None:
    assert not look_alike(a, b)


def test_invisible_characters() -> None:
    for ch in "\u200b\u200c\u200d\u2060\u00ad\ufeff\ufe0f\u3164\u115f\u1160\uffa0\u2800\u034f":
        assert is_invisible(ch), f"U+{ord(ch):04X}"
    for ch in "a ЯÅ1-'\u0301":
        assert not is_invisible(ch), f"U+{ord(ch):04X}"


# --- clues ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clue", "keyword"),
    [
        ("Frоzen", "Frozen"),  # Cyrillic о
        ("Hіve", "Hive"),  # Cyrillic і
        ("Αthlete", "Athlete"),  # Greek Α
        ("ΑTHLETE", "Athlete"),
        ("Frozеns", "Frozen"),  # Cyrillic е, and a plural
    ],
)
def test_a_keyword_with_a_foreign_letter_is_refused_as_mixed_scripts(
    clue: str, keyword: str
) -> None:
    verdict = check_clue(clue, [*EIGHT, keyword])
    assert verdict.error is not None
    assert verdict.error.code == "mixed_scripts"
    assert verdict.error.message == "Mixed alphabets in one word: write it in one script."


@pytest.mark.parametrize(
    ("clue", "keywords", "code"),
    [
        ("НОРЕ", ["Hope"], "keyword"),  # all Cyrillic, and in capitals it is HOPE
        ("Норе", ["Hope"], "keyword"),
        ("Сосоа", ["Cocoa"], "keyword"),
        ("НОРЕЅ", ["Hope"], "keyword_form"),  # Cyrillic dze for S
        ("Cok", ["Сок"], "keyword"),  # a Latin look-alike of a Cyrillic keyword
    ],
)
def test_a_keyword_written_all_in_look_alike_letters_is_the_keyword(
    clue: str, keywords: list[str], code: str
) -> None:
    verdict = check_clue(clue, keywords)
    assert verdict.error is not None and verdict.error.code == code
    assert verdict.error.keyword == keywords[0]
    assert "looks like" in verdict.error.message


@pytest.mark.parametrize(
    "clue",
    [
        "Мороз",  # all Cyrillic
        "Москва",
        "東京タワー",  # Japanese mixes Han and Katakana
        "ひらがな漢字カタカナ",
        "한국漢字",  # Korean mixes Hangul and Han
        "می\u200cخواهم",  # Persian: a zero-width non-joiner between Arabic letters
        "क्\u200dष",  # Devanagari: a joiner after a virama
        "Ωmega",  # a borrowed letter that passes for no Latin one
        "R2D2",
        "Bum",  # next to "Burn": plain ASCII words are compared by spelling
    ],
)
def test_clues_in_one_script_or_family_are_accepted(clue: str) -> None:
    verdict = check_clue(clue, [*EIGHT, "Frozen", "Burn"])
    assert verdict.error is None, verdict.error


@pytest.mark.parametrize(
    "clue",
    ["Мoсква", "Аb", "Froзен"],  # a Latin o in Cyrillic; a tie; half and half
)
def test_other_disguising_mixes_are_refused(clue: str) -> None:
    assert disguised_mix(clue)
    verdict = check_clue(clue, EIGHT)
    assert verdict.error is not None and verdict.error.code == "mixed_scripts"


@pytest.mark.parametrize(
    "clue",
    [
        "Ca\u200bt",  # zero-width space
        "\u200bCat",
        "Cat\u3164",  # Hangul filler
        "Ca\ufe0ft",  # a variation selector
        "Ca\u034ft",  # combining grapheme joiner
        "Ca\u200dt",  # a joiner between Latin letters, where it only hides
        "Ca\u200ct",
        "Cat\u2800",  # Braille blank
    ],
)
def test_invisible_characters_in_a_clue_are_refused(clue: str) -> None:
    verdict = check_clue(clue, EIGHT)
    assert verdict.error is not None and verdict.error.code == "bad_character"
    assert "U+" in verdict.error.message


def test_every_builtin_keyword_is_a_clean_word() -> None:
    words = [word for card in load_deck(builtin_deck_path()).cards for word in card]
    for word in words:
        assert not disguised_mix(word), word
        assert all(not is_invisible(ch) for ch in word), word
        verdict = check_clue(word, ["Qzx"])
        assert verdict.error is None, (word, verdict.error)


# --- cost -------------------------------------------------------------------------------------


def test_what_only_clues_need_is_built_at_the_first_clue_not_at_import() -> None:
    """The server and every test process import the module: the tables that only a
    clue needs (OpenCC's converters and the Han blocks read backwards, the marks that
    read as joiners) wait for the first clue, and are there once it is checked. Its
    import's time is the performance diary's to measure, not a test's."""
    code = (
        "import app.rules.lookalikes as l; "
        "lazy = (l._chinese, l._to_japanese, l._joiner_marks); "
        "print([f.cache_info().currsize for f in lazy]); "
        "l.plain('Ｃａｔ—猫'); l.passes_for('Cat', 'Cat'); "
        "print([f.cache_info().currsize for f in lazy[::2]])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, text=True)
    assert out.stdout.split("\n")[:2] == ["[0, 0, 0]", "[1, 1]"], out.stdout
