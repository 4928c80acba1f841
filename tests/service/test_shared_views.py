"""A change told to a room's streams: one common part of the view for every seat that
knows the same, each seat's own part beside it, and the same event as a whole view."""

from __future__ import annotations

import json

from sse_starlette import ServerSentEvent

from app.jsontext import to_text
from app.rules import actions as act
from app.rules.engine import apply
from app.rules.state import Room
from app.rules.views import SEATED, WATCHER, Audience, View, Viewer, common, own, view
from app.service.following import Update
from app.service.hub import Change
from app.web import events
from app.web.renderings import Renderings

from ..rules.support import guessers, resolving, started
from .support import run_async


class Counted:
    """The service's views, built by the pure ones, counting what is built."""

    def __init__(self) -> None:
        self.commons: list[Audience] = []

    async def room_view(self, room: Room, seat: Viewer, chat_after: int | None = None) -> View:
        return view(room, seat, chat_after=chat_after)

    async def common_view(
        self, room: Room, shared_by: Audience, chat_after: int | None = None
    ) -> View:
        self.commons.append(shared_by)
        return common(room, shared_by, chat_after=chat_after)

    def own_view(self, room: Room, seat: Viewer) -> View:
        return own(room, seat)


def told(
    room: Room, action: dict | None, viewers: list[Viewer], chat_after: int | None
) -> tuple[list[bytes], Counted]:
    views = Counted()
    change = Change(room.seq, room, action, chat_after)

    kept = Renderings()

    async def encode() -> list[bytes]:
        return [await events._encoded(Update(change, v, views), kept) for v in viewers]

    return run_async(encode()), views


def test_guessers_share_one_common_part_and_each_gets_their_whole_view():
    before = resolving(5)
    room = apply(before, 1, act.Say("hello"))
    chat_after = before.last_chat_id()
    seats: list[Viewer] = list(range(5))
    viewers = [*seats, WATCHER, None, 2]
    action = {"type": "say", "seat": 1, "player": room.players[1].pid, "name": "Bea"}
    encoded, views = told(room, action, viewers, chat_after)
    # one common part for the Spectator, one for the four guessers, one for onlookers
    assert sorted(map(str, views.commons)) == sorted(map(str, [room.spectator(), SEATED, None]))
    for viewer, event in zip(viewers, encoded, strict=True):
        state = view(room, viewer, chat_after=chat_after)
        assert [line["text"] for line in state["chat"]] == ["hello"]
        whole = {"seq": room.seq, "action": action, "state": state}
        data = event.split(b"data: ", 1)[1].removesuffix(b"\r\n\r\n")
        assert json.loads(data) == json.loads(to_text(whole))
        # framed as sse-starlette frames it
        framed = ServerSentEvent(data=data.decode(), event="state", id=str(room.seq))
        assert event == framed.encode()
    assert encoded[2] is encoded[-1]  # a seat's second stream: the same bytes
    spectator = room.spectator()
    assert b'"solution":null' not in encoded[spectator]
    assert all(b'"solution":null' in encoded[s] for s in guessers(room))


def test_in_the_clue_phase_every_seat_has_a_common_part_of_its_own():
    room = started(4)
    encoded, views = told(room, None, [0, 1, 2, 3, 0], None)
    assert views.commons == [0, 1, 2, 3]
    for seat in range(4):
        data = json.loads(encoded[seat].split(b"data: ", 1)[1])
        whole = {"seq": room.seq, "action": None, "state": view(room, seat)}
        assert data == json.loads(to_text(whole))
