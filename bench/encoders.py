"""What encoding the room's view costs, by encoder: one 5-player view of a game in
progress (a guesser's, in the resolution of the third clover: two results, three
watchers, 30 chat lines, two cards on the board, the service's `best`), encoded
``--number`` times a run, ``--repeat`` runs, by

- orjson (``app.jsontext.to_bytes``: what the actions' answers and the events use);
- pydantic-core, typed: the model ``/openapi.json`` derives from the declared shape
  (``app.web.state_schema.RoomState``), dumped once built (``model_dump_json``), and
  with its building from the view (``model_validate``) counted too, since the views are
  dictionaries (pydantic takes a ``TypedDict`` of ``typing`` only from Python 3.12);
- pydantic-core, untyped: ``pydantic_core.to_json``;
- the standard library: ``json.dumps`` as Starlette's ``JSONResponse`` writes it.

Each encoder's bytes are checked to be the same first. Printed: the median and the
spread (min-max) of the runs, in microseconds a view, and the view's size.

    .venv/bin/python -m bench.encoders [--number 2000] [--repeat 15]
"""

from __future__ import annotations

import argparse
import json
import statistics
import timeit
from collections.abc import Callable
from typing import Any

import orjson
import pydantic_core

from app.jsontext import to_bytes
from app.rules import actions as act
from app.rules.engine import apply
from app.rules.state import Room
from app.rules.views import view
from app.web.state_schema import RoomState
from tests.rules.support import CLUES, guessers, started, truth

NAMES = ("Gus", "Hal", "Ivy")


def room_in_progress() -> Room:
    """Five players in the resolution of their third clover, watched and chatted over."""
    room = started(5)
    for name in NAMES:
        room = apply(room, None, act.Watch(name))
    for seat in range(5):
        room = apply(room, seat, act.Clues(CLUES))
        room = apply(room, seat, act.Done())
    for _ in range(2):
        holder = room.lock_holder()
        assert holder is not None
        for spot, card, rotation in truth(room):
            room = apply(room, holder, act.Place(card=card, spot=spot, rotation=rotation))
        room = apply(room, holder, act.Lock())
        room = apply(room, guessers(room)[0], act.Next())
    for line in range(30):
        seat = guessers(room)[line % 3]
        room = apply(room, seat, act.Say(f"Line {line}: the third card must be the one with Sq"))
    holder = room.lock_holder()
    assert holder is not None
    for spot, card, rotation in truth(room)[:2]:
        room = apply(room, holder, act.Place(card=card, spot=spot, rotation=rotation))
    return room


def served_view() -> dict[str, Any]:
    room = room_in_progress()
    best = {
        "id": 7,
        "room": room.code,
        "finished_at": "2026-12-01T09:30:00.000Z",
        "players": ["Ada", "Bea", "Cy", "Dot", "Eve"],
        "player_count": 5,
        "decoys": 1,
        "score": 26,
        "max": 30,
        "language": "en",
    }
    seat = guessers(room)[1]
    extra = {"best": best, "record": False, "legends": None, "history": None}
    return {**view(room, seat), **extra}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    state = served_view()
    model = RoomState.model_validate(state)
    serializer = RoomState.__pydantic_serializer__
    encoders: dict[str, Callable[[], bytes]] = {
        "orjson": lambda: orjson.dumps(state),
        "jsontext.to_bytes": lambda: to_bytes(state),
        "pydantic model, dumped": lambda: serializer.to_json(model),
        "pydantic model, built+dumped": lambda: serializer.to_json(RoomState.model_validate(state)),
        "pydantic-core, untyped": lambda: pydantic_core.to_json(state),
        "json (JSONResponse)": lambda: json.dumps(
            state, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")
        ).encode(),
    }
    expected = orjson.dumps(state)
    for name, encode in encoders.items():
        assert encode() == expected, name
    print(f"one view: {len(expected)} bytes; us a view, median (min-max) of {args.repeat} runs")
    for name, encode in encoders.items():
        runs = timeit.repeat(encode, number=args.number, repeat=args.repeat)
        each = [run / args.number * 1e6 for run in runs]
        print(f"{name:30} {statistics.median(each):7.2f} ({min(each):.2f}-{max(each):.2f})")


if __name__ == "__main__":
    main()
