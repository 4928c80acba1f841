"""The Makefile as a newcomer meets it: `make` explains itself, `make serve` installs
no test tool, `make clean` leaves no cache and keeps the games, and `make catalogs`
leaves an unchanged tree as it was. Read with `make -n` (what make would run), so
nothing is installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make(*args: str, venv: Path | None = None) -> str:
    """What ``make ARGS`` prints; with ``venv``, as on a machine with no .venv yet."""
    extra = [f"VENV={venv}", f"TOOLS={venv}-tools"] if venv else []
    done = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *extra, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout


def test_plain_make_lists_the_targets_and_installs_nothing(tmp_path: Path) -> None:
    shown = make(venv=tmp_path / "venv")
    for target in ("serve", "test", "runtime", "clean", "distclean", "catalogs"):
        assert f"  {target} " in shown, shown
    assert "sync" not in shown and "pip install" not in shown


def test_serve_installs_the_server_and_the_bots_and_no_test_tool(tmp_path: Path) -> None:
    planned = make("-n", "serve", venv=tmp_path / "venv")
    syncs = [line for line in planned.splitlines() if " sync " in line]
    assert len(syncs) == 1, planned
    assert "--locked" in syncs[0] and "--extra bots" in syncs[0]
    assert "--extra dev" not in syncs[0]
    assert planned.rstrip().endswith("/bin/soclover")


def test_test_installs_the_development_tools(tmp_path: Path) -> None:
    planned = make("-n", "test", venv=tmp_path / "venv")
    assert any(" sync " in line and "--extra dev" in line for line in planned.splitlines())


def test_clean_takes_every_cache_and_keeps_the_games_distclean_takes_them() -> None:
    clean = make("-n", "clean")
    for cache in (".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis", "__pycache__"):
        assert cache in clean
    assert "soclover.sqlite3" not in clean
    assert "soclover.sqlite3" in make("-n", "distclean")


def run_catalog_template(new: Path, current: Path) -> None:
    subprocess.run(
        [sys.executable, str(TOOLS / "catalog_template.py"), str(new), str(current)],
        check=True,
        capture_output=True,
        timeout=30,
    )


TEMPLATE = """msgid ""
msgstr ""
"Project-Id-Version: So Clover! table VERSION\\n"
"POT-Creation-Date: {date}\\n"

msgid "{message}"
msgstr ""
"""


def test_a_template_whose_messages_did_not_change_keeps_its_date(tmp_path: Path) -> None:
    current, new = tmp_path / "messages.pot", tmp_path / "messages.pot.new"
    current.write_text(TEMPLATE.format(date="2026-12-01 10:00+0000", message="Agree"))
    new.write_text(TEMPLATE.format(date="2026-12-04 20:00+0000", message="Agree"))
    run_catalog_template(new, current)
    assert "2026-12-01 10:00" in current.read_text() and not new.exists()

    new.write_text(TEMPLATE.format(date="2026-12-04 20:00+0000", message="Lock in"))
    run_catalog_template(new, current)
    assert "Lock in" in current.read_text() and "2026-12-04 20:00" in current.read_text()
    assert not new.exists()
