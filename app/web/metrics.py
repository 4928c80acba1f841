"""``GET /metrics``: the table's figures for Prometheus (``app/metrics.py``), to whom
``SOCLOVER_METRICS`` allows.

- ``off``: nobody.
- ``local`` (the default): clients at a loopback address, a scraper on this
  machine. The address is the one uvicorn settles on: behind a proxy it trusts
  (``SOCLOVER_TRUSTED_PROXIES``, 127.0.0.1 by default), the one the proxy saw, so
  a local nginx does not open the page to the world.
- ``on``: everyone, for a scraper at another address (a container's network);
  then keep the page from the public at the proxy.

The figures say how busy the server is, not what anyone plays; but they are the
host's business, so by default only the host's machine reads them. Refused, the
page is a 404 like any address that is nothing: it does not tell it exists.

It goes through the middleware like any page, so it carries the security headers
and is compressed for a scraper that asks. Not in the API's documentation: it is
the host's, not a player's.
"""

from __future__ import annotations

import ipaddress

from fastapi import APIRouter, Request, Response
from starlette.exceptions import HTTPException

from app.metrics import TableMetrics

router = APIRouter(include_in_schema=False)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """The page, built on the event loop, where the rooms and streams it counts live."""
    if not may_read(request.app.state.settings.metrics, request.scope.get("client")):
        raise HTTPException(404)
    table: TableMetrics = request.app.state.metrics
    body, content_type = table.exposition(request.headers.get("accept", ""))
    return Response(body, headers={"content-type": content_type})


def may_read(setting: str, client: tuple[str, int] | list[object] | None) -> bool:
    """Whether a client at ``client`` (the ASGI scope's: host, port) may read the page
    under ``SOCLOVER_METRICS=setting``. ``local``: a loopback address only, IPv4-mapped
    IPv6 included; no address (a Unix socket) or a name is not one."""
    if setting == "on":
        return True
    if setting != "local" or not client:
        return False
    try:
        address = ipaddress.ip_address(str(client[0]))
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback
