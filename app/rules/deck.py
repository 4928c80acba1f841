"""The deck: cards of four keywords, read from a plain text file.

The built-in deck is the repository's ``keywords.txt``; a custom deck in the same
format can replace it (``SOCLOVER_KEYWORDS``). A bad deck file is refused here,
with its file name and line, so that a game never starts on a deck it cannot
finish.
"""

from __future__ import annotations

import os
import pathlib
import unicodedata
from dataclasses import dataclass

from app.resources import builtin_deck
from app.rules.geometry import Words

__all__ = [
    "MAX_KEYWORD_LENGTH",
    "Deck",
    "DeckError",
    "Words",
    "builtin_deck_path",
    "cards_needed",
    "load_deck",
    "parse_deck",
]

MAX_KEYWORD_LENGTH = 32
"""Longer keywords would not fit on a card edge on a phone; our own deck keeps to 12."""

_KEYWORDS_PER_CARD = 4
_CARDS_PER_PLAYER = 4


class DeckError(ValueError):
    """A deck file the game cannot use; the message says where, so its author can fix it."""

    def __init__(self, message: str, source: str = "<deck>", line: int | None = None) -> None:
        self.source = source
        self.line = line
        self.reason = message
        where = source if line is None else f"{source} line {line}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Deck:
    """An immutable deck, so one loaded deck can be shared by every game on the server."""

    cards: tuple[Words, ...]
    source: str = "<deck>"

    def __len__(self) -> int:
        return len(self.cards)


def _is_comment_or_blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _keyword_problem(word: str) -> str | None:
    """Why a keyword cannot be shown as one word on a card edge, if it cannot."""
    if not word:
        return "empty keyword"
    if any(ch.isspace() for ch in word):
        return f"keyword {word!r} contains whitespace; a keyword is a single word"
    if any(unicodedata.category(ch).startswith("C") for ch in word):
        return f"keyword {word!r} contains a control character"
    if len(word) > MAX_KEYWORD_LENGTH:
        return f"keyword {word!r} is longer than {MAX_KEYWORD_LENGTH} characters"
    return None


def parse_deck(text: str, source: str = "<deck>") -> Deck:
    """Parse deck text strictly.

    A silently skipped line would leave a deck shorter than its author thinks, so every
    problem is refused with its line number instead.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    cards: list[Words] = []
    first_seen: dict[str, int] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if _is_comment_or_blank(raw):
            continue
        parts = [unicodedata.normalize("NFC", part.strip()) for part in raw.split(",")]
        if len(parts) != _KEYWORDS_PER_CARD:
            raise DeckError(
                f"expected {_KEYWORDS_PER_CARD} keywords separated by commas, found {len(parts)}",
                source,
                number,
            )
        for word in parts:
            problem = _keyword_problem(word)
            if problem:
                raise DeckError(problem, source, number)
            # casefold: the same word in two cases is the same clue to a player.
            key = word.casefold()
            if key in first_seen:
                raise DeckError(
                    f"keyword {word!r} appears twice (line {first_seen[key]} and line {number})",
                    source,
                    number,
                )
            first_seen[key] = number
        cards.append((parts[0], parts[1], parts[2], parts[3]))
    if not cards:
        raise DeckError("the deck has no cards", source)
    return Deck(cards=tuple(cards), source=source)


def load_deck(path: str | os.PathLike[str]) -> Deck:
    """Read a deck file, turning every way it can be unusable into a DeckError naming the file."""
    path = pathlib.Path(path)
    source = path.name or str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DeckError(f"deck file not found: {path}", source) from None
    except OSError as exc:
        raise DeckError(f"cannot read deck file {path}: {exc.strerror or exc}", source) from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DeckError("not valid UTF-8 text", source, line) from exc
    return parse_deck(text, source)


def builtin_deck_path(language: str = "en") -> pathlib.Path:
    """The game's own deck for ``language``, inside the installed package or the
    repository's ``keywords.txt`` (``keywords.fr.txt``, ``keywords.zh.txt``)."""
    return builtin_deck(language)


def cards_needed(players: int, decoys: int) -> int:
    """Cards a game deals: four per player's clover plus its decoys, and no card is dealt twice."""
    if players < 0 or decoys < 0:
        raise ValueError("players and decoys cannot be negative")
    return players * (_CARDS_PER_PLAYER + decoys)
