"""A room's language: which clue checker judges its clues.

The deck of each language is the service's to load (a file each); the rules
only need to know how a clue is checked in each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.rules.clues import ClueVerdict, check_clue
from app.rules.clues_fr import check_clue_fr
from app.rules.clues_zh import check_clue_zh
from app.rules.state import LANGUAGES

Checker = Callable[[str, Iterable[str]], ClueVerdict]

CHECKERS: dict[str, Checker] = {"en": check_clue, "fr": check_clue_fr, "zh": check_clue_zh}
assert set(CHECKERS) == set(LANGUAGES)

NAMES = {"en": "English", "fr": "Français", "zh": "中文"}
"""Each language in its own words, as a chooser shows it."""


def check_clue_in(language: str, text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue with the checker of ``language`` (English if unknown)."""
    return CHECKERS.get(language, check_clue)(text, keywords)
