"""The `soclover` console command: serve the table."""

from __future__ import annotations

import argparse
import os
import sys

import uvicorn

from app.config import get_settings
from app.db.engine import async_url, is_sqlite
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
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (more than one needs PostgreSQL)",
    )
    args = parser.parse_args(argv)

    from app.main import create_app, load_configured_deck

    try:
        async_url(settings.database_url)
        load_configured_deck(settings)
    except (DeckError, DeckTooSmallForAnyGame, ValueError) as error:
        print(f"soclover: {error}", file=sys.stderr)
        return 2
    if args.workers > 1 and is_sqlite(settings.database_url):
        print(
            "soclover: several workers share rooms through PostgreSQL; "
            "set SOCLOVER_DATABASE_URL=postgresql://... or run one worker.",
            file=sys.stderr,
        )
        return 2
    url_host = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    print(f"So Clover! table: open http://{url_host}:{args.port}/ to play", flush=True)
    options = {
        "host": args.host,
        "port": args.port,
        "log_level": os.environ.get("SOCLOVER_LOG_LEVEL", "info"),
        "proxy_headers": True,
        "timeout_graceful_shutdown": 3,
    }
    if args.workers > 1:
        uvicorn.run("app.main:create_app", factory=True, workers=args.workers, **options)
    else:
        uvicorn.run(create_app(settings), **options)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
