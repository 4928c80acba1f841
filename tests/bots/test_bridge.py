"""The bots' bridge through English: French and Chinese words read through their
glosses, clues written in the room's language that its checker takes, blocklists kept."""

from __future__ import annotations

import random

import pytest

from app.bots.brain import Brain
from app.bots.bridge import english, lexicon
from app.bots.vocabulary import (
    ClueWords,
    blocked_words,
    foreign_blocklist,
    foreign_candidate_words,
    single_characters,
)
from app.bots.writing import write_clues
from app.rules.dealing import deal
from app.rules.deck import builtin_deck_path, load_deck
from app.rules.geometry import pairs
from app.rules.languages import check_clue_in

SMALL = 300
"""The clue words of a test's brain: its glosses embedded in seconds on a clean machine,
where the full list (6,000 words) takes a minute; the benchmark plays with the full one."""


@pytest.fixture(scope="module")
def brain() -> Brain:
    return Brain(foreign_words=SMALL, ready_keywords=False)


def test_a_french_word_is_read_through_its_glosses_its_lemma_or_as_written() -> None:
    assert english(["Abeille"], "fr")[0][0] == "bee"
    assert english(["chevaux"], "fr")[0][0] == english(["cheval"], "fr")[0][0] == "horse"
    assert english(["l'abeille"], "fr")[0][0] == "bee"
    # Written without accents, as on many phones, or in the feminine: the listed word.
    assert "foret" not in lexicon("fr").entries and english(["foret"], "fr")[0][0] == "forest"
    assert english(["ete"], "fr")[0][0] == "summer"  # été, not et ("and") and an -e
    assert english(["boulangère"], "fr")[0][0] == "baker"
    # Not in the list: read as written, accents off (many are English words too).
    assert english(["Zwxqéy"], "fr") == [("zwxqey",)]


def test_a_chinese_word_is_read_in_simplified_characters_or_cut_into_listed_words() -> None:
    assert english(["熊猫"], "zh")[0][0] == "panda"
    assert english(["熊貓"], "zh") == english(["熊猫"], "zh")  # Traditional characters
    assert "白兔" not in lexicon("zh").entries
    assert english(["白兔"], "zh") == [("white rabbit",)]  # 白 + 兔


def test_english_words_stand_for_themselves() -> None:
    assert english(["Pepper", "salt"], "en") == [("Pepper",), ("salt",)]


def test_every_deck_keyword_has_glosses() -> None:
    for language in ("fr", "zh"):
        words = lexicon(language)
        deck = load_deck(builtin_deck_path(language)).cards
        keywords = [w.lower() if language == "fr" else w for card in deck for w in card]
        assert [w for w in keywords if w not in words.entries] == []


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_no_clue_word_is_blocklisted_a_name_or_a_function_word(language: str) -> None:
    words, glosses = foreign_candidate_words(language)
    assert len(words) > 3000
    theirs = foreign_blocklist(language)
    assert theirs  # the list is read
    ours = blocked_words()
    names = lexicon(language).names
    for word, said in zip(words, glosses, strict=True):
        assert word not in theirs and word not in names, word
        assert not any(set(g.split()) & ours for g in said), word


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_bots_write_clues_in_the_room_s_language_its_checker_takes(
    brain: Brain, language: str
) -> None:
    deck = load_deck(builtin_deck_path(language)).cards
    words, _ = foreign_candidate_words(language, SMALL)
    known = set(words)
    for seed in range(4):
        clovers, _ = deal(deck, 3, 1, random.Random(seed))
        clover = clovers[0]
        keywords = [w for card in clover.cards for w in card.words]
        clues = write_clues(
            [tuple(p) for p in pairs(clover.laid())], keywords, [None] * 4, brain, language
        )
        assert len({c.lower() for c in clues}) == 4
        for clue in clues:
            assert clue in known  # a word of the language whose glosses the bot knows
            verdict = check_clue_in(language, clue, keywords)
            assert verdict.error is None and verdict.warning is None, clue


def test_chinese_clue_words_are_words_people_write_alone() -> None:
    words, _ = foreign_candidate_words("zh")
    alone = single_characters()
    assert {"名", "顶", "料"} & set(words) == set()  # parts of words, never written alone
    assert {w for w in words if len(w) == 1} <= alone
    assert {"猫", "山"} <= set(words)
    verbs = lexicon("zh").verbs
    assert "演习" not in verbs and "参加" in verbs  # "military drill" is a noun
    assert not verbs & set(words)


def test_french_verbs_are_read_never_written() -> None:
    words, _ = foreign_candidate_words("fr")
    assert "balancer" in lexicon("fr").verbs and "balancer" not in words
    assert english(["balancer"], "fr")[0][0] == "rock"  # still read


class _Senses:
    """A brain of four directions, enough to see which candidate a pair's rule picks."""

    def __init__(self, words: tuple[str, ...], senses: list[list[list[float]]]) -> None:
        import numpy as np

        stacked = np.asarray(senses, dtype=np.float64)
        weighted = stacked[:, 0] + 0.5 * stacked[:, 1]
        self._clue_words = ClueWords(
            words,
            weighted / np.linalg.norm(weighted, axis=1, keepdims=True),
            stacked,
            np.full(len(words), 4.0),
        )

    def vectors(self, said: list[str]) -> object:
        import numpy as np

        known = {
            "bamboo flute": [1, 0, 0, 0],
            "coconut palm": [0, 1, 0, 0],
            "coconut": [0, 1, 0, 0],
        }
        return np.asarray([known[s] for s in said], dtype=np.float64)

    def clue_words(self, language: str) -> ClueWords:
        return self._clue_words


def test_a_word_is_written_only_where_its_senses_agree() -> None:
    # 朝廷's first gloss fits the pair best, its second names something else (as "court"
    # is a basketball court in English and the emperor's court in Chinese): a person reads
    # it in its own sense, so the word that fits the pair in its every sense is written.
    both, unrelated = [0.7071, 0.7071, 0, 0], [0, 0, 1, 0]
    brain = _Senses(
        ("朝廷", "比赛"), [[both, unrelated, [0] * 4], [[0.57, 0.57, 0, 0.6]] * 2 + [[0] * 4]]
    )
    assert write_clues([("笛子", "椰子")], ["笛子", "椰子"], [None], brain, "zh") == ("比赛",)  # type: ignore[arg-type]
    # Without the second sense, the first word fits best and is written.
    brain = _Senses(
        ("朝廷", "比赛"), [[both, both, [0] * 4], [[0.57, 0.57, 0, 0.6]] * 2 + [[0] * 4]]
    )
    assert write_clues([("笛子", "椰子")], ["笛子", "椰子"], [None], brain, "zh") == ("朝廷",)  # type: ignore[arg-type]
