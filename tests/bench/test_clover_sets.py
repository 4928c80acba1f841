"""The benchmark's hand-written clovers are fair clues by each room's own checker."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.rules.languages import check_clue_in

DATA = Path(__file__).resolve().parents[2] / "bench" / "data"


@pytest.mark.parametrize(("language", "count"), [("en", 120), ("fr", 60), ("zh", 60)])
def test_every_clue_passes_its_room_checker(language: str, count: int) -> None:
    records = [
        json.loads(line)
        for line in (DATA / f"clovers.{language}.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert len(records) == count
    for record in records:
        keywords = [w for card in record["cards"] for w in card]
        clues = record["clues"]
        assert len({c.lower() for c in clues}) == 4, record["id"]
        for clue in clues:
            verdict = check_clue_in(language, clue, keywords)
            assert verdict.error is None and verdict.warning is None, (record["id"], clue)


@pytest.mark.parametrize("language", ["fr", "zh"])
def test_the_sets_are_the_deal_make_clovers_writes(language: str) -> None:
    import sys

    sys.path.insert(0, str(DATA))
    try:
        import make_clovers
    finally:
        sys.path.remove(str(DATA))
    from app.rules.deck import builtin_deck_path, load_deck

    deck = load_deck(builtin_deck_path(language)).cards
    for line in (DATA / f"clovers.{language}.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        dealt = make_clovers.make_clover(deck, record["id"], language)
        assert {**dealt, "clues": None} == {**record, "clues": None}
