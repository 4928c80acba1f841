"""Rooms and actions to plain JSON data and back, for storage.

This is the full state, secrets included: it goes to the database, never to a
client (clients get ``views.view``). Kept apart from the dataclasses so the
storage format is written down in one place.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any

from app.rules import actions as act
from app.rules.state import (
    Card,
    ChatLine,
    Clover,
    Player,
    Rejected,
    Resolution,
    Result,
    Room,
    Slot,
)

Data = dict[str, Any]


def room_to_data(room: Room) -> Data:
    data = asdict(room)
    if room.resolution is not None:
        data["resolution"]["agreed"] = sorted(room.resolution.agreed)
    return data


def room_from_data(data: Data) -> Room:
    res = data.get("resolution")
    return Room(
        code=data["code"],
        players=tuple(Player(**p) for p in data["players"]),
        host=data["host"],
        decoys=data["decoys"],
        phase=data["phase"],
        seq=data["seq"],
        next_pid=data["next_pid"],
        first_spectator=data["first_spectator"],
        clovers=tuple(_clover(c) for c in data["clovers"]),
        resolution=None if res is None else _resolution(res),
        results=tuple(Result(**r) for r in data["results"]),
        chat=tuple(ChatLine(**c) for c in data["chat"]),
    )


def _card(data: Data) -> Card:
    return Card(id=data["id"], words=tuple(data["words"]))  # type: ignore[arg-type]


def _clover(data: Data) -> Clover:
    return Clover(
        owner=data["owner"],
        cards=tuple(_card(c) for c in data["cards"]),
        rotations=tuple(data["rotations"]),
        decoys=tuple(_card(c) for c in data["decoys"]),
        pool_order=tuple(data["pool_order"]),
        clues=tuple(data["clues"]),
        warnings=tuple(data["warnings"]),
        done=data["done"],
    )


def _resolution(data: Data) -> Resolution:
    return Resolution(
        turn=data["turn"],
        attempt=data["attempt"],
        board=tuple(None if s is None else Slot(**s) for s in data["board"]),
        agreed=frozenset(data["agreed"]),
        checked=data["checked"],
        rejected=tuple(Rejected(**r) for r in data["rejected"]),
    )


ACTION_TYPES: dict[str, type] = {
    "join": act.Join,
    "leave": act.Leave,
    "kick": act.Kick,
    "settings": act.Settings,
    "start": act.Start,
    "clues": act.Clues,
    "done": act.Done,
    "undone": act.Undone,
    "place": act.Place,
    "remove": act.Remove,
    "rotate": act.Rotate,
    "agree": act.Agree,
    "unagree": act.Unagree,
    "lock": act.Lock,
    "next": act.Next,
    "say": act.Say,
    "again": act.Again,
    "presence": act.Presence,
}
ACTION_NAMES: dict[type, str] = {cls: name for name, cls in ACTION_TYPES.items()}


def action_to_data(action: act.Action) -> Data:
    data: Data = {"type": ACTION_NAMES[type(action)]}
    for f in fields(action):
        value = getattr(action, f.name)
        if isinstance(value, frozenset):
            value = sorted(value)
        elif isinstance(value, tuple):
            value = list(value)
        data[f.name] = value
    return data


def action_from_data(data: Data) -> act.Action:
    """The action stored as ``data``; ``KeyError``/``TypeError`` if it is not one."""
    cls = ACTION_TYPES[data["type"]]
    values = {k: v for k, v in data.items() if k != "type"}
    if cls is act.Clues:
        values["clues"] = tuple(values["clues"])
    elif cls is act.Presence:
        values["present"] = frozenset(values["present"])
    return cls(**values)  # type: ignore[no-any-return]
