"""The deck rules (docs/rules.md, "The deck") proved on the French deck, keywords.fr.txt.

wordfreq, simplemma and snowballstemmer are test-only dependencies: the game never
needs word frequencies, lemmas or stems at run time.
"""

from __future__ import annotations

import itertools
import statistics
import unicodedata
from functools import cache
from pathlib import Path

import pytest
import simplemma
import snowballstemmer
from wordfreq import zipf_frequency

from app.rules.deck import Deck, cards_needed, load_deck

ROOT = Path(__file__).resolve().parents[2]
DECK_PATH = ROOT / "keywords.fr.txt"

MIN_ZIPF = 3.0
MAX_OWN_LENGTH = 12

# Nouns in their dictionary form that simplemma maps to a word of another class: it
# reads Surprise as the participle "surpris" and Frite as the adjective "frit". Each is
# the noun's own headword in any dictionary.
LEMMA_EXCEPTIONS = {
    "surprise": "surpris",
    "frite": "frit",
}

# Relatives that the mechanical rules miss: their Snowball stems part before they end
# (Peintre/Peinture), or the family changes its spelling (Poule/Poulailler,
# Chaud/Chaleur). A rule on shared beginnings alone would refuse Citron/Citrouille.
IRREGULAR_FAMILIES = [
    ("chant", "chanson"),
    ("chant", "chanteur"),
    ("chanson", "chanteur"),
    ("musique", "musicien"),
    ("magie", "magicien"),
    ("magie", "magique"),
    ("magique", "magicien"),
    ("chaussure", "chaussette"),
    ("poule", "poulailler"),
    ("poulet", "poulailler"),
    ("escalier", "escalade"),
    ("chaud", "chaleur"),
    ("peintre", "peinture"),
    ("sculpteur", "sculpture"),
    ("œil", "yeux"),
    ("mer", "marin"),
    ("mer", "marée"),
    ("nez", "nasal"),
    ("jour", "journée"),
]

_stemmer = snowballstemmer.stemmer("french")


@cache
def zipf(word: str) -> float:
    return zipf_frequency(word, "fr")


@cache
def lemma(word: str) -> str:
    return simplemma.lemmatize(word, lang="fr").lower()


@cache
def stem(word: str) -> str:
    return _stemmer.stemWord(word)


def fold(word: str) -> str:
    """The word without its accents and ligatures: Pêche -> peche, Œuf -> oeuf."""
    word = word.casefold().replace("œ", "oe").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFD", word)
    return "".join(c for c in decomposed if unicodedata.category(c) != "Mn")


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck(DECK_PATH)


@pytest.fixture(scope="module")
def words(deck: Deck) -> list[str]:
    return [word.lower() for card in deck.cards for word in card]


def test_deck_has_212_cards_of_4_keywords(deck: Deck, words: list[str]) -> None:
    assert len(deck) == 212
    assert all(len(card) == 4 for card in deck.cards)
    assert len(words) == 848


def test_deck_serves_the_largest_game(deck: Deck) -> None:
    assert len(deck) >= cards_needed(6, 4)


def test_keywords_are_unique_even_without_accents(words: list[str]) -> None:
    assert len({word.casefold() for word in words}) == len(words)
    by_fold: dict[str, list[str]] = {}
    for word in words:
        by_fold.setdefault(fold(word), []).append(word)
    assert not {key: group for key, group in by_fold.items() if len(group) > 1}


def test_fold_removes_accents() -> None:
    assert fold("Pêche") == fold("peche") == "peche"
    assert fold("Œuf") == "oeuf"
    assert fold("Éléphant") == "elephant"


def test_keywords_are_short_capitalized_letters(deck: Deck) -> None:
    for card in deck.cards:
        for word in card:
            assert word.isalpha(), word
            assert len(word) <= MAX_OWN_LENGTH, word
            assert word == word.capitalize(), word


def test_keywords_are_common_french_words(words: list[str]) -> None:
    rare = {word: zipf(word) for word in words if zipf(word) < MIN_ZIPF}
    assert not rare
    median = statistics.median(zipf(word) for word in words)
    print(
        f"\nkeywords.fr.txt: median Zipf frequency {median:.2f},"
        f" minimum {min(map(zipf, words)):.2f}"
    )
    assert median >= 3.9


def test_keywords_are_in_dictionary_form(words: list[str]) -> None:
    """Singular, masculine for adjectives: simplemma's lemma is the word itself."""
    inflected = {
        word: lemma(word)
        for word in words
        if lemma(word) != word and LEMMA_EXCEPTIONS.get(word) != lemma(word)
    }
    assert not inflected


def test_lemma_exceptions_are_needed_and_used(words: list[str]) -> None:
    """Each exception still differs from simplemma's lemma and is in the deck."""
    for word, its_lemma in LEMMA_EXCEPTIONS.items():
        assert lemma(word) == its_lemma, word
        assert word in words, word


def test_no_shared_lemma(words: list[str]) -> None:
    by_lemma: dict[str, list[str]] = {}
    for word in words:
        by_lemma.setdefault(lemma(word), []).append(word)
    assert not {key: group for key, group in by_lemma.items() if len(group) > 1}


def test_no_shared_stem(words: list[str]) -> None:
    by_stem: dict[str, list[str]] = {}
    for word in words:
        by_stem.setdefault(stem(word), []).append(word)
    assert not {key: group for key, group in by_stem.items() if len(group) > 1}


def _related(short: str, long: str) -> str | None:
    """Why ``long`` is a compound or derivative of ``short`` under the rule below, or None."""
    if len(short) >= 4 and long.startswith(short):
        return f"begins with {short!r}"
    stem_of_short = stem(short)
    if len(stem_of_short) >= 4 and long.startswith(stem_of_short):
        return f"begins with its stem {stem_of_short!r}"
    if len(short) >= 3:
        remainders = []
        if long.startswith(short):
            remainders.append(long[len(short) :])
        if len(short) >= 4 and long.endswith(short):
            remainders.append(long[: -len(short)])
        for remainder in remainders:
            if len(remainder) >= 4 and zipf(remainder) >= MIN_ZIPF:
                return f"is it plus the common word {remainder!r}"
    if (short, long) in IRREGULAR_FAMILIES or (long, short) in IRREGULAR_FAMILIES:
        return "is in its family"
    return None


def test_no_compound_or_derivative_of_another_keyword(words: list[str]) -> None:
    """No keyword is built from another (Fleur/Fleuriste, Chat/Chaton, Porte/Portefeuille).

    The mechanical rule, for every pair with the shorter word A and the longer word B:

    1. B does not begin with A when A has 4 letters or more (Chat+on, Fleur+iste);
    2. B does not begin with A's Snowball stem of 4 letters or more
       (Boulanger -> "boulang" + "erie", Cuisine -> "cuisin" + "ier");
    3. when B begins with A (3 letters or more), or ends with A (4 letters or more),
       what is left is not a common word of 4 letters or more (Porte+feuille,
       Para+pluie, Auto+route);
    4. the pair is not one of the few irregular families listed above (Chant/Chanson).

    Short endings and mere spelling overlaps stay allowed, since French nouns share so
    many (Bateau and Chapeau are not about Eau, Merle is not about Mer, Pantalon is not
    about Talon). Mer/Mère are too short for rule 1 but share a stem, which
    test_no_shared_stem refuses.
    """
    problems = []
    for first, second in itertools.combinations(words, 2):
        short, long = sorted((first, second), key=len)
        for a, b in ((short, long), (long, short)) if len(short) == len(long) else ((short, long),):
            why = _related(a, b)
            if why:
                problems.append(f"{b.capitalize()} {why} ({a.capitalize()})")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("fleur", "fleuriste"),
        ("chat", "chaton"),
        ("boulanger", "boulangerie"),
        ("chant", "chanson"),
        ("porte", "portefeuille"),
        ("pluie", "parapluie"),
        ("jardin", "jardinier"),
        ("cuisine", "cuisinier"),
        ("peintre", "peinture"),
        ("sculpteur", "sculpture"),
        ("musique", "musicien"),
        ("poule", "poulailler"),
    ],
)
def test_family_rule_catches_the_classic_pairs(short: str, long: str) -> None:
    assert _related(short, long)


@pytest.mark.parametrize(
    ("short", "long"),
    [("eau", "bateau"), ("mer", "merle"), ("talon", "pantalon"), ("chalet", "chaleur")],
)
def test_family_rule_allows_spelling_overlaps(short: str, long: str) -> None:
    assert _related(short, long) is None


@pytest.mark.parametrize(
    ("added", "rule"),
    [("chats", "lemma"), ("fleuriste", "family"), ("peche", "fold"), ("chiens", "lemma")],
)
def test_checks_catch_bad_additions(words: list[str], added: str, rule: str) -> None:
    """The rules above would refuse a plural, a derivative or an accent-folded twin."""
    present = {"chat", "fleur", "pêche", "chien"} & set(words)
    assert present, "the spot check needs a few of its words in the deck"
    if rule == "lemma":
        assert lemma(added) != added
    elif rule == "fold":
        assert fold(added) in {fold(word) for word in words}
    else:
        assert any(_related(word, added) for word in words)


def test_some_obviously_related_words_never_share_a_card(deck: Deck) -> None:
    """A spot check of the hand review: the cards were shuffled, then checked for links."""
    related = [
        ("chat", "souris"),
        ("abeille", "miel"),
        ("vache", "lait"),
        ("pain", "beurre"),
        ("pilote", "avion"),
        ("médecin", "hôpital"),
        ("professeur", "école"),
        ("neige", "hiver"),
        ("lune", "étoile"),
        ("roi", "reine"),
        ("requin", "mer"),
        ("chien", "os"),
        ("lion", "tigre"),
    ]
    for card in deck.cards:
        lowered = {word.lower() for word in card}
        for pair in related:
            assert not set(pair) <= lowered, (card, pair)
