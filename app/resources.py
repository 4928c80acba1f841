"""Where the server's files that are not Python code are: static files, migrations, deck.

The repository keeps them at its top level, beside ``app/``: ``static/``,
``migrations/`` and the decks (``keywords.txt``, ``keywords.fr.txt``,
``keywords.zh.txt``), where the README's commands use them. A
wheel holds only packages, so its build copies them into this one
(``app/static``, ``app/migrations``, ``app/keywords.txt``, see pyproject.toml).
Installed, they are found inside the package; in a checkout (an editable install,
or running from the repository) the package has no such copies, and they are the
top-level folders. Standard library only: the rules engine asks it where its deck is.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["builtin_deck", "migrations_dir", "static_dir"]


def _find(name: str) -> Path:
    # Installed or checked out, the package is a folder on disk, never a zip.
    package = Path(str(files("app"))).resolve()
    installed = package / name
    checkout = package.parent
    if installed.exists() or not (checkout / "pyproject.toml").is_file():
        return installed  # and if it is missing, the error names where it belongs
    return checkout / name


def static_dir() -> Path:
    """The stylesheet, scripts and images served under /static."""
    return _find("static")


def migrations_dir() -> Path:
    """Alembic's script location: alembic.ini, env.py, script.py.mako and versions/."""
    return _find("migrations")


def builtin_deck(language: str = "en") -> Path:
    """The deck a room in ``language`` uses unless SOCLOVER_KEYWORDS (English),
    SOCLOVER_KEYWORDS_FR or SOCLOVER_KEYWORDS_ZH names another: ``keywords.txt``
    for English, ``keywords.<language>.txt`` for the others."""
    return _find("keywords.txt" if language == "en" else f"keywords.{language}.txt")
