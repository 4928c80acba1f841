"""Refusals that come from the room service rather than the rules."""

from __future__ import annotations

from app.rules.errors import RuleError
from app.rules.text import N_


class RoomNotFound(RuleError):
    code = "room_not_found"
    status = 404
    default_message = N_("There is no room with that code. Check it with whoever invited you.")


class NotSeated(RuleError):
    code = "not_seated"
    status = 401
    default_message = N_("You have no seat in this room: join it first.")


class ClaimNotFound(RuleError):
    code = "claim_not_found"
    status = 404
    default_message = N_("There is no such seat request here: ask for the seat again.")


class StaleAction(RuleError):
    code = "stale"
    status = 409
    default_message = N_(
        "The table has moved on since you looked: have another look and try again."
    )


class MovedOnOffline(StaleAction):
    """A move tapped while the phone was offline, sent once it is back, after the table
    went on to another step: played now it would land on another clover or try than
    the one its player saw."""

    default_message = N_(
        "Your move made offline was not sent: the table moved on meanwhile. Have another look."
    )


class RateLimited(RuleError):
    code = "rate_limited"
    status = 429
    default_message = N_("Too many tries from here; wait a minute and try again.")


class ChatTooFast(RuleError):
    code = "chat_too_fast"
    status = 429
    default_message = N_("You are sending messages too fast: wait a moment and try again.")


class TooManyStreams(RuleError):
    """One seat token holds ``stream_slots.STREAMS_PER_SEAT`` live streams already."""

    code = "too_many_streams"
    status = 429
    default_message = N_(
        "This seat is open on too many screens at once: close one of them, then try again."
    )


class DeckTooSmallForAnyGame(Exception):
    """Raised at launch: no game could ever be dealt from this deck."""


class NoBots(RuleError):
    """Bots are not installed here, or do not speak the room's language."""

    code = "bots_unavailable"
    status = 409
    default_message = N_("Bots are not installed on this server.")
