"""The word-family warning measured on large tables, in English and French.

The tables are data files in tests/rules/words/ (each says how it was written):
hundreds of relatives a person would call the keyword's family (compounds with
the keyword first or last, prefixes and negations, suffixes, diminutives,
feminines) and hundreds of chance overlaps (``Belly`` for "Bell", ``maison``
for "maïs"). The checker must catch nine relatives in ten, and leave as many
chance overlaps unwarned as it did when the tables were written: both shares
are printed (``pytest -s``), with what was missed and what was warned, so a
change to the rules shows what it costs. A relative counts as caught when it is
warned or refused (the French checker refuses a keyword's feminine as the same
word); an English relative is never refused, for a warning is only a warning.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.rules.languages import check_clue_in

WORDS = Path(__file__).parent / "words"

RELATIVES_CAUGHT = 0.90
"""The share of relatives warned (or refused as the keyword itself)."""
CHANCE_UNWARNED = {"en": 0.92, "fr": 0.92}
"""The share of chance overlaps left unwarned: measured 93.7 % in English and
94.0 % in French when the tables were written, so a rule that cries wolf more
often fails here."""


@dataclass(frozen=True)
class Pair:
    clue: str
    keyword: str
    kind: str


def load(name: str) -> list[Pair]:
    """One pair a line, ``clue<TAB>keyword<TAB>kind``; lines starting with # say how."""
    pairs = []
    for number, line in enumerate((WORDS / name).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        assert len(fields) == 3 and all(fields), f"{name} line {number}: {line!r}"
        pairs.append(Pair(*fields))
    return pairs


def flagged(language: str, pair: Pair) -> bool:
    verdict = check_clue_in(language, pair.clue, [pair.keyword])
    return not verdict.ok or verdict.warning is not None


def share(part: int, whole: int) -> str:
    return f"{part}/{whole} = {part / whole:.1%}"


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_tables_are_large_varied_and_apart(language: str) -> None:
    relatives, chance = load(f"relatives_{language}.tsv"), load(f"chance_{language}.tsv")
    assert len(relatives) >= 250 and len(chance) >= 200
    for table in (relatives, chance):
        keys = [(pair.clue, pair.keyword) for pair in table]
        assert len(set(keys)) == len(keys), Counter(keys).most_common(3)
    assert not {(p.clue, p.keyword) for p in relatives} & {(p.clue, p.keyword) for p in chance}
    kinds = Counter(pair.kind for pair in relatives)
    assert set(kinds) == {"first", "last", "prefix", "suffix", "small", "female"}, kinds
    assert min(kinds.values()) >= 12, kinds


@pytest.mark.parametrize("language", ["en", "fr"])
def test_nine_relatives_in_ten_are_caught(language: str) -> None:
    relatives = load(f"relatives_{language}.tsv")
    missed = [pair for pair in relatives if not flagged(language, pair)]
    caught = len(relatives) - len(missed)
    print(f"\n{language}: relatives caught {share(caught, len(relatives))}")
    for kind, total in Counter(pair.kind for pair in relatives).items():
        lost = [f"{p.clue}/{p.keyword}" for p in missed if p.kind == kind]
        print(f"  {kind}: {share(total - len(lost), total)}; missed: {' '.join(lost)}")
    assert caught / len(relatives) >= RELATIVES_CAUGHT, share(caught, len(relatives))


@pytest.mark.parametrize("language", ["en", "fr"])
def test_chance_overlaps_are_left_unwarned(language: str) -> None:
    chance = load(f"chance_{language}.tsv")
    warned = [pair for pair in chance if flagged(language, pair)]
    left = len(chance) - len(warned)
    print(f"\n{language}: chance overlaps unwarned {share(left, len(chance))}")
    print("  warned: " + " ".join(f"{p.clue}/{p.keyword}" for p in warned))
    assert all(check_clue_in(language, p.clue, [p.keyword]).ok for p in chance)
    assert left / len(chance) >= CHANCE_UNWARNED[language], share(left, len(chance))


def test_an_english_relative_is_warned_never_refused() -> None:
    for pair in load("relatives_en.tsv"):
        assert check_clue_in("en", pair.clue, [pair.keyword]).ok, pair
