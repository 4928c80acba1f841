"""A keyword in disguise is still the keyword, in every language.

Each checker reads a clue as its reader does before comparing it with the
keywords (``plain`` and ``passes_for`` in app/rules/lookalikes.py): Greek and
Cyrillic letters that look Latin, small capitals, full-width letters, the
dotless i, any dash, apostrophe or dot slipped between the letters, a Chinese
keyword in Japanese or Traditional characters. The disguises below are made
from our own decks; none of them may pass. And what is no keyword still passes:
hyphenated and elided words, ordinary words, the Chinese character 一.
"""

from __future__ import annotations

import unicodedata
from functools import cache

import opencc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import clues_fr
from app.rules.deck import builtin_deck_path, load_deck
from app.rules.languages import check_clue_in
from app.rules.lookalikes import plain

GREEK_CAPITALS = dict(zip("ABEHIKMNOPTXYZ", "ΑΒΕΗΙΚΜΝΟΡΤΧΥΖ", strict=True))
CYRILLIC = dict(zip("aceopxyijsABCEHKMOPTX", "асеорхуіјѕАВСЕНКМОРТХ", strict=True))
SMALL_CAPITALS = dict(zip("abcdefghijklmnopqrstuvwxyz", "ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡxʏᴢ", strict=True))
JOINERS = "-\u2010\u2011\u2012\u2013\u2014\u2212'\u2019\u02bc\u0060.\u00b7\u2027\ua78f"
"""Hyphens and dashes, apostrophes (typographic, modifier letter, grave), dots."""

REFUSALS = {"keyword", "keyword_form", "mixed_scripts", "bad_character"}
"""What a disguise may be refused as: the keyword (or its form), or, when the
disguise shows itself (a Cyrillic letter among Latin ones that passes for
one, an em dash inside a word), its shape."""


@cache
def deck_words(language: str) -> list[str]:
    return [word for card in load_deck(builtin_deck_path(language)).cards for word in card]


def sample(language: str) -> list[str]:
    """Every 16th keyword of the deck: 53 words of each, no choosing."""
    return deck_words(language)[::16]


def disguises(word: str) -> list[tuple[str, str]]:
    """``(how, clue)``: the ways a Latin keyword can be written to look the same."""
    found = []
    upper = word.upper()
    bare = "".join(
        ch for ch in unicodedata.normalize("NFD", upper) if unicodedata.category(ch) != "Mn"
    )
    if all(ch in GREEK_CAPITALS for ch in bare):
        found.append(("greek capitals", "".join(GREEK_CAPITALS[ch] for ch in bare)))
    if any(ch in CYRILLIC for ch in word):
        found.append(("cyrillic", "".join(CYRILLIC.get(ch, ch) for ch in word)))
        index = next(i for i, ch in enumerate(word) if ch in CYRILLIC)
        found.append(("one cyrillic", word[:index] + CYRILLIC[word[index]] + word[index + 1 :]))
    if all(ch in CYRILLIC for ch in bare):
        found.append(("cyrillic capitals", "".join(CYRILLIC[ch] for ch in bare)))
    lower = word.lower()
    found.append(("small capitals", "".join(SMALL_CAPITALS.get(ch, ch) for ch in lower)))
    found.append(
        ("full width", "".join(chr(ord(ch) + 0xFEE0) if ch.isascii() else ch for ch in word))
    )
    if "i" in word:
        found.append(("dotless i", word.replace("i", "\u0131")))
    middle = len(word) // 2
    for joiner in JOINERS:
        found.append((f"U+{ord(joiner):04X} inside", word[:middle] + joiner + word[middle:]))
    return found


LATIN_CASES = [
    pytest.param(language, keyword, clue, id=f"{language}-{keyword}-{how}")
    for language in ("en", "fr")
    for keyword in sample(language)
    for how, clue in disguises(keyword)
]


@cache
def converter(config: str) -> opencc.OpenCC:
    """One converter of each kind: each reads its dictionaries when it is made."""
    return opencc.OpenCC(config)


def japanese_and_traditional(word: str) -> list[tuple[str, str]]:
    traditional = converter("s2t").convert(word)
    japanese = converter("t2jp").convert(traditional)
    found = [("traditional", traditional)] if traditional != word else []
    if japanese not in (word, traditional):
        found.append(("japanese", japanese))
    return found


CHINESE_CASES = [
    pytest.param(keyword, clue, id=f"{keyword}-{how}")
    for keyword in deck_words("zh")
    for how, clue in japanese_and_traditional(keyword)
]


@pytest.mark.parametrize(("language", "keyword", "clue"), LATIN_CASES)
def test_a_disguised_keyword_is_refused(language: str, keyword: str, clue: str) -> None:
    verdict = check_clue_in(language, clue, [keyword, *deck_words(language)[1:8]])
    assert verdict.error is not None, (clue, verdict)
    assert verdict.error.code in REFUSALS, verdict.error
    if verdict.error.code.startswith("keyword"):
        assert verdict.error.keyword == keyword


def test_the_disguises_cover_every_script() -> None:
    hows = {case.id.rsplit("-", 1)[-1] for case in LATIN_CASES}
    assert {"greek capitals", "cyrillic", "small capitals", "full width", "dotless i"} <= hows
    assert len(LATIN_CASES) > 1500
    assert len(CHINESE_CASES) > 400


@pytest.mark.parametrize(
    ("language", "clue", "keyword"),
    [
        ("fr", "ΑΜΙ", "Ami"),  # Greek capitals
        ("fr", "Ваtеаu", "Bateau"),  # Cyrillic в, а, е among Latin letters that pass for none
        ("fr", "Cor'beau", "Corbeau"),
        ("fr", "Cor’beau", "Corbeau"),
        ("fr", "Biblio-thèque", "Bibliothèque"),
        ("fr", "Camıon", "Camion"),  # dotless ı
        ("fr", "L'ion", "Lion"),  # an article that is no article
        ("fr", "ᴄʜɪᴇɴ", "Chien"),
        ("fr", "ＣＨＩＥＮＳ", "Chien"),
        ("en", "ᴅᴜᴄᴋ", "Duck"),  # small capitals
        ("en", "ᴅᴜᴄᴋs", "Duck"),
        ("en", "Duʼck", "Duck"),  # a modifier-letter apostrophe is a letter to Unicode
        ("en", "Duꞏck", "Duck"),  # and so is the sinological dot
        ("en", "ᴰᵘᶜᵏ", "Duck"),  # modifier (superscript) letters
        ("en", "Dıce", "Dice"),
        ("zh", "剣", "剑"),  # Japanese
        ("zh", "塩", "盐"),
        ("zh", "劍", "剑"),  # Traditional
        ("zh", "鹽", "盐"),
        ("zh", "苹-果", "苹果"),
    ],
)
def test_the_disguises_found_by_the_review_are_refused(
    language: str, clue: str, keyword: str
) -> None:
    verdict = check_clue_in(language, clue, [keyword])
    assert verdict.error is not None, verdict
    assert verdict.error.code in ("keyword", "keyword_form")
    assert verdict.error.keyword == keyword


@pytest.mark.parametrize(("keyword", "clue"), CHINESE_CASES)
def test_a_chinese_keyword_in_japanese_or_traditional_characters_is_refused(
    keyword: str, clue: str
) -> None:
    verdict = check_clue_in("zh", clue, [keyword, "月亮"])
    assert verdict.error is not None and verdict.error.code == "keyword", (clue, verdict)
    assert verdict.error.keyword == keyword


def test_the_same_refusal_as_the_plain_keyword() -> None:
    """The same code and keyword; the message says "looks like" where letters only look so."""
    plain_verdict = check_clue_in("fr", "Corbeau", ["Corbeau"])
    disguised = check_clue_in("fr", "Cor'beau", ["Corbeau"])
    assert disguised.error == plain_verdict.error
    looks = check_clue_in("fr", "ΑΜΙ", ["Ami"])
    assert looks.error is not None and looks.error.code == "keyword"
    assert looks.error.message == 'That looks like one of your keywords: "Ami".'


# --- French feminines and plurals -----------------------------------------------------------

FEMININES = [
    ("Chienne", "Chien"),
    ("chiennes", "chien"),
    ("Louve", "Loup"),
    ("louves", "loup"),
    ("Chamelle", "Chameau"),
    ("lionne", "lion"),
    ("chanteuse", "chanteur"),
    ("actrice", "acteur"),
    ("exploratrice", "explorateur"),
    ("boulangère", "boulanger"),
    ("boulangere", "boulanger"),
    ("bergères", "berger"),
    ("veuve", "veuf"),
    ("cadette", "cadet"),
    ("princesse", "prince"),
    ("tigresse", "tigre"),
    ("ânesse", "âne"),
    ("amie", "ami"),
    ("chatte", "chat"),
    ("épouse", "époux"),
    ("heureuse", "heureux"),
    ("jumelle", "jumeau"),
    ("vieille", "vieux"),
    ("chien", "chienne"),  # the masculine of a feminine keyword
    ("loup", "louve"),
    ("ᴄʜɪᴇɴɴᴇ", "chien"),  # a feminine in disguise
    ("Chi-enne", "chien"),
]


@pytest.mark.parametrize(("clue", "keyword"), FEMININES)
def test_a_french_feminine_or_masculine_is_a_form_of_the_keyword(clue: str, keyword: str) -> None:
    verdict = check_clue_in("fr", clue, [keyword, "soleil"])
    assert verdict.error is not None and verdict.error.code == "keyword_form", verdict
    assert verdict.error.keyword == keyword


OTHER_WORDS = [
    ("mère", "mer"),  # -er, -ère: a commoner word of its own
    ("navette", "navet"),
    ("vente", "vent"),
    ("porte", "port"),
    ("file", "fil"),  # no bare -e rule
    ("médecine", "médecin"),
    ("loupe", "loup"),
    ("golfe", "golf"),
    ("chapelle", "chapeau"),  # no -eau, -elle rule
    ("vaisselle", "vaisseau"),
    ("pelle", "peau"),
    ("jeunesse", "jeune"),  # no -esse rule
    ("richesse", "riche"),
    ("boutonne", "bouton"),  # a verb's form
    ("savonne", "savon"),
    ("selle", "sel"),
    ("aile", "ail"),
    ("mûre", "mur"),
]


@pytest.mark.parametrize(("clue", "keyword"), OTHER_WORDS)
def test_a_word_spelled_like_a_feminine_is_no_form(clue: str, keyword: str) -> None:
    verdict = check_clue_in("fr", clue, [keyword])
    assert verdict.error is None, verdict


def test_no_french_keyword_is_the_feminine_of_another(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player's eight keywords never refuse each other as a feminine.

    Only refusals are read here, and the checker gives every refusal before it looks for
    a word of a keyword's family, which is a warning and nothing else: that search,
    three quarters of the time of these 848 x 847 judgements, is left out."""
    monkeypatch.setattr(clues_fr, "related", lambda clue, keyword: False)
    words = deck_words("fr")
    for clue in words:
        forms = keywords_taken_as_forms(clue, [word for word in words if word != clue])
        assert not forms, (clue, forms)


def keywords_taken_as_forms(clue: str, keywords: list[str]) -> list[str]:
    """Each of ``keywords`` that, alone, refuses ``clue`` as one of its forms.

    Asked of all the keywords at once and again without each keyword the checker
    names: the checker stops at the first refusal, so a keyword refused for
    another reason (the same word, a look-alike) is set aside, and what is left
    is asked again. It gives what asking keyword by keyword gives, with the
    clue's own readings worked out once a round rather than once a keyword."""
    found: list[str] = []
    left = list(keywords)
    while left:
        error = check_clue_in("fr", clue, left).error
        if error is None or error.keyword is None:
            break
        if error.code == "keyword_form":
            found.append(error.keyword)
        left = [keyword for keyword in left if keyword != error.keyword]
    return found


def test_keywords_taken_as_forms_answers_as_one_keyword_at_a_time() -> None:
    """The helper above, against the checker asked keyword by keyword, on keywords
    that refuse the clue for each reason and on some that let it pass."""
    # "Chât" refuses "Chat" as the keyword itself, ahead of the two forms behind it.
    keywords = ["Chât", "Chat", "Chatte", "Chats", "Chien", "Maison", "Lune"]
    for clue in ["Chat", "Chatte", "Chiens", "Maisons", "Soleil"]:
        alone = [
            keyword
            for keyword in keywords
            if keyword != clue
            and (error := check_clue_in("fr", clue, [keyword]).error) is not None
            and error.code == "keyword_form"
        ]
        taken = keywords_taken_as_forms(clue, [k for k in keywords if k != clue])
        assert sorted(taken) == sorted(alone)
    assert sorted(keywords_taken_as_forms("Chat", keywords[2:])) == ["Chats", "Chatte"]
    assert keywords_taken_as_forms("Chiens", keywords) == ["Chien"]


# --- what is no keyword passes ----------------------------------------------------------------

LEGITIMATE = [
    ("fr", "arc-en-ciel", ["Ciel", "Pluie"]),
    ("fr", "aujourd'hui", ["Jour", "Hui"]),
    ("fr", "aujourd’hui", ["Jour", "Soleil"]),
    ("fr", "porte-clés", ["Porte", "Clé"]),
    ("fr", "l'arbre", ["Forêt"]),
    ("fr", "Côme", ["Corne"]),  # m is no rn once the accents are dropped
    ("fr", "grand-mère", ["Mer"]),
    ("fr", "peut-être", ["Être"]),
    ("fr", "Ωmega", ["Ami"]),
    ("fr", "Москва", ["Bateau"]),
    ("en", "ice-cream", ["Ice"]),
    ("en", "rock'n'roll", ["Rock", "Roll"]),
    ("en", "O’Neill", ["Neil"]),
    ("en", "Bum", ["Burn"]),
    ("en", "Modem", ["Modern"]),
    ("en", "Mother", ["Moth"]),
    ("en", "Мороз", ["Frozen"]),
    ("zh", "一个", ["个人"]),
    ("zh", "十一", ["一样"]),
    ("zh", "欠款", ["缺点"]),  # 欠 is Japanese for 缺, and a Chinese word of its own
    ("zh", "拉面", ["面包"]),
]


@pytest.mark.parametrize(("language", "clue", "keywords"), LEGITIMATE)
def test_a_clue_that_is_no_keyword_is_not_refused(
    language: str, clue: str, keywords: list[str]
) -> None:
    verdict = check_clue_in(language, clue, keywords)
    assert verdict.error is None, verdict


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_ordinary_words_pass_beside_the_deck(language: str) -> None:
    """Each keyword of the deck, as a clue beside eight others, is refused by none of them."""
    words = deck_words(language)
    refused = []
    for index, clue in enumerate(words):
        others = [words[(index + step * 97) % len(words)] for step in range(1, 9)]
        verdict = check_clue_in(language, clue, others)
        if verdict.error is not None:
            refused.append((clue, others, verdict.error.code))
    assert refused == []


def test_no_chinese_keyword_read_plain_is_another() -> None:
    words = deck_words("zh")
    read = [plain(word) for word in words]
    assert read == words  # the deck is Simplified, and stays as written
    japanese = {
        clue: keyword
        for keyword in words
        for _, clue in japanese_and_traditional(keyword)
        if clue in words
    }
    assert japanese == {}


# --- properties -------------------------------------------------------------------------------


@st.composite
def keyword_with_joiners(draw: st.DrawFn) -> tuple[str, str, str]:
    language = draw(st.sampled_from(["en", "fr"]))
    keyword = draw(st.sampled_from(deck_words(language)))
    clue = ""
    for index, ch in enumerate(keyword):
        clue += ch
        if 0 < index + 1 < len(keyword):
            clue += draw(st.text(st.sampled_from(JOINERS), max_size=2))
    return language, keyword, clue


@given(keyword_with_joiners())
def test_no_number_of_hyphens_apostrophes_or_dots_makes_a_keyword_pass(
    case: tuple[str, str, str],
) -> None:
    language, keyword, clue = case
    verdict = check_clue_in(language, clue, [keyword])
    assert verdict.error is not None, (clue, verdict)


@st.composite
def keyword_in_look_alikes(draw: st.DrawFn) -> tuple[str, str, str]:
    language = draw(st.sampled_from(["en", "fr"]))
    keyword = draw(st.sampled_from(deck_words(language)))
    tables = [CYRILLIC, SMALL_CAPITALS, {"i": "\u0131"}]
    clue = "".join(
        draw(st.sampled_from([ch, *(table[ch] for table in tables if ch in table)]))
        for ch in keyword
    )
    return language, keyword, clue


@given(keyword_in_look_alikes())
def test_a_keyword_in_any_mix_of_look_alike_letters_never_passes(
    case: tuple[str, str, str],
) -> None:
    language, keyword, clue = case
    verdict = check_clue_in(language, clue, [keyword])
    assert verdict.error is not None, (clue, verdict)


# --- digits standing for letters --------------------------------------------------------------

DIGIT_DISGUISES = [
    ("en", "B4nk", "Bank", "keyword"),
    ("en", "M4g1c", "Magic", "keyword"),
    ("en", "b4NK", "Bank", "keyword"),
    ("en", "0ne", "One", "keyword"),
    ("en", "5h1p", "Ship", "keyword"),
    ("en", "B4nks", "Bank", "keyword_form"),  # a form in disguise, as the checker finds forms
    ("en", "Ｂ４ｎｋ", "Bank", "keyword"),  # full-width digits are digits
    ("fr", "Ch13n", "Chien", "keyword"),
    ("fr", "b4nqu3", "Banque", "keyword"),
    ("fr", "373", "Été", "keyword"),  # accents aside, as for letters
    ("fr", "Ch13nne", "Chien", "keyword_form"),
    ("zh", "B4nk", "Bank", "keyword"),  # a custom deck's Latin keyword in a Chinese room
]


@pytest.mark.parametrize(("language", "clue", "keyword", "code"), DIGIT_DISGUISES)
def test_digits_standing_for_letters_disguise_a_keyword(
    language: str, clue: str, keyword: str, code: str
) -> None:
    """The same refusal as a keyword in any other disguise: "looks like" the keyword."""
    verdict = check_clue_in(language, clue, [keyword, "Moon"])
    assert verdict.error is not None, verdict
    assert (verdict.error.code, verdict.error.keyword) == (code, keyword)
    assert "looks like" in verdict.error.message


DIGIT_CLUES = ["007", "R2D2", "4x4", "1984", "101", "2CV", "B52", "3D", "7up", "C3PO", "G8", "90s"]


@pytest.mark.parametrize("language", ["en", "fr", "zh"])
def test_clues_with_digits_that_spell_no_keyword_pass(language: str) -> None:
    """Only a clue that reads as a keyword is refused: numbers and names with digits in
    them pass beside every keyword of the deck."""
    words = deck_words(language)
    refused = []
    for clue in DIGIT_CLUES:
        for start in range(0, len(words), 8):
            verdict = check_clue_in(language, clue, words[start : start + 8])
            if verdict.error is not None:
                refused.append((clue, verdict.error.keyword))
    assert refused == []
