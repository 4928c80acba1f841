"""What clients send, parsed and bounded at the edge.

Raw input becomes one of a closed set of typed requests here; anything else
is a 4xx before it reaches the service. The action requests are derived from
the action classes themselves (``app/rules/actions.py``), so an action is
declared once: a field's type and its ``max_length`` come from there. Bounds
are loose where the rules engine gives a better, named refusal (a spot of 7
is ``bad_spot``, a chat line of 400 characters ``bad_text``) and tight where
only size matters (no string or list can be large).
"""

from __future__ import annotations

import dataclasses
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    create_model,
)

from app.rules import actions as act
from app.web.state_schema import ActionOut as ActionOut
from app.web.state_schema import HistoryOut as HistoryOut
from app.web.state_schema import LegendsOut as LegendsOut

Name = Annotated[StrictStr, Field(max_length=100, description="1 to 24 characters once trimmed")]
Number = Annotated[StrictInt, Field(ge=-1_000_000, le=1_000_000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CreateRoom(Strict):
    name: Name
    decoys: Number = Field(default=1, description="1 to 4 extra cards per clover; 1 is standard")
    language: Literal["en", "fr", "zh"] | None = Field(
        default=None,
        description="The room's language: its deck and its clue rules; by default the "
        "creator's interface language (Accept-Language), else English",
    )


class PracticeRoom(Strict):
    name: Name
    language: Literal["en", "fr", "zh"] | None = Field(
        default=None,
        description="The practice game's language: its deck, its clue rules and its "
        "lesson; by default the creator's interface language (Accept-Language), else English",
    )


class JoinRoom(Strict):
    name: Name


class ClaimIn(Strict):
    seat: Number = Field(description="The seat asked for (0..5): the player you are.")


class ClaimOut(BaseModel):
    claim: str = Field(description="The request's id, shown to the table")
    seat: int
    status: Literal["pending", "allowed", "refused", "withdrawn"]
    waits: bool = Field(
        default=False,
        description="Pending for the Spectator's seat: it moves to another device only once "
        "their clover is checked",
    )
    waiting_for: list[int] = Field(
        default_factory=list,
        description="Pending: the seats whose allow it still needs before the seat moves "
        "(its player's while they are at the table, else every other player's at the "
        "table); empty for a seat asked back, which any one of them lets back",
    )
    token: str | None = Field(
        default=None,
        description="Given once, when asking: poll the request with it, and once the "
        "status is `allowed` it is this device's seat token.",
    )


class SeatOut(BaseModel):
    code: str
    token: str
    seat: int


class WatchOut(BaseModel):
    code: str
    token: str = Field(
        description="The watcher's token: it reads the room as a watcher, sends their "
        "`say`, `sit` and `leave`, and once they sit it is their seat's token"
    )
    watcher: int = Field(description="The watcher's id, as chat lines and `watchers` name them")


class ActionRequest(Strict):
    """What every action request holds; each action's own fields come from its class."""

    type: str
    seq: Number | None = Field(
        default=None,
        description="Optional: the seq you last saw. If the room has moved on, the action "
        "is refused with 409 `stale` instead of being applied to a board you have not seen.",
    )


def _field(hint: Any, meta: typing.Mapping[str, Any], default: Any) -> tuple[Any, Any]:
    """The request field for one field of an action class."""
    required = default is dataclasses.MISSING
    if hint is bool:
        return StrictBool, ... if required else default
    if hint is int:
        return Number, ... if required else default
    if hint is str:
        return Annotated[StrictStr, Field(max_length=meta["max_length"])], ...
    if typing.get_origin(hint) is tuple:
        item = Annotated[StrictStr, Field(max_length=meta["item_length"])] | None
        return Annotated[list[item], Field(min_length=meta["items"], max_length=meta["items"])], ...
    raise TypeError(f"no request field for {hint!r}")


def request_model(cls: type[act.Action]) -> type[ActionRequest]:
    """The API's request for the action ``cls``: its type, its fields, an optional seq.
    Fields the server stamps (a deal's seed, a chat line's time) are not the client's."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {"type": (Literal[cls.type], ...)}
    for f in dataclasses.fields(cls):
        if not f.metadata.get("stamped"):
            fields[f.name] = _field(hints[f.name], f.metadata, f.default)
    model: type[ActionRequest] = create_model(
        f"{cls.__name__}In", __base__=ActionRequest, __doc__=cls.__doc__, **fields
    )
    return model


REQUESTS: dict[str, type[ActionRequest]] = {
    cls.type: request_model(cls) for cls in act.PLAYER_ACTIONS
}
"""One request model per action a player may send, by type."""

if TYPE_CHECKING:
    ActionIn = ActionRequest
else:  # the union of every action's request, told apart by their "type"
    ActionIn = Annotated[Union[tuple(REQUESTS.values())], Field(discriminator="type")]  # noqa: UP007


def to_action(body: ActionRequest) -> act.Action:
    """The engine's action for a parsed request (the service stamps seed and time)."""
    data = body.model_dump(exclude={"seq"})
    cls = act.BY_TYPE[data.pop("type")]
    values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    return cls(**values)


def form_fields(kind: str) -> list[tuple[str, Any, Any]]:
    """The fields a room page's form sends for action ``kind``: (name, type, form key)."""
    cls = act.BY_TYPE.get(kind)
    if cls is None or cls.sent_by != "player":
        return []
    hints = typing.get_type_hints(cls)
    return [
        (f.name, hints[f.name], f.metadata.get("form"))
        for f in dataclasses.fields(cls)
        if not f.metadata.get("stamped")
    ]
