"""The interface's language: English, French or Simplified Chinese.

A person's interface language is the one they chose with the switch (kept in a
cookie), or else the first of ours their browser asks for (``Accept-Language``),
or else English. It is separate from a room's language, which decides the deck
and the clue rules: a French speaker may sit at an English table.

Every string a person reads is written in English in the code and the
templates and translated through the gettext catalogs in ``app/locale/``
(``make catalogs`` extracts and updates them, ``make compile-catalogs``
compiles the ``.mo`` files the server reads; both are committed). The API's
error ``code``s never change; their ``message`` follows ``Accept-Language``.
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse

from app.rules.errors import RuleError
from app.rules.text import Text
from app.web.deps import check_same_origin, set_cookie

LOCALES = Path(__file__).resolve().parents[1] / "locale"
INTERFACES = ("en", "fr", "zh")
"""The interface languages, English first: what the code and templates are written in."""
DEFAULT = "en"
COOKIE = "soclover_lang"
COOKIE_AGE = 365 * 24 * 3600

MAX_HEADER = 256
"""Characters of an Accept-Language header worth reading: no header multiplies our work."""
MAX_RANGES = 12
_RANGE = re.compile(
    r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([01](?:\.\d{0,3})?))?\s*$"
)
_BACK = re.compile(r"^/(?!/)[A-Za-z0-9/_.\-?=&%#]{0,200}$")


@lru_cache(maxsize=len(INTERFACES))
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``; English is the code's own text."""
    if lang == DEFAULT or lang not in INTERFACES:
        return gettext.NullTranslations()
    with open(LOCALES / lang / "LC_MESSAGES" / "messages.mo", "rb") as catalog:
        return gettext.GNUTranslations(catalog)


def translate(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


Message = Text | RuleError | str
"""What a page may show as a message: a refusal, a rules message, or text already in
the reader's language (shown as it is)."""


def localize(message: Message, lang: str) -> str:
    """A message in ``lang``: a refusal, a rules message, or a string already shown as is."""
    if isinstance(message, RuleError):
        message = message.text
    if isinstance(message, Text):
        return message.render(translations(lang).gettext)
    return message


def negotiate(accept_language: str | None) -> str:
    """The interface language an ``Accept-Language`` header asks for, English if none of ours."""
    if not accept_language:
        return DEFAULT
    best, best_q = DEFAULT, 0.0
    for item in accept_language[:MAX_HEADER].split(",")[:MAX_RANGES]:
        found = _RANGE.match(item)
        if found is None:
            continue
        lang, q = found.group(1).lower(), float(found.group(2) or 1)
        if lang in INTERFACES and q > best_q:
            best, best_q = lang, q
    return best


def interface_language(request: Request) -> str:
    """This person's interface language: their choice, else their browser's."""
    chosen = request.cookies.get(COOKIE)
    if chosen in INTERFACES:
        return chosen
    return negotiate(request.headers.get("accept-language"))


async def request_language(request: Request) -> str:
    """``interface_language`` as a dependency. ``async`` although it never awaits: FastAPI
    runs a plain ``def`` dependency in its thread pool, a hop to a worker thread and back
    on every page and form post (docs/performance.md, "A room's best read once, and what
    FastAPI's action route costs"); a cookie and one bounded header read need no thread."""
    return interface_language(request)


Lang = Annotated[str, Depends(request_language)]


router = APIRouter(include_in_schema=False)


@router.post("/language")
async def choose_language(request: Request) -> RedirectResponse:
    """The language switch: keeps the choice in a cookie and goes back to the page."""
    form = await request.form()
    chosen, back = form.get("to"), form.get("back")
    check_same_origin(request)
    target = back if isinstance(back, str) and _BACK.match(back) else "/"
    response = RedirectResponse(target, status_code=303)
    if isinstance(chosen, str) and chosen in INTERFACES:
        set_cookie(request, response, COOKIE, chosen, max_age=COOKIE_AGE)
    return response
