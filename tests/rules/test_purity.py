"""The rules engine stays pure: standard library, the word libraries and Unicode's data only."""

import ast
import sys
from pathlib import Path

import app.rules

# confusable_homoglyphs: Unicode's confusables and scripts, read from its package once at import;
# simplemma: French word forms; opencc: Simplified and Traditional Chinese; wordfreq: how
# common a word is (each reads data shipped in its package, nothing from the network)
ALLOWED_THIRD_PARTY = {
    "inflect",
    "wordfreq",
    "snowballstemmer",
    "confusable_homoglyphs",
    "simplemma",
    "opencc",
    "app",
}
# app.resources: where the built-in deck lies, installed or checked out (standard library only)
ALLOWED_APP_MODULES = {"app.resources"}
RULES_DIR = Path(app.rules.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


RULES_FILES = sorted(RULES_DIR.glob("*.py"))


def test_the_rules_are_found():
    """Every module of the rules is read below, the engine's phase modules as well."""
    engine_and_phases = {
        "engine.py",
        "checks.py",
        "seating.py",
        "lobby.py",
        "claims.py",
        "writing.py",
        "resolution.py",
        "clock.py",
        "watchers.py",
        "chat.py",
    }
    found = {p.name for p in RULES_FILES}
    assert engine_and_phases | {"views.py", "state.py", "actions.py"} <= found


def test_rules_import_nothing_but_the_standard_library_word_and_unicode_libraries():
    offenders = {}
    for path in RULES_FILES:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names:
                continue
            if top not in ALLOWED_THIRD_PARTY or (
                top == "app"
                and not name.startswith("app.rules")
                and name not in ALLOWED_APP_MODULES
            ):
                offenders.setdefault(path.name, []).append(name)
    assert offenders == {}


def test_the_app_modules_the_rules_import_use_the_standard_library_only():
    for name in ALLOWED_APP_MODULES:
        path = RULES_DIR.parent / f"{name.removeprefix('app.')}.py"
        outside = {
            m for m in imported_modules(path) if m.split(".")[0] not in sys.stdlib_module_names
        }
        assert outside == set(), f"{path.name} imports {outside}"


def test_rules_use_no_clock_and_no_global_randomness():
    for path in RULES_FILES:
        source = path.read_text(encoding="utf-8")
        for banned in (
            "datetime.now",
            "time.time",
            "random.random(",
            "random.choice(",
            "os.urandom",
        ):
            assert banned not in source, f"{path.name} uses {banned}"
