"""Why the engine refuses an action.

Every refusal is a named exception with a stable snake_case ``code`` and a
message for a person. Its ``status`` is the HTTP status the web layer answers
with, so the engine decides what kind of refusal it is and the API only relays
it: 403 this seat may not do that, 409 not possible in this phase or state,
422 the action itself is malformed.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.text import N_, Text, Value


class RuleError(ValueError):
    """An action the rules refuse. Nothing about the room changes."""

    code = "rule_error"
    status = 409
    default_message = N_("That is not possible now.")

    def __init__(self, message: str | None = None, /, **values: Value) -> None:
        # Cheap to make: the rules make one for each refusal that ``allowed`` asks about,
        # for every seat on every change, and raise only a few.
        self._template = message or self.default_message
        self._values = values
        super().__init__(str(self.text) if values else self._template)

    @property
    def text(self) -> Text:
        """The message, to be shown in the reader's language."""
        return Text(self._template, self._values)

    @property
    def message(self) -> str:
        """The message in English; the web layer shows ``text`` in the reader's language."""
        return str(self)


Refusal = RuleError | type[RuleError]
"""What a rule's check gives when it refuses: the error, or its class when it needs no
values (``raise`` makes one). Building ``can`` asks every check for every seat on every
change, and most of them refuse: a class costs nothing to give."""


class Forbidden(RuleError):
    """This seat may not do that (the Spectator moving a card, a guest starting)."""

    code = "forbidden"
    status = 403
    default_message = N_("You may not do that.")


class Conflict(RuleError):
    """Not possible in this phase or with the board as it is now."""

    code = "conflict"
    status = 409


class Invalid(RuleError):
    """The action is malformed: a bad spot, rotation, name or number."""

    code = "invalid"
    status = 422
    default_message = N_("That action is not well formed.")


# 403: who may act
class NotAPlayer(Forbidden):
    code = "not_a_player"
    default_message = N_("Only the players of this room may do that.")


class NotHost(Forbidden):
    code = "not_host"
    default_message = N_("Only the host may do that.")


class SpectatorCannotMove(Forbidden):
    code = "spectator_cannot_move"
    default_message = N_("The Spectator watches in silence and cannot move cards.")


class SpectatorSilent(Forbidden):
    code = "spectator_silent"
    default_message = N_("The Spectator cannot chat until their clover is checked.")


class NotLockHolder(Forbidden):
    code = "not_lock_holder"
    default_message = N_("Only the lock holder can lock the clover in.")


class NotSystem(Forbidden):
    code = "not_system"
    default_message = N_("Only the server reports who is present.")


class HostStays(Forbidden):
    code = "host_stays"
    default_message = N_("The host cannot be removed: their controls come back when they do.")


class OutOfGame(Forbidden):
    code = "out_of_game"
    default_message = N_("You are out of this game: you may watch it, and play the next one.")


class WatcherCannotPlay(Forbidden):
    code = "watcher_cannot_play"
    default_message = N_(
        "You are watching this game: watchers do not play. Take a free seat in the lobby to play."
    )


class WatchersQuiet(Forbidden):
    code = "watchers_chat_off"
    default_message = N_("The host has turned the watchers' chat off.")


class WatcherSentAway(Forbidden):
    code = "sent_away"
    default_message = N_(
        "The host sent you away from this table: you may watch it again in a while."
    )


class OwnerHere(Forbidden):
    code = "owner_here"
    default_message = N_(
        "That player is at the table: only they can let another device take their seat."
    )


class OwnRequest(Forbidden):
    code = "own_request"
    default_message = N_(
        "That seat request was made from this very browser: someone else at the table answers it."
    )


class SeatHolder(Forbidden):
    code = "seat_holder"
    default_message = N_(
        "The device your seat moved from asks for it back: the others at the table answer it."
    )


class RefusedHere(Forbidden):
    code = "refused_here"
    default_message = N_(
        "The table refused a seat request from here: this address may ask again in ten minutes."
    )


class CloverElsewhere(Forbidden):
    code = "clover_elsewhere"
    default_message = N_(
        "Your seat moved to this device after your clover was dealt: it stays hidden here "
        "until the table has rebuilt it."
    )


# 409: when and in what state
class WrongPhase(Conflict):
    code = "wrong_phase"
    default_message = N_("That is not possible in this phase of the game.")


class RoomFull(Conflict):
    code = "room_full"
    default_message = N_("This room already has six players.")


class WatchersFull(Conflict):
    code = "watchers_full"
    default_message = N_("This room has as many watchers as it takes: try again later.")


class NoSuchWatcher(Conflict):
    code = "no_such_watcher"
    default_message = N_("Nobody watches this table under that id now.")


class WatchersChatBusy(RuleError):
    """The watchers together have said as much as a room takes for a few seconds."""

    code = "watchers_chat_busy"
    status = 429
    default_message = N_("The watchers' chat is busy: say it again in a few seconds.")


class AlreadySeated(Conflict):
    code = "already_seated"
    default_message = N_("You already have a seat at this table.")


class AlreadyWatching(Conflict):
    code = "already_watching"
    default_message = N_("You are already watching this table.")


class PrivateTable(RuleError):
    """A practice table is its player's alone: to anyone else its code opens nothing,
    the very answer an unknown code gets (``room_not_found``), until it is turned into a
    real room."""

    code = "room_not_found"
    status = 404
    default_message = N_("There is no room with that code. Check it with whoever invited you.")


class PracticeOver(Conflict):
    code = "practice_over"
    default_message = N_(
        "A practice game is played once: invite friends to this table, or start another practice."
    )


class NotPractice(Conflict):
    code = "not_practice"
    default_message = N_("This table is open to friends already.")


class GameStarted(Conflict):
    code = "game_started"
    default_message = N_("This game has already started.")


class NotEnoughPlayers(Conflict):
    code = "not_enough_players"
    default_message = N_("A game needs 3 to 6 players.")


class DeckTooSmall(Conflict):
    code = "deck_too_small"
    default_message = N_("The deck has too few cards for this game.")


class PlayerPresent(Conflict):
    code = "player_present"
    default_message = N_("Only a player who has left the table can be removed.")


class StandInForAway(PlayerPresent):
    default_message = N_("A bot can stand in only for a player who is away.")


class BotStandsIn(Conflict):
    code = "bot_stands_in"
    default_message = N_("A bot already plays this seat.")


class TooFewLeft(Conflict):
    code = "too_few_left"
    default_message = N_("A game goes on with two players at least: it cannot lose another.")


class AlreadyOut(Conflict):
    code = "already_out"
    default_message = N_("That player is already out of this game.")


class TooManyClaims(Conflict):
    code = "too_many_claims"
    default_message = N_("This room has too many seat requests waiting: try again in a moment.")


class TooManyClaimsHere(Conflict):
    code = "too_many_claims_here"
    default_message = N_(
        "Two seat requests from here are waiting already: wait for an answer, or take one back."
    )


class SeatAskedFor(Conflict):
    code = "seat_asked_for"
    default_message = N_(
        "Another request for this seat is waiting: the table answers it first, or it runs "
        "out within five minutes."
    )


class AlreadyAllowed(Conflict):
    code = "already_allowed"
    default_message = N_("You allowed that request already: it waits for the others.")


class SpectatorSeatWaits(Conflict):
    code = "spectator_seat_waits"
    default_message = N_(
        "The Spectator's seat cannot move to another device until their clover is checked."
    )


class ClaimGone(Conflict):
    code = "claim_gone"
    default_message = N_("That seat request is no longer waiting.")


class AlreadyDone(Conflict):
    code = "already_done"
    default_message = N_("Your clues are marked done: take back done to edit them.")


class CluesMissing(Conflict):
    code = "clues_missing"
    default_message = N_("Write a clue on all four leaves first.")


class NotDone(Conflict):
    code = "not_done"
    default_message = N_("Your clues are not marked done.")


class UnknownCard(Conflict):
    code = "unknown_card"
    default_message = N_("That card is not in this clover's pool.")


class SpotTaken(Conflict):
    code = "spot_taken"
    default_message = N_("That spot already holds a card.")


class SpotEmpty(Conflict):
    code = "spot_empty"
    default_message = N_("That spot holds no card.")


class SpotLocked(Conflict):
    code = "spot_locked"
    default_message = N_("That card was right and is locked on its spot.")


class CardLocked(Conflict):
    code = "card_locked"
    default_message = N_("That card was right and is locked on its spot.")


class BoardNotFull(Conflict):
    code = "board_not_full"
    default_message = N_("All four spots need a card first.")


class NoClock(Conflict):
    code = "no_clock"
    default_message = N_("This table plays without a clock.")


class AlreadyPaused(Conflict):
    code = "already_paused"
    default_message = N_("The clock is already paused.")


class NotPaused(Conflict):
    code = "not_paused"
    default_message = N_("The clock is not paused.")


class NotDue(Conflict):
    code = "not_due"
    default_message = N_("The clock has not run out.")


class TimeUp(Conflict):
    """Sent after an enforced clock ran out, before the server's timeout acted on it.

    The service acts on the clock first and then decides the action again, so a
    player meets this only where nothing acts on clocks."""

    code = "time_up"
    default_message = N_("Time is up: the clock acts before anything else.")


class AlreadyChecked(Conflict):
    code = "already_checked"
    default_message = N_("This clover has been checked already.")


class NotChecked(Conflict):
    code = "not_checked"
    default_message = N_("This clover has not been checked yet.")


# 422: malformed
class BadName(Invalid):
    code = "bad_name"
    default_message = N_("A name is 1 to 24 visible characters.")


class NameTaken(Invalid):
    code = "name_taken"
    default_message = N_("Someone at this table already has that name.")


class ReservedName(Invalid):
    code = "reserved_name"
    default_message = N_("That name could pass for the people who run this table: choose another.")


class BadDecoys(Invalid):
    code = "bad_decoys"
    default_message = N_("The number of decoys is 1 to 4.")


class BadSpot(Invalid):
    code = "bad_spot"
    default_message = N_("A spot is 0 to 3.")


class BadRotation(Invalid):
    code = "bad_rotation"
    default_message = N_("A rotation is 0 to 3 quarter turns.")


class BadTurns(Invalid):
    code = "bad_turns"
    default_message = N_("A card turns 1 (clockwise) or -1 quarter turn.")


class BadSeat(Invalid):
    code = "bad_seat"
    default_message = N_("There is no player in that seat.")


class BadLanguage(Invalid):
    code = "bad_language"
    default_message = N_("A room plays in English (en), French (fr) or Chinese (zh).")


class BadTimer(Invalid):
    code = "bad_timer"
    default_message = N_(
        "A timer times the clues or each try, is off, advisory or enforced, and runs 1 to 15 "
        "minutes."
    )


class BadChoice(Invalid):
    code = "bad_choice"
    default_message = N_("Claims are allowed by anyone seated or by the host only.")


class BadText(Invalid):
    code = "bad_text"
    default_message = N_("A chat message is 1 to 300 characters of plain text.")


class BadClues(Invalid):
    code = "bad_clues"
    default_message = N_("Send four clues, one per leaf.")


@dataclass(frozen=True)
class ClueDetail:
    """One rejected clue: which leaf, and why."""

    leaf: int
    code: str
    text: Text

    @property
    def message(self) -> str:
        return str(self.text)


class CluesRejected(Invalid):
    """At least one clue breaks the rules; none of the four is saved."""

    code = "clue_rejected"
    default_message = N_("A clue breaks the rules.")

    def __init__(self, details: list[ClueDetail]) -> None:
        self.details = tuple(details)
        leaves = ", ".join(str(d.leaf) for d in details)
        super().__init__(
            N_("Clue rejected on leaf {leaves}: {reason}"), leaves=leaves, reason=details[0].text
        )
