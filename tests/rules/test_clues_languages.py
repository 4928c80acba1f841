"""The clue checkers of French and Chinese rooms, case by case."""

import pytest

from app.rules.languages import check_clue_in

FR_REFUSED = [
    ("chat", "chat"),
    ("Chat", "chat"),
    ("chats", "chat"),
    ("chevaux", "cheval"),
    ("yeux", "œil"),
    ("bijoux", "bijou"),
    ("chanteuse", "chanteur"),
    ("l'arbre", "arbre"),
    ("L’arbre", "arbre"),
    ("arbres", "arbre"),
    ("journaux", "journal"),
    ("Fleurs", "fleur"),
    ("pêche", "peche"),
    ("belle", "beau"),
]
FR_WARNED = [
    ("boulangerie", "boulanger"),
    ("fleuriste", "fleur"),
    ("chaton", "chat"),
    ("chanson", "chanter"),
    ("jardinier", "jardin"),
    ("pâtisserie", "pâtissier"),
    ("maisonnette", "maison"),
    ("fermier", "ferme"),
]
FR_UNWARNED = [
    ("château", "chat"),
    ("marché", "mare"),
    ("soleil", "sol"),
    ("chapeau", "chat"),
    ("carotte", "car"),
    ("montagne", "mont"),
    ("carton", "car"),
    ("pirate", "pire"),
]
ZH_REFUSED = [("苹果", "苹果"), ("蘋果", "苹果"), ("電話", "电话"), ("飛機", "飞机")]
ZH_WARNED = [("苹果树", "苹果"), ("火车", "火山"), ("大象", "象棋"), ("電燈", "灯笼")]
ZH_UNWARNED = [("月亮", "太阳"), ("老师", "医生"), ("蛋糕", "面包")]


@pytest.mark.parametrize(("clue", "keyword"), FR_REFUSED)
def test_french_keywords_and_their_forms_are_refused(clue: str, keyword: str) -> None:
    verdict = check_clue_in("fr", clue, [keyword, "soleil"])
    assert verdict.error is not None and verdict.error.keyword == keyword, verdict


def test_french_relatives_are_warned_and_chance_overlaps_are_not() -> None:
    warned = [c for c, k in FR_WARNED if check_clue_in("fr", c, [k]).warning]
    overlaps = [c for c, k in FR_UNWARNED if check_clue_in("fr", c, [k]).warning]
    refused = [c for c, k in FR_WARNED + FR_UNWARNED if check_clue_in("fr", c, [k]).error]
    print(
        f"French: {len(warned)} of {len(FR_WARNED)} relatives warned, "
        f"{len(overlaps)} of {len(FR_UNWARNED)} chance overlaps"
    )
    assert refused == []
    assert len(warned) / len(FR_WARNED) >= 0.85, {c for c, _ in FR_WARNED} - set(warned)
    assert overlaps == []


@pytest.mark.parametrize(("clue", "keyword"), ZH_REFUSED)
def test_a_chinese_keyword_is_refused_in_simplified_and_traditional(
    clue: str, keyword: str
) -> None:
    verdict = check_clue_in("zh", clue, [keyword])
    assert verdict.error is not None and verdict.error.code == "keyword", verdict


@pytest.mark.parametrize(("clue", "keyword"), ZH_WARNED)
def test_a_chinese_clue_sharing_a_character_is_warned(clue: str, keyword: str) -> None:
    verdict = check_clue_in("zh", clue, [keyword])
    assert verdict.error is None and verdict.warning is not None, verdict


@pytest.mark.parametrize(("clue", "keyword"), ZH_UNWARNED)
def test_a_chinese_clue_of_other_characters_passes(clue: str, keyword: str) -> None:
    verdict = check_clue_in("zh", clue, [keyword])
    assert verdict.error is None and verdict.warning is None, verdict


def test_every_language_keeps_the_shape_rules() -> None:
    for language in ("en", "fr", "zh"):
        assert check_clue_in(language, "deux mots", ["x"]).error.code == "not_one_word"
        assert check_clue_in(language, "", ["x"]).error.code == "empty"
