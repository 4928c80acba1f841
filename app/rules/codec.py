"""Rooms and actions to plain JSON data and back, for storage.

This is the full state, secrets included: it goes to the database, never to a
client (clients get ``views.view``). Kept apart from the dataclasses so the
storage format is written down in one place.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any

from app.rules import actions as act
from app.rules.geometry import words_of
from app.rules.state import (
    Barred,
    Card,
    ChatLine,
    Claim,
    Clover,
    Countdown,
    Player,
    Rejected,
    Resolution,
    Result,
    Room,
    SentAway,
    Slot,
    Timer,
    Watcher,
)

Data = dict[str, Any]


def room_to_data(room: Room) -> Data:
    """Written out field by field: ``dataclasses.asdict`` deep-copies and is ~10x slower,
    and this runs on every accepted action."""
    res = room.resolution
    return {
        "code": room.code,
        "players": [
            {
                "pid": p.pid,
                "name": p.name,
                "present": p.present,
                "out": p.out,
                "device": p.device,
                "moved_from": list(p.moved_from),
                "bot": p.bot,
                "stand_in": p.stand_in,
            }
            for p in room.players
        ],
        "host": room.host,
        "decoys": room.decoys,
        "phase": room.phase,
        "seq": room.seq,
        "next_pid": room.next_pid,
        "first_spectator": room.first_spectator,
        "clovers": [_clover_data(c) for c in room.clovers],
        "resolution": None if res is None else _resolution_data(res),
        "results": [
            {"spectator": r.spectator, "attempts": r.attempts, "score": r.score}
            for r in room.results
        ],
        "chat": [_line_data(c) for c in room.chat],
        "watchers": [
            {
                "pid": w.pid,
                "name": w.name,
                "present": w.present,
                "device": w.device,
                "held": w.held,
            }
            for w in room.watchers
        ],
        "watchers_chat": room.watchers_chat,
        "held_chat": [_line_data(c) for c in room.held_chat],
        "sent_away": [{"pid": s.pid, "until": s.until} for s in room.sent_away],
        "claims": [
            {
                "id": c.id,
                "pid": c.pid,
                "at": c.at,
                "asked": c.asked,
                "kind": c.kind,
                "address": c.address,
                "back": c.back,
                "was": c.was,
                "allowed_by": sorted(c.allowed_by),
            }
            for c in room.claims
        ],
        "barred": [{"address": b.address, "until": b.until} for b in room.barred],
        "claims_by": room.claims_by,
        "language": room.language,
        "clue_timer": _timer_data(room.clue_timer),
        "rebuild_timer": _timer_data(room.rebuild_timer),
        "countdown": None if room.countdown is None else _countdown_data(room.countdown),
        "paused": room.paused,
        "practice": room.practice,
    }


def _timer_data(timer: Timer) -> Data:
    return {"mode": timer.mode, "minutes": timer.minutes}


def _countdown_data(clock: Countdown) -> Data:
    return {
        "kind": clock.kind,
        "mode": clock.mode,
        "length": clock.length,
        "ends": clock.ends,
        "left": clock.left,
    }


def _line_data(line: ChatLine) -> Data:
    return {
        "id": line.id,
        "pid": line.pid,
        "text": line.text,
        "at": line.at,
        "name": line.name,
        "watcher": line.watcher,
        "held": line.held,
        "ms": line.ms,
    }


def _card_data(card: Card) -> Data:
    return {"id": card.id, "words": list(card.words)}


def _clover_data(clover: Clover) -> Data:
    return {
        "owner": clover.owner,
        "cards": [_card_data(c) for c in clover.cards],
        "rotations": list(clover.rotations),
        "decoys": [_card_data(c) for c in clover.decoys],
        "pool_order": list(clover.pool_order),
        "clues": list(clover.clues),
        "warnings": list(clover.warnings),
        "done": clover.done,
        "dropped": clover.dropped,
        "device": clover.device,
    }


def _resolution_data(res: Resolution) -> Data:
    return {
        "turn": res.turn,
        "attempt": res.attempt,
        "board": [
            None
            if slot is None
            else {"card": slot.card, "rotation": slot.rotation, "locked": slot.locked}
            for slot in res.board
        ],
        "agreed": sorted(res.agreed),
        "checked": res.checked,
        "rejected": [
            {"spot": r.spot, "card": r.card, "rotation": r.rotation} for r in res.rejected
        ],
    }


def room_from_data(data: Data) -> Room:
    res = data.get("resolution")
    return Room(
        code=data["code"],
        players=tuple(_player(p) for p in data["players"]),
        host=data["host"],
        decoys=data["decoys"],
        phase=data["phase"],
        seq=data["seq"],
        next_pid=data["next_pid"],
        first_spectator=data["first_spectator"],
        clovers=tuple(_clover(c) for c in data["clovers"]),
        resolution=None if res is None else _resolution(res),
        results=tuple(Result(**r) for r in data["results"]),
        chat=_chat(data["chat"], data["players"]),
        watchers=tuple(Watcher(**w) for w in data.get("watchers", ())),
        watchers_chat=data.get("watchers_chat", True),
        held_chat=tuple(ChatLine(**line) for line in data.get("held_chat", ())),
        sent_away=tuple(SentAway(**s) for s in data.get("sent_away", ())),
        # Claims saved before they ran out lack the newer fields: their defaults.
        claims=tuple(_claim(c) for c in data.get("claims", ())),
        barred=tuple(Barred(**b) for b in data.get("barred", ())),
        claims_by=data.get("claims_by", "anyone"),
        language=data.get("language", "en"),
        # Rooms saved before the table had a clock play without one.
        clue_timer=Timer(**data["clue_timer"]) if "clue_timer" in data else Room.clue_timer,
        rebuild_timer=(
            Timer(**data["rebuild_timer"]) if "rebuild_timer" in data else Room.rebuild_timer
        ),
        countdown=None if data.get("countdown") is None else Countdown(**data["countdown"]),
        paused=data.get("paused", False),
        practice=data.get("practice", False),
    )


def _player(data: Data) -> Player:
    """A player; one saved before seats kept where they moved from has moved, if at all,
    from the device that took it: that one may ask for it back."""
    moved_from = data.get("moved_from", [""] if data.get("device") else [])
    return Player(**{**data, "moved_from": tuple(moved_from)})


def _claim(data: Data) -> Claim:
    return Claim(**{**data, "allowed_by": frozenset(data.get("allowed_by", ()))})


def _chat(lines: list[Data], players: list[Data]) -> tuple[ChatLine, ...]:
    """Chat lines; lines stored before they had ids and pids get them here.

    Those older lines named their author by seat at the time: the player in
    that seat now is the best guess left, and the name kept with the line is
    what the table is shown anyway.
    """
    chat = []
    for number, line in enumerate(lines, start=1):
        if "pid" in line:
            chat.append(ChatLine(**line))
            continue
        seat = line.get("seat", -1)
        pid = players[seat]["pid"] if 0 <= seat < len(players) else -1
        chat.append(
            ChatLine(
                id=number, pid=pid, text=line["text"], at=line["at"], name=line.get("name", "")
            )
        )
    return tuple(chat)


def _card(data: Data) -> Card:
    return Card(id=data["id"], words=words_of(data["words"]))


def _clover(data: Data) -> Clover:
    return Clover(
        owner=data["owner"],
        cards=tuple(_card(c) for c in data["cards"]),
        rotations=tuple(data["rotations"]),
        decoys=tuple(_card(c) for c in data["decoys"]),
        pool_order=tuple(data["pool_order"]),
        clues=tuple(data["clues"]),
        warnings=tuple(_warned_keyword(w) for w in data["warnings"]),
        done=data["done"],
        dropped=data.get("dropped", False),
        device=data.get("device"),
    )


_QUOTED = re.compile(r'"(.+?)"|« (.+?) »')


def _warned_keyword(saved: str | None) -> str | None:
    """The keyword a saved clue resembles. Rooms saved before the warnings were
    translated kept the English (or French) message, which names it in quotes."""
    if saved is None or not ('"' in saved or "«" in saved):
        return saved
    found = _QUOTED.search(saved)
    return next(g for g in found.groups() if g) if found else None


def _resolution(data: Data) -> Resolution:
    return Resolution(
        turn=data["turn"],
        attempt=data["attempt"],
        board=tuple(None if s is None else Slot(**s) for s in data["board"]),
        agreed=frozenset(data["agreed"]),
        checked=data["checked"],
        rejected=tuple(Rejected(**r) for r in data["rejected"]),
    )


def action_to_data(action: act.Action) -> Data:
    data: Data = {"type": action.type}
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
    cls = act.BY_TYPE[data["type"]]
    values = {k: v for k, v in data.items() if k != "type"}
    if cls is act.Clues:
        values["clues"] = tuple(values["clues"])
    elif cls is act.Presence:
        values["present"] = frozenset(values["present"])
        values["watchers"] = frozenset(values.get("watchers", ()))
    return cls(**values)
