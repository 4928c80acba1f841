"""``soclover backup`` against a real server playing under load: everything acknowledged
before the backup began comes back when the backup is restored as the hosting guide says
(stop, put the file in place, start), and the tables play on."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..kit import POSTGRES, Player, Server, http, table, wait_for

pytestmark = pytest.mark.skipif(
    bool(POSTGRES), reason="an SQLite backup; pg_dump does PostgreSQL's"
)

ROOMS = 4
PLAYERS = 3


@dataclass(frozen=True)
class Acked:
    """A chat line the server answered 200 to: on disk, it says."""

    code: str
    seq: int
    line: int
    """The chat line's id in its room."""
    text: str
    sent: float
    answered: float


class Chatter(threading.Thread):
    """One player saying lines as fast as the server answers them, until told to stop."""

    def __init__(self, player: Player, stop: threading.Event) -> None:
        super().__init__(name=f"chatter {player.code}/{player.seat}")
        self.player, self.stop = player, stop
        self.acked: list[Acked] = []
        self.failures: list[str] = []

    def run(self) -> None:
        p = self.player
        with http.Client(timeout=20) as client:
            n = 0
            while not self.stop.is_set():
                text = f"{p.code} seat {p.seat} line {n}"
                sent = time.monotonic()
                r = client.post(
                    f"{p.base}/api/rooms/{p.code}/actions",
                    json={"type": "say", "text": text},
                    headers=p.headers,
                )
                answered = time.monotonic()
                if r.status_code != 200:
                    self.failures.append(f"{r.status_code} {r.text}")
                    return
                body = r.json()
                (said,) = body["state"]["chat"]  # an answer holds the lines it added
                assert said["text"] == text
                self.acked.append(Acked(p.code, body["seq"], said["id"], text, sent, answered))
                n += 1


def _soclover() -> list[str]:
    """The installed command, as a host runs it (the module, if the venv has no script)."""
    script = Path(sys.executable).parent / "soclover"
    return [str(script)] if script.exists() else [sys.executable, "-m", "app.cli"]


def test_a_backup_taken_under_load_restores_every_acknowledged_action(
    tmp_path: Path, make_server: Callable[..., Server]
) -> None:
    busy = {"SOCLOVER_CREATE_RATE_PER_MINUTE": "1000", "SOCLOVER_JOIN_RATE_PER_MINUTE": "1000"}
    server = make_server(**busy)
    database = Path(server.database_url.removeprefix("sqlite:///"))
    tables = [table(server.url, PLAYERS) for _ in range(ROOMS)]
    stop = threading.Event()
    chatters = [Chatter(p, stop) for players in tables for p in players]
    target = tmp_path / "backups" / "soclover-backup.sqlite3"
    target.parent.mkdir()

    def acked() -> list[Acked]:
        return [a for c in chatters for a in list(c.acked)]

    for chatter in chatters:
        chatter.start()
    try:
        wait_for(lambda: len(acked()), lambda n: n >= 100, what="100 lines said", timeout=30)
        began = time.monotonic()
        backed_up = subprocess.run(
            [*_soclover(), "backup", str(target)],
            cwd=tmp_path,
            env={**os.environ, "SOCLOVER_DATABASE_URL": server.database_url},
            capture_output=True,
            text=True,
            timeout=60,
        )
        ended = time.monotonic()
        # The tables played on after it, too.
        wait_for(
            lambda: sum(a.sent > ended for a in acked()),
            lambda n: n >= 20,
            what="lines said after the backup",
            timeout=30,
        )
    finally:
        stop.set()
        for chatter in chatters:
            chatter.join()
    assert [f for c in chatters for f in c.failures] == []
    assert backed_up.returncode == 0, backed_up.stderr
    assert backed_up.stderr == ""
    assert f"copied to {target}: {ROOMS} rooms" in backed_up.stdout, backed_up.stdout
    assert sorted(target.parent.iterdir()) == [target], "nothing left beside the copy"

    lines = acked()
    before = [a for a in lines if a.answered < began]
    during = [a for a in lines if began <= a.answered <= ended]
    after = [a for a in lines if a.answered > ended]
    print(
        f"acknowledged: {len(before)} before the backup, {len(during)} while it ran, "
        f"{len(after)} after"
    )
    assert len(before) >= 100 and len(during) > 0 and len(after) >= 20

    # Restore as docs/hosting.md says: stop the server, put the copy in place of the
    # database with no -wal or -shm left beside it, start the server.
    live_seq = {players[0].code: players[0].state()["seq"] for players in tables}
    server.stop()
    shutil.copyfile(target, database)
    for stale in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        stale.unlink(missing_ok=True)
    restored = make_server(**busy)

    restored_lines = copied_during = 0
    for players in tables:
        ada = players[0]
        for p in players:
            p.base = restored.url
        code = ada.code
        state = ada.state()
        mine = [a for a in before if a.code == code]
        assert max(a.seq for a in mine) <= state["seq"] <= live_seq[code]
        assert state["chat_after"] is None  # the room's whole recent chat
        chat = {line["id"]: line["text"] for line in state["chat"]}
        assert max(a.line for a in mine) <= max(chat), "a line acknowledged before is missing"
        copied_during += sum(a.code == code and a.seq <= state["seq"] for a in during)
        # A room keeps its last 200 lines: those said before the backup may have scrolled
        # out of it by the time the copy was taken; the log, read next, keeps them all.
        kept_from = min(chat)
        for a in mine:
            if a.line >= kept_from:
                assert chat.get(a.line) == a.text, f"{code}: line {a.line} lost"
                restored_lines += 1
        # Each acknowledged action is in the room's log with its very text, too.
        logged = _logged(database, code)
        for a in mine:
            assert logged.get(a.seq) == a.text, f"{code}: action {a.seq} lost"

        # and the table plays on: a line, then the game
        said = ada.act("say", text="still here after the restore")
        assert said["seq"] == state["seq"] + 1
        assert ada.act("start")["phase"] == "clues"
    assert copied_during > 0, "the copy holds nothing said while the command ran"
    print(
        f"restored: every one of the {len(before)} actions in the log, "
        f"{restored_lines} lines checked in the rooms' chat, and {copied_during} of the lines "
        "said while the command ran"
    )


def _logged(database: Path, code: str) -> dict[int, str]:
    """The chat actions of a room's log, read from the database file itself."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        rows = db.execute("SELECT seq, action FROM action WHERE room = ?", (code,)).fetchall()
    return {
        seq: action["text"]
        for seq, action in ((seq, json.loads(raw)) for seq, raw in rows)
        if action.get("type") == "say"
    }
