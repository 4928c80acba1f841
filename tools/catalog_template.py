"""Put a freshly extracted catalog template in place only if a message changed.

pybabel stamps every extraction with the hour (``POT-Creation-Date``), and ``pybabel
update`` copies that stamp into each language's catalog: without this step, ``make
catalogs`` on an unchanged tree would change three files. Usage::

    python3 tools/catalog_template.py NEW.pot app/locale/messages.pot
"""

from __future__ import annotations

import sys
from pathlib import Path

STAMP = '"POT-Creation-Date:'


def _messages(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if not line.startswith(STAMP)]


def main(new: str, current: str) -> int:
    fresh, kept = Path(new), Path(current)
    if kept.is_file() and _messages(fresh) == _messages(kept):
        fresh.unlink()
        print(f"{kept}: no message changed")
    else:
        fresh.replace(kept)
        print(f"{kept}: written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:3]))
