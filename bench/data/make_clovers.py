"""Deal the benchmark's clovers from the English deck, with fixed seeds.

Why this script exists: the bots benchmark needs a fixed set of clovers whose clues were
written by hand, in a human style. The clues cannot be regenerated, so the deal they were
written for must be: this script documents exactly how ``clovers.en.jsonl`` was dealt and
writes the same skeleton (clues all ``null``) every time it runs.

Clover ``k`` (1 to 120) is clover 0 of ``deal(deck.cards, 3, decoys, random.Random(k))``,
with one decoy for the first 80 clovers and two for the last 40. One JSON object per line::

    {"id": k, "cards": [[w0, w1, w2, w3], ...], "rotations": [r0, r1, r2, r3],
     "decoys": [[...], ...], "pairs": [[a, b], ...], "clues": [null, null, null, null]}

``cards`` and ``rotations`` are by true spot, ``pairs`` and ``clues`` by leaf.

    .venv/bin/python bench/data/make_clovers.py [OUTPUT]   # default: clovers.skeleton.jsonl
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

CLOVERS = 120
ONE_DECOY = 80  # clovers 1..80 have one decoy, the rest two
PLAYERS = 3
DEFAULT_OUTPUT = pathlib.Path(__file__).with_name("clovers.skeleton.jsonl")


def decoys_for(seed: int) -> int:
    """How many decoys clover ``seed`` is dealt with."""
    return 1 if seed <= ONE_DECOY else 2


def make_clover(deck: Sequence[Words], seed: int) -> dict[str, Any]:
    """Clover 0 of the three-player deal seeded with ``seed``, as one JSON-ready record."""
    clovers, _first = deal(deck, PLAYERS, decoys_for(seed), random.Random(seed))
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
    """Write the skeleton to ``argv[1]``, or next to this script."""
    output = pathlib.Path(argv[1]) if len(argv) > 1 else DEFAULT_OUTPUT
    deck = load_deck(builtin_deck_path()).cards
    lines = [dumps(make_clover(deck, seed)) for seed in range(1, CLOVERS + 1)]
    output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines)} clovers to {output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
