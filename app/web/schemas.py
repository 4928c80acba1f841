"""What clients send, parsed and bounded at the edge.

Raw input becomes one of a closed set of typed requests here; anything else
is a 4xx before it reaches the service. Bounds are loose where the rules
engine gives a better, named refusal (a spot of 7 is ``bad_spot``) and tight
where only size matters (no string or list can be large).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from app.rules import actions as act
from app.service.codes import new_seed

Name = Annotated[StrictStr, Field(max_length=100, description="1 to 24 characters once trimmed")]
CardId = Annotated[StrictStr, Field(max_length=64)]
Number = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoom(Strict):
    name: Name
    decoys: Number = Field(default=1, description="1 to 4 extra cards per clover; 1 is standard")


class JoinRoom(Strict):
    name: Name


class SeatOut(BaseModel):
    code: str
    token: str
    seat: int


class _Action(Strict):
    seq: Number | None = Field(
        default=None,
        description="Optional: the seq you last saw. If the room has moved on, the action "
        "is refused with 409 `stale` instead of being applied to a board you have not seen.",
    )


class SettingsIn(_Action):
    type: Literal["settings"]
    decoys: Number


class StartIn(_Action):
    type: Literal["start"]


class CluesIn(_Action):
    type: Literal["clues"]
    clues: Annotated[
        list[Annotated[StrictStr, Field(max_length=200)] | None],
        Field(min_length=4, max_length=4, description="four clues in leaf order; null: not yet"),
    ]


class DoneIn(_Action):
    type: Literal["done"]


class UndoneIn(_Action):
    type: Literal["undone"]


class PlaceIn(_Action):
    type: Literal["place"]
    card: CardId
    spot: Number
    rotation: Number = 0


class RemoveIn(_Action):
    type: Literal["remove"]
    spot: Number


class RotateIn(_Action):
    type: Literal["rotate"]
    spot: Number
    turns: Number = Field(description="1 clockwise, -1 anticlockwise")


class AgreeIn(_Action):
    type: Literal["agree"]


class UnagreeIn(_Action):
    type: Literal["unagree"]


class LockIn(_Action):
    type: Literal["lock"]


class NextIn(_Action):
    type: Literal["next"]


class SayIn(_Action):
    type: Literal["say"]
    text: Annotated[StrictStr, Field(max_length=2000, description="1 to 300 characters")]


class LeaveIn(_Action):
    type: Literal["leave"]


class KickIn(_Action):
    type: Literal["kick"]
    seat: Number


class AgainIn(_Action):
    type: Literal["again"]


ActionIn = Annotated[
    SettingsIn
    | StartIn
    | CluesIn
    | DoneIn
    | UndoneIn
    | PlaceIn
    | RemoveIn
    | RotateIn
    | AgreeIn
    | UnagreeIn
    | LockIn
    | NextIn
    | SayIn
    | LeaveIn
    | KickIn
    | AgainIn,
    Field(discriminator="type"),
]


def to_action(body: Any, now: str) -> act.Action:
    """The engine action for a parsed request; the server adds the deal's seed and the time."""
    match body:
        case SettingsIn(decoys=decoys):
            return act.Settings(decoys)
        case StartIn():
            return act.Start(new_seed())
        case CluesIn(clues=clues):
            return act.Clues(tuple(clues))
        case DoneIn():
            return act.Done()
        case UndoneIn():
            return act.Undone()
        case PlaceIn(card=card, spot=spot, rotation=rotation):
            return act.Place(card, spot, rotation)
        case RemoveIn(spot=spot):
            return act.Remove(spot)
        case RotateIn(spot=spot, turns=turns):
            return act.Rotate(spot, turns)
        case AgreeIn():
            return act.Agree()
        case UnagreeIn():
            return act.Unagree()
        case LockIn():
            return act.Lock()
        case NextIn():
            return act.Next()
        case SayIn(text=text):
            return act.Say(text, now)
        case LeaveIn():
            return act.Leave()
        case KickIn(seat=seat):
            return act.Kick(seat)
        case AgainIn():
            return act.Again()
    raise TypeError(f"not an action: {body!r}")


class ActionOut(BaseModel):
    seq: int
    state: dict[str, Any]


class Legend(BaseModel):
    id: int
    room: str | None = Field(
        default=None, description="Only in a room's own legends, asked for by one of its players"
    )
    finished_at: str
    players: list[str]
    player_count: int
    decoys: int
    score: int
    max: int


class LegendsOut(BaseModel):
    legends: list[Legend]
