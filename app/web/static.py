"""/static: the stylesheet, scripts and images, and the vendored htmx and Swagger UI.

Starlette's StaticFiles sends each file with its ETag and date, so a browser
asks again at each visit (a 304 when nothing changed). A vendored file whose
path names its version (``vendor/htmx-2.0.11.min.js``, ``vendor/swagger-ui-5.35.0/``)
never changes at that path: a new version is a new path. Those are kept by the
browser for a year without asking: Swagger UI's bundle is sent, and gzipped
(a long while of the event loop's time: docs/performance.md, "Vendored files
kept by the browser"), once per browser rather than at every visit of /docs.
"""

from __future__ import annotations

import os
import re

from starlette.responses import Response
from starlette.staticfiles import PathLike, StaticFiles
from starlette.types import Scope

VERSIONED = re.compile(r"vendor/[^/]*-\d+\.\d+\.\d+[./]")
"""A path under /static/ that names its version."""
FOREVER = "public, max-age=31536000, immutable"


class TableStatic(StaticFiles):
    """StaticFiles, with versioned vendored files cached for good (see the module)."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if response.status_code in (200, 304) and VERSIONED.match(self.get_path(scope)):
            response.headers["cache-control"] = FOREVER
        return response
