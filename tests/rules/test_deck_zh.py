"""The Simplified Chinese deck, keywords.zh.txt: the same rules as keywords.txt, in Chinese.

Every keyword is 1 to 4 Han characters (mostly two), already Simplified (OpenCC t2s leaves
it unchanged) and common (wordfreq Zipf >= 3.0 in Chinese). No keyword appears twice or
inside another (火/火车), and no two keywords of one card share a character (火车/火山).
wordfreq and opencc are test-only dependencies.
"""

from __future__ import annotations

import itertools
import re
import statistics
import unicodedata
from functools import cache
from pathlib import Path

import opencc
import pytest
from wordfreq import zipf_frequency

from app.rules.deck import Deck, cards_needed, load_deck

ROOT = Path(__file__).resolve().parents[2]
DECK_PATH = ROOT / "keywords.zh.txt"

MIN_ZIPF = 3.0
MIN_MEDIAN_ZIPF = 3.5
MAX_CHARACTERS = 4
MIN_TWO_CHARACTER_SHARE = 0.5

# The CJK Unified Ideographs blocks: the main block, Extension A and Extensions B to H.
HAN = re.compile(
    "[\u4e00-\u9fff\u3400-\u4dbf\U00020000-\U0002a6df\U0002a700-\U0002ee5f\U00030000-\U000323af]+"
)


@cache
def zipf(word: str) -> float:
    return zipf_frequency(word, "zh")


@cache
def to_simplified(word: str) -> str:
    return opencc.OpenCC("t2s").convert(word)


def is_han_word(word: str) -> bool:
    """1 to 4 characters, each a CJK unified ideograph (no Latin, digits, punctuation)."""
    return (
        1 <= len(word) <= MAX_CHARACTERS
        and HAN.fullmatch(word) is not None
        and all(unicodedata.name(char, "").startswith("CJK UNIFIED IDEOGRAPH") for char in word)
    )


def contained_pairs(words: list[str]) -> list[tuple[str, str]]:
    """Every (short, long) pair of distinct keywords where short is inside long."""
    return sorted(
        (short, long)
        for first, second in itertools.combinations(set(words), 2)
        for short, long in ((first, second), (second, first))
        if short in long
    )


def shared_characters(card: tuple[str, ...]) -> set[str]:
    """Characters that appear in two or more keywords of one card."""
    return {
        char
        for first, second in itertools.combinations(card, 2)
        for char in set(first) & set(second)
    }


def two_character_share(words: list[str]) -> float:
    return sum(len(word) == 2 for word in words) / len(words)


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck(DECK_PATH)


@pytest.fixture(scope="module")
def words(deck: Deck) -> list[str]:
    return [word for card in deck.cards for word in card]


# --- the Chinese deck --------------------------------------------------------------


def test_deck_file_is_at_the_repository_root() -> None:
    assert DECK_PATH.is_file()
    assert (ROOT / "keywords.txt").is_file()


def test_deck_has_212_cards_of_4_keywords(deck: Deck, words: list[str]) -> None:
    assert len(deck) == 212
    assert all(len(card) == 4 for card in deck.cards)
    assert len(words) == 848


def test_deck_serves_the_largest_game(deck: Deck) -> None:
    assert len(deck) >= cards_needed(6, 4)


def test_keywords_are_unique(words: list[str]) -> None:
    assert len(set(words)) == len(words)


def test_keywords_are_one_to_four_han_characters(words: list[str]) -> None:
    assert [word for word in words if not is_han_word(word)] == []


def test_most_keywords_have_two_characters(words: list[str]) -> None:
    share = two_character_share(words)
    print(f"\nkeywords.zh.txt: {share:.1%} of the keywords have two characters")
    assert share > MIN_TWO_CHARACTER_SHARE


def test_keywords_are_simplified(words: list[str]) -> None:
    assert {word: to_simplified(word) for word in words if to_simplified(word) != word} == {}


def test_keywords_are_common_words(words: list[str]) -> None:
    rare = {word: zipf(word) for word in words if zipf(word) < MIN_ZIPF}
    assert not rare
    median = statistics.median(zipf(word) for word in words)
    lowest = min(map(zipf, words))
    print(f"\nkeywords.zh.txt: median Zipf frequency {median:.2f}, minimum {lowest:.2f}")
    assert median >= MIN_MEDIAN_ZIPF


def test_header_reports_the_share_and_median(words: list[str]) -> None:
    header = " ".join(
        line.lstrip("#").strip()
        for line in DECK_PATH.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    )
    share = re.search(r"(\d+\.\d)% of the deck", header)
    median = re.search(r"median (\d+\.\d\d)", header)
    assert share and median, "the header reports the two-character share and the median Zipf"
    assert share.group(1) == f"{two_character_share(words) * 100:.1f}"
    assert median.group(1) == f"{statistics.median(zipf(word) for word in words):.2f}"


def test_no_keyword_inside_another(words: list[str]) -> None:
    assert contained_pairs(words) == []


def test_no_shared_character_within_a_card(deck: Deck) -> None:
    problems = {card: shared for card in deck.cards if (shared := shared_characters(card))}
    assert problems == {}


def test_some_obviously_related_words_never_share_a_card(deck: Deck, words: list[str]) -> None:
    """A spot check of the arrangement: themes were tagged, then kept apart on each card."""
    related = [
        ("老鼠", "小猫"),
        ("蜜蜂", "蜂蜜"),
        ("奶牛", "牛奶"),
        ("面包", "黄油"),
        ("雨伞", "云"),
        ("飞行员", "飞机"),
        ("老师", "学校"),
        ("雪人", "冬天"),
        ("月亮", "星星"),
        ("国王", "王后"),
        ("鲨鱼", "海洋"),
        ("厨师", "厨房"),
        ("宇航员", "火箭"),
        ("熊猫", "竹子"),
        ("猴子", "香蕉"),
        ("生日", "蛋糕"),
        ("中秋节", "月饼"),
        ("新娘", "新郎"),
        ("青蛙", "蝌蚪"),
        ("钥匙", "锁"),
        ("筷子", "碗"),
        ("企鹅", "南极"),
    ]
    present = set(words)
    for pair in related:
        assert set(pair) <= present, pair
    for card in deck.cards:
        for pair in related:
            assert not set(pair) <= set(card), (card, pair)


# --- the checks catch what they should ---------------------------------------------


@pytest.mark.parametrize("word", ["猫", "苹果", "长颈鹿", "旋转木马", "𠀀"])
def test_han_words_pass(word: str) -> None:
    assert is_han_word(word)


@pytest.mark.parametrize(
    "word", ["", "apple", "猫a", "苹果2", "苹果，", "苹 果", "一二三四五", "ねこ", "ㄅ", "〇"]
)
def test_non_han_or_too_long_words_fail(word: str) -> None:
    assert not is_han_word(word)


def test_containment_is_caught() -> None:
    assert contained_pairs(["火", "火车", "苹果", "苹果树", "大象"]) == [
        ("火", "火车"),
        ("苹果", "苹果树"),
    ]
    assert contained_pairs(["火车", "火山", "汽车"]) == []


def test_shared_character_is_caught() -> None:
    assert shared_characters(("火车", "火山", "大象", "汽车")) == {"火", "车"}
    assert shared_characters(("火车", "大象", "苹果", "月亮")) == set()


def test_traditional_characters_are_caught() -> None:
    assert to_simplified("飛機") != "飛機"
    assert to_simplified("飞机") == "飞机"


def test_rare_and_split_words_score_low() -> None:
    assert zipf("猫") >= MIN_ZIPF
    assert zipf("饕餮") < MIN_ZIPF
    assert zipf("猫狗大象鲨鱼") < zipf("猫")


def test_share_of_two_character_words() -> None:
    assert two_character_share(["猫", "苹果", "大象", "长颈鹿"]) == 0.5
