"""Why the engine refuses an action.

Every refusal is a named exception with a stable snake_case ``code`` and a
message for a person. Its ``status`` is the HTTP status the web layer answers
with, so the engine decides what kind of refusal it is and the API only relays
it: 403 this seat may not do that, 409 not possible in this phase or state,
422 the action itself is malformed.
"""

from __future__ import annotations

from dataclasses import dataclass


class RuleError(ValueError):
    """An action the rules refuse. Nothing about the room changes."""

    code = "rule_error"
    status = 409
    default_message = "That is not possible now."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)

    @property
    def message(self) -> str:
        return str(self)


class Forbidden(RuleError):
    """This seat may not do that (the Spectator moving a card, a guest starting)."""

    code = "forbidden"
    status = 403
    default_message = "You may not do that."


class Conflict(RuleError):
    """Not possible in this phase or with the board as it is now."""

    code = "conflict"
    status = 409


class Invalid(RuleError):
    """The action is malformed: a bad spot, rotation, name or number."""

    code = "invalid"
    status = 422
    default_message = "That action is not well formed."


def _named(base: type[RuleError], code: str, message: str) -> type[RuleError]:
    name = "".join(part.title() for part in code.split("_"))
    return type(name, (base,), {"code": code, "default_message": message, "__doc__": message})


# 403: who may act
NotAPlayer = _named(Forbidden, "not_a_player", "Only the players of this room may do that.")
NotHost = _named(Forbidden, "not_host", "Only the host may do that.")
SpectatorCannotMove = _named(
    Forbidden, "spectator_cannot_move", "The Spectator watches in silence and cannot move cards."
)
SpectatorSilent = _named(
    Forbidden, "spectator_silent", "The Spectator cannot chat until their clover is checked."
)
NotLockHolder = _named(Forbidden, "not_lock_holder", "Only the lock holder can lock the clover in.")
NotSystem = _named(Forbidden, "not_system", "Only the server reports who is present.")
HostStays = _named(
    Forbidden, "host_stays", "The host cannot be removed: their controls come back when they do."
)

# 409: when and in what state
WrongPhase = _named(Conflict, "wrong_phase", "That is not possible in this phase of the game.")
RoomFull = _named(Conflict, "room_full", "This room already has six players.")
GameStarted = _named(Conflict, "game_started", "This game has already started.")
NotEnoughPlayers = _named(Conflict, "not_enough_players", "A game needs 3 to 6 players.")
DeckTooSmall = _named(Conflict, "deck_too_small", "The deck has too few cards for this game.")
PlayerPresent = _named(
    Conflict, "player_present", "Only a player who has left the table can be removed."
)
AlreadyDone = _named(
    Conflict, "already_done", "Your clues are marked done: take back done to edit them."
)
CluesMissing = _named(Conflict, "clues_missing", "Write a clue on all four leaves first.")
NotDone = _named(Conflict, "not_done", "Your clues are not marked done.")
UnknownCard = _named(Conflict, "unknown_card", "That card is not in this clover's pool.")
SpotTaken = _named(Conflict, "spot_taken", "That spot already holds a card.")
SpotEmpty = _named(Conflict, "spot_empty", "That spot holds no card.")
SpotLocked = _named(Conflict, "spot_locked", "That card was right and is locked on its spot.")
CardLocked = _named(Conflict, "card_locked", "That card was right and is locked on its spot.")
BoardNotFull = _named(Conflict, "board_not_full", "All four spots need a card first.")
AlreadyChecked = _named(Conflict, "already_checked", "This clover has been checked already.")
NotChecked = _named(Conflict, "not_checked", "This clover has not been checked yet.")

# 422: malformed
BadName = _named(Invalid, "bad_name", "A name is 1 to 24 visible characters.")
NameTaken = _named(Invalid, "name_taken", "Someone at this table already has that name.")
BadDecoys = _named(Invalid, "bad_decoys", "The number of decoys is 1 to 4.")
BadSpot = _named(Invalid, "bad_spot", "A spot is 0 to 3.")
BadRotation = _named(Invalid, "bad_rotation", "A rotation is 0 to 3 quarter turns.")
BadTurns = _named(Invalid, "bad_turns", "A card turns 1 (clockwise) or -1 quarter turn.")
BadSeat = _named(Invalid, "bad_seat", "There is no player in that seat.")
BadText = _named(Invalid, "bad_text", "A chat message is 1 to 300 characters of plain text.")
BadClues = _named(Invalid, "bad_clues", "Send four clues, one per leaf.")


@dataclass(frozen=True)
class ClueDetail:
    """One rejected clue: which leaf, and why."""

    leaf: int
    code: str
    message: str


class CluesRejected(Invalid):
    """At least one clue breaks the rules; none of the four is saved."""

    code = "clue_rejected"
    default_message = "A clue breaks the rules."

    def __init__(self, details: list[ClueDetail]) -> None:
        self.details = tuple(details)
        leaves = ", ".join(str(d.leaf) for d in details)
        super().__init__(f"Clue rejected on leaf {leaves}: {details[0].message}")
