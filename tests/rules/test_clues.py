"""The clue checker: exact rejections, and a warning heuristic that must not cry wolf."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.clues import MAX_CLUE_LENGTH, ClueVerdict, check_clue, fold

EIGHT = ["Dog", "Cat", "Moon", "Piano", "River", "Gold", "Winter", "Bridge"]

CASES = [
    # --- one word, any script (the rules' own examples first) ---------------------
    ("FBI", ["Cat"], None, None),
    ("13", ["Cat"], None, None),
    ("Bzzzz", ["Cat"], None, None),
    ("ice-cream", ["Cat"], None, None),
    ("Clooney", ["Cat"], None, None),
    ("rock'n'roll", ["Cat"], None, None),
    ("rock’n’roll", ["Cat"], None, None),  # typographic apostrophe
    ("O’Neill", ["Cat"], None, None),
    ("ice‐cream", ["Cat"], None, None),  # U+2010 hyphen
    ("ice‑cream", ["Cat"], None, None),  # U+2011 non-breaking hyphen
    ("Café", ["Cat"], None, None),
    ("Cafe\u0301", ["Cat"], None, None),  # decomposed accent: saved composed
    ("東京", ["Cat"], None, None),
    ("Москва", ["Cat"], None, None),
    ("Ωmega", ["Cat"], None, None),
    ("١٣", ["Cat"], None, None),  # Arabic-Indic digits
    ("می\u200cخواهم", ["Cat"], None, None),  # Persian needs a zero-width non-joiner
    ("R2D2", ["Cat"], None, None),
    ("a" * MAX_CLUE_LENGTH, ["Cat"], None, None),
    ("  Clooney\t", ["Cat"], None, None),  # surrounding whitespace is trimmed
    # --- rejected shapes ---------------------------------------------------------
    ("", ["Cat"], "empty", None),
    ("   \n", ["Cat"], "empty", None),
    ("a" * (MAX_CLUE_LENGTH + 1), ["Cat"], "too_long", None),
    ("ice cream", ["Cat"], "not_one_word", None),
    ("ice\tcream", ["Cat"], "not_one_word", None),
    ("ice\u00a0cream", ["Cat"], "not_one_word", None),  # no-break space
    ("東京\u3000タワー", ["Cat"], "not_one_word", None),  # ideographic space
    ("-ice", ["Cat"], "bad_character", None),
    ("ice-", ["Cat"], "bad_character", None),
    ("a--b", ["Cat"], "bad_character", None),
    ("a-'b", ["Cat"], "bad_character", None),
    ("'tis", ["Cat"], "bad_character", None),
    ("ice–cream", ["Cat"], "bad_character", None),  # an en dash is no hyphen
    ("hello!", ["Cat"], "bad_character", None),
    ("<b>", ["Cat"], "bad_character", None),
    ("😀", ["Cat"], "bad_character", None),
    ("a_b", ["Cat"], "bad_character", None),
    ("e=mc2", ["Cat"], "bad_character", None),
    ("C.I.A", ["Cat"], "bad_character", None),
    ("\u200bCat", ["Dog"], "bad_character", None),  # zero-width space
    ("Ca\u00adt", ["Dog"], "bad_character", None),  # soft hyphen
    ("\u0301a", ["Cat"], "bad_character", None),  # an accent on nothing
    ("1\u0301", ["Cat"], "bad_character", None),  # an accent on a digit
    ("a\u200d", ["Cat"], "bad_character", None),  # a joiner at the end
    # --- the keyword itself: case-, accent- and width-insensitive -----------------
    ("Cat", ["Cat"], "keyword", None),
    ("cat", ["Cat"], "keyword", None),
    ("CAT", ["Cat"], "keyword", None),
    ("ＣＡＴ", ["Cat"], "keyword", None),  # full width
    ("Cafe", ["Café"], "keyword", None),
    ("CAFÉ", ["Cafe"], "keyword", None),
    ("Strasse", ["Straße"], "keyword", None),
    ("москва", ["Москва"], "keyword", None),
    ("Icecream", ["Ice cream"], "keyword", None),
    ("Ice-cream", ["Ice cream"], "keyword", None),
    ("Moon", EIGHT, "keyword", None),
    # --- its plural or singular, both ways ----------------------------------------
    ("Cats", ["Cat"], "keyword_form", None),
    ("Wolves", ["Wolf"], "keyword_form", None),
    ("Wolf", ["Wolves"], "keyword_form", None),
    ("Mice", ["Mouse"], "keyword_form", None),
    ("Mouse", ["Mice"], "keyword_form", None),
    ("Children", ["Child"], "keyword_form", None),
    ("Geese", ["Goose"], "keyword_form", None),
    ("Teeth", ["Tooth"], "keyword_form", None),
    ("Knives", ["Knife"], "keyword_form", None),
    ("Cacti", ["Cactus"], "keyword_form", None),
    ("Cactuses", ["Cactus"], "keyword_form", None),
    ("Cactus", ["Cacti"], "keyword_form", None),
    ("Buses", ["Bus"], "keyword_form", None),
    ("Bus", ["Buses"], "keyword_form", None),
    ("People", ["Person"], "keyword_form", None),
    ("CAFÉS", ["Café"], "keyword_form", None),
    ("Icecreams", ["Ice cream"], "keyword_form", None),
    ("Runs", ["Run"], "keyword_form", None),  # a verb keyword: plural_noun is enough
    ("Rivers", EIGHT, "keyword_form", None),
    ("Glasses", ["Glass"], "keyword_form", None),
    ("They", ["It"], None, None),  # inflect's pronoun plurals are no keyword forms
    ("Us", ["Me"], None, None),
    # --- relatives: a warning, the clue is kept -----------------------------------
    ("Princess", ["Prince"], None, "word_family"),
    ("Prince", ["Princess"], None, "word_family"),
    ("Princesses", ["Prince"], None, "word_family"),
    ("Firefighter", ["Fire"], None, "word_family"),
    ("Campfire", ["Fire"], None, "word_family"),
    ("Sunny", ["Sun"], None, "word_family"),
    ("Baker", ["Bake"], None, "word_family"),
    ("Painting", ["Paint"], None, "word_family"),
    ("Painter", ["Painting"], None, "word_family"),
    ("Rainbow", ["Rain"], None, "word_family"),
    ("Snowman", ["Snow"], None, "word_family"),
    ("Happiness", ["Happy"], None, "word_family"),
    ("Icy", ["Ice"], None, "word_family"),
    ("Goddess", ["God"], None, "word_family"),
    ("Kingdom", ["King"], None, "word_family"),
    ("Doorbell", ["Door"], None, "word_family"),
    ("ice-cream", ["Ice"], None, "word_family"),
    ("Cream", ["Ice cream"], None, "word_family"),
    ("Gold-rush", EIGHT, None, "word_family"),
    ("Sunshine", ["Sun"], None, "word_family"),  # sun + shine, a common word
    ("Golden", EIGHT, None, "word_family"),
    ("Unchain", ["Chain"], None, "word_family"),
    # --- chance overlaps: no warning ----------------------------------------------
    ("Catalog", ["Cat"], None, None),
    ("Cartoon", ["Car"], None, None),
    ("Carpet", ["Car"], None, None),
    ("Pineapple", ["Pine"], None, None),  # a vowel at the seam: no compound
    ("Season", ["Sea"], None, None),
    ("Island", ["Is"], None, None),
    ("Heart", ["Ear"], None, None),
    ("Bread", ["Bed"], None, None),
    ("Busy", ["Bus"], None, None),  # "bus" would double before -y
    ("Summer", ["Sum"], None, None),
    ("Early", ["Ear"], None, None),
    ("Army", ["Arm"], None, None),
    ("Partner", ["Part"], None, None),  # "-ner" is a word's tail, not a word
    ("Startling", ["Star"], None, None),  # no English word starts with "tl"
    ("Flanking", ["King"], None, None),  # the keyword is only the -ing's tail
    ("Friendship", ["Ship"], None, None),  # "ship" doubles as a suffix
    ("Movie", ["Move"], None, None),
    ("Москвич", ["Москва"], None, None),  # the heuristic reads English only
    ("Bridget", EIGHT, None, None),
]


@pytest.mark.parametrize(("clue", "keywords", "error", "warning"), CASES)
def test_check_clue(clue: str, keywords: list[str], error: str | None, warning: str | None):
    verdict = check_clue(clue, keywords)
    assert (verdict.error and verdict.error.code) == error, verdict
    assert (verdict.warning and verdict.warning.code) == warning, verdict
    assert verdict.ok is (error is None)


def test_there_are_enough_cases():
    assert len(CASES) >= 60


def test_the_clue_is_saved_trimmed_and_composed():
    verdict = check_clue("  Cafe\u0301 ", ["Cat"])
    assert verdict.clue == "Café"
    assert verdict.clue == unicodedata.normalize("NFC", verdict.clue)


def test_length_counts_composed_characters():
    decomposed = "e\u0301" * MAX_CLUE_LENGTH  # 64 code points, 32 once composed
    assert check_clue(decomposed, ["Cat"]).ok


def test_the_message_names_the_keyword_as_the_deck_spells_it():
    verdict = check_clue("cat", EIGHT)
    assert (verdict.error.code, verdict.error.keyword) == ("keyword", "Cat")
    assert verdict.error.message == 'That is one of your keywords: "Cat".'
    verdict = check_clue("Wolves", ["Wolf"])
    assert (verdict.error.code, verdict.error.keyword) == ("keyword_form", "Wolf")
    assert verdict.error.message == '"Wolves" is a form of your keyword "Wolf".'
    verdict = check_clue("Firefighter", ["Cat", "Fire"])
    assert (verdict.warning.code, verdict.warning.keyword) == ("word_family", "Fire")
    assert verdict.warning.message == 'Looks like a relative of "Fire". Keep it if it is not.'
    assert check_clue("cafes", ["Café"]).error.keyword == "Café"


def test_a_message_is_a_template_the_interface_translates():
    verdict = check_clue("Wolves", ["Wolf"])
    text = verdict.error.text
    assert text.template == '"{clue}" is a form of your keyword "{keyword}".'
    shouted = text.render(lambda template: template.replace("is a form", "IS A FORM"))
    assert shouted == '"Wolves" IS A FORM of your keyword "Wolf".'


def test_shape_messages_speak_to_a_person():
    assert check_clue("ice cream", []).error.message == "A clue is one word: no spaces."
    assert '"!"' in check_clue("hello!", []).error.message
    assert "U+200B" in check_clue("\u200bCat", []).error.message  # invisible, so spelled out
    assert check_clue("ice cream", []).error.keyword is None


def test_a_rejection_wins_over_a_warning():
    # "Princes" is a form of "Prince" and looks like a relative of "Princess".
    verdict = check_clue("Princes", ["Princess", "Prince"])
    assert verdict.error is not None and verdict.error.code == "keyword_form"
    assert verdict.error.keyword == "Prince"
    assert verdict.warning is None


def test_the_keyword_itself_wins_over_a_form_of_another():
    verdict = check_clue("Cats", ["Cat", "Cats"])
    assert verdict.error is not None
    assert (verdict.error.code, verdict.error.keyword) == ("keyword", "Cats")


def test_no_keywords_no_problem():
    assert check_clue("Cat", []) == ClueVerdict("Cat")
    assert check_clue("Cat", iter(["", "  "])).ok  # blank keywords are ignored


def test_fold_ignores_case_accents_and_width():
    assert fold("ＣＡＦÉ") == fold("cafe") == "cafe"
    assert fold("Straße") == fold("STRASSE")
    assert fold("Ca\u00adt") == "cat"


@given(st.text(), st.lists(st.text(), max_size=8))
def test_check_clue_never_raises_and_keeps_its_promises(text: str, keywords: list[str]):
    verdict = check_clue(text, keywords)
    assert verdict.clue == unicodedata.normalize("NFC", verdict.clue)
    if verdict.ok:
        assert 1 <= len(verdict.clue) <= MAX_CLUE_LENGTH
        assert not any(ch.isspace() for ch in verdict.clue)
    else:
        assert verdict.warning is None


words = st.from_regex(r"[A-Za-z][a-z]{0,11}(?:[-'][a-z]{1,5})?", fullmatch=True)


@given(words, st.lists(words, max_size=8))
def test_check_clue_on_english_looking_words(clue: str, keywords: list[str]):
    verdict = check_clue(clue, keywords)
    assert verdict.ok or verdict.error.code in ("keyword", "keyword_form")
    if verdict.ok:  # a clue that passes is still refused as its own keyword
        assert check_clue(clue, [*keywords, clue]).error is not None


@given(st.text())
def test_fold_is_idempotent(text: str):
    assert fold(fold(text)) == fold(text)
