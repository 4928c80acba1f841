"""What the API tells of a room, as typed models: the state, the history, the legends,
an action's answer and the live stream's events (docs/api.md).

The models are derived from the declarations of what is answered, made where it is
made: the view in ``app.rules.view_types``, what the service adds to it and the
legends in ``app.service.room_state``, who did what in ``app.service.hub``, and the
answers' envelopes here. A field declared there is described in ``/openapi.json`` with
no second edit: its type, its description (the string of its ``Annotated``), its closed
set of values (``OneOf``), whether it is always there (``NotRequired``).

The state is served as the service builds it, never validated while serving; the
history and the legends are served through their models (their key order is the
models', the declarations'). Every model forbids keys it does not know, so the tests,
which read every answer of whole games through them, fail on a key served but not
declared.

No ``from __future__ import annotations`` here: the envelopes are ``TypedDict`` too.
"""

import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model
from pydantic.json_schema import SkipJsonSchema

from app.rules import actions as act
from app.rules import state as rules
from app.rules import view_types as declared
from app.rules.view_types import OneOf
from app.service import room_state as served
from app.service.hub import EventAction as Happened


def closed(values: tuple[Any, ...]) -> Any:
    """The ``Literal`` of a closed set of the rules, for the document to list."""
    return Literal.__getitem__(values)


# The closed sets, each the rules' own (tests/web/test_state_schema.py holds them to it).
Language = closed(rules.LANGUAGES)
"""A room's language: its deck and its clue rules (``app.rules.state.LANGUAGES``)."""
Phase = rules.Phase
TimerMode = closed(rules.TIMER_MODES)
Device = closed(rules.DEVICE_KINDS)
ActionType = closed(tuple(sorted(act.BY_TYPE)))
"""Every action the log holds: the players' and the server's own (``app.rules.actions``)."""


class ExactModel(BaseModel):
    """A part of an answer: every key it may hold is declared, and no other is read."""

    model_config = ConfigDict(extra="forbid")


# --- from declarations to models ---------------------------------------------------------

MODELS: dict[str, type[ExactModel]] = {}
"""Every model derived, by name: the name of its declaration, its name in the document."""
_DECLARATIONS: dict[str, type] = {}


def model_of(declaration: type, name: str | None = None) -> type[ExactModel]:
    """The model of a ``TypedDict``: a field for each of its keys, in its order, and
    a model for each ``TypedDict`` it holds (named as they are)."""
    name = name or declaration.__name__
    if name in MODELS:
        assert _DECLARATIONS[name] is declaration, f"two declarations named {name}"
        return MODELS[name]
    hints = typing.get_type_hints(declaration, include_extras=True)
    required: frozenset[str] = declaration.__required_keys__  # type: ignore[attr-defined]
    fields = {key: _field(hint, key in required) for key, hint in hints.items()}
    model: type[ExactModel] = create_model(  # type: ignore[call-overload]
        name, __base__=ExactModel, __module__=__name__, __doc__=declaration.__doc__, **fields
    )
    MODELS[name] = model
    _DECLARATIONS[name] = declaration
    return model


def _field(hint: Any, required: bool) -> tuple[Any, Any]:
    """A model's field for one key: its type, and its description."""
    if typing.get_origin(hint) is NotRequired:
        hint = typing.get_args(hint)[0]
    meta: tuple[Any, ...] = ()
    if typing.get_origin(hint) is Annotated:
        hint, meta = hint.__origin__, hint.__metadata__
    description = next((m for m in meta if isinstance(m, str)), None)
    assert description, f"a key without its description: {hint!r}"
    kind = _typed(hint, next((m for m in meta if isinstance(m, OneOf)), None))
    if required:
        return kind, Field(description=description)
    if type(None) in typing.get_args(kind):
        return kind, Field(default=None, description=description)
    # There only at times, and never null when it is: the schema says ``X``, not required.
    sometimes = kind | SkipJsonSchema[None]  # type: ignore[misc]
    return sometimes, Field(default=None, description=description, json_schema_extra=_no_default)


def _typed(hint: Any, one_of: OneOf | None = None) -> Any:
    """``hint`` for pydantic: each ``TypedDict`` its model, each ``OneOf`` its ``Literal``."""
    origin = typing.get_origin(hint)
    if origin is Annotated:
        found = next((m for m in hint.__metadata__ if isinstance(m, OneOf)), one_of)
        return _typed(hint.__origin__, found)
    if typing.is_typeddict(hint):
        return model_of(hint)
    if origin is list:
        return list[_typed(typing.get_args(hint)[0], one_of)]  # type: ignore[misc]
    if origin in (typing.Union, types.UnionType):
        return typing.Union[tuple(_typed(arg, one_of) for arg in typing.get_args(hint))]  # noqa: UP007
    if one_of is not None and hint in (str, int):
        return closed(one_of.values)
    return hint


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


# --- the answers' envelopes ----------------------------------------------------------------


class _ActionOut(TypedDict):
    seq: Annotated[int, "The room's seq after the action, already on disk"]
    state: Annotated[
        served.RoomState,
        "The new state for the caller; its `chat` holds the lines the action added",
    ]


class _StateEvent(TypedDict):
    """The data of a `state` event (its SSE `id` is its `seq`)."""

    seq: Annotated[int, "The room's seq after the change"]
    action: Annotated[
        Happened | None, "Who did what; null for a stream's first event (the current state)"
    ]
    state: Annotated[
        served.RoomState,
        "The state for the receiving seat, as `GET` would answer; its `chat` is the whole "
        "recent chat in the first event, then the lines each change added",
    ]


class _MovedEvent(TypedDict):
    """The data of a `moved` event, `{}`: the stream's last, its seat moved to another
    device and its token no longer works."""


if TYPE_CHECKING:  # to the type checker, models like any other; their fields are derived

    class RoomState(ExactModel): ...

    class HistoryOut(ExactModel): ...

    class LegendsOut(ExactModel): ...

    class ActionOut(ExactModel): ...

    class StateEvent(ExactModel): ...

    class MovedEvent(ExactModel): ...

else:
    RoomState = model_of(served.RoomState)
    HistoryOut = model_of(declared.HistoryOut)
    LegendsOut = model_of(served.LegendsOut)
    ActionOut = model_of(_ActionOut, "ActionOut")
    StateEvent = model_of(_StateEvent, "StateEvent")
    MovedEvent = model_of(_MovedEvent, "MovedEvent")
    # Every model under its own name, as the document names it.
    globals().update(MODELS)


# --- the event stream ------------------------------------------------------------------


def _stream_schema() -> dict[str, Any]:
    """Each event's data, as JSON Schema for the API's document: the room state by
    reference to its components (``GET /api/rooms/{code}`` puts it there), the rest
    written out in place, so the stream's route needs no component of its own."""
    ref = "#/components/schemas/{model}"
    schema = TypeAdapter(StateEvent | MovedEvent).json_schema(
        mode="serialization", ref_template=ref
    )
    defs: dict[str, Any] = schema.pop("$defs")
    listed = {"RoomState", *RoomState.model_json_schema(mode="serialization")["$defs"]}

    def inlined(node: Any) -> Any:
        if isinstance(node, list):
            return [inlined(item) for item in node]
        if not isinstance(node, dict):
            return node
        name = node.get("$ref", "").removeprefix(ref.format(model=""))
        if name and name not in listed:
            return inlined(defs[name])
        # No null default: FastAPI leaves nulls out of the document it writes.
        return {
            key: inlined(value)
            for key, value in node.items()
            if not (key == "default" and value is None)
        }

    return {
        "description": "The data of each event, as JSON: a `state` event's is a "
        "`StateEvent`, a `moved` event's a `MovedEvent` (`{}`)",
        "type": "object",
        **inlined(schema),
    }


STREAM_SCHEMA = _stream_schema()
"""``GET /api/rooms/{code}/events``: its events' data (``text/event-stream``)."""
