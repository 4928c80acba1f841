"""The Record of Legends as its operator keeps it: ``soclover legends`` lists every game
with its id and room, hides one from every list the table shows, and shows it again,
beside the running server."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app import cli
from app.config import get_settings

from ..kit import ROOT, Server, http, start_and_write_clues, table
from .test_games import play_perfect_by_agreement


def soclover(server: Server, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command, in a process of its own, on the running server's database."""
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env={**os.environ, "SOCLOVER_DATABASE_URL": server.database_url},
        capture_output=True,
        text=True,
        timeout=60,
    )


class Command:
    """``soclover`` as its console script runs it (its exit status is what ``main`` returns,
    or argparse's), in this process, on the running server's database: what it prints and
    the status it exits with are the command's own, without a second of Python's start
    each time. The one real process (``soclover`` above) is the listing."""

    def __init__(
        self, server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        self.capsys = capsys
        monkeypatch.setenv("SOCLOVER_DATABASE_URL", server.database_url)

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        self.capsys.readouterr()
        get_settings.cache_clear()
        try:
            code = cli.main(list(args))
        except SystemExit as refused:  # how argparse refuses a command line
            code = refused.code if isinstance(refused.code, int) else 2
        finally:
            get_settings.cache_clear()
        out, err = self.capsys.readouterr()
        return subprocess.CompletedProcess(["soclover", *args], code, out, err)


@pytest.fixture
def command(
    server: Server, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    return Command(server, monkeypatch, capsys)


def public_names(api: str) -> list[list[str]]:
    legends = http.get(f"{api}/api/legends", params={"players": 3}, timeout=10).json()
    return [g["players"] for g in legends["legends"]]


def test_an_operator_hides_a_legend_from_every_list_and_shows_it_again(
    server: Server, command: Command
) -> None:
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

    hidden = command("legends", "hide", legend_id)
    assert hidden.returncode == 0, hidden.stderr
    assert public_names(api) == []
    home = http.get(f"{api}/", timeout=10).text
    assert names[1] not in home
    assert "[hidden]" in command("legends").stdout
    assert legend_id in command("legends", "--hidden").stdout

    shown = command("legends", "show", legend_id)
    assert shown.returncode == 0, shown.stderr
    assert public_names(api) == [names]


def test_the_legends_command_says_what_it_could_not_do(command: Command) -> None:
    missing = command("legends", "hide", "99999")
    assert missing.returncode == 1 and "no entry 99999" in missing.stderr
    assert command("legends", "hide").returncode == 2
    assert command("legends", "list", "3").returncode == 2
    assert command("legends", "burn", "3").returncode == 2
