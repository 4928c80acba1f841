"""/docs: the API's live description, Swagger UI served by the table itself.

FastAPI's own /docs loads Swagger UI from a public CDN and starts it with an
inline script: on a server without internet it is a blank page, and the CSP
had to open the CDN and inline scripts for it. Here the page loads Swagger UI
from our static files (``static/vendor/swagger-ui-<version>/``, vendored as
htmx is, with its licence) and starts it with a script file of ours
(``static/api-docs.js``), so /docs works offline under the CSP of every other
page. ReDoc, FastAPI's other viewer, would need a CDN too: /redoc leads here.
"""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

router = APIRouter(include_in_schema=False)

SWAGGER_UI = "/static/vendor/swagger-ui-5.35.0"
"""The vendored Swagger UI; its version is in the name, as htmx's is."""
ASSETS = (
    f"{SWAGGER_UI}/swagger-ui.css",
    f"{SWAGGER_UI}/swagger-ui-bundle.js",
    "/static/api-docs.js",
)
"""What the page loads, all of it from this server."""


def docs_page(title: str, openapi_url: str, root: str = "") -> str:
    """The page: Swagger UI's stylesheet and bundle, and our script that starts it on
    ``openapi_url`` (read from a data attribute: no inline script may carry it); every
    address under ``root``, the proxy's root path."""
    css, bundle, start = (escape(root + asset) for asset in ASSETS)
    icon = escape(f"{root}/static/clover.svg")
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} - Swagger UI</title>
  <link rel="icon" href="{icon}" type="image/svg+xml">
  <link rel="stylesheet" href="{css}">
  <script src="{bundle}" defer></script>
  <script src="{start}" defer></script>
</head>
<body>
  <div id="swagger-ui" data-openapi-url="{escape(openapi_url)}">
    <noscript>
      <p>This page needs JavaScript. The API's schema is at
        <a href="{escape(openapi_url)}">{escape(openapi_url)}</a>.</p>
    </noscript>
  </div>
</body>
</html>
"""


@router.api_route("/docs", methods=["GET", "HEAD"])
async def swagger_ui(request: Request) -> HTMLResponse:
    """Swagger UI on this app's schema (under the proxy's root path, if any)."""
    root = str(request.scope.get("root_path", "")).rstrip("/")
    app = request.app
    return HTMLResponse(docs_page(app.title, root + (app.openapi_url or ""), root))


@router.api_route("/redoc", methods=["GET", "HEAD"])
async def redoc(request: Request) -> RedirectResponse:
    """FastAPI's ReDoc loads from a CDN, so it is not served: its readers get /docs."""
    root = str(request.scope.get("root_path", "")).rstrip("/")
    return RedirectResponse(f"{root}/docs")
