"""The README and docs/ as a newcomer meets them: the README is a first page, not a
manual, its first screen gives the two commands, and every link between the pages
leads somewhere, down to the heading it names. Reads files only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^ {0,3}(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose(text: str) -> list[str]:
    """The lines outside fenced code blocks, with code spans emptied."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            lines.append("")
            continue
        lines.append("" if fenced else CODE_SPAN.sub("``", line))
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as
    hyphens (letters of any script kept)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of a page: its headings' (a repeated one gets -1, -2, ...) and
    any HTML anchor."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    text = page.read_text(encoding="utf-8")
    for line in prose(text):
        if match := HEADING.match(line):
            base = slug(match.group(2).replace("``", ""))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    found.update(HTML_ANCHOR.findall(text))
    return found


def relative_links(page: Path) -> list[str]:
    text = "\n".join(prose(page.read_text(encoding="utf-8")))
    return [
        target
        for target in LINK.findall(text)
        if not re.match(r"[a-zA-Z][a-zA-Z0-9+.-]*:", target)  # http:, https:, mailto:
    ]


def test_the_readme_is_a_first_page_not_a_manual() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines: move the details into docs/"


def test_the_readmes_first_screen_gives_the_two_commands() -> None:
    """`make serve` and `make test`, alone in the first code block, within the first
    screen (the first 25 lines)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    opening = next(i for i, line in enumerate(lines) if FENCE.match(line))
    closing = next(i for i in range(opening + 1, len(lines)) if FENCE.match(lines[i]))
    assert closing < 25, "the two commands must be on the README's first screen"
    commands = [line.split("#")[0].strip() for line in lines[opening + 1 : closing]]
    assert [c for c in commands if c] == ["make serve", "make test"]


def test_the_pages_links_are_found() -> None:
    """The test below reads links at all: the README links every page of docs/."""
    linked = {target.split("#")[0] for target in relative_links(README)}
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"docs/{page.name}" in linked, f"README.md does not link docs/{page.name}"


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    broken = []
    for target in relative_links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(ROOT)}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.relative_to(ROOT)}")
    assert not broken, f"{page.relative_to(ROOT)}:\n" + "\n".join(broken)


def test_the_anchors_are_githubs() -> None:
    """The anchors this test expects are the ones GitHub makes of such headings."""
    assert slug("Playing through the API (curl)") == "playing-through-the-api-curl"
    assert slug("PostgreSQL, several workers, a proxy") == "postgresql-several-workers-a-proxy"
    assert slug("SQLite's writer: SQL text on the driver's own connection") == (
        "sqlites-writer-sql-text-on-the-drivers-own-connection"
    )
    assert slug("Install as an app") == "install-as-an-app"
