"""Deal the benchmark's clovers from a language's deck, with fixed seeds.

Why this script exists: the bots benchmark needs a fixed set of clovers whose clues were
written by hand, in a human style. The clues cannot be regenerated, so the deal they were
written for must be: this script documents exactly how ``clovers.en.jsonl`` was dealt and
writes the same skeleton (clues all ``null``) every time it runs.

Clover ``k`` (1 to 120) is clover 0 of ``deal(deck.cards, 3, decoys, random.Random(k))``,
with one decoy for the first 80 clovers and two for the last 40. French and Chinese
(``--lang fr|zh``, dealt from ``keywords.fr.txt`` / ``keywords.zh.txt``) have 60 clovers,
``k`` 1 to 60, one decoy for the first 40 and two for the last 20. One JSON object per line::

    {"id": k, "cards": [[w0, w1, w2, w3], ...], "rotations": [r0, r1, r2, r3],
     "decoys": [[...], ...], "pairs": [[a, b], ...], "clues": [null, null, null, null]}

``cards`` and ``rotations`` are by true spot, ``pairs`` and ``clues`` by leaf.

    .venv/bin/python bench/data/make_clovers.py [--lang fr|zh] [OUTPUT]
    # default: clovers.skeleton.jsonl (clovers.skeleton.fr.jsonl, ...)
"""

from __future__ import annotations

import json
import pathlib
import random
import sys
from collections.abc import Sequence
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a plain script from anywhere
    sys.path.insert(0, str(ROOT))

from app.rules.dealing import deal  # noqa: E402
from app.rules.deck import builtin_deck_path, load_deck  # noqa: E402
from app.rules.geometry import Words, pairs  # noqa: E402

CLOVERS = {"en": 120, "fr": 60, "zh": 60}
"""How many clovers each language's set holds: a third of them with two decoys."""
PLAYERS = 3


def default_output(language: str) -> pathlib.Path:
    suffix = "" if language == "en" else f".{language}"
    return pathlib.Path(__file__).with_name(f"clovers.skeleton{suffix}.jsonl")


def decoys_for(seed: int, language: str = "en") -> int:
    """How many decoys clover ``seed`` is dealt with: one for the first two thirds."""
    return 1 if seed <= CLOVERS[language] * 2 // 3 else 2


def make_clover(deck: Sequence[Words], seed: int, language: str = "en") -> dict[str, Any]:
    """Clover 0 of the three-player deal seeded with ``seed``, as one JSON-ready record."""
    clovers, _first = deal(deck, PLAYERS, decoys_for(seed, language), random.Random(seed))
    clover = clovers[0]
    return {
        "id": seed,
        "cards": [list(card.words) for card in clover.cards],
        "rotations": list(clover.rotations),
        "decoys": [list(card.words) for card in clover.decoys],
        "pairs": [list(pair) for pair in pairs(clover.laid())],
        "clues": [None, None, None, None],
    }


def dumps(record: dict[str, Any]) -> str:
    """One compact JSON line, UTF-8 text kept as is."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def main(argv: list[str]) -> int:
    """Write the skeleton to the path given, or next to this script."""
    args = argv[1:]
    language = "en"
    if args[:1] == ["--lang"]:
        language, args = args[1], args[2:]
    output = pathlib.Path(args[0]) if args else default_output(language)
    deck = load_deck(builtin_deck_path(language)).cards
    count = CLOVERS[language]
    lines = [dumps(make_clover(deck, seed, language)) for seed in range(1, count + 1)]
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} clovers to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
