"""Jinja2 rendering of pages and live regions, from the per-seat view only.

A region is one named part of the room page. Its name is used three times:
the template ``partials/_<name>.html``, the DOM id of its outer element and
the SSE event that replaces it. The templates render; they hold no game
logic beyond presentation (which words face which edge, who is who).
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import segno
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from app.rules.allowed import why_no_bots
from app.rules.geometry import LEAF_NAMES, SPOT_NAMES, leaf_spots, shown_word
from app.rules.languages import NAMES as LANGUAGE_NAMES
from app.rules.languages import check_clue_in, warning_text
from app.rules.lesson import steps as lesson_steps
from app.rules.practice import DEALS as PRACTICE_DEALS
from app.rules.text import N_, Text
from app.web.i18n import INTERFACES, Message, localize, translations
from app.web.vertical import vertical_markup

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"

REGIONS = ("players", "stage", "chat", "chat-form", "announce", "lesson")
"""The live regions of the room page, in the order a new stream sends them."""

# Translators: what separates the items of a list of names or words ("Ada, Bea, Cy")
LIST_SEPARATOR = N_(", ")

CHAT_SHOWN = 60
"""Chat lines a page shows; the room keeps more, and new ones are appended live."""


def edges(words: list[str] | None, rotation: int) -> list[str]:
    """The word on each edge (top, right, bottom, left) of a card at ``rotation``."""
    if not words:
        return ["", "", "", ""]
    return [shown_word(words, rotation, edge) for edge in range(4)]


def clock_text(ms: int) -> str:
    """``4:05``: the time on the table's clock, in whole seconds rounded up, as its
    script shows it (so the page shows no other figure before the script ticks)."""
    seconds = max(0, -(-ms // 1000))
    return f"{seconds // 60}:{seconds % 60:02d}"


def facing(board: list[dict[str, Any]], leaf: int) -> list[str | None]:
    """The two words that face ``leaf`` on a board of ``{"words", "rotation"}`` entries."""
    result: list[str | None] = []
    for spot in leaf_spots(leaf):
        slot = board[spot]
        words = slot.get("words")
        result.append(shown_word(words, slot["rotation"], leaf) if words else None)
    return result


def as_read(pair: Sequence[Any], leaf: int) -> list[Any]:
    """A leaf's pair in the order a reader meets its words on the clover.

    The rules give the bottom leaf's pair as (bottom right, bottom left), clockwise;
    written under the leaf, left to right, it reads bottom left first. The side
    leaves are written along their edge (the left one upwards, the right one
    downwards), where clockwise is already the reading order.
    """
    return list(reversed(pair)) if leaf == 2 else list(pair)


def share_of(view: dict[str, Any], lang: str) -> dict[str, Any]:
    """What the end screen's Share button draws, from the seat's view of the finished game:
    the players' names, the score, and each checked clover (its Spectator's name, its clues,
    the true keywords facing each leaf, each try), with its words said in ``lang``.

    Never the room's code: the picture is shown outside the room."""
    tr = translations(lang)
    names = [p["name"] for p in view["players"]]
    clovers = []
    for c in view.get("history") or []:
        truth = sorted(c["solution"], key=lambda s: s["spot"])
        tries = []
        for t in c["tries"]:
            right, total = sum(1 for p in t["placements"] if p["right"]), len(t["placements"])
            said = tr.ngettext(
                "Try %(attempt)d: %(right)d of %(total)d right",
                "Try %(attempt)d: %(right)d of %(total)d right",
                right,
            )
            tries.append(said % {"attempt": t["attempt"], "right": right, "total": total})
        heading = tr.ngettext(
            "%(player)s's clover: %(num)d point", "%(player)s's clover: %(num)d points", c["score"]
        )
        clovers.append(
            {
                "title": heading % {"player": c["name"], "num": c["score"]},
                "clues": list(c["clues"]),
                "keywords": [
                    [w or "" for w in as_read(facing(truth, leaf), leaf)] for leaf in range(4)
                ],
                "tries": tries,
            }
        )
    listed = tr.gettext(LIST_SEPARATOR).join(names)
    # Translators: on the picture of a finished game: who played it ("Ada, Bea, Cy")
    players = tr.gettext("Players: %(names)s") % {"names": listed}
    # Translators: on the picture of a finished game: its score ("16 of 18", in points)
    score = tr.gettext("Score: %(score)s of %(max)s") % {"score": view["total"], "max": view["max"]}
    return {
        "language": view["language"],
        "players": players,
        "score": score,
        "clovers": clovers,
    }


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """The invite link as an SVG QR code (no script). Served as an image of its own,
    built from the address the page was asked for, so no shared render depends on it."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", border=2, dark="#111", light="#fff", omitsize=True, xmldecl=False
    )
    return out.getvalue().decode()


def make_environment(lang: str) -> Environment:
    """The templates in one interface language: ``_()`` and the ``t`` filter speak it."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATES),
        # Read once, like the code: a changed template needs a restart. Checking each
        # template's file at each use costs every change's rendering ten stat calls
        # (docs/performance.md, "Templates read once").
        auto_reload=False,
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.policies["ext.i18n.trimmed"] = True  # as the extraction reads trans blocks
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    said = translations(lang).gettext
    env.filters["edges"] = edges
    env.filters["as_read"] = as_read
    env.filters["runs"] = vertical_markup
    env.filters["t"] = lambda message: localize(message, lang)
    env.filters["listed"] = lambda items: said(LIST_SEPARATOR).join(map(str, items))
    # seats to their players' names, through a room's ``names`` (seat -> name)
    env.filters["named"] = lambda seats, names: [names[s] for s in seats if s in names]
    env.globals.update(
        lang=lang,
        SPOT_LABELS=[said(name) for name in SPOT_NAMES],
        LEAF_LABELS=[said(name) for name in LEAF_NAMES],
        INTERFACES=INTERFACES,
        CHAT_SHOWN=CHAT_SHOWN,
        SPOT_NAMES=SPOT_NAMES,
        LEAF_NAMES=LEAF_NAMES,
        LANGUAGE_NAMES=LANGUAGE_NAMES,
        facing=facing,
        clock_text=clock_text,
        warning_text=warning_text,
        REGIONS=REGIONS,
        PRACTICE_DEALS=PRACTICE_DEALS,
        check_clue=check_clue_in,
    )
    env.globals["share_of"] = lambda view: share_of(view, lang)
    return env


ENVS = {lang: make_environment(lang) for lang in INTERFACES}
"""One environment per interface language, each with its own compiled templates."""


def page(template: str, lang: str, /, **context: Any) -> str:
    """A whole page in interface language ``lang``. Both are positional-only: a page's
    context may hold a ``name`` of its own (the name a player typed)."""
    return ENVS[lang].get_template(f"pages/{template}.html").render(**context)


SERVER_NOW = Markup("<server-now>")
"""Where a room page says the server's time (``data-now``), until ``stamped`` writes it.
No escaped text can hold it: any ``<`` a player typed is ``&lt;`` on the page."""


def stamped(page: str, now_ms: int) -> str:
    """The page with the server's time written in as it leaves, not as it began to render.

    The page's script matches that time with the moment the page's first byte arrived,
    to count every clock by the server's: the time spent rendering (seconds, the first
    time a busy server compiles its templates) would otherwise be added to each clock.
    """
    return page.replace(SERVER_NOW, str(now_ms), 1)


def region(template: str, lang: str, context: dict[str, Any]) -> str:
    return ENVS[lang].get_template(f"partials/_{template}.html").render(**context)


def chat_lines(lines: Sequence[Mapping[str, Any]], lang: str) -> str:
    """New chat lines as list items, appended to the chat on every screen."""
    return ENVS[lang].get_template("partials/_chat-line.html").render(lines=lines)


def flash(message: Message, lang: str) -> str:
    """A refusal (or a message already in ``lang``) for the flash area."""
    return ENVS[lang].get_template("partials/_flash.html").render(message=message)


def region_context(view: Mapping[str, Any], site: str, **extra: Any) -> dict[str, Any]:
    """What the room page and its live regions render from: the seat's view, and
    ``site``, the address in front of the invite link ("" in a live update shared
    by every stream of a seat: the page's script puts its own address there)."""
    return room_context(view, site=site, **extra)


def moment_of(view: Mapping[str, Any]) -> str:
    """Which step of the game a seat's page shows: the phase, and while a clover is
    rebuilt, whose clover, which try and whether it is checked. The stage carries it
    (``data-moment``): the page brings the stage into view when it changes, and a move
    tapped offline carries the one it was tapped at, so that, sent once the phone is
    back, it is refused rather than played on another clover (``pages.room_action``)."""
    res = view["resolution"]
    if res is not None:
        checked = "-checked" if res["checked"] else ""
        cards = [card["card"] for card in res["pool"]]
        cards += [slot["card"] for slot in res["board"] if slot["card"]]
        return f"{view['phase']}-{res['spectator']}-{res['attempt']}{checked}-{_dealt(cards)}"
    clover = view["clover"]
    if view["phase"] == "clues" and clover is not None:
        # Another game's clues are the same phase: its deal tells them apart.
        words = [word for leaf in clover["leaves"] for word in leaf["pair"]]
        return f"clues-{_dealt(words)}"
    return str(view["phase"])


def _dealt(items: Sequence[str]) -> str:
    """A short mark of one deal's cards or keywords, the same whatever their order: two
    games, or two clovers of one Spectator's seat, are not taken for one another."""
    return hashlib.sha256("\n".join(sorted(items)).encode()).hexdigest()[:8]


def room_context(view: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """What every room template gets: the view and names derived from it."""
    players = view["players"]
    you = view["you"]
    me = players[you["seat"]] if you is not None and you["seat"] is not None else None
    res = view["resolution"]
    names = {p["seat"]: p["name"] for p in players}
    cards: dict[str, dict[str, Any]] = {}
    if res is not None:
        for card in res["pool"]:
            cards[card["card"]] = card
        for slot in res["board"]:
            if slot["card"]:
                cards[slot["card"]] = slot
    no_bots = why_no_bots(view["language"], view["limits"].get("bot_languages", ()))
    return {
        "v": view,
        "code": view["code"],
        # why no bot may play here (``None``: bots may), for the host's lobby to say
        "no_bots": None if no_bots is None else Text(no_bots),
        "me": me,
        "watching": you is not None and you.get("watcher", False),
        "names": names,
        "res": res,
        "moment": moment_of(view),
        "cards": cards,
        "is_spectator": res is not None and me is not None and me["seat"] == res["spectator"],
        # the practice table's lesson: the steps this seat is at (``rules.lesson``)
        "lesson": lesson_steps(view),
        **extra,
    }


def region_check(leaf: int, error: Text | None, warning: Text | None, lang: str) -> str:
    template = ENVS[lang].get_template("partials/_clue-check.html")
    return template.render(leaf=leaf, error=error, warning=warning)
