"""A client that goes away mid-request is no error of ours.

Phones lose their connection, and people close a tab while a draft is being
sent. The server then reads a body that never comes; that is an everyday event,
and must leave the room as it was and the log free of tracebacks (which would
hide the real errors a self-hoster looks for)."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from ..kit import Player, Server, drop_database, fresh_database, table, wait_for


def leave_mid_body(server: Server, path: str, headers: dict[str, str], body: bytes) -> None:
    """Send the head of a POST announcing more body than is sent, then hang up."""
    host = urlsplit(server.url).netloc
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(body) + 1000}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    head = ("\r\n".join(lines) + "\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
        conn.sendall(head + body)
        # The point of the test: the client goes while the server waits for the rest
        # of the body. Nothing the client can read says the server got that far.
        time.sleep(0.3)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """In a process of its own, since this test reads the server's log; one for both
    routes, each of which plays in a room of its own and finds the log clean."""
    folder = tmp_path_factory.mktemp("clients_that_leave")
    url = fresh_database(folder / "soclover.sqlite3")
    server = Server(url, folder / "server.log").start()
    try:
        yield server
    finally:
        server.stop()
        drop_database(url)


@pytest.mark.parametrize("route", ["form", "api"])
def test_a_client_gone_mid_body_leaves_the_room_and_the_log_clean(
    server: Server, route: str
) -> None:
    players = table(server.url, 3)
    bea: Player = players[1]
    players[0].act("start")
    before = bea.state()
    if route == "form":
        path = f"/r/{bea.code}/act"
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"soclover_{bea.code}={bea.token}",
            "Origin": server.url,
            "HX-Request": "true",
        }
        body = b"type=clues&clue0=Qza&clue1="
    else:
        path = f"/api/rooms/{bea.code}/actions"
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {bea.token}"}
        body = b'{"type": "clues", "clues": ["Qza"'
    for _ in range(3):
        leave_mid_body(server, path, headers, body)
    # the server is still there, and answered each in its own time
    wait_for(lambda: bea.state()["seq"], lambda seq: seq == before["seq"], what="same seq")
    after = bea.state()
    assert after["clover"] == before["clover"]
    # A traceback would be written as the server gives up on each hung-up request, which
    # no state shows: the only wait for what is not written is a fixed one.
    time.sleep(0.5)
    log = server.log.read_text()
    assert "Traceback" not in log and "unexpected error" not in log, log[-3000:]
