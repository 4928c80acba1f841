"""The `soclover` console command: serve the table."""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from app.config import get_settings
from app.rules.deck import DeckError
from app.service.errors import DeckTooSmallForAnyGame


def main(argv: list[str] | None = None) -> int:
    settings = get_settings()
    parser = argparse.ArgumentParser(
        prog="soclover",
        description="So Clover! table: a self-hosted table for 3 to 6 players.",
    )
    parser.add_argument("--host", default=settings.host, help="address to listen on")
    parser.add_argument("--port", type=int, default=settings.port, help="port to listen on")
    args = parser.parse_args(argv)

    from app.main import create_app

    try:
        app = create_app(settings)
    except (DeckError, DeckTooSmallForAnyGame) as error:
        print(f"soclover: {error}", file=sys.stderr)
        return 2
    url_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"So Clover! table: open http://{url_host}:{args.port}/ to play", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=os.environ.get("SOCLOVER_LOG_LEVEL", "info"),
        proxy_headers=True,
        timeout_graceful_shutdown=3,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
