"""The Record of Legends as its operator keeps it: ``soclover legends`` lists every game
with its id and room, hides one from every list the table shows, and shows it again,
beside the running server."""

from __future__ import annotations

import os
import subprocess
import sys

from ..kit import ROOT, Server, http, start_and_write_clues, table
from .test_games import play_perfect_by_agreement


def soclover(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, on the running server's database."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env={**os.environ, "SOCLOVER_DATABASE_URL": server.database_url},
        capture_output=True,
        text=True,
        timeout=60,
    )


def public_names(api: str) -> list[list[str]]:
    legends = http.get(f"{api}/api/legends", params={"players": 3}, timeout=10).json()
    return [g["players"] for g in legends["legends"]]


def test_an_operator_hides_a_legend_from_every_list_and_shows_it_again(server: Server) -> None:
    api = server.url
    players = table(api, 3)
    start_and_write_clues(players)
    for _ in players:
        state = play_perfect_by_agreement(players)
        players[state["resolution"]["spectator"]].act("next")
    names = [p.name for p in players]
    assert public_names(api) == [names]

    listed = soclover(server, "legends")
    assert listed.returncode == 0, listed.stderr
    (line,) = listed.stdout.splitlines()
    legend_id = line.split()[0]
    assert players[0].code in line and "18/18" in line and ", ".join(names) in line

    hidden = soclover(server, "legends", "hide", legend_id)
    assert hidden.returncode == 0, hidden.stderr
    assert public_names(api) == []
    home = http.get(f"{api}/", timeout=10).text
    assert names[1] not in home
    assert "[hidden]" in soclover(server, "legends").stdout
    assert legend_id in soclover(server, "legends", "--hidden").stdout

    shown = soclover(server, "legends", "show", legend_id)
    assert shown.returncode == 0, shown.stderr
    assert public_names(api) == [names]


def test_the_legends_command_says_what_it_could_not_do(server: Server) -> None:
    missing = soclover(server, "legends", "hide", "99999")
    assert missing.returncode == 1 and "no entry 99999" in missing.stderr
    assert soclover(server, "legends", "hide").returncode == 2
    assert soclover(server, "legends", "list", "3").returncode == 2
    assert soclover(server, "legends", "burn", "3").returncode == 2
