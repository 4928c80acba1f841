"""The service worker, at the root of the site so that its scope can cover the pages.

A service worker sees the requests of the pages it controls and controls only the
pages inside its scope, which is at most the folder it is served from: from
``/static/sw.js`` it could control no page of the table. The file itself lives with
the other static files (``static/sw.js``); it keeps copies of ``/static/`` files only
and leaves every other request to the network (see its header).
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import FileResponse

from app.resources import static_dir

router = APIRouter(include_in_schema=False)

SERVICE_WORKER = static_dir() / "sw.js"


@router.get("/sw.js")
async def service_worker() -> FileResponse:
    """Always checked with the server (``no-cache``): a new release's worker is taken at
    the next visit. Browsers check it for updates on their own anyway."""
    return FileResponse(
        SERVICE_WORKER, media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )
