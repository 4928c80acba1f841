"""The `soclover` console command: serve the table (the default), back up its database,
keep its Record of Legends.

``soclover`` alone, or with ``--host``/``--port``/``--workers``, serves as it always
has: scripts, units and containers run it so. ``soclover serve`` says the same out
loud, ``soclover backup FILE`` copies the live SQLite database (``app/db/backup.py``)
and ``soclover legends`` lists, hides and shows again the Record's entries
(``app/db/record.py``); this module only reads the command line and prints.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

import uvicorn
from pydantic import ValidationError
from sqlalchemy.exc import SQLAlchemyError

from app.config import Settings, get_settings
from app.db.backup import BackupFailed, BackupRefused, backup
from app.db.engine import async_url, is_sqlite
from app.db.migrate import upgrade
from app.db.record import entries, set_hidden
from app.rules.deck import DeckError
from app.service.errors import DeckTooSmallForAnyGame


def main(argv: list[str] | None = None) -> int:
    try:
        settings = get_settings()
    except ValidationError as error:
        # A setting the server cannot run with: said in one line each, not a traceback.
        for problem in error.errors():
            where = "SOCLOVER_" + ".".join(str(part) for part in problem["loc"]).upper()
            said = str(problem["msg"]).removeprefix("Value error, ")
            print(
                f"soclover: {said if said.startswith(where) else f'{where}: {said}'}",
                file=sys.stderr,
            )
        return 2
    parser = argparse.ArgumentParser(
        prog="soclover",
        description="So Clover! table: a self-hosted table for 3 to 6 players.",
    )
    _serve_options(parser, settings.host, settings.port, 1)
    commands = parser.add_subparsers(dest="command", title="commands")
    serve = commands.add_parser(
        "serve",
        help="serve the table (what soclover does with no command)",
        description="Serve the table: soclover serve --port 8080 is soclover --port 8080.",
    )
    # Nothing by default here: the top level's defaults (or what was given there) stand.
    _serve_options(serve, argparse.SUPPRESS, argparse.SUPPRESS, argparse.SUPPRESS)
    copy = commands.add_parser(
        "backup",
        help="copy the SQLite database to FILE, while the server runs",
        description="Write a consistent copy of the SQLite database that "
        "SOCLOVER_DATABASE_URL names (the server's) to FILE, while the server runs and "
        "writes: one snapshot, copied in steps through SQLite's online backup, checked "
        "(PRAGMA integrity_check) and renamed into place only when whole. The copy is a "
        "single self-contained file: to restore, stop the server, put it in place of the "
        "database (removing any -wal and -shm files beside it) and start the server. "
        "On PostgreSQL use pg_dump instead.",
    )
    copy.add_argument("file", type=Path, metavar="FILE", help="where to write the copy")
    copy.add_argument("--force", action="store_true", help="replace FILE if it exists")
    legends = commands.add_parser(
        "legends",
        help="list the Record of Legends; hide an entry, or show it again",
        description="The Record of Legends with each entry's id and room code, best first "
        "(hidden ones marked). 'soclover legends hide ID...' takes entries out of every list "
        "the table shows (a name that insults, a game one person played alone); 'soclover "
        "legends show ID...' puts them back. Safe while the server runs.",
    )
    legends.add_argument("verb", nargs="?", choices=("list", "hide", "show"), default="list")
    legends.add_argument("ids", nargs="*", type=int, metavar="ID", help="entries to hide or show")
    legends.add_argument("--limit", type=int, default=50, help="entries to list (50)")
    legends.add_argument("--players", type=int, help="only games of this many players")
    legends.add_argument("--hidden", action="store_true", help="only the hidden entries")
    args = parser.parse_args(argv)
    if args.command == "backup":
        return _backup(settings, args.file, args.force)
    if args.command == "legends":
        return _legends(settings, args)
    return _serve(settings, args)


def _serve_options(parser: argparse.ArgumentParser, host: Any, port: Any, workers: Any) -> None:
    parser.add_argument("--host", default=host, help="address to listen on")
    parser.add_argument("--port", type=int, default=port, help="port to listen on")
    parser.add_argument(
        "--workers",
        type=int,
        default=workers,
        help="server processes (more than one needs PostgreSQL)",
    )


def _backup(settings: Settings, file: Path, force: bool) -> int:
    """Exit 2 for what the person can fix before anything is copied, 1 for a copy that
    failed (the target is untouched either way)."""
    try:
        copied = backup(settings.database_url, file, force=force)
    except BackupRefused as refused:
        print(f"soclover backup: {refused}", file=sys.stderr)
        return 2
    except (BackupFailed, sqlite3.Error, OSError) as failed:
        print(f"soclover backup: failed, {file} untouched: {failed}", file=sys.stderr)
        return 1
    rooms = "no rooms table" if copied.rooms is None else f"{copied.rooms} rooms"
    print(
        f"soclover backup: {copied.source} copied to {copied.target}: "
        f"{rooms}, {copied.size / 1_000_000:.1f} MB ({copied.pages} pages), checked"
    )
    return 0


def _legends(settings: Settings, args: argparse.Namespace) -> int:
    """List, hide or show again; exit 2 for a command to fix, 1 for an id not found."""
    try:
        upgrade(settings.database_url)  # the column for hidden entries, if the server has not
        if args.verb == "list":
            if args.ids:
                print("soclover legends: list takes no ID", file=sys.stderr)
                return 2
            for e in entries(
                settings.database_url,
                limit=args.limit,
                players=args.players,
                hidden_only=args.hidden,
            ):
                mark = " [hidden]" if e.hidden else ""
                print(
                    f"{e.id:>6}  {e.score:>2}/{e.max:<2} {len(e.players)}p {e.decoys}d "
                    f"{e.language}  {e.finished_at:%Y-%m-%d %H:%M}  {e.room}  "
                    f"{', '.join(e.players)}{mark}"
                )
            return 0
        if not args.ids:
            print(f"soclover legends: {args.verb} needs at least one ID", file=sys.stderr)
            return 2
        done = set_hidden(settings.database_url, args.ids, hidden=args.verb == "hide")
    except (SQLAlchemyError, ValueError) as error:
        print(f"soclover legends: {error}", file=sys.stderr)
        return 2
    missing = [i for i in args.ids if i not in done]
    past = "hidden" if args.verb == "hide" else "shown again"
    if done:
        print(f"soclover legends: {', '.join(map(str, done))} {past}")
    if missing:
        print(f"soclover legends: no entry {', '.join(map(str, missing))}", file=sys.stderr)
        return 1
    return 0


def _serve(settings: Settings, args: argparse.Namespace) -> int:
    from app.decks import load_configured_deck
    from app.main import create_app

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
    if "FORWARDED_ALLOW_IPS" in os.environ:
        print(
            "soclover: FORWARDED_ALLOW_IPS is not read; the proxies trusted are "
            f"SOCLOVER_TRUSTED_PROXIES's: {settings.trusted_proxies or 'none'}",
            file=sys.stderr,
        )
    options = {
        "host": args.host,
        "port": args.port,
        "log_level": os.environ.get("SOCLOVER_LOG_LEVEL", "info"),
        **proxy_options(settings),
        "timeout_graceful_shutdown": 3,
    }
    if args.workers > 1:
        uvicorn.run("app.main:create_app", factory=True, workers=args.workers, **options)
    else:
        uvicorn.run(create_app(settings), **options)
    return 0


def proxy_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the proxy in front: the client's address and the scheme are
    taken from ``X-Forwarded-For`` and ``X-Forwarded-Proto`` only on a connection from
    one of ``SOCLOVER_TRUSTED_PROXIES`` (uvicorn's own ``FORWARDED_ALLOW_IPS`` is not
    read: the setting is checked, and never trusts everyone). Every per-address limit,
    who may read ``/metrics`` and whether cookies are ``Secure`` follow from them."""
    return {"proxy_headers": True, "forwarded_allow_ips": settings.trusted_proxies}


if __name__ == "__main__":
    raise SystemExit(main())
