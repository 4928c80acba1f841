"""What installing the table needs: the web app manifest, in the reader's language, and
the service worker, at the root of the site so that its scope can cover the pages.

A service worker sees the requests of the pages it controls and controls only the
pages inside its scope, which is at most the folder it is served from: from
``/static/sw.js`` it could control no page of the table. The file itself lives with
the other static files (``static/sw.js``); it keeps copies of ``/static/`` files only
and leaves every other request to the network (see its header).
"""

from __future__ import annotations

import json
from functools import cache

from fastapi import APIRouter
from fastapi.responses import FileResponse, Response

from app.resources import static_dir
from app.rules.text import N_
from app.web.i18n import Lang, translate

router = APIRouter(include_in_schema=False)

SERVICE_WORKER = static_dir() / "sw.js"
FAVICON = static_dir() / "favicon.ico"
MANIFEST = static_dir() / "manifest.webmanifest"
DESCRIPTION = N_(
    "A table for the cooperative word game So Clover!: 3 to 6 friends, one phone each."
)


@cache
def manifest_in(lang: str) -> bytes:
    """The static manifest (icons, colours, names) with its description in ``lang``:
    built once per language."""
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    manifest["lang"] = "zh-Hans" if lang == "zh" else lang
    manifest["description"] = translate(lang, DESCRIPTION)
    return json.dumps(manifest, ensure_ascii=False, indent=2).encode()


@router.get("/manifest.webmanifest")
async def web_app_manifest(lang: Lang) -> Response:
    """The manifest the pages link: the one in ``static/`` speaking the reader's language
    (an install prompt shows its description). It holds nothing of a seat."""
    return Response(
        manifest_in(lang),
        media_type="application/manifest+json",
        headers={"Cache-Control": "public, max-age=3600", "Vary": "Accept-Language, Cookie"},
    )


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """Always checked with the server (``no-cache``): a new release's worker is taken at
    the next visit. Browsers check it for updates on their own anyway."""
    return FileResponse(
        SERVICE_WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )


@router.api_route("/favicon.ico", methods=["GET", "HEAD"])
async def favicon() -> FileResponse:
    """The favicon where it is asked for by name: the pages link ``clover.svg``, but
    bookmarks, feed readers and older browsers ask for ``/favicon.ico`` without looking."""
    return FileResponse(
        FAVICON, media_type="image/x-icon", headers={"Cache-Control": "public, max-age=86400"}
    )
