"""Words written down a side leaf in a Chinese room: which runs stand, which lie.

A Chinese room writes its side leaves as vertical Chinese is written: a column read
from the top, Chinese characters upright. Players there also write Latin words and
names ("Hamburger", "DNA双螺旋"); set upright, one letter under the other, such a word
no longer reads as a word and a long one runs off its leaf. So a clue or keyword is cut
into script runs, the way Chinese typesetting treats Western words in a column:

- characters that vertical Chinese sets upright (Han, kana, bopomofo, Hangul, CJK
  punctuation and symbols, full-width forms) stay as they are, upright;
- a run of any other characters (Latin, Greek, Cyrillic letters, digits, and the
  spaces, hyphens and apostrophes between them) that holds a letter or a digit is one
  run: its outer spaces and punctuation are left upright with the Chinese, and the run
  itself is wrapped in a ``<span class="run sideways">`` that lies a quarter turn
  clockwise, so it reads down the column as the column does ("Wi-Fi" in "Wi-Fi密码");
- a run of one or two ASCII letters or digits ("X光", "3D打印", "TV") stands upright as
  one cell instead (``<span class="run combined">``, ``text-combine-upright``), as
  Chinese books set them.

The CSS turns the spans only on the side leaves of a Chinese room; elsewhere they read
as plain text. ``static/table.js`` cuts a clue being typed the same way (``runsOf``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from markupsafe import Markup, escape

Kind = Literal["upright", "sideways", "combined"]

UPRIGHT_RANGES = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u2e80-\u2fff"  # CJK radicals, Kangxi radicals, ideographic description
    "\u3000-\u303f"  # CJK symbols and punctuation
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u31ff"  # bopomofo, Hangul compatibility jamo, kanbun, strokes
    "\u3200-\u33ff"  # enclosed CJK letters, CJK compatibility
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\ua960-\ua97f"  # Hangul Jamo extended A
    "\uac00-\ud7ff"  # Hangul syllables, Jamo extended B
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\ufe10-\ufe1f"  # vertical forms
    "\ufe30-\ufe4f"  # CJK compatibility forms
    "\uff00-\uffef"  # half-width and full-width forms
    "\U00020000-\U0003ffff"  # CJK extensions B and after
)
"""What vertical Chinese sets upright. The same list is in ``static/table.js``."""

_SPLIT = re.compile(f"([{UPRIGHT_RANGES}]+)")
_COMBINED = re.compile(r"[A-Za-z0-9]{1,2}")


def _word_char(ch: str) -> bool:
    """A letter, a digit or a mark (an accent) of any script."""
    return unicodedata.category(ch)[0] in "LNM"


def script_runs(text: str) -> list[tuple[Kind, str]]:
    """``text`` cut into its runs, in order, each with how a side leaf sets it.

    Joined again, the runs give ``text`` back unchanged; neighbouring upright runs are
    merged, so a text without a Latin letter or digit is one upright run.
    """
    runs: list[tuple[Kind, str]] = []

    def add(kind: Kind, part: str) -> None:
        if not part:
            return
        if kind == "upright" and runs and runs[-1][0] == "upright":
            runs[-1] = ("upright", runs[-1][1] + part)
        else:
            runs.append((kind, part))

    for i, part in enumerate(_SPLIT.split(text)):
        if i % 2 == 1:  # the pieces the split matched: upright already
            add("upright", part)
            continue
        starts = [k for k, ch in enumerate(part) if _word_char(ch)]
        if not starts:
            add("upright", part)
            continue
        first, last = starts[0], starts[-1] + 1
        core = part[first:last]
        add("upright", part[:first])
        add("combined" if _COMBINED.fullmatch(core) else "sideways", core)
        add("upright", part[last:])
    return runs


def vertical_markup(text: str | None) -> Markup:
    """``text``, escaped, with its sideways and combined runs wrapped in spans."""
    out = []
    for kind, part in script_runs(text or ""):
        if kind == "upright":
            out.append(escape(part))
        else:
            out.append(Markup('<span class="run {}">{}</span>').format(kind, part))
    return Markup("").join(out)
