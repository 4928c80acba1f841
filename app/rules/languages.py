"""A room's language: which clue checker judges its clues.

The deck of each language is the service's to load (a file each); the rules
only need to know how a clue is checked in each.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.rules.clues import RELATIVE, ClueVerdict, check_clue
from app.rules.clues_fr import check_clue_fr
from app.rules.clues_zh import SHARES, check_clue_zh
from app.rules.state import LANGUAGES
from app.rules.text import Text

Checker = Callable[[str, Iterable[str]], ClueVerdict]

CHECKERS: dict[str, Checker] = {"en": check_clue, "fr": check_clue_fr, "zh": check_clue_zh}
assert set(CHECKERS) == set(LANGUAGES)

NAMES = {"en": "English", "fr": "Français", "zh": "中文"}
"""Each language in its own words, as a chooser shows it."""


def warm_checkers(languages: Iterable[str]) -> None:
    """Judge one clue in each language, so their word lists and dictionaries are loaded.

    In a Chinese room, one in Japanese characters too (剣道): it builds the tables that read
    them (see :func:`app.rules.lookalikes.plain`).
    """
    for language in languages:
        check_clue_in(language, "Parapluie", ["Soleil", "Lune"])  # no keyword: every check runs
        if language == "zh":
            check_clue_in(language, "剣道", ["太阳", "月亮"])


def check_clue_in(language: str, text: str, keywords: Iterable[str]) -> ClueVerdict:
    """Judge ``text`` as a clue with the checker of ``language`` (English if unknown)."""
    return CHECKERS.get(language, check_clue)(text, keywords)


WARNINGS = {"en": RELATIVE, "fr": RELATIVE, "zh": SHARES}
"""The warning each checker gives, which a saved clue keeps as the keyword it names."""


def warning_text(language: str, keyword: str) -> Text:
    """The warning on a saved clue that resembles ``keyword``, in a room of ``language``."""
    return Text(WARNINGS.get(language, RELATIVE), {"keyword": keyword})
