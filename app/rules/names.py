"""Names nobody at a table may go by: the words that would pass for the people who run it.

A player or watcher called "Admin", "Modérateur" or "管理员" speaks in the chat
with an authority nobody at the table has given them, and a newcomer may well
believe them. So a name is refused when one of its words is such a word, in any
of the table's three languages, folded the way names are compared anyway
(case, accents, width, and the Unicode look-alike skeletons of
``app/rules/lookalikes.py``): ``ADMIN``, ``Ａｄｍｉｎ`` and ``Аdmin`` with a Cyrillic
``А`` are all "admin".

Only whole words count, so that a real name never trips on a word inside it
(``Modesto``, ``Ghost``, ``Hostetler`` and ``Systemic`` are fine). Chinese is
written without spaces, so a reserved Chinese word counts wherever it stands in
a name. The list stays short on purpose: each word on it is a name somebody
cannot take.
"""

from __future__ import annotations

import re
import unicodedata

from app.rules.clues import fold
from app.rules.lookalikes import lookalike_keys
from app.rules.text import N_

RESERVED_WORDS = (
    # English
    "admin",
    "admins",
    "administrator",
    "mod",
    "mods",
    "moderator",
    "moderators",
    "system",
    "server",
    "host",
    "staff",
    "support",
    "official",
    "sysop",
    "soclover",
    # French (accents fold away: "modérateur" is "moderateur")
    "administrateur",
    "administratrice",
    "modérateur",
    "modératrice",
    "modo",
    "système",
    "serveur",
    "hôte",
    "assistance",
    "officiel",
)
"""Words a name may not contain as a word of its own, in any case or look-alike spelling."""

RESERVED_IN_CHINESE = (
    "管理员",
    "管理員",
    "版主",
    "系统",
    "系統",
    "客服",
    "官方",
    "服务器",
    "伺服器",
    "房主",
    "主持人",
    "站长",
    "站長",
    "超管",
)
"""Chinese words a name may not contain anywhere (Chinese has no spaces between words)."""

_FOLDED = frozenset(fold(word) for word in RESERVED_WORDS)
_KEYS = frozenset().union(*(lookalike_keys(word) for word in RESERVED_WORDS))
_SEPARATORS = re.compile(r"(?:[^\w-]|_)+")
"""What parts the words of a name: anything but a letter, a digit or a hyphen (an inner
hyphen binds a compound, as in ``Jean-Marc``)."""
_EDGES = re.compile(r"^[\d-]+|[\d-]+$")


NO_LETTER = N_("A name needs at least one letter, of any alphabet.")


def has_letter(name: str) -> bool:
    """Whether ``name`` holds a letter of some alphabet (a Chinese character counts).

    A name of accents alone, of punctuation, digits or symbols shows as no name at all
    (two combining accents on nothing, ``...``, ``²³``) or as anybody's: the table
    names people by their names, in the seats and the chat. Letters are told by their
    Unicode category (``L*``), not by ``str.isalpha`` or ``str.isdigit``, which
    answer for other characters too (``"²".isdigit()`` is true).
    """
    return any(unicodedata.category(ch)[0] == "L" for ch in name)


def is_reserved_name(name: str) -> bool:
    """Whether ``name`` (as ``seating.clean_name`` leaves it) has a reserved word in it.

    The words of a name are its runs of letters, digits and inner hyphens; each is
    compared as written and without the digits at its ends (``Admin2``), and so is
    the whole name run together (``A d m i n``, ``So Clover``).
    """
    compatible = unicodedata.normalize("NFKC", name)
    words = [word for word in _SEPARATORS.split(compatible) if word]
    candidates = {*words, *(_EDGES.sub("", word) for word in words), "".join(words)}
    if any(_is_reserved_word(word) for word in candidates if word):
        return True
    folded = fold(compatible)
    return any(word in folded for word in RESERVED_IN_CHINESE)


def _is_reserved_word(word: str) -> bool:
    return fold(word) in _FOLDED or not _KEYS.isdisjoint(lookalike_keys(word))
