"""The `soclover` console command.

The room service is not built yet: for now the command says what it will
serve, so the README's first command already works on a fresh machine.
"""

from __future__ import annotations

import argparse


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and say what will be served."""
    parser = argparse.ArgumentParser(
        prog="soclover",
        description="So Clover! table: a self-hosted table for 3 to 6 players.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    args = parser.parse_args(argv)
    print(
        "So Clover! table: the rules engine and the deck are in place; the room "
        f"service that will serve the game at http://{args.host}:{args.port}/ "
        "is not built yet."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
