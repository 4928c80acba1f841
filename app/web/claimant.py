"""Who asks for a seat, as the edge reads it: the tokens the device holds for the room,
the kind of device it is, and its address.

The rules never see a User-Agent or an address: a claim keeps the kind of device, one
of a closed set read coarsely here, and the service keeps a hash of the address. The
request a browser made is kept in a cookie of its own (its id and token), which also
tells the rules when a browser answers its own request.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import Request

from app.rules.actions import Action, Allow, Refuse
from app.web.deps import client_key, presented_token

CLAIM_COOKIE = "soclover_claim_"


def claim_cookie(code: str) -> str:
    return f"{CLAIM_COOKIE}{code}"


def claim_of(request: Request, code: str) -> tuple[str, str] | None:
    """The (claim id, token) this device asked with in ``code``, if it did."""
    value = request.cookies.get(claim_cookie(code), "")
    claim_id, _, token = value.partition(".")
    return (claim_id, token) if claim_id and token and len(value) < 100 else None


def own_claim(request: Request, code: str) -> str:
    """The id of the request this browser made in ``code`` ("" for none): it may not
    answer that one itself. Read from its cookie, which the browser sends along with
    any answer it gives, from the page or the API alike."""
    asked = claim_of(request, code)
    return "" if asked is None else asked[0]


def answering(request: Request, code: str, action: Action) -> Action:
    """``action``, an ``allow`` or ``refuse`` stamped with the request this browser made
    itself, if any: the rules refuse an answer from the browser that asked."""
    if isinstance(action, Allow | Refuse):
        return replace(action, mine=own_claim(request, code))
    return action


def device_kind(user_agent: str | None) -> str:
    """``phone``, ``tablet``, ``computer``, or "" when the browser does not say: all the
    table is told of a device asking for a seat. Coarse on purpose: an iPad that says
    it is a Mac is a computer, and nothing else of the header is kept."""
    agent = (user_agent or "")[:512].lower()
    if any(word in agent for word in ("ipad", "tablet", "kindle", "silk/", "playbook")):
        return "tablet"
    if "android" in agent and "mobile" not in agent:
        return "tablet"
    if any(word in agent for word in ("mobi", "iphone", "ipod", "android", "phone")):
        return "phone"
    if any(word in agent for word in ("windows", "macintosh", "mac os x", "x11", "linux", "cros")):
        return "computer"
    return ""


def claimant(request: Request, code: str) -> dict[str, Any]:
    """What ``ClaimDesk.claim`` is told of the device asking in ``code``: the tokens it
    holds (a seat's, from its bearer token or cookie; its earlier request's, from the
    claim cookie), its kind and its address."""
    asked = claim_of(request, code)
    return {
        "held": (presented_token(request, code), None if asked is None else asked[1]),
        "kind": device_kind(request.headers.get("user-agent")),
        "address": client_key(request),
    }
