"""The interface's catalogs as the tests read them: what the code and templates say in
English, what each translation says, and the English a page in another language must
not show."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from .server import ROOT

APP = ROOT / "app"
LOCALE = APP / "locale"
TRANSLATED = ("fr", "zh")

PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]|\{[a-z_]+\}|%[sd]")


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "messages.po"


@cache
def extracted() -> frozenset[str]:
    """Every msgid the code (``N_``) and the templates (``_``, ``trans``) use today."""
    with open(LOCALE / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: set[str] = set()
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(APP), method_map, options_map, keywords=keywords
    ):
        if isinstance(message, tuple):
            found.update(m for m in message if m)
        elif message:
            found.add(message)
    return frozenset(found)


@cache
def catalog(lang: str) -> Catalog:
    with open(po_path(lang), "rb") as po:
        return read_po(po, locale=lang)


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@cache
def english_phrases(lang: str) -> tuple[str, ...]:
    """English a page in ``lang`` must not show: the literal stretches of each msgid
    (cut at placeholders and markup) whose translation says something else, long
    enough not to be a word that both languages share."""
    phrases: set[str] = set()
    for message in catalog(lang):
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        translated = " ".join(strings)
        for msgid in ids:
            for piece in re.split(r"<[^>]*>|%\([a-z_]+\)[sd]|\{[a-z_]+\}|%%", msgid):
                piece = piece.strip(" .,:;!?…()\"'«»-–—")
                if len(piece) >= 4 and piece not in translated and re.search("[a-z]", piece):
                    phrases.add(piece)
    return tuple(sorted(phrases, key=len, reverse=True))


@cache
def deck_words(lang: str) -> frozenset[str]:
    """The keywords of ``lang``'s deck, folded: game data on the screen, not interface."""
    deck = ROOT / f"keywords.{lang}.txt"
    lines = deck.read_text(encoding="utf-8").splitlines()
    return frozenset(
        word.strip().casefold()
        for line in lines
        if line.strip() and not line.startswith("#")
        for word in line.split(",")
    )


def english_left(text: str, lang: str) -> list[str]:
    """The catalog's English found in ``text``: whole words, as the catalog writes them.
    A phrase that is also a keyword of the language's deck (the French ``Chat``) may be
    a card on the table, so it is not counted."""
    text = text.replace("So Clover!", "")  # the game's name, in every language
    left = []
    for phrase in english_phrases(lang):
        if phrase.casefold() in deck_words(lang):
            continue
        if re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text):
            left.append(phrase)
    return left
