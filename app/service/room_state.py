"""What the API answers of a room, declared where the service adds to the rules' view:
the Record of Legends' rows and the room state (``views.view`` with what the service
knows besides: the room's legends and, at the end, its history). ``/openapi.json``
derives its models from these declarations (``app/web/state_schema.py``).

No ``from __future__ import annotations`` here: Python 3.11's ``TypedDict`` reads
``NotRequired`` only from annotations that are not strings.
"""

from typing import Annotated, NotRequired, TypedDict

from app.rules.view_types import ISO_TIME, Common, HistoryClover, Language, Own


class Legend(TypedDict):
    id: Annotated[int, "The legend's id"]
    room: NotRequired[
        Annotated[
            str,
            "The room's code: only in a room's own legends (and its `best`), asked for by "
            "one of its players; public legends carry no code",
        ]
    ]
    finished_at: Annotated[str, f"When the game finished: {ISO_TIME}"]
    players: Annotated[list[str], "The names of the players who finished the game"]
    player_count: Annotated[int, "How many finished it"]
    decoys: Annotated[int, "Decoys per clover, 1..4"]
    score: Annotated[int, "The game's score"]
    max: Annotated[int, "The best score its clovers could make"]
    language: Annotated[Language, "The room's language"]


class LegendsOut(TypedDict):
    legends: Annotated[
        list[Legend], "Finished games, best score first, the earliest first among equals"
    ]


class CommonState(Common):
    """``views.common`` and what the service adds to it: the same for every reader of
    one audience (``RoomService.common_view``)."""

    best: Annotated[Legend | None, "This room's best finished game, with its `room`"]
    record: Annotated[bool, "The game just finished beat every earlier one of the room"]
    legends: Annotated[
        list[Legend] | None,
        "Finished: the best public legends of tables of this size; else null",
    ]
    history: Annotated[
        list[HistoryClover] | None,
        "Finished: the game's checked clovers, as `GET .../history` gives them; else null",
    ]


class RoomState(Own, CommonState):
    """The room as the caller's seat may see it (`rules/views.py`): a seated player,
    the Spectator, a watcher, or anyone without a seat (what a guesser sees). Outside
    the phase it belongs to, a block is null."""
