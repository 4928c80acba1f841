"""The room's view is declared once, where it is made (app/rules/view_types.py, and what
the service adds in app/service/room_state.py and app/service/hub.py): the API's
document is derived from those declarations, so every declared key is described in
/openapi.json with no second edit, and the views the rules make of a whole game read
through the derived models.

No ``from __future__ import annotations``: a ``TypedDict`` declared here reads
``NotRequired`` from annotations that are not strings only.
"""

import typing
from collections.abc import Iterator
from typing import Annotated, Any, NotRequired

from app.jsontext import to_bytes
from app.rules import actions as act
from app.rules import view_types as declared
from app.rules.allowed import allowed
from app.rules.engine import apply
from app.rules.history import GameRecord, follow
from app.rules.state import Room
from app.rules.view_types import OneOf
from app.rules.views import WATCHER, history_view, view
from app.service import room_state as served
from app.service.hub import EventAction
from app.web import state_schema as schema

from ..kit import http
from ..rules.support import CLUES, guessers, started, truth, wrong_rotation


def reachable(*roots: type) -> dict[str, type]:
    """Every ``TypedDict`` the roots hold, at any depth, by name."""
    found: dict[str, type] = {}

    def walk(hint: Any) -> None:
        if typing.is_typeddict(hint):
            if hint.__name__ not in found:
                found[hint.__name__] = hint
                for inner in typing.get_type_hints(hint, include_extras=True).values():
                    walk(inner)
            return
        for arg in typing.get_args(hint):
            walk(arg)

    for root in roots:
        walk(root)
    return found


def description(hint: Any) -> str:
    if typing.get_origin(hint) is NotRequired:
        hint = typing.get_args(hint)[0]
    return next(m for m in hint.__metadata__ if isinstance(m, str))


def test_every_declared_key_is_described_in_the_document(api: str) -> None:
    components = http.get(f"{api}/openapi.json").json()["components"]["schemas"]
    declarations = reachable(served.RoomState, declared.HistoryOut, served.LegendsOut)
    assert {"RoomState", "Can", "ResolutionOut", "HistoryClover", "Legend"} <= set(declarations)
    for name, declaration in declarations.items():
        component = components[name]
        hints = typing.get_type_hints(declaration, include_extras=True)
        # every key, in the declaration's order, required where it always is
        assert list(component["properties"]) == list(hints), name
        assert set(component.get("required", ())) == declaration.__required_keys__, name
        for key, hint in hints.items():
            assert component["properties"][key]["description"] == description(hint), (name, key)
    # who did what, in the stream's events: written out in place
    stream = http.get(f"{api}/openapi.json").json()["paths"]["/api/rooms/{code}/events"]
    text = str(stream)
    for key, hint in typing.get_type_hints(EventAction, include_extras=True).items():
        assert f"'{key}'" in text and description(hint) in text, key


def test_a_key_declared_is_described_with_no_second_edit() -> None:
    class MoodyPlayer(declared.PlayerOut):
        mood: Annotated[str, OneOf(("calm", "keen")), "How the player feels"]
        nickname: NotRequired[Annotated[str, "Only at times, never null"]]

    model = schema.model_of(MoodyPlayer)
    document = model.model_json_schema()
    properties = document["properties"]
    assert list(properties) == [*declared.PlayerOut.__annotations__, "mood", "nickname"]
    assert properties["mood"]["description"] == "How the player feels"
    assert properties["mood"]["enum"] == ["calm", "keen"]
    assert properties["nickname"] == {
        "description": "Only at times, never null",
        "title": "Nickname",
        "type": "string",
    }
    assert "mood" in document["required"] and "nickname" not in document["required"]
    assert document["additionalProperties"] is False


def test_the_closed_sets_and_can_keys_are_declared_once() -> None:
    assert typing.get_args(schema.ActionType) == tuple(sorted(act.BY_TYPE))
    room = started(5)
    for viewer in (0, 1, None):
        can = allowed(room, viewer, watching=False)
        assert list(can) == list(declared.Can.__annotations__)
    assert list(allowed(room, None, watching=True)) == list(declared.Can.__annotations__)
    assert list(schema.MODELS["Can"].model_fields) == list(declared.Can.__annotations__)


# --- a whole game, as the rules make it -------------------------------------------------


def game() -> Iterator[tuple[Room, GameRecord]]:
    """Every state of a five-player game with a watcher, a chat and every kind of try,
    and the game's record at each."""
    room = started(5)
    room = apply(room, None, act.Watch("Gus"))
    record = follow(GameRecord(room.code, room.seq), room, room)

    def step(seat: int | None, action: act.Action) -> Iterator[tuple[Room, GameRecord]]:
        nonlocal room, record
        after = apply(room, seat, action)
        record = follow(record, room, after)
        room = after
        yield room, record

    yield room, record
    yield from step(0, act.Say("Hello"))
    yield from step(0, act.Clues(("Alpha", None, None, None), draft=True))
    for seat in range(5):
        yield from step(seat, act.Clues(CLUES))
        yield from step(seat, act.Done())
    turn = 0
    while room.phase == "resolution":
        holder = room.lock_holder()
        assert holder is not None
        first = 4 if turn % 2 else 1
        for spot, card, rotation in truth(room):
            yield from step(
                holder,
                act.Place(
                    card=card,
                    spot=spot,
                    rotation=rotation if spot < first else wrong_rotation(rotation),
                ),
            )
        for seat in guessers(room)[1:]:  # all agreeing would check it: the holder locks in
            yield from step(seat, act.Agree())
        yield from step(holder, act.Lock())
        res = room.resolution
        if res is not None and not res.checked:
            for spot, card, rotation in truth(room):
                if res.board[spot] is None:
                    yield from step(holder, act.Place(card=card, spot=spot, rotation=rotation))
            yield from step(holder, act.Lock())
        yield from step(guessers(room)[0], act.Next())
        turn += 1
    assert room.phase == "finished"


def test_the_views_of_a_whole_game_read_through_the_derived_models() -> None:
    states = histories = 0
    phases = set()
    for room, record in game():
        phases.add(room.phase)
        for viewer in (*range(len(room.players)), WATCHER, None):
            seen = view(room, viewer)
            whole = {**seen, "best": None, "record": False, "legends": None, "history": None}
            read = schema.RoomState.model_validate(whole, strict=True)
            assert read.model_dump(mode="json", exclude_unset=True) == whole
            states += 1
        history = history_view(record.settled())
        # served through its model: the very bytes the rules' view encodes to
        read_history = schema.HistoryOut.model_validate(history, strict=True)
        assert read_history.model_dump_json().encode() == to_bytes(history)
        histories += 1
    assert phases == {"clues", "resolution", "finished"}
    assert states > 400 and histories > 60
    assert len(history["clovers"]) == 5 and {len(c["tries"]) for c in history["clovers"]} == {1, 2}
